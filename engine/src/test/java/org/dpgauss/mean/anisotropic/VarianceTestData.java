package org.dpgauss.mean.anisotropic;

import java.util.Random;

/** Statistics V of spec §4.2 (11) for Gaussian data with diagonal Sigma, drawn directly: V_i^(j) ~ Sigma_ii chi2_l / l. */
final class VarianceTestData {

    private VarianceTestData() {
    }

    /**
     * (X_i^(2r-1) - X_i^(2r)) ~ N(0, 2 Sigma_ii), so V_i^(j) = (1/(2l)) sum_r of l such squares = Sigma_ii chi2_l / l.
     */
    static double[][] gaussianV(double[] variances, int m, int l, long seed) {
        Random rnd = new Random(seed);
        double[][] v = new double[m][variances.length];
        for (int j = 0; j < m; j++) {
            for (int i = 0; i < variances.length; i++) {
                double s = 0;
                for (int r = 0; r < l; r++) {
                    double z = rnd.nextGaussian();
                    s += z * z;
                }
                v[j][i] = variances[i] * s / l;
            }
        }
        return v;
    }

    /** Def 4.2: at least 4m/5 groups with Sigma_ii/2 <= V_i^(j) <= 2 Sigma_ii for every i. */
    static boolean isValid(double[][] v, double[] variances) {
        int good = 0;
        for (double[] row : v) {
            boolean ok = true;
            for (int i = 0; i < row.length; i++) {
                ok &= row[i] >= variances[i] / 2 && row[i] <= 2 * variances[i];
            }
            good += ok ? 1 : 0;
        }
        return 5 * good >= 4 * v.length;
    }
}
