package org.dpgauss.mean.anisotropic;

/** Expected errors of Algorithm 1 as implemented (spec §3.1 step 6 and the §7 table), for the tests. */
final class Algorithm1Predictions {

    private Algorithm1Predictions() {
    }

    /**
     * Noise scale per whitened coordinate: {@code s = sqrt(8 ln(1.25/delta)) lambda / (epsilon n^)} at the internal
     * (epsilon, delta) and the expected noisy count {@code n^ = n - ln(1/delta)/epsilon}.
     */
    static double noiseScale(RescaledAveraging a, int n) {
        double e = a.internalEpsilon();
        double d = a.internalDelta();
        double nHat = n - Math.log(1 / d) / e;
        if (!(nHat > 0)) {
            throw new IllegalArgumentException("n=" + n + " is below the count shift: FAIL expected");
        }
        return Math.sqrt(8 * Math.log(1.25 / d)) * a.lambda() / (e * nHat);
    }

    /** Expected squared error {@code tr Sigma / n + s^2 tr M^{1/2}} (sampling plus noise; cross term mean 0). */
    static double meanSquaredError(RescaledAveraging a, int n, double traceSigma) {
        double s = noiseScale(a, n);
        return traceSigma / n + s * s * a.shape().tracePower(0.5);
    }

    /**
     * Relative standard deviation of an average of {@code runs} squared errors whose noise part is a weighted
     * chi-square with weights {@code w} (eigenvalues of {@code M^{1/2}}): {@code sqrt(2 / (runs * dof))},
     * {@code dof = (sum w)^2 / sum w^2}.
     */
    static double relativeSdOfMse(double[] weights, int runs) {
        double s = 0;
        double s2 = 0;
        for (double w : weights) {
            s += w;
            s2 += w * w;
        }
        return Math.sqrt(2 / (runs * s * s / s2));
    }
}
