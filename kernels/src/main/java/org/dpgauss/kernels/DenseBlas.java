package org.dpgauss.kernels;

/**
 * The cuBLAS level-3 routines dpgauss uses (column-major, FP64), on raw device addresses (pool buffers and
 * resident rows, see {@link Handles#address}): {@code gemm} for the projection, {@code syrk} for the Gram,
 * {@code trsm} for whitening. Bound to the stream of {@link CudaDevice}; owning thread only. A non-success
 * status is a {@link CudaFailure}. Row-major n x d data are column-major d x n with leading dimension d.
 */
interface DenseBlas extends AutoCloseable {

    /** {@code cublas-ffm}. */
    String name();

    /** Library file, version and where it was found (the search order's step). */
    String detail();

    /** C = alpha op(A) op(B) + beta C; op(A) m x k, op(B) k x n, C m x n. */
    void gemm(boolean transA, boolean transB, int m, int n, int k, double alpha, long a, int lda, long b, int ldb,
            double beta, long c, int ldc);

    /**
     * C = alpha op(A) op(A)^T + beta C, C n x n, only its {@code upper} (else lower) triangle written;
     * op(A) = A (n x k) or, with {@code trans}, A^T (A k x n).
     */
    void syrk(boolean upper, boolean trans, int n, int k, double alpha, long a, int lda, double beta, long c, int ldc);

    /** Solves op(A) X = alpha B (left) in place of B (m x n); A triangular ({@code upper} or lower), non-unit. */
    void trsm(boolean upper, boolean transA, int m, int n, double alpha, long a, int lda, long b, int ldb);

    @Override
    void close();
}
