package org.dpgauss.linalg;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * A Cholesky factorization {@code A = L L^T} with an explicit verdict. The factor is present only for
 * {@link CholeskyVerdict#POSITIVE_DEFINITE}; otherwise {@link #failedPivot()} names the first pivot
 * that fell below the tolerance and {@link #pivotValue()} its value.
 *
 * <p>Tolerance (shared by every backend so verdicts agree): a pivot {@code p_j} is accepted when
 * {@code p_j > tol} with {@code tol = 4 * d * 2^-52 * max_i |a_ii|}, the size of the rounding error of
 * the factorization itself; {@code |p_j| <= tol} is SINGULAR and {@code p_j < -tol} NOT_POSITIVE_DEFINITE.
 * A zero matrix is SINGULAR.
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

    /** The pivot tolerance every backend uses for a d x d matrix whose largest |diagonal| is maxAbsDiag. */
    public static double pivotTolerance(int d, double maxAbsDiag) {
        return 4.0 * d * Math.ulp(1.0) * maxAbsDiag;
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
