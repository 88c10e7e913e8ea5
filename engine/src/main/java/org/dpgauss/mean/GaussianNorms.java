package org.dpgauss.mean;

import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/**
 * Norms of centred Gaussian vectors with independent coordinates {@code z_i ~ N(0, w_i)}, for the a-priori accuracy
 * statements of the mean family (public quantities only).
 * <ul>
 *   <li>{@link #expected}: the mean of the chi distribution with the Satterthwaite effective degrees of freedom
 *       {@code k = (sum w)^2 / sum w^2}, scaled so that its second moment is {@code sum w}. Exact when all
 *       {@code w_i} are equal; otherwise within a few percent of {@code E||z||} (it lies between
 *       {@code sqrt(max w) E chi_1} and {@code sqrt(sum w)}).</li>
 *   <li>{@link #bound}: the Laurent–Massart inequality (Ann. Statist. 2000, Lemma 1),
 *       {@code P(||z||^2 >= sum w + 2 sqrt(x sum w^2) + 2 x max w) <= e^-x}; for equal weights the exact chi-square
 *       quantile is used instead (smaller, and exact).</li>
 * </ul>
 */
public final class GaussianNorms {

    private GaussianNorms() {
    }

    /**
     * @param k degrees of freedom, {@code > 0} (real)
     * @return {@code E chi_k = sqrt(2) Gamma((k+1)/2) / Gamma(k/2)}
     */
    public static double chiMean(double k) {
        return Math.sqrt(2) * Math.exp(LogGamma.value((k + 1) / 2.0) - LogGamma.value(k / 2.0));
    }

    /**
     * @param variances the per-coordinate variances {@code w_i >= 0}, not all 0
     * @return (an accurate approximation of) {@code E||z||_2}
     */
    public static double expected(double[] variances) {
        double s = 0;
        double s2 = 0;
        for (double w : variances) {
            s += w;
            s2 += w * w;
        }
        if (!(s > 0)) {
            return 0;
        }
        double k = s * s / s2;
        return Math.sqrt(s / k) * chiMean(k);
    }

    /**
     * @param variances the per-coordinate variances {@code w_i >= 0}
     * @param beta the probability allowed above the bound, in {@code (0, 1)}
     * @return {@code b} with {@code P(||z||_2 > b) <= beta}
     */
    public static double bound(double[] variances, double beta) {
        double s = 0;
        double s2 = 0;
        double max = 0;
        double min = Double.POSITIVE_INFINITY;
        for (double w : variances) {
            s += w;
            s2 += w * w;
            max = Math.max(max, w);
            min = Math.min(min, w);
        }
        if (!(s > 0)) {
            return 0;
        }
        if (max == min) {
            double q = ChiSquaredDistribution.of(variances.length).inverseCumulativeProbability(1 - beta);
            return Math.sqrt(max * q);
        }
        double x = Math.log(1 / beta);
        return Math.sqrt(s + 2 * Math.sqrt(x * s2) + 2 * x * max);
    }

    /**
     * @param sigma2 a common factor
     * @param variances weights
     * @return {@code sigma2 * variances} (a new array)
     */
    public static double[] scaled(double sigma2, double[] variances) {
        double[] out = new double[variances.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = sigma2 * variances[i];
        }
        return out;
    }
}
