package org.dpgauss.ndis;

import java.util.Random;

/** Random Gaussians for the property tests (fixed seeds) and the gx2 availability guard. */
final class Pairs {

    private Pairs() {
    }

    static double[][] randomSpd(Random rnd, int d, double ridge) {
        double[][] a = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                a[i][j] = rnd.nextGaussian();
            }
        }
        double[][] s = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double t = 0;
                for (int k = 0; k < d; k++) {
                    t += a[i][k] * a[j][k];
                }
                s[i][j] = t / d + (i == j ? ridge : 0);
            }
        }
        return s;
    }

    static double[] randomVector(Random rnd, int d, double scale) {
        double[] v = new double[d];
        for (int i = 0; i < d; i++) {
            v[i] = scale * rnd.nextGaussian();
        }
        return v;
    }

    static Gaussian random(Random rnd, int d) {
        return Gaussian.of(randomVector(rnd, d, 0.6), randomSpd(rnd, d, 0.3 + rnd.nextDouble()));
    }

    /** S + P with P = B B^T PSD, so that the result is >= S in the Loewner order. */
    static double[][] plusPsd(Random rnd, double[][] s, double scale) {
        int d = s.length;
        double[][] p = randomSpd(rnd, d, 0);
        double[][] out = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                out[i][j] = s[i][j] + scale * p[i][j];
            }
        }
        return out;
    }
}
