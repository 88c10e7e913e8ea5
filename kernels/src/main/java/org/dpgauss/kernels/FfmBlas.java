package org.dpgauss.kernels;

import jcuda.driver.CUstream;

/**
 * cuBLAS ({@code libcublas.so.13}, CUDA 13) through java.lang.foreign. The real binding is the Java 22+
 * version of this class in the multi-release section of the jar ({@code src/main/java22}); this Java 17
 * version only says why it is unavailable.
 */
final class FfmBlas implements DenseBlas {

    static final String LIBRARY = "libcublas.so.13";

    private FfmBlas() {
    }

    static String unavailableReason() {
        return "the FFM cuBLAS binding needs a Java 22+ runtime and a jar built on JDK 22+ (this runtime is "
                + Runtime.version() + "; the GPU bundle ships Java 25)";
    }

    static FfmBlas open(CUstream stream) {
        throw new CudaFailure(unavailableReason(), "DPGAUSS_NO_CUBLAS", null);
    }

    @Override
    public String name() {
        return "cublas-ffm";
    }

    @Override
    public String detail() {
        return unavailableReason();
    }

    @Override
    public void gemm(boolean transA, boolean transB, int m, int n, int k, double alpha, long a, int lda, long b, int ldb,
            double beta, long c, int ldc) {
        throw unreachable();
    }

    @Override
    public void syrk(boolean upper, boolean trans, int n, int k, double alpha, long a, int lda, double beta, long c,
            int ldc) {
        throw unreachable();
    }

    @Override
    public void trsm(boolean upper, boolean transA, int m, int n, double alpha, long a, int lda, long b, int ldb) {
        throw unreachable();
    }

    @Override
    public void close() {
    }

    private static IllegalStateException unreachable() {
        return new IllegalStateException("no FfmBlas instance exists below Java 22: " + unavailableReason());
    }
}
