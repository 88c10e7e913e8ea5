package org.dpgauss.linalg;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * A Cholesky factorization {@code A = L L^T} with an explicit verdict. The factor is present only for
 * {@link CholeskyVerdict#POSITIVE_DEFINITE}; otherwise {@link #failedPivot()} names the first pivot
 * that fell below the tolerance and {@link #pivotValue()} its value.
 *
 * <p>Tolerance (shared by every backend so verdicts agree): the pivot {@code p_j} of column j is accepted when
 * {@code p_j > tol_j} with {@code tol_j = 4 * d * 2^-52 * |a_jj|}, i.e. relative to <b>its own</b> diagonal
 * entry: {@code p_j / a_jj} is the squared sine of the angle between column j and the span of the earlier ones
 * (the pivot of the equilibrated matrix {@code D^-1/2 A D^-1/2}), so the verdict does not change when a
 * coordinate is rescaled, and one huge coordinate cannot make the others look singular. {@code |p_j| <= tol_j}
 * is SINGULAR and {@code p_j < -tol_j} NOT_POSITIVE_DEFINITE. A zero matrix (or a zero column) is SINGULAR.
 * Issue 24 (3): the earlier tolerance, relative to the largest diagonal entry, let one row at 1e10 declare
 * the Gram of all other rows singular in LargestGoodSubset (see cpu.CertifiedViolators for the other half).
  */
public final class CholeskyResult {

    private final CholeskyVerdict verdict;
    private final DMatrixRMaj lower;
    private final int failedPivot;
    private final double pivotValue;

    private CholeskyResult(CholeskyVerdict verdict, DMatrixRMaj lower, int failedPivot, double pivotValue) {
        this.verdict = verdict;
        this.lower = lower;
        this.failedPivot = failedPivot;
        this.pivotValue = pivotValue;
    }

    public static CholeskyResult positiveDefinite(DMatrixRMaj lower) {
        return new CholeskyResult(CholeskyVerdict.POSITIVE_DEFINITE, Objects.requireNonNull(lower), -1, Double.NaN);
    }

    public static CholeskyResult failed(CholeskyVerdict verdict, int failedPivot, double pivotValue) {
        if (verdict == CholeskyVerdict.POSITIVE_DEFINITE) {
            throw new IllegalArgumentException("a failed factorization cannot be positive definite");
        }
        return new CholeskyResult(verdict, null, failedPivot, pivotValue);
    }

    /**
     * The relative pivot tolerance {@code 4 d 2^-52} of a d x d factorization: a pivot is SINGULAR when it is at
     * most this fraction of its own diagonal entry (the rounding error of the factorization itself).
     */
    public static double relativePivotTolerance(int d) {
        return 4.0 * d * Math.ulp(1.0);
    }

    /**
     * The tolerance every backend applies to the pivot of column j of a d x d matrix whose diagonal entry
     * there is {@code diag} (a_jj): {@code relativePivotTolerance(d) * |a_jj|}.
     */
    public static double pivotTolerance(int d, double diag) {
        return relativePivotTolerance(d) * Math.abs(diag);
    }

    public CholeskyVerdict verdict() {
        return verdict;
    }

    public boolean isPositiveDefinite() {
        return verdict == CholeskyVerdict.POSITIVE_DEFINITE;
    }

    /** The lower-triangular factor (upper part zero). */
    public DMatrixRMaj lower() {
        if (lower == null) {
            // the pivot's index, not its value: the matrix may be computed from private data (issue 24, item 2)
            throw new IllegalStateException("no Cholesky factor: the matrix is " + verdict
                    + " (pivot " + failedPivot + ")");
        }
        return lower;
    }

    /** Index of the first rejected pivot, or -1. */
    public int failedPivot() {
        return failedPivot;
    }

    public double pivotValue() {
        return pivotValue;
    }

    @Override
    public String toString() {
        return lower != null ? "CholeskyResult[POSITIVE_DEFINITE, " + lower.numRows + " x " + lower.numCols + "]"
                : "CholeskyResult[" + verdict + " at pivot " + failedPivot + " = " + pivotValue + "]";
    }
}
