package org.dpgauss.mean.anisotropic;

import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;

/**
 * Algorithm 4 of spec anisotropic-mean-estimation §4.8, {@code TopVar_{epsilon,delta}(V, R, k)}: the counts
 * {@code c_i = |{j : V_i^(j) >= R/2}|} (the paper's {@code Q_i = c_i/m}) through {@link Sparse} with threshold
 * {@code T = 1/2}, i.e. {@code m/2} counts.
 *
 * <p><b>Privacy.</b> {@code (epsilon, delta)}-DP under {@link NeighbouringRelation#REPLACE_ONE} on the rows of
 * {@code V} (public {@code m}): replacing one row changes every {@code c_i} by at most 1. {@code R} and {@code k}
 * must be public or DP outputs (e.g. {@link FindKthLargestVariance}'s).
 *
 * <p><b>Threshold</b> (§9 A9): with {@link Threshold#PAPER} ({@code R = R^/8}) the scan can stop after {@code k}
 * moderately large coordinates and leave a much larger one, later in index order, in {@code I_bot}, breaking the
 * proof step {@code max_{I_bot} Sigma_ii <~ R^}. {@link Threshold#HIGH} ({@code R = 64 R^}) is the sound choice: at
 * most {@code k - 1} coordinates can qualify when {@code R^ > Q/16}, the cutoff is not reached, and every
 * coordinate with {@code Sigma_ii >= R} is selected w.h.p.
 *
 * <p><b>Accuracy</b> (Lemma 4.7): if {@code V} is valid and {@link #meetsAccuracyCondition} holds, then with
 * probability {@code >= 1 - beta} no index with {@code Sigma_ii < R/4} is selected, and every index with
 * {@code Sigma_ii >= R} is selected unless {@code k} indices were selected before it. Immutable.
 */
public final class TopVar {

    /** How Algorithm 2 derives {@code R} from the k-th-largest estimate {@code R^} (§9 A9). */
    public enum Threshold {
        /** {@code R = R^/8}, as printed (Algorithm 2 line 9); unsound proof step, kept for fidelity. */
        PAPER(0.125),
        /** {@code R = 64 R^}, the raised threshold of §9 A9 (default). */
        HIGH(64.0);

        private final double factor;

        Threshold(double factor) {
            this.factor = factor;
        }

        /**
         * @param kthLargestEstimate {@code R^ > 0}
         * @return {@code R}
         */
        public double r(double kthLargestEstimate) {
            return factor * kthLargestEstimate;
        }
    }

    private final Sparse sparse;

    private TopVar(Sparse sparse) {
        this.sparse = sparse;
    }

    /**
     * @param k the cutoff, in {@code [1, 2^20]}
     * @param epsilon privacy parameter, in {@code [2^-26, 2^16]}
     * @param delta privacy parameter, in {@code (0, 1)}
     * @return the mechanism
     */
    public static TopVar of(int k, double epsilon, double delta) {
        return new TopVar(Sparse.of(k, epsilon, delta));
    }

    /** @return the underlying sparse vector mechanism */
    public Sparse sparse() {
        return sparse;
    }

    /**
     * Validity puts {@code c_i >= 4m/5} when {@code Sigma_ii >= R} and {@code c_i <= m/5} when
     * {@code Sigma_ii < R/4}; both sides of {@code T = m/2} are safe when {@code alpha < 3m/10}.
     *
     * @param m the number of groups
     * @param d the number of coordinates
     * @param beta failure probability
     * @return whether {@code sparse().accuracy(d, beta) < 0.3 m}
     */
    public boolean meetsAccuracyCondition(int m, int d, double beta) {
        if (m < 1) {
            throw new IllegalArgumentException("m=" + m + " must be >= 1 group");
        }
        return sparse.accuracy(d, beta) < 0.3 * m;
    }

    /**
     * @param v the statistics {@code V} (m x d, finite, non-negative)
     * @param r the public threshold {@code R > 0}, finite
     * @param random the noise source
     * @return {@code I_top}: selected coordinates (0-based, increasing), at most {@code k}
     */
    public int[] select(double[][] v, double r, RandomSource random) {
        int d = SubroutineParams.varianceRows(v);
        if (!(r > 0 && r < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("R=" + r + " must be positive and finite: it is the variance level"
                    + " above which coordinates are sought");
        }
        double half = r / 2;
        long[] counts = new long[d];
        for (double[] row : v) {
            for (int i = 0; i < d; i++) {
                if (row[i] >= half) {
                    counts[i]++;
                }
            }
        }
        return sparse.select(counts, v.length / 2.0, random);
    }

    /**
     * @return {@code (epsilon, delta)}-DP, replace-one on the rows of V (the recipe's certification)
     */
    public PrivacyGuarantee guarantee() {
        return sparse.guarantee();
    }
}
