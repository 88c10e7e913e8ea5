package org.dpgauss.mean.anisotropic;


/** Shared fixtures: anisotropic Gaussian data with eigenvalues {@code i^-2} and a far-away mean (spec §7 protocol). */
final class AnisotropicTestData {

    private AnisotropicTestData() {
    }

    /** {@code Sigma_ii = i^-2}, i = 1..d. */
    static double[] polynomialSpectrum(int d) {
        double[] v = new double[d];
        for (int i = 0; i < d; i++) {
            v[i] = 1.0 / ((i + 1.0) * (i + 1.0));
        }
        return v;
    }

    /** A deterministic mean in {@code [-1000, 1000]^d} (range-freeness: no bound on ||mu|| is given). */
    static double[] farMean(int d) {
        double[] mu = new double[d];
        for (int j = 0; j < d; j++) {
            mu[j] = 1000.0 * Math.sin(1.7 * j + 0.3);
        }
        return mu;
    }

    static double distance(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += (a[j] - b[j]) * (a[j] - b[j]);
        }
        return Math.sqrt(s);
    }
}
