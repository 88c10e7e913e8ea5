package org.dpgauss.sampling;

import java.util.Optional;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.dpgauss.mean.GaussianNorms;
import org.dpgauss.release.Accuracy;

/**
 * The a-priori accuracy statements of the PTR-guarded sampling family, in the Mahalanobis distance
 * {@code ||Sigma^{-1/2}(x - mu)||_2} to the true mean mu w.r.t. the true covariance Sigma of Gaussian rows. Public
 * quantities only: n, d, the noise scale c, alpha.
 */
final class MahalanobisAccuracy {

    /** The probability at which the bound is stated before alpha's share is taken off. */
    static final double LEVEL = 0.95;

    /** The metric's words. */
    static final String METRIC = "Mahalanobis distance ||Sigma^(-1/2)(x - mu)|| to the true mean mu, w.r.t. the true"
            + " covariance Sigma";

    private MahalanobisAccuracy() {
    }

    /**
     * A sample meant to be a draw from {@code N(mu, Sigma)}: if it is one (which holds except with probability
     * alpha, FAIL included), its Mahalanobis distance to mu is chi with d degrees of freedom. Expected
     * {@code E chi_d ~ sqrt(d)}; bound the 95% quantile of chi_d, holding with probability {@code 0.95 - alpha}
     * (total variation). Empty when {@code alpha >= 0.9} (nothing useful to state).
     */
    static Optional<Accuracy> sample(int d, double alpha, String assumptions) {
        if (!(alpha < 0.9)) {
            return Optional.empty();
        }
        double level = alpha < 0.45 ? LEVEL : 0.99;
        double q = ChiSquaredDistribution.of(d).inverseCumulativeProbability(level);
        return Optional.of(Accuracy.of(METRIC, GaussianNorms.chiMean(d), Math.sqrt(q), level - alpha,
                assumptions + "; a draw from N(mu, Sigma) itself has this distance (chi with d degrees of freedom):"
                        + " the statement says the sample is as spread as the data, not that it is close to mu"));
    }

    /**
     * The covariance-aware mean {@code mu~ = mean + c W g}: on the event of uniform weights (no outlier, both scores
     * 0; probability at least 1 - alpha) the whitened error is {@code A + c U g / sqrt(m)} with
     * {@code A ~ N(0, I/n)} (the mean of the rows), U the m whitened pairs (independent of A for Gaussian rows:
     * sums and differences) and g ~ N(0, I_m), so {@code ||error||^2 = (1/n + c^2 chi2_m / m) chi2_d} with the two
     * chi-squares independent. Expected {@code sqrt(1/n + c^2) E chi_d}; bound with 1% for chi2_m and the rest of
     * {@code 5% + alpha} for chi2_d.
     */
    static Optional<Accuracy> covarianceAwareMean(long n, int d, double c, double alpha, String assumptions) {
        if (!(alpha < 0.9)) {
            return Optional.empty();
        }
        long m = n / 2;
        double level = alpha < 0.45 ? LEVEL : 0.99;
        double betaD = (1 - level) - 0.01;
        double qm = ChiSquaredDistribution.of(m).inverseCumulativeProbability(0.99);
        double qd = ChiSquaredDistribution.of(d).inverseCumulativeProbability(1 - betaD);
        double expected = Math.sqrt(1.0 / n + c * c) * GaussianNorms.chiMean(d);
        double bound = Math.sqrt((1.0 / n + c * c * qm / m) * qd);
        return Optional.of(Accuracy.of(METRIC, expected, bound, level - alpha, assumptions));
    }
}
