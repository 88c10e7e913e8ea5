package org.dpgauss.mean.anisotropic;

import java.util.Objects;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;

/**
 * Algorithm 7 of spec anisotropic-mean-estimation §4.5, {@code VarianceSum_{epsilon,delta}(V, I)}: per group
 * {@code j} the sum {@code M_j = sum_{i in I} V_i^(j)}, binned in base 4 ({@link Base4Bins}), released through
 * {@link StableHistogram}; the output is {@code 4^b} (0 for the zero bin) or {@link VarianceEstimate#FAIL}.
 *
 * <p><b>Privacy.</b> {@code (epsilon, delta)}-DP under {@link NeighbouringRelation#REPLACE_ONE} on the rows of
 * {@code V} (public {@code m}): replacing one row {@code V^(j)} changes only {@code M_j} (Lemma 4.6). The index set
 * {@code I} must be public (or itself a DP output: post-processing). Floating-point rounding of the sums is a
 * deterministic function of one row, so it does not affect the guarantee.
 *
 * <p><b>Accuracy</b> (Lemma 4.6, §4.5 [D]): if {@code V} is valid (Def 4.2) and
 * {@link StableHistogram#meetsAccuracyCondition} holds, the output lies in {@code (S/16, 4S]},
 * {@code S = sum_{i in I} Sigma_ii}, with probability {@code >= 1 - beta}. {@code I} empty gives 0 (unless the
 * histogram fails). Immutable.
 */
public final class VarianceSum {

    private final StableHistogram histogram;

    private VarianceSum(StableHistogram histogram) {
        this.histogram = histogram;
    }

    /**
     * @param epsilon privacy parameter, in {@code [2^-26, 2^16]}
     * @param delta privacy parameter, in {@code (0, 1)}
     * @return the mechanism
     */
    public static VarianceSum of(double epsilon, double delta) {
        return new VarianceSum(StableHistogram.of(epsilon, delta));
    }

    /** @return the underlying histogram (its scale, threshold and accuracy condition) */
    public StableHistogram histogram() {
        return histogram;
    }

    /**
     * @param v the statistics {@code V} (m x d, finite, non-negative; spec §4.2 (11))
     * @param coordinates the public index set {@code I} (0-based, distinct, each in {@code [0, d)}), may be empty
     * @param random the noise source
     * @return {@code 4^b}, 0, or {@link VarianceEstimate#FAIL}
     */
    public VarianceEstimate estimate(double[][] v, int[] coordinates, RandomSource random) {
        int d = SubroutineParams.varianceRows(v);
        Objects.requireNonNull(coordinates, "coordinates");
        boolean[] seen = new boolean[d];
        for (int i : coordinates) {
            if (i < 0 || i >= d) {
                throw new IllegalArgumentException("coordinate " + i + " must be in [0, " + d + "): I is a subset"
                        + " of the d=" + d + " coordinates of V");
            }
            if (seen[i]) {
                throw new IllegalArgumentException("coordinate " + i + " appears twice: I is a set (a repeated"
                        + " index would double-count Sigma_ii)");
            }
            seen[i] = true;
        }
        long[] bins = new long[v.length];
        for (int j = 0; j < v.length; j++) {
            double s = 0;
            for (int i : coordinates) {
                s += v[j][i];
            }
            bins[j] = Base4Bins.index(s);
        }
        return VarianceEstimate.from(histogram.release(bins, random));
    }

    /**
     * @return {@code (epsilon, delta)}-DP, replace-one on the rows of V (the recipe's certification)
     */
    public PrivacyGuarantee guarantee() {
        return histogram.guarantee();
    }
}
