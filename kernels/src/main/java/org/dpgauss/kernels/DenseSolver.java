package org.dpgauss.kernels;

import jcuda.driver.CUdeviceptr;

/**
 * The cuSOLVER dense routines dpgauss uses, behind either binding: JCusolver (CUDA 12 libraries) or FFM
 * (Java 22+, CUDA 13 libraries). Arguments are device buffers from the pool; matrices are d x d column-major with
 * {@code uplo = UPPER} (the row-major lower triangle). A non-zero cuSOLVER status is a {@link CudaFailure}.
 */
interface DenseSolver extends AutoCloseable {

    /** {@code cusolver-jcusolver} or {@code cusolver-ffm}. */
    String name();

    /** Library and where it was found. */
    String detail();

    int potrfWorkspace(int d, CUdeviceptr a);

    void potrf(int d, CUdeviceptr a, CUdeviceptr work, int lwork, CUdeviceptr info);

    int syevdWorkspace(int d, CUdeviceptr a, CUdeviceptr w);

    void syevd(int d, CUdeviceptr a, CUdeviceptr w, CUdeviceptr work, int lwork, CUdeviceptr info);

    @Override
    void close();
}
