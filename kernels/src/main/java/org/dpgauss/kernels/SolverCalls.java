package org.dpgauss.kernels;

import jcuda.CudaException;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import jcuda.jcusolver.JCusolver;
import jcuda.jcusolver.JCusolverDn;
import jcuda.jcusolver.cusolverDnHandle;
import jcuda.runtime.cudaStream_t;

/**
 * The cuSOLVER boundary (JCusolver, CUDA 12 libraries), kept apart from {@link DriverCalls} because it loads only where the
 * CUDA 12 libraries ({@code libcusolver.so.11}) are installed. Row-major d x d input is column-major
 * transposed, so the lower triangle dpgauss uses is cuSOLVER's upper triangle ({@code uplo = UPPER}).
 * Owning thread of {@link CudaDevice} only.
 */
final class SolverCalls implements DenseSolver {

    private final cusolverDnHandle handle;

    /** cublasFillMode_t CUBLAS_FILL_MODE_UPPER. */
    static final int FILL_UPPER = 1;
    /** cusolverEigMode_t CUSOLVER_EIG_MODE_VECTOR. */
    static final int EIG_VECTORS = 1;

    private SolverCalls(cusolverDnHandle handle) {
        this.handle = handle;
    }

    /** A cuSOLVER dense handle bound to the stream; throws CudaFailure (DPGAUSS_NO_CUSOLVER) where it cannot load. */
    static SolverCalls open(CUstream stream) {
        try {
            JCusolver.setExceptionsEnabled(true);
            cusolverDnHandle h = new cusolverDnHandle();
            JCusolverDn.cusolverDnCreate(h);
            JCusolverDn.cusolverDnSetStream(h, new cudaStream_t(stream));
            return new SolverCalls(h);
        } catch (LinkageError | CudaException e) {
            throw new CudaFailure("cuSOLVER is not usable here (" + e.getClass().getSimpleName() + ": "
                    + firstLine(e.getMessage()) + "); JCusolver 12.6 needs the CUDA 12 libraries (libcusolver.so.11, "
                    + "libcublas.so.12) on the library path. d x d factorizations stay on the host.",
                    "DPGAUSS_NO_CUSOLVER", e);
        }
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    @Override
    public String name() {
        return "cusolver-jcusolver";
    }

    @Override
    public String detail() {
        return "JCusolver 12.6 (libcusolver.so.11 from the loader's path)";
    }

    @Override
    public int potrfWorkspace(int d, CUdeviceptr a) {
        cusolverDnHandle h = handle;
        int[] lwork = new int[1];
        DriverCalls.run("cusolverDnDpotrf_bufferSize",
                () -> JCusolverDn.cusolverDnDpotrf_bufferSize(h, FILL_UPPER, d, a, d, lwork));
        return lwork[0];
    }

    @Override
    public void potrf(int d, CUdeviceptr a, CUdeviceptr work, int lwork, CUdeviceptr info) {
        cusolverDnHandle h = handle;
        DriverCalls.run("cusolverDnDpotrf", () -> JCusolverDn.cusolverDnDpotrf(h, FILL_UPPER, d, a, d, work, lwork, info));
    }

    @Override
    public int syevdWorkspace(int d, CUdeviceptr a, CUdeviceptr w) {
        cusolverDnHandle h = handle;
        int[] lwork = new int[1];
        DriverCalls.run("cusolverDnDsyevd_bufferSize",
                () -> JCusolverDn.cusolverDnDsyevd_bufferSize(h, EIG_VECTORS, FILL_UPPER, d, a, d, w, lwork));
        return lwork[0];
    }

    @Override
    public void syevd(int d, CUdeviceptr a, CUdeviceptr w, CUdeviceptr work, int lwork, CUdeviceptr info) {
        cusolverDnHandle h = handle;
        DriverCalls.run("cusolverDnDsyevd",
                () -> JCusolverDn.cusolverDnDsyevd(h, EIG_VECTORS, FILL_UPPER, d, a, d, w, work, lwork, info));
    }

    @Override
    public void close() {
        DriverCalls.run("cusolverDnDestroy", () -> JCusolverDn.cusolverDnDestroy(handle));
    }

}
