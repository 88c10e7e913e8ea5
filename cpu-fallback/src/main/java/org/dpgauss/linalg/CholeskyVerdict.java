package org.dpgauss.linalg;

/** Outcome of a Cholesky factorization attempt; algorithms branch on it (e.g. LargestGoodSubset's "A singular"). */
public enum CholeskyVerdict {
    /** Every pivot exceeded the tolerance: a factor {@code L} with {@code A = L L^T} exists. */
    POSITIVE_DEFINITE,
    /**
     * Positive semidefinite up to rounding but rank-deficient: some pivot lies within the tolerance of
     * zero (e.g. the Gram of fewer than d rows, or of rows confined to a subspace).
     */
    SINGULAR,
    /** Some pivot is negative beyond the tolerance: the matrix is indefinite (or has a negative diagonal). */
    NOT_POSITIVE_DEFINITE
}
