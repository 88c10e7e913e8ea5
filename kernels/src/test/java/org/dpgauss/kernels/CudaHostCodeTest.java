package org.dpgauss.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The host-side parts of the CUDA backend that run without a GPU: sources, pool sizing, status handling, probe. */
class CudaHostCodeTest {

    @Test
    void everyLoadedKernelIsDefinedInItsSource() throws IOException {
        for (String[] m : CudaDevice.MODULES) {
            Path cu = Path.of("src/main/cuda", m[0] + ".cu");
            assertTrue(Files.exists(cu), "source of module " + m[0]);
            String src = Files.readString(cu);
            for (int k = 1; k < m.length; k++) {
                assertTrue(src.contains("extern \"C\" __global__ void " + m[k] + "("), m[k] + " in " + cu);
            }
        }
    }

    @Test
    void everyKernelTheHostLaunchesIsLoaded() throws IOException {
        // a name launched but not in MODULES would be a null CUfunction at run time, on the GPU only
        java.util.Set<String> loaded = new java.util.HashSet<>();
        for (String[] m : CudaDevice.MODULES) {
            loaded.addAll(java.util.Arrays.asList(m).subList(1, m.length));
        }
        String host = Files.readString(Path.of("src/main/java/org/dpgauss/kernels/CudaDevice.java"));
        java.util.regex.Matcher k = java.util.regex.Pattern.compile("\"(dp_[a-z0-9_]+)\"").matcher(host);
        int seen = 0;
        while (k.find()) {
            assertTrue(loaded.contains(k.group(1)), k.group(1) + " is launched but not loaded");
            seen++;
        }
        assertTrue(seen >= 2 * loaded.size(), "every kernel is both declared and launched: " + seen);
    }

    /** The eight fatbins the build writes, named by hand (one per .cu file), not read from CudaDevice.MODULES. */
    private static final java.util.List<String> FATBINS = java.util.List.of("weighted_gram", "whitening",
            "mahalanobis_norms", "reference_distances", "neighbour_counts", "gaussian_projection",
            "largest_good_subset_peeling", "counter_rng");

    @Test
    void kernelsArePresentOnlyWhenEveryFatbinIs() {
        java.util.Set<String> all = new java.util.HashSet<>();
        for (String f : FATBINS) {
            all.add("/org/dpgauss/kernels/" + f + ".fatbin");
        }
        assertTrue(CudaProbe.kernelsPresent(all::contains));
        assertFalse(CudaProbe.kernelsPresent(r -> false));
        for (String missing : all) { // first, middle and last module each decide
            assertFalse(CudaProbe.kernelsPresent(r -> all.contains(r) && !r.equals(missing)), "without " + missing);
        }
        // and the real check reads the jar's resources: present exactly when the eight files are on the classpath
        boolean onClasspath = FATBINS.stream()
                .allMatch(f -> CudaHostCodeTest.class.getResource("/org/dpgauss/kernels/" + f + ".fatbin") != null);
        assertEquals(onClasspath, CudaProbe.kernelsPresent());
    }

    @Test
    void poolSizeClassesCoverTheRequestAndAreCoarse() {
        long previous = 0;
        for (long bytes : new long[] {1, 255, 256, 257, 4000, 1 << 20, (1 << 20) + 1, 3_000_000, 800_000_000L}) {
            long c = DevicePool.sizeClass(bytes);
            assertTrue(c >= bytes, "class " + c + " holds " + bytes);
            assertTrue(c >= previous, "monotone");
            if (c < (1 << 20)) {
                assertEquals(Long.bitCount(c), 1, "power of two below 1 MiB: " + c);
            } else {
                assertEquals(0, c % (1 << 20), "whole MiB above: " + c);
                assertTrue(c - bytes < (1 << 20), "less than 1 MiB of slack");
            }
            previous = c;
        }
    }

    @Test
    void statusesAreParsedAndGetActionableRemedies() {
        assertEquals("CUDA_ERROR_OUT_OF_MEMORY", DriverCalls.statusOf("CUDA_ERROR_OUT_OF_MEMORY"));
        assertEquals("CUDA_ERROR_ILLEGAL_ADDRESS",
                DriverCalls.statusOf("jcuda.CudaException: CUDA_ERROR_ILLEGAL_ADDRESS\n\tat ..."));
        assertEquals("CUSOLVER_STATUS_NOT_INITIALIZED", DriverCalls.statusOf("CUSOLVER_STATUS_NOT_INITIALIZED"));
        CudaFailure oom = new CudaFailure("x", "CUDA_ERROR_OUT_OF_MEMORY", null);
        assertTrue(oom.isOutOfMemory());
        assertFalse(new CudaFailure("x", "CUDA_ERROR_LAUNCH_FAILED", null).isOutOfMemory());
        for (String s : new String[] {"CUDA_ERROR_OUT_OF_MEMORY", "CUDA_ERROR_NO_BINARY_FOR_GPU", "CUDA_ERROR_NO_DEVICE",
            "CUDA_ERROR_LAUNCH_FAILED", "SOMETHING_ELSE"}) {
            assertTrue(DriverCalls.remedy(s).contains("--engine cpu"), s + ": " + DriverCalls.remedy(s));
        }
    }

    @Test
    void probeNeverThrowsAndExplainsItself() {
        CudaProbe.Result r = CudaProbe.probe();
        assertNotNull(r.reason());
        assertFalse(r.reason().isBlank());
        System.out.println("probe: " + r.reason());
        if (!r.deviceUsable() && r.reason().contains("did not load")) {
            // the real link error is kept (issue 17), not replaced by a generic "no CUDA driver"
            assertTrue(r.reason().contains("the linker said: ") && r.reason().contains("libcuda.so"), r.reason());
        }
        if (r.deviceUsable()) {
            assertNotNull(r.device());
        }
        System.setProperty("dpgauss.cuda.disable", "true");
        try {
            CudaProbe.Result off = CudaProbe.probe();
            assertFalse(off.deviceUsable());
            assertTrue(off.reason().contains("dpgauss.cuda.disable"));
        } finally {
            System.clearProperty("dpgauss.cuda.disable");
        }
    }

    @Test
    void linkErrorsKeepTheLinkersWordsWithoutStackTraces() {
        String jcuda = "Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\"\nOperating system name: Linux\n"
                + "Stack trace from the attempt to load the library as a resource:\njava.lang.UnsatisfiedLinkError: "
                + "/tmp/x/libJCudaDriver-12.6.0-linux-x86_64.so: libcuda.so.1: cannot open shared object file: No such file "
                + "or directory\n\tat java.base/jdk.internal.loader.NativeLibraries.load(Native Method)\n";
        assertEquals("/tmp/x/libJCudaDriver-12.6.0-linux-x86_64.so: libcuda.so.1: cannot open shared object file: No such "
                + "file or directory", CudaProbe.linkErrors(jcuda));
        assertEquals("first line", CudaProbe.linkErrors("first line\nsecond"));
    }

    @Test
    void fingerprintSeesEveryChange() {
        double[] a = new double[600];
        for (int k = 0; k < a.length; k++) {
            a[k] = Math.sin(k);
        }
        HostRows h = rows(a.clone(), 3, 70);
        long f = CudaDevice.fingerprint(h);
        assertEquals(f, CudaDevice.fingerprint(rows(a.clone(), 3, 70)), "same content, same fingerprint");
        double[] b = a.clone();
        b[599] = Math.nextUp(b[599]);
        assertNotEquals(f, CudaDevice.fingerprint(rows(b, 3, 70)), "one ulp in the last row");
        double[] c = a.clone();
        c[0] = -0.0;
        assertNotEquals(f, CudaDevice.fingerprint(rows(c, 3, 70)), "signed zero");
    }

    /** n = a.length / d rows in blocks of blockRows rows (each block its own array). */
    static HostRows rows(double[] a, int d, int blockRows) {
        int n = a.length / d;
        int blocks = (n + blockRows - 1) / blockRows;
        double[][] bs = new double[blocks][];
        for (int b = 0; b < blocks; b++) {
            int from = b * blockRows * d;
            bs[b] = java.util.Arrays.copyOfRange(a, from, Math.min(a.length, from + blockRows * d));
        }
        return new HostRows() {
            @Override
            public int rows() {
                return n;
            }

            @Override
            public int cols() {
                return d;
            }

            @Override
            public int blockCount() {
                return blocks;
            }

            @Override
            public int blockStart(int b) {
                return b * blockRows;
            }

            @Override
            public int blockRowCount(int b) {
                return Math.min(blockRows, n - b * blockRows);
            }

            @Override
            public double[] block(int b) {
                return bs[b];
            }
        };
    }
}
