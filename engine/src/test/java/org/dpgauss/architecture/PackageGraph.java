package org.dpgauss.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The package graph's rules (docs/design/package-graph.md, docs/design/api-surface.md), shared by the engine's
 * tests (the library and its CPU primitives) and the command line's tests (every module but the benchmarks).
 *
 * <p>Layers, top to bottom; a layer may use the layers below it and its own, never one above:
 * <pre>
 *   Cli          org.dpgauss.cli                      (artifact dpgauss-cli)
 *   Gpu          org.dpgauss.gpu                      (artifact dpgauss-gpu, found by the library at run time)
 *   Planner      org.dpgauss.plan
 *   Mechanisms   mean, mean.anisotropic, sampling, sampling.stable, secondmoment, projection, mechanism, learn,
 *                covariance
 *   Contract     release, ledger, privacy.accounting, privacy.noise
 *   Analysis     ndis, calibration, gx2
 *   Foundations  privacy, special, engine, io
 *   Kernels      org.dpgauss.kernels                  (used by Gpu only)
 *   Primitives   cpu, cpu.openblas, linalg, random, progress   (artifact dpgauss-cpu-fallback)
 * </pre>
 * and no two packages depend on each other, directly or through others (a DAG).
 */
public final class PackageGraph {

    /** Packages that are not the library's API (docs/design/api-surface.md); each says so in its package-info. */
    public static final List<String> INTERNAL = List.of("org.dpgauss.special", "org.dpgauss.privacy.noise",
            "org.dpgauss.cpu", "org.dpgauss.cpu.openblas", "org.dpgauss.kernels");

    /** Every layer's packages, top to bottom (the names of {@link #layers()}). */
    static final String[][] LAYERS = {
        {"Cli", "org.dpgauss.cli.."},
        {"Gpu", "org.dpgauss.gpu.."},
        {"Planner", "org.dpgauss.plan.."},
        {"Mechanisms", "org.dpgauss.mean..", "org.dpgauss.sampling..", "org.dpgauss.secondmoment..",
            "org.dpgauss.projection..", "org.dpgauss.mechanism..", "org.dpgauss.learn..",
            "org.dpgauss.covariance.."},
        {"Contract", "org.dpgauss.release..", "org.dpgauss.rows..", "org.dpgauss.privacy.accounting..",
            "org.dpgauss.ledger..",
            "org.dpgauss.privacy.noise.."},
        {"Analysis", "org.dpgauss.ndis..", "org.dpgauss.calibration..", "org.dpgauss.gx2.."},
        {"Foundations", "org.dpgauss.privacy", "org.dpgauss.special..", "org.dpgauss.engine..", "org.dpgauss.io.."},
        {"Kernels", "org.dpgauss.kernels.."},
        {"Primitives", "org.dpgauss.cpu..", "org.dpgauss.linalg..", "org.dpgauss.random..", "org.dpgauss.progress.."},
    };

    private PackageGraph() {
    }

    /** The main (not test) classes of every {@code org.dpgauss} package on the class path. */
    public static JavaClasses mainClasses() {
        ImportOption mainOnly = location -> !location.contains("/test-classes/") && !location.contains("-tests.jar");
        return new ClassFileImporter().withImportOption(mainOnly).importPackages("org.dpgauss");
    }

    /** No package cycle among the {@code org.dpgauss} packages (each package its own slice). */
    public static ArchRule noPackageCycles() {
        return slices().matching("org.dpgauss.(**)").should().beFreeOfCycles();
    }

    /** The layers above: each layer uses only layers below it (Kernels: only Gpu). */
    public static ArchRule layers() {
        // optional layers: the engine's class path has no Cli, Gpu or Kernels classes (their rules still apply to references)
        var arch = layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(true);
        for (String[] l : LAYERS) {
            arch = arch.layer(l[0]).definedBy(java.util.Arrays.copyOfRange(l, 1, l.length));
        }
        return arch
                .whereLayer("Cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("Gpu").mayOnlyBeAccessedByLayers("Cli")
                .whereLayer("Planner").mayOnlyBeAccessedByLayers("Cli")
                .whereLayer("Mechanisms").mayOnlyBeAccessedByLayers("Planner", "Cli")
                .whereLayer("Contract").mayOnlyBeAccessedByLayers("Mechanisms", "Planner", "Cli", "Gpu")
                .whereLayer("Analysis").mayOnlyBeAccessedByLayers("Contract", "Mechanisms", "Planner", "Cli", "Gpu")
                .whereLayer("Foundations").mayOnlyBeAccessedByLayers("Analysis", "Contract", "Mechanisms", "Planner",
                        "Cli", "Gpu")
                .whereLayer("Kernels").mayOnlyBeAccessedByLayers("Gpu")
                .whereLayer("Primitives").mayOnlyBeAccessedByLayers("Foundations", "Analysis", "Contract", "Mechanisms",
                        "Planner", "Cli", "Gpu", "Kernels");
    }

    /** Packages of {@code classes} that no layer claims (a new package must be placed in a layer). */
    public static Set<String> unlayeredPackages(JavaClasses classes) {
        Set<String> out = new TreeSet<>();
        for (JavaClass c : classes) {
            if (layerOf(c.getPackageName()) == null) {
                out.add(c.getPackageName());
            }
        }
        return out;
    }

    /** The layer of a package, or null. */
    static String layerOf(String pkg) {
        for (String[] l : LAYERS) {
            for (int i = 1; i < l.length; i++) {
                String p = l[i];
                boolean sub = p.endsWith("..");
                String base = sub ? p.substring(0, p.length() - 2) : p;
                if (pkg.equals(base) || sub && pkg.startsWith(base + ".")) {
                    return l[0];
                }
            }
        }
        return null;
    }

    /** True for a package listed in {@link #INTERNAL}. */
    public static boolean isInternal(String pkg) {
        return INTERNAL.contains(pkg);
    }

    /**
     * Every place where the public API of an exported package names an internal type: a public class's superclass,
     * interfaces, and the types (with their type arguments) of its public or protected fields, methods, constructors
     * and throws clauses. Empty when the API is closed.
     */
    public static List<String> apiLeaks(JavaClasses classes) {
        List<String> leaks = new ArrayList<>();
        for (JavaClass c : classes) {
            if (isInternal(c.getPackageName()) || !visibleOutside(c)) {
                continue;
            }
            Set<JavaClass> types = new LinkedHashSet<>();
            c.getRawSuperclass().ifPresent(types::add);
            types.addAll(c.getRawInterfaces());
            report(leaks, c.getName() + " extends/implements", types);
            for (JavaMember m : c.getMembers()) {
                if (!(m.getModifiers().contains(JavaModifier.PUBLIC)
                        || m.getModifiers().contains(JavaModifier.PROTECTED) && !c.getModifiers().contains(JavaModifier.FINAL))) {
                    continue;
                }
                Set<JavaClass> t = new LinkedHashSet<>();
                if (m instanceof JavaField) {
                    t.addAll(((JavaField) m).getType().getAllInvolvedRawTypes());
                } else if (m instanceof JavaCodeUnit) {
                    JavaCodeUnit u = (JavaCodeUnit) m;
                    t.addAll(u.getReturnType().getAllInvolvedRawTypes());
                    u.getParameterTypes().forEach(p -> t.addAll(p.getAllInvolvedRawTypes()));
                    t.addAll(u.getThrowsClause().getTypes());
                }
                report(leaks, c.getName() + "." + m.getName(), t);
            }
        }
        return leaks;
    }

    private static void report(List<String> leaks, String where, Set<JavaClass> types) {
        for (JavaClass t : types) {
            JavaClass base = t.isArray() ? t.getBaseComponentType() : t;
            if (isInternal(base.getPackageName())) {
                leaks.add(where + " exposes " + base.getName());
            }
        }
    }

    /** A public class all of whose enclosing classes are public too. */
    private static boolean visibleOutside(JavaClass c) {
        for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
            if (!k.getModifiers().contains(JavaModifier.PUBLIC)) {
                return false;
            }
        }
        return !c.isAnonymousClass() && !c.isLocalClass();
    }
}
