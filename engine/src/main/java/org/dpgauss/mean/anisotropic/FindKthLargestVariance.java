package org.dpgauss.mean.anisotropic;

import java.util.Arrays;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;

/**
 * Algorithm 5 of spec anisotropic-mean-estimation §4.4, {@code FindKthLargestVariance_{epsilon,delta}(V, k)}: per
 * group {@code j} the k-th largest of {@code V_1^(j), ..., V_d^(j)} ({@code k = 1}: the maximum), binned in base 4
 * ({@link Base4Bins}), released through {@link StableHistogram}; the output is {@code 4^b} (0 for the zero bin) or
 * {@link VarianceEstimate#FAIL}.
 *
 * <p><b>Privacy.</b> {@code (epsilon, delta)}-DP under {@link NeighbouringRelation#REPLACE_ONE} on the rows of
 * {@code V} (public {@code m}; Lemma 4.5): replacing one row changes one {@code M_j}. {@code k} must be public.
 *
 * <p><b>Accuracy</b> (Lemma 4.5 with §4.4 [D]): if {@code V} is valid (Def 4.2) and
 * {@link StableHistogram#meetsAccuracyCondition} holds, the output lies in {@code (Q/16, 4Q]} with {@code Q} the
 * k-th largest of {@code Sigma_11..Sigma_dd}, with probability {@code >= 1 - beta} (paper: {@code [Q/8, 8Q]},
 * §9 A7). Immutable.
 */
public final class FindKthLargestVariance {

    private final StableHistogram histogram;

    private FindKthLargestVariance(StableHistogram histogram) {
        this.histogram = histogram;
    }

    /**
     * @param epsilon privacy parameter, in {@code [2^-26, 2^16]}
     * @param delta privacy parameter, in {@code (0, 1)}
     * @return the mechanism
     */
    public static FindKthLargestVariance of(double epsilon, double delta) {
        return new FindKthLargestVariance(StableHistogram.of(epsilon, delta));
    }

    /** @return the underlying histogram (its scale, threshold and accuracy condition) */
    public StableHistogram histogram() {
        return histogram;
    }

    /**
     * @param v the statistics {@code V} (m x d, finite, non-negative; spec §4.2 (11))
     * @param k the public rank, in {@code [1, d]}
     * @param random the noise source
     * @return {@code 4^b}, 0, or {@link VarianceEstimate#FAIL}
     */
    public VarianceEstimate estimate(double[][] v, int k, RandomSource random) {
        int d = SubroutineParams.varianceRows(v);
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("k=" + k + " must be in [1, d=" + d + "]: it is the rank of the"
                    + " variance to find among the d coordinates (k = 1 is the largest)");
        }
        long[] bins = new long[v.length];
        double[] row = new double[d];
        for (int j = 0; j < v.length; j++) {
            System.arraycopy(v[j], 0, row, 0, d);
            Arrays.sort(row);
            bins[j] = Base4Bins.index(row[d - k]);
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
