package org.dpgauss.kernels;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;

/**
 * cuSOLVER through java.lang.foreign (FFM), for CUDA 13 libraries ({@code libcusolver.so.12}) which
 * JCusolver 12.6 cannot load. The real binding is the Java 22+ version of this class in the multi-release
 * section of the jar ({@code src/main/java22}, compiled when the build runs on JDK 22+); this Java 17
 * version only says why it is unavailable. Same API in both; owning thread of {@link CudaDevice} only.
 */
final class FfmSolver implements DenseSolver {

    static final String LIBRARY = "libcusolver.so.12";

    private FfmSolver() {
    }

    /** Why the FFM binding cannot be used here, or null when {@link #open} may succeed. */
    static String unavailableReason() {
        return "the FFM cuSOLVER binding needs a Java 22+ runtime and a jar built on JDK 22+ (this runtime is "
                + Runtime.version() + "; the GPU bundle ships Java 25)";
    }

    static FfmSolver open(CUstream stream) {
        throw new CudaFailure(unavailableReason(), "DPGAUSS_NO_CUSOLVER", null);
    }

    @Override
    public String name() {
        return "cusolver-ffm";
    }

    @Override
    public String detail() {
        return unavailableReason();
    }

    @Override
    public int potrfWorkspace(int d, CUdeviceptr a) {
        throw unreachable();
    }

    @Override
    public void potrf(int d, CUdeviceptr a, CUdeviceptr work, int lwork, CUdeviceptr info) {
        throw unreachable();
    }

    @Override
    public int syevdWorkspace(int d, CUdeviceptr a, CUdeviceptr w) {
        throw unreachable();
    }

    @Override
    public void syevd(int d, CUdeviceptr a, CUdeviceptr w, CUdeviceptr work, int lwork, CUdeviceptr info) {
        throw unreachable();
    }

    @Override
    public void close() {
    }

    /** {@link #open} never returns an instance of this Java 17 version, so its solver methods cannot run. */
    private static IllegalStateException unreachable() {
        return new IllegalStateException("no FfmSolver instance exists below Java 22: " + unavailableReason());
    }
}
