package org.dpgauss.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FFM bindings' handle lifecycle and symbol binding against fake CUDA 13 libraries compiled here with gcc
 * ({@code fake_cuda_libs.c}; issue 28 item 7): the legacy cuBLAS names are never bound, and a handle created before
 * a failing GetVersion / SetStream is destroyed. Needs a Java 22+ runtime (the FFM section) and gcc; skipped otherwise.
 */
class FfmHandleLifecycleTest {

    @TempDir
    Path tmp;

    /** With only the legacy names (cublasDgemm, ...) exported, open refuses the library and creates no handle. */
    @Test
    void legacyCublasNamesAreNeverBound() throws Exception {
        Path dir = fake("libcublas.so.13", "-DCUBLAS", "-DLEGACY_ONLY");
        Throwable f = assertThrows(InvocationTargetException.class, () -> open("FfmBlas", dir)).getCause();
        assertEquals("org.dpgauss.kernels.CudaFailure", f.getClass().getName(), String.valueOf(f));
        assertEquals("DPGAUSS_NO_SYMBOL", status(f));
        assertTrue(f.getMessage().contains("has no symbol cublasDgemm_v2"), f.getMessage());
        assertEquals(List.of(), log(dir), "no handle may be created before every routine is resolved");
    }

    @Test
    void cublasHandleIsDestroyedWhenGetVersionFails() throws Exception {
        Path dir = fake("libcublas.so.13", "-DCUBLAS");
        Files.writeString(dir.resolve("mode"), "cublasGetVersion_v2 14");
        Throwable f = assertThrows(InvocationTargetException.class, () -> open("FfmBlas", dir)).getCause();
        assertEquals("CUBLAS_STATUS_INTERNAL_ERROR", status(f));
        assertEquals(List.of("create", "destroy"), log(dir));
    }

    @Test
    void cublasHandleIsDestroyedWhenSetStreamFails() throws Exception {
        Path dir = fake("libcublas.so.13", "-DCUBLAS");
        Files.writeString(dir.resolve("mode"), "cublasSetStream_v2 7");
        Throwable f = assertThrows(InvocationTargetException.class, () -> open("FfmBlas", dir)).getCause();
        assertEquals("CUBLAS_STATUS_INVALID_VALUE", status(f));
        assertTrue(f.getMessage().startsWith("cublasSetStream_v2 returned CUBLAS_STATUS_INVALID_VALUE (7)"), f.getMessage());
        assertEquals(List.of("create", "destroy"), log(dir));
    }

    @Test
    void cusolverHandleIsDestroyedWhenSetStreamFails() throws Exception {
        Path dir = fake("libcusolver.so.12", "-DCUSOLVER");
        Files.writeString(dir.resolve("mode"), "cusolverDnSetStream 5");
        Throwable f = assertThrows(InvocationTargetException.class, () -> open("FfmSolver", dir)).getCause();
        assertEquals("CUSOLVER_STATUS_MAPPING_ERROR", status(f));
        assertEquals(List.of("create", "destroy"), log(dir));
    }

    /** The success path: one handle, destroyed by close; the detail names the file and the version. */
    @Test
    void openAndCloseCreateAndDestroyOneHandle() throws Exception {
        Path dir = fake("libcublas.so.13", "-DCUBLAS");
        Object blas = open("FfmBlas", dir);
        String detail = (String) method(blas.getClass(), "detail").invoke(blas);
        assertTrue(detail.contains(dir.resolve("libcublas.so.13").toString()) && detail.contains("cuBLAS version 130101"),
                detail);
        assertEquals(List.of("create"), log(dir));
        method(blas.getClass(), "close").invoke(blas);
        assertEquals(List.of("create", "destroy"), log(dir));
    }

    /** gcc builds fake_cuda_libs.c as {@code dir/soname}; its mode and log files live in dir. */
    private Path fake(String soname, String... defines) throws Exception {
        assumeTrue(Runtime.version().feature() >= 22, "the FFM section needs a Java 22+ runtime");
        Path dir = Files.createDirectories(tmp.resolve("lib-" + soname));
        Path src = dir.resolve("fake_cuda_libs.c");
        try (InputStream in = FfmHandleLifecycleTest.class.getResourceAsStream("fake_cuda_libs.c")) {
            Files.copy(in, src);
        }
        List<String> cmd = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-o", dir.resolve(soname).toString(),
                "-DMODE_FILE=\"" + dir.resolve("mode") + "\"", "-DLOG_FILE=\"" + dir.resolve("log") + "\""));
        cmd.addAll(List.of(defines));
        cmd.add(src.toString());
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no gcc: " + e.getMessage());
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "gcc: " + out);
        return dir;
    }

    /** {@code FfmBlas.open(stream)} / {@code FfmSolver.open(stream)} of the multi-release jar, searching dir first. */
    private Object open(String binding, Path dir) throws Exception {
        Path jar = FfmLibrariesTest.multiReleaseJar(Files.createDirectories(tmp.resolve("jar-" + System.nanoTime())));
        URL jcuda = jcuda.driver.JCudaDriver.class.getProtectionDomain().getCodeSource().getLocation();
        System.setProperty(LibrarySearch.LIBDIR_PROPERTY, dir.toString());
        try (URLClassLoader cl = new URLClassLoader(new URL[] {jar.toUri().toURL(), jcuda},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> stream = cl.loadClass("jcuda.driver.CUstream");
            Constructor<?> k = cl.loadClass("org.dpgauss.kernels.Handles$Stream").getDeclaredConstructor();
            k.setAccessible(true);
            Method open = cl.loadClass("org.dpgauss.kernels." + binding).getDeclaredMethod("open", stream);
            open.setAccessible(true);
            return open.invoke(null, k.newInstance());
        } finally {
            System.clearProperty(LibrarySearch.LIBDIR_PROPERTY);
        }
    }

    private static Method method(Class<?> c, String name) throws NoSuchMethodException {
        Method m = c.getDeclaredMethod(name);
        m.setAccessible(true);
        return m;
    }

    private static String status(Throwable f) throws Exception {
        return (String) f.getClass().getMethod("status").invoke(f);
    }

    private static List<String> log(Path dir) throws IOException {
        Path log = dir.resolve("log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }
}
