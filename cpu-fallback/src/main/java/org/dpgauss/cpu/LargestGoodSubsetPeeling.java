package org.dpgauss.cpu;

import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * LargestGoodSubset peeling as written in spec unbounded-gaussian-sampling §3.3: repeat
 * {@code A = (1/m) sum_{j in S} y_j y_j^T}; if A is singular remove all of S, otherwise remove every
 * {@code i in S} with {@code y_i^T A^{-1} y_i > lambda} (strict); until nothing is removed.
 *
 * <p>Each round first removes the {@link CertifiedViolators} of S (rows holding more than lambda/m of some
 * coordinate's total, whose norm exceeds lambda whatever A is) and only then forms and factors A: the same
 * largest good set in exact arithmetic (one more removal order), and in floating point no row dominates the
 * Gram whose singularity is decided (issue 24, item 3). A set still swamped by at most four rows (possible only
 * when lambda is a large fraction of m) is handled by a change of basis ({@link DominantRows}): the round runs on
 * the set's rows reflected so that each dominant row owns a coordinate, which leaves the norms and the exact
 * singularity unchanged and keeps the other rows from being swamped.
 *
 * <p>Good sets are closed under union and the result does not depend on the removal order, so a warm
 * start from a superset of the answer (the set for a larger threshold) returns the same set.
 */
public final class LargestGoodSubsetPeeling {

    private LargestGoodSubsetPeeling() {
    }

    /** The three primitives a peeling round uses, so every backend runs the same loop on its own kernels. */
    public interface Primitives {
        /**
         * @param y the rows
         * @param active the active row indices
         * @param divisor the divisor of the Gram matrix
         * @return {@code (1/divisor) sum_{i in active} y_i y_i^T}
         */
        DMatrixRMaj weightedGram(RowBlockMatrix y, int[] active, double divisor);

        /**
         * @param a a symmetric matrix
         * @return its Cholesky factorisation with a verdict
         */
        CholeskyResult cholesky(DMatrixRMaj a);

        /**
         * @param y the rows
         * @param lower the Cholesky factor
         * @param active the active row indices
         * @return the squared Mahalanobis norms of the active rows
         */
        double[] mahalanobisNorms(RowBlockMatrix y, DMatrixRMaj lower, int[] active);
    }

    /** The EJML primitives of this package. */
    private static final Primitives EJML = new Primitives() {
        @Override
        public DMatrixRMaj weightedGram(RowBlockMatrix y, int[] active, double divisor) {
            return WeightedGram.compute(y, active, null, divisor);
        }

        @Override
        public CholeskyResult cholesky(DMatrixRMaj a) {
            return Cholesky.decompose(a);
        }

        @Override
        public double[] mahalanobisNorms(RowBlockMatrix y, DMatrixRMaj lower, int[] active) {
            return MahalanobisNorms.compute(y, lower, active);
        }
    };

    /**
     * @param y       the rows y_i (StableCov: the paired, rescaled differences)
     * @param lambda  the threshold, > 0
     * @param start   initial active set (null: all rows); must contain the answer for warm starts
     * @param divisor m, the total number of rows (not |S|)
     * @return the largest good subset, on the EJML primitives
     */
    public static GoodSubset peel(RowBlockMatrix y, double lambda, boolean[] start, double divisor) {
        return peel(y, lambda, start, divisor, EJML);
    }

    /**
     * The peeling loop (spec unbounded-gaussian-sampling §3.3) on the given primitives.
     *
     * @param y       the rows y_i
     * @param lambda  the threshold, > 0
     * @param start   initial active set (null: all rows)
     * @param divisor m, the total number of rows (not |S|)
     * @param p       the primitives
     * @return the largest good subset
     */
    public static GoodSubset peel(RowBlockMatrix y, double lambda, boolean[] start, double divisor, Primitives p) {
        Checks.notEmpty(y, "data matrix");
        Checks.threshold(lambda);
        int n = y.rows();
        boolean[] s = Checks.startSet(start, n);
        int rounds = 0;
        while (true) {
            int[] active = GoodSubset.indicesOf(s);
            if (active.length == 0) {
                return new GoodSubset(s, rounds);
            }
            // rows that dominate a coordinate of A leave first: their norm exceeds lambda whatever A is
            CertifiedViolators.Outcome pre = CertifiedViolators.removeAll(y, s, active, lambda, divisor);
            if (pre.removed() > 0) {
                continue;
            }
            rounds++;
            // a set with a dominant row runs in a basis of its own where no row swamps the others (DominantRows)
            RowBlockMatrix rotated = DominantRows.deflate(y, active, pre.columns());
            RowBlockMatrix rows = rotated == null ? y : rotated;
            int[] idx = rotated == null ? active : identity(active.length);
            DMatrixRMaj a = p.weightedGram(rows, idx, divisor);
            CholeskyResult chol = p.cholesky(a);
            if (!chol.isPositiveDefinite()) {
                // convention of §3.3: ||A^{-1/2} v|| = +inf for singular A, so every active row is removed
                return new GoodSubset(new boolean[n], rounds);
            }
            double[] q = p.mahalanobisNorms(rows, chol.lower(), idx);
            boolean removed = false;
            for (int k = 0; k < active.length; k++) {
                if (q[k] > lambda) {
                    s[active[k]] = false;
                    removed = true;
                }
            }
            if (!removed) {
                return new GoodSubset(s, rounds);
            }
        }
    }

    /** {@code 0, 1, ..., n-1}. */
    public static int[] identity(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        return out;
    }
}
