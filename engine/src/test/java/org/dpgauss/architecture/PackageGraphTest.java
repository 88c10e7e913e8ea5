package org.dpgauss.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The library's package graph (this artifact and dpgauss-cpu-fallback, the classes on this module's class path) is a
 * DAG in the layers of {@link PackageGraph}; the library names no class of the command line, the GPU backend, the
 * kernels or the benchmarks; its public API exposes no internal package (docs/design/api-surface.md). The command
 * line's tests run the same rules over every module but the benchmarks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PackageGraphTest {

    private JavaClasses classes;

    @BeforeAll
    void importClasses() {
        classes = PackageGraph.mainClasses();
        // the import saw the library: a wrong class path would make every rule below pass vacuously
        assertTrue(classes.contain("org.dpgauss.release.PrivateMechanism") && classes.contain("org.dpgauss.cpu.Cholesky"),
                "library and primitives imported");
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
        assertEquals(java.util.Set.of(), PackageGraph.unlayeredPackages(classes),
                "place each new package in a layer of PackageGraph and in docs/design/package-graph.md");
    }

    @Test
    void theLibraryNamesNoClassOfTheModulesAboveIt() {
        noClasses().that().resideOutsideOfPackages("org.dpgauss.gpu..", "org.dpgauss.cli..", "org.dpgauss.bench..")
                .should().dependOnClassesThat().resideInAnyPackage("org.dpgauss.gpu..", "org.dpgauss.cli..",
                        "org.dpgauss.bench..", "org.dpgauss.kernels..", "jcuda..", "picocli..", "com.fasterxml.jackson..")
                .check(classes);
    }

    @Test
    void thePublicApiExposesNoInternalPackage() {
        List<String> leaks = PackageGraph.apiLeaks(classes);
        assertEquals(List.of(), leaks, "public signatures that name internal types (docs/design/api-surface.md)");
    }

    @Test
    void everyInternalPackageSaysSoInItsPackageInfo() throws IOException {
        Path root = Path.of(System.getProperty("user.dir")).getParent();
        for (String pkg : PackageGraph.INTERNAL) {
            String rel = "src/main/java/" + pkg.replace('.', '/') + "/package-info.java";
            Path found = null;
            for (String module : new String[] {"engine", "cpu-fallback", "kernels"}) {
                if (Files.exists(root.resolve(module).resolve(rel))) {
                    found = root.resolve(module).resolve(rel);
                }
            }
            assertTrue(found != null, () -> pkg + " has no package-info.java");
            String text = Files.readString(found, StandardCharsets.UTF_8);
            assertTrue(text.contains("<b>Internal</b>"), () -> pkg + "'s package-info does not mark it internal");
        }
    }
}
