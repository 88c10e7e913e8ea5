package org.dpgauss.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.List;
import java.util.Set;
import org.dpgauss.architecture.PackageGraph;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The whole package graph but the benchmarks (this module's class path: the command line, the GPU backend, the
 * kernels, the library and the CPU primitives) is a DAG in the layers of {@link PackageGraph}, and the command line
 * uses only the library's exported packages (docs/design/api-surface.md).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PackageGraphTest {

    private JavaClasses classes;

    @BeforeAll
    void importClasses() {
        classes = PackageGraph.mainClasses();
        assertTrue(classes.contain("org.dpgauss.cli.Main") && classes.contain("org.dpgauss.gpu.GpuEngine")
                && classes.contain("org.dpgauss.kernels.CudaProbe") && classes.contain("org.dpgauss.release.PrivateMechanism"),
                "every module imported");
    }

    @Test
    void noPackageCycle() {
        PackageGraph.noPackageCycles().check(classes);
    }

    @Test
    void everyPackageUsesOnlyTheLayersBelowIt() {
        PackageGraph.layers().check(classes);
    }

    @Test
    void everyPackageIsInALayer() {
        assertEquals(Set.of(), PackageGraph.unlayeredPackages(classes));
    }

    @Test
    void theCommandLineUsesOnlyExportedPackages() {
        noClasses().that().resideInAPackage("org.dpgauss.cli..")
                .should().dependOnClassesThat().resideInAnyPackage(PackageGraph.INTERNAL.toArray(new String[0]))
                .check(classes);
    }

    @Test
    void noPublicSignatureExposesAnInternalPackage() {
        assertEquals(List.of(), PackageGraph.apiLeaks(classes));
    }
}
