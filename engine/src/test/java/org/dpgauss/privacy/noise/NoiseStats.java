package org.dpgauss.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongToDoubleFunction;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/** Goodness-of-fit helpers for the sampler tests; every check is stated with its failure probability. */
final class NoiseStats {

    private NoiseStats() {
    }

    /**
     * Pearson chi-square test of integer samples against a symmetric pmf: one bin per {@code |x| < k}, where
     * {@code k} is the first value with expected count below 20, plus the two pooled tails {@code x <= -k} and
     * {@code x >= k}. Fails if the statistic exceeds the {@code 1 - alpha} quantile of chi-square with
     * {@code bins - 1} degrees of freedom, so a correct sampler fails with probability about {@code alpha}.
     */
    static void assertChiSquareFits(long[] samples, LongToDoubleFunction symmetricPmf, double alpha) {
        int n = samples.length;
        long k = 0;
        while (n * symmetricPmf.applyAsDouble(k) >= 20) {
            k++;
        }
        Map<Long, Integer> counts = new HashMap<>();
        for (long x : samples) {
            long bin = Math.max(-k, Math.min(k, x));
            counts.merge(bin, 1, Integer::sum);
        }
        double inner = 0;
        for (long x = -k + 1; x < k; x++) {
            inner += symmetricPmf.applyAsDouble(x);
        }
        double tail = (1 - inner) / 2;
        double stat = 0;
        int bins = 0;
        for (long x = -k; x <= k; x++) {
            double p = (x == -k || x == k) ? tail : symmetricPmf.applyAsDouble(x);
            double expected = n * p;
            double observed = counts.getOrDefault(x, 0);
            stat += (observed - expected) * (observed - expected) / expected;
            bins++;
        }
        double critical = ChiSquaredDistribution.of(bins - 1).inverseSurvivalProbability(alpha);
        assertTrue(stat < critical, "chi-square " + stat + " >= critical " + critical + " with " + (bins - 1)
                + " degrees of freedom at alpha=" + alpha);
    }

    /**
     * Kolmogorov–Smirnov distance of the samples to a continuous CDF, checked against the
     * Dvoretzky–Kiefer–Wolfowitz–Massart bound {@code P[D_n > e] <= 2 exp(-2 n e^2)}, which holds for every
     * distribution: the threshold {@code sqrt(ln(2/alpha) / (2n)) + discreteness} fails with probability at most
     * {@code alpha} when the sampled distribution's CDF is within {@code discreteness} of {@code cdf}.
     */
    static void assertKsFits(double[] samples, DoubleUnaryOperator cdf, double alpha, double discreteness) {
        double[] s = samples.clone();
        Arrays.sort(s);
        int n = s.length;
        double d = 0;
        int i = 0;
        while (i < n) {
            int j = i;
            while (j < n && s[j] == s[i]) {
                j++;
            }
            double f = cdf.applyAsDouble(s[i]);
            // empirical CDF just below s[i] is i/n, at s[i] it is j/n; the continuous CDF is f at s[i]
            d = Math.max(d, Math.max(Math.abs(f - (double) i / n), Math.abs((double) j / n - f)));
            i = j;
        }
        double threshold = Math.sqrt(Math.log(2 / alpha) / (2.0 * n)) + discreteness;
        assertTrue(d < threshold, "KS distance " + d + " >= " + threshold + " (n=" + n + ", alpha=" + alpha + ")");
    }

    /** Normalised pmf of N_Z(0, sigma^2) from the exact weights exp(-x^2/(2 sigma^2)). */
    static LongToDoubleFunction discreteGaussianPmf(double sigmaSquared) {
        long range = (long) Math.ceil(40 * Math.sqrt(sigmaSquared)) + 40;
        double z = 0;
        for (long x = -range; x <= range; x++) {
            z += Math.exp(-(double) x * x / (2 * sigmaSquared));
        }
        double norm = z;
        return x -> Math.exp(-(double) x * x / (2 * sigmaSquared)) / norm;
    }

    /** pmf of the discrete Laplace with scale t: (1 - e^{-1/t}) / (1 + e^{-1/t}) e^{-|x|/t}. */
    static LongToDoubleFunction discreteLaplacePmf(long t) {
        double q = Math.exp(-1.0 / t);
        return x -> (1 - q) / (1 + q) * Math.exp(-Math.abs((double) x) / t);
    }
}
