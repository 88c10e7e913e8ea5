package org.dpgauss.sampling.stable;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * LargestCore(X, Sigma-hat, lambda, tau, R) (spec unbounded-gaussian-sampling §3.5, Algorithm 6):
 * {@code { i : |N_i| >= tau }} with {@code N_i = { j in R : (X_i - X_j)^T Sigma-hat^{-1} (X_i - X_j) <= lambda }}
 * (ties count as neighbours; j = i counts when i is in R).
 *
 * <p>An instance holds the result of one fused pass (engine {@code whiten} with the Cholesky factor of
 * Sigma-hat, then engine {@code largestReferenceDistances}: distances to R reduced on the fly to each row's
 * {@code keep} largest, never the n x |R| matrix): with {@code r_(0) >= r_(1) >= ...} the largest distances of
 * row i, {@code i in LargestCore(lambda, tau) <=> tau <= 0 or r_(M - tau) <= lambda} (§3.5's fast test), so
 * {@code keep = 2k+1} answers every threshold of StableMean. {@link #literal} evaluates the definition directly.
 *
 * <p>Singular Sigma-hat (failed Cholesky) is not defined by the paper; as in the BHS23 reference code every
 * distance is then +infinity, so N_i is empty and the core is empty for tau >= 1 [IMPL, §3.5].
 */
public final class LargestCore {

    private final int n;
    private final int referenceSize;
    private final int keep;
    /** n x keep, row i descending; null when Sigma-hat is singular. */
    private final RowBlockMatrix largest;

    private LargestCore(int n, int referenceSize, int keep, RowBlockMatrix largest) {
        this.n = n;
        this.referenceSize = referenceSize;
        this.keep = keep;
        this.largest = largest;
    }

    /**
     * The fused pass.
     *
     * @param reference R as distinct 0-based row indices of x
     * @param keep      how many order statistics to keep per row, in [1, |R|]; StableMean uses min(2k+1, |R|)
     */
    public static LargestCore compute(RowBlockMatrix x, DMatrixRMaj sigmaHat, int[] reference, int keep,
            ComputeEngine engine) {
        checkInputs(x, sigmaHat, reference);
        Objects.requireNonNull(engine, "engine");
        int size = reference.length;
        if (keep < 1 || keep > size) {
            throw new IllegalArgumentException("keep=" + keep + " must be in [1, |R|=" + size + "]");
        }
        CholeskyResult chol = engine.cholesky(sigmaHat);
        boolean singular = !chol.isPositiveDefinite();
        // A singular Sigma^ makes every distance +infinity; the distances are still computed (with a stand-in
        // identity factor) and discarded, so that this case does not skip the work of the regular one (issue 14,
        // finding 7: a PTR-guarded release must not reveal through its latency how its test went).
        DMatrixRMaj lower = singular ? org.ejml.dense.row.CommonOps_DDRM.identity(sigmaHat.numRows) : chol.lower();
        RowBlockMatrix white = engine.whiten(x, lower);
        RowBlockMatrix ref = white.selectRows(reference);
        RowBlockMatrix largest = engine.largestReferenceDistances(white, ref, keep);
        return new LargestCore(x.rows(), size, keep, singular ? null : largest);
    }

    /** Whether Sigma-hat failed its Cholesky factorisation (every distance is then +infinity). */
    public boolean singular() {
        return largest == null;
    }

    public int rows() {
        return n;
    }

    /** Membership of row i in LargestCore(lambda, tau); needs {@code tau <= 0} or {@code |R| - tau < keep}. */
    public boolean contains(int i, double lambda, int tau) {
        return contains(largest, keep, referenceSize, i, lambda, tau);
    }

    /**
     * Membership of row i of {@code largest} (rows' {@code keep} largest distances, descending; null when Sigma-hat
     * is singular) in LargestCore(lambda, tau) with |R| = {@code referenceSize}: the fast test of §3.5, shared by the
     * in-memory pass and the row-pass form ({@link StableRows}).
     */
    static boolean contains(RowBlockMatrix largest, int keep, int referenceSize, int i, double lambda, int tau) {
        if (tau <= 0) {
            return true;
        }
        if (tau > referenceSize) {
            return false;
        }
        if (largest == null) {
            return false;
        }
        int pos = referenceSize - tau;
        if (pos >= keep) {
            throw new IllegalArgumentException("tau=" + tau + " needs the " + (pos + 1) + "-th largest distance but only "
                    + keep + " were kept");
        }
        return largest.get(i, pos) <= lambda;
    }

    /** The core as a membership array. */
    public boolean[] members(double lambda, int tau) {
        boolean[] s = new boolean[n];
        for (int i = 0; i < n; i++) {
            s[i] = contains(i, lambda, tau);
        }
        return s;
    }

    /**
     * Algorithm 6 as written: whitens with the Cholesky factor of Sigma-hat and counts, for every row, the
     * reference rows within distance lambda ({@code sum_c (x~_ic - x~_jc)^2 <= lambda}, the same arithmetic
     * as the fused pass). O(n |R| d) per call.
     */
    public static boolean[] literal(RowBlockMatrix x, DMatrixRMaj sigmaHat, double lambda, int tau, int[] reference,
            ComputeEngine engine) {
        checkInputs(x, sigmaHat, reference);
        Objects.requireNonNull(engine, "engine");
        int n = x.rows();
        boolean[] s = new boolean[n];
        CholeskyResult chol = engine.cholesky(sigmaHat);
        if (!chol.isPositiveDefinite()) {
            for (int i = 0; i < n; i++) {
                s[i] = tau <= 0; // every distance +inf: N_i is empty
            }
            return s;
        }
        RowBlockMatrix white = engine.whiten(x, chol.lower());
        int d = x.cols();
        int size = reference.length;
        double[] refs = new double[size * d];
        for (int j = 0; j < size; j++) {
            white.copyRow(reference[j], refs, j * d);
        }
        double[] xi = new double[d];
        for (int i = 0; i < n; i++) {
            white.copyRow(i, xi, 0);
            int count = 0;
            for (int j = 0; j < size; j++) {
                double e = 0;
                int off = j * d;
                for (int c = 0; c < d; c++) {
                    double v = xi[c] - refs[off + c];
                    e += v * v;
                }
                if (e <= lambda) {
                    count++;
                }
            }
            s[i] = count >= tau;
        }
        return s;
    }

    static void checkInputs(RowBlockMatrix x, DMatrixRMaj sigmaHat, int[] reference) {
        Objects.requireNonNull(x, "data matrix");
        Objects.requireNonNull(sigmaHat, "Sigma-hat");
        Objects.requireNonNull(reference, "reference set R");
        int n = x.rows();
        int d = x.cols();
        if (n < 1) {
            throw new IllegalArgumentException("data matrix has no rows");
        }
        if (sigmaHat.numRows != d || sigmaHat.numCols != d) {
            throw new IllegalArgumentException("Sigma-hat is " + sigmaHat.numRows + " x " + sigmaHat.numCols
                    + ", expected " + d + " x " + d + " (the data have d=" + d + " columns)");
        }
        for (int i = 0; i < d * d; i++) {
            if (!Double.isFinite(sigmaHat.data[i])) {
                throw new IllegalArgumentException("Sigma-hat has a non-finite entry"); // no value (issue 24)
            }
        }
        if (reference.length == 0) {
            throw new IllegalArgumentException("reference set R is empty; need |R| >= 1");
        }
        boolean[] seen = new boolean[n];
        for (int j : reference) {
            if (j < 0 || j >= n) {
                throw new IllegalArgumentException("reference index " + j + " is outside [0, n=" + n + ")");
            }
            if (seen[j]) {
                throw new IllegalArgumentException("reference index " + j + " appears twice; R must be a set");
            }
            seen[j] = true;
        }
        double[] r = new double[d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, r, 0);
            for (int c = 0; c < d; c++) {
                if (!Double.isFinite(r[c])) {
                    throw new IllegalArgumentException("row " + i + ", column " + c + " is " + r[c]
                            + "; StableMean needs finite values");
                }
            }
        }
    }
}
