package org.dpgauss.mean.anisotropic;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/**
 * The group size rule of spec anisotropic-mean-estimation §4.3 [R]: the smallest integer {@code l} with
 * {@code d (F(l/2) + 1 - F(2l)) <= 1/8}, {@code F} the chi-square CDF with {@code l} degrees of freedom (exact:
 * Commons Statistics evaluates both tails directly by the regularized incomplete gamma functions). Spec values:
 * d = 1 → 11, 2 → 16, 10 → 30, 100 → 50, 1000 → 72, 10^4 → 95. Static utility.
 */
public final class ChiSquareRule {

    private ChiSquareRule() {
    }

    /**
     * @param d the dimension, {@code >= 1}
     * @return the smallest {@code l} with {@code d Pr[chi2_l/l outside [1/2, 2]] <= 1/8}
     */
    public static int groupHalfSize(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " must be >= 1: the rule bounds a union over d coordinates");
        }
        for (int l = 1; l < 100000; l++) {
            if (d * outsideProbability(l) <= 0.125) {
                return l;
            }
        }
        throw new IllegalArgumentException("d=" + d + " is too large for the chi-square rule (l >= 100000)");
    }

    /** {@code Pr[chi2_l < l/2] + Pr[chi2_l > 2l]}, both tails computed directly. */
    static double outsideProbability(int l) {
        ChiSquaredDistribution chi = ChiSquaredDistribution.of(l);
        return chi.cumulativeProbability(l / 2.0) + chi.survivalProbability(2.0 * l);
    }
}
