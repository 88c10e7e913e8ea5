package org.dpgauss.sampling;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/** A distribution-free KS check for the sampling tests. */
final class SamplingTestData {

    private SamplingTestData() {
    }

    /** u = L^{-1}(z - mu) by forward substitution. */
    static double[] whiten(double[] z, double[] mu, double[][] l) {
        int d = mu.length;
        double[] u = new double[d];
        for (int i = 0; i < d; i++) {
            double s = z[i] - mu[i];
            for (int j = 0; j < i; j++) {
                s -= l[i][j] * u[j];
            }
            u[i] = s / l[i][i];
        }
        return u;
    }

    /** Kolmogorov-Smirnov distance of the samples to a continuous CDF. */
    static double ksDistance(double[] samples, DoubleUnaryOperator cdf) {
        double[] s = samples.clone();
        Arrays.sort(s);
        int n = s.length;
        double d = 0;
        for (int i = 0; i < n; i++) {
            double f = cdf.applyAsDouble(s[i]);
            d = Math.max(d, Math.max(f - (double) i / n, (double) (i + 1) / n - f));
        }
        return d;
    }

    /**
     * The Dvoretzky-Kiefer-Wolfowitz-Massart threshold: for i.i.d. samples from cdf,
     * P[KS distance > sqrt(ln(2/failure)/(2n))] <= failure, for every continuous distribution.
     */
    static double dkwThreshold(int n, double failure) {
        return Math.sqrt(Math.log(2 / failure) / (2.0 * n));
    }

    static void assertKs(String what, double[] samples, DoubleUnaryOperator cdf, double failure) {
        double d = ksDistance(samples, cdf);
        double t = dkwThreshold(samples.length, failure);
        assertTrue(d < t, what + ": KS distance " + d + " >= DKW threshold " + t + " (n=" + samples.length
                + ", failure probability " + failure + ")");
    }
}
