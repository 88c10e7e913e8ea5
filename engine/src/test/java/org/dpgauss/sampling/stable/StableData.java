package org.dpgauss.sampling.stable;

import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.testing.GaussianTestData;

/** Deterministic test data for the stable subroutines. */
final class StableData {

    private StableData() {
    }

    /** n rows of N(mu, A A^T) with a random fixed A (condition ~10) and mean mu = 5. */
    static double[][] gaussian(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] a = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                a[i][j] = i == j ? 1 + 2 * r.nextDouble() : 0.5 * GaussianTestData.standardNormal(r);
            }
        }
        double[] mu = new double[d];
        java.util.Arrays.fill(mu, 5);
        return GaussianTestData.correlated(n, mu, a, r).toArray();
    }

    /** Replaces a fraction of rows (at random positions) by outliers of the given scale. */
    static double[][] withOutliers(double[][] x, double fraction, double scale, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] y = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            y[i] = x[i].clone();
        }
        int count = (int) Math.round(fraction * x.length);
        for (int c = 0; c < count; c++) {
            int i = r.nextInt(x.length);
            for (int j = 0; j < y[i].length; j++) {
                y[i][j] = y[i][j] + scale * GaussianTestData.standardNormal(r);
            }
        }
        return y;
    }

    static RowBlockMatrix matrix(double[][] x) {
        return RowBlockMatrix.of(x);
    }
}
