package org.dpgauss.bench.stable;

import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * Benchmark inputs for StableCov / StableMean: rows {@code mu + H D g} with g ~ N(0, I_d), D = diag spread
 * log-uniformly over [1, 10] (condition number 100) and H a fixed Householder reflection, so the covariance
 * is not axis-aligned. Planted outliers replace a fraction of the rows by {@code mu + s H D g'} with the
 * scale s log-uniform in [2, 100]: the mildest are peeled only at the lower thresholds and the largest at the
 * first one, so the threshold ladder peels gradually (the harder case for warm starts). Fixed seeds.
 */
public final class StableWorkload {

    private StableWorkload() {
    }

    /** n rows in dimension d with {@code round(outlierFraction * n)} planted outliers at random positions. */
    public static RowBlockMatrix rows(int n, int d, double outlierFraction, long seed) {
        return generate(n, d, outlierFraction, seed, 100);
    }

    /**
     * Paired differences as StableCov sees them: mean-zero rows N(0, Sigma) (the law of
     * (X_i - X_{i+m})/sqrt 2 for Gaussian X) with the same planted outliers.
     */
    public static RowBlockMatrix pairs(int m, int d, double outlierFraction, long seed) {
        return generate(m, d, outlierFraction, seed, 0);
    }

    private static RowBlockMatrix generate(int n, int d, double outlierFraction, long seed, double meanScale) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] diag = new double[d];
        double[] v = new double[d];
        double[] mu = new double[d];
        double vn = 0;
        for (int j = 0; j < d; j++) {
            diag[j] = Math.pow(10, d == 1 ? 0 : (double) j / (d - 1));
            v[j] = r.nextGaussian();
            vn += v[j] * v[j];
            mu[j] = meanScale * r.nextGaussian();
        }
        vn = Math.sqrt(vn);
        for (int j = 0; j < d; j++) {
            v[j] /= vn;
        }
        boolean[] outlier = new boolean[n];
        int count = (int) Math.round(outlierFraction * n);
        for (int c = 0; c < count; ) {
            int i = r.nextInt(n);
            if (!outlier[i]) {
                outlier[i] = true;
                c++;
            }
        }
        RowBlockMatrix x = RowBlockMatrix.zeros(n, d);
        double[] g = new double[d];
        for (int i = 0; i < n; i++) {
            double s = outlier[i] ? Math.exp(Math.log(2) + r.nextDouble() * Math.log(50)) : 1;
            double dot = 0;
            for (int j = 0; j < d; j++) {
                g[j] = s * diag[j] * r.nextGaussian();
                dot += v[j] * g[j];
            }
            for (int j = 0; j < d; j++) {
                g[j] = mu[j] + g[j] - 2 * dot * v[j];
            }
            x.setRow(i, g);
        }
        return x;
    }

    /** lambda0 of spec §2.1 at alpha = 0.05: 4d + 8 sqrt(d ln(3n/alpha)) + 8 ln(3n/alpha). */
    public static double lambda0(int n, int d) {
        double l = Math.log(3.0 * n / 0.05);
        return 4.0 * d + 8 * Math.sqrt(d * l) + 8 * l;
    }

    /** Uniform size-subset of [0, n) (partial Fisher-Yates, fixed seed). */
    public static int[] reference(int n, int size, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = 0; i < size; i++) {
            int j = i + r.nextInt(n - i);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return java.util.Arrays.copyOf(p, size);
    }
}
