package org.dpgauss.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FFM vendor-library search (issue 17): its order, and its failure path on a machine without the CUDA 13
 * libraries, through the multi-release jar's Java 22+ section (a directory of classes is not multi-release, so
 * the test packs target/classes into a multi-release jar and loads it in its own class loader).
 */
class FfmLibrariesTest {

    @Test
    void searchOrderIsExplicitDirectoryVenvToolkitSystemPath() {
        List<LibrarySearch.Place> places = LibrarySearch.places();
        String labels = places.stream().map(LibrarySearch.Place::label).reduce((a, b) -> a + " > " + b).orElse("");
        int explicit = labels.indexOf("DPGAUSS_CUDA_LIBDIR") >= 0 ? labels.indexOf("DPGAUSS_CUDA_LIBDIR")
                : labels.indexOf(LibrarySearch.LIBDIR_PROPERTY);
        int venv = labels.indexOf("venv nvidia/cu13/lib");
        int toolkit = labels.indexOf("CUDA toolkit");
        int system = labels.indexOf("system path");
        assertTrue(explicit >= 0 && explicit < venv && venv < toolkit && toolkit < system, labels);
        assertTrue(places.get(places.size() - 1).systemPath(), labels);
        assertTrue(LibrarySearch.describe().contains(LibrarySearch.TOOLKIT_DIR), LibrarySearch.describe());
    }

    @Test
    void propertyNamesTheDirectoryFirst(@TempDir Path dir) {
        System.setProperty(LibrarySearch.LIBDIR_PROPERTY, dir.toString());
        try {
            LibrarySearch.Place first = LibrarySearch.places().get(0);
            assertEquals(dir, first.dir());
            assertTrue(first.label().contains(LibrarySearch.LIBDIR_PROPERTY), first.label());
        } finally {
            System.clearProperty(LibrarySearch.LIBDIR_PROPERTY);
        }
    }

    @Test
    void venvLayoutIsFoundUnderEveryPython(@TempDir Path venv) throws IOException {
        Files.createDirectories(venv.resolve("lib/python3.12/site-packages"));
        assertEquals(List.of(venv.resolve("lib/python3.12/site-packages/nvidia/cu13/lib")),
                LibrarySearch.sitePackagesLibs(venv));
    }

    @Test
    void java17RuntimeSaysWhyAndWhereItWouldSearch() {
        assumeTrue(Runtime.version().feature() < 22 || !VendorLibraries.ffmSection(), "the classes dir is Java 17 code");
        String r = VendorLibraries.report();
        assertTrue(r.contains("Java 22+") && r.contains("DPGAUSS_CUDA_LIBDIR") && r.contains("system path"), r);
    }

    /** On Java 22+: the multi-release section loads, and a library that is not there is reported with every place. */
    @Test
    void ffmFailurePathNamesEveryPlaceAndTheLinkersOwnError(@TempDir Path tmp) throws Exception {
        Path classes = Path.of("target/classes");
        Path jar = multiReleaseJar(tmp);
        // a directory with a file named like the library that is not a library: the linker's own error must show
        Path fake = Files.createDirectories(tmp.resolve("fake-libdir"));
        Files.writeString(fake.resolve("libcublas.so.13"), "not an ELF file");
        URL jcuda = jcuda.driver.JCudaDriver.class.getProtectionDomain().getCodeSource().getLocation();
        System.setProperty(LibrarySearch.LIBDIR_PROPERTY, fake.toString());
        try (URLClassLoader cl = new URLClassLoader(new URL[] {jar.toUri().toURL(), jcuda},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> v = cl.loadClass("org.dpgauss.kernels.VendorLibraries");
            assertTrue((Boolean) v.getMethod("ffmSection").invoke(null), "the Java 22 section is in use");
            String report = (String) v.getMethod("report").invoke(null);
            System.out.println(report);
            String blas = report.lines().filter(l -> l.contains("libcublas.so.13")).reduce("", String::concat);
            String solver = report.lines().filter(l -> l.contains("libcusolver.so.12")).reduce("", String::concat);
            // step 1 was passed over with the linker's error about the fake file, whatever happens later
            assertTrue(blas.contains(fake.resolve("libcublas.so.13").toString()), blas);
            assertTrue(blas.matches(".*(too short|invalid ELF header|not an ELF).*"), "the dlopen error: " + blas);
            assertTrue(solver.contains(fake + ": no libcusolver.so.12 there"), solver);
            if (blas.contains("did not load")) { // this machine has no CUDA 13 libraries: every place is named
                for (String place : new String[] {LibrarySearch.LIBDIR_PROPERTY, "venv nvidia/cu13/lib", "CUDA toolkit",
                    "system path", "Set DPGAUSS_CUDA_LIBDIR", "cannot open shared object file"}) {
                    assertTrue(blas.contains(place), place + " in: " + blas);
                }
            } else {
                assertTrue(blas.contains("passed over: 1."), blas);
            }
        } finally {
            System.clearProperty(LibrarySearch.LIBDIR_PROPERTY);
        }
        assertFalse(Files.exists(classes.resolve("kernels-mr.jar")));
    }

    /**
     * On Java 22+: a status other than success becomes a CudaFailure that names the routine and the status and says
     * what to do; success passes.
     */
    @Test
    void ffmStatusCodesBecomeActionableFailures(@TempDir Path tmp) throws Exception {
        Path jar = multiReleaseJar(tmp);
        URL jcuda = jcuda.driver.JCudaDriver.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader cl = new URLClassLoader(new URL[] {jar.toUri().toURL(), jcuda},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> c = cl.loadClass("org.dpgauss.kernels.FfmCalls");
            java.lang.reflect.Constructor<?> k = c.getDeclaredConstructor(String.class, java.util.function.IntFunction.class);
            k.setAccessible(true);
            Object calls = k.newInstance("cuBLAS", (java.util.function.IntFunction<String>) s -> s == 13
                    ? "CUBLAS_STATUS_EXECUTION_FAILED" : "CUBLAS_STATUS_" + s);
            java.lang.reflect.Method check = c.getDeclaredMethod("check", String.class, int.class);
            check.setAccessible(true);
            check.invoke(calls, "cublasDgemm", 0);
            java.lang.reflect.InvocationTargetException e = org.junit.jupiter.api.Assertions.assertThrows(
                    java.lang.reflect.InvocationTargetException.class, () -> check.invoke(calls, "cublasDgemm", 13));
            Throwable failure = e.getCause();
            assertEquals("org.dpgauss.kernels.CudaFailure", failure.getClass().getName());
            assertEquals("cublasDgemm returned CUBLAS_STATUS_EXECUTION_FAILED (13); use --engine cpu if it persists",
                    failure.getMessage());
            assertEquals("CUBLAS_STATUS_EXECUTION_FAILED", failure.getClass().getMethod("status").invoke(failure));
        }
    }

    /** target/classes packed as a multi-release jar (a directory of classes is not multi-release); Java 22+ only. */
    static Path multiReleaseJar(Path tmp) throws IOException {
        assumeTrue(Runtime.version().feature() >= 22, "the FFM section needs a Java 22+ runtime (this is "
                + Runtime.version() + "); build and test with JAVA_HOME on a JDK 25 to run it");
        Path classes = Path.of("target/classes");
        assumeTrue(Files.exists(classes.resolve("META-INF/versions/22/org/dpgauss/kernels/FfmLibraries.class")),
                "target/classes has no Java 22 section (built on a JDK < 22)");
        Path jar = tmp.resolve("kernels-mr.jar");
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(new Attributes.Name("Multi-Release"), "true");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), mf);
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                try (OutputStream ignored = null) {
                    Files.copy(f, out);
                }
                out.closeEntry();
            }
        }
        return jar;
    }
}
