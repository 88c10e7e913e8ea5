package org.dpgauss.testing;

import java.util.SplittableRandom;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * The seeded Gaussian rows every test draws its data from: axis-aligned rows from the keyed Philox stream of
 * {@link SyntheticData} (the same rows the command line's demo draws), and correlated rows {@code mu + L g} from a
 * {@link SplittableRandom}.
 */
public final class GaussianTestData {

    private GaussianTestData() {
    }

    /**
     * @param n the number of rows
     * @param mean the mean, of length d
     * @param variances the per-coordinate variances, of length d
     * @param key the Philox key
     * @return n rows of {@code N(mean, diag(variances))}
     */
    public static RowBlockMatrix diagonal(int n, double[] mean, double[] variances, long key) {
        return SyntheticData.gaussian(n, mean.length, mean, variances, key);
    }

    /**
     * @param n the number of rows
     * @param variances the per-coordinate variances
     * @param key the Philox key
     * @return n rows of {@code N(0, diag(variances))}
     */
    public static RowBlockMatrix centred(int n, double[] variances, long key) {
        return diagonal(n, new double[variances.length], variances, key);
    }

    /**
     * @param n the number of rows
     * @param mu the mean, of length d
     * @param l a lower-triangular d x d factor (entries above the diagonal are ignored)
     * @param r the source of the normals ({@link #standardNormal}), advanced by {@code n d} normals
     * @return n rows of {@code N(mu, L L^T)}
     */
    public static RowBlockMatrix correlated(int n, double[] mu, double[][] l, SplittableRandom r) {
        int d = mu.length;
        RowBlockMatrix x = RowBlockMatrix.zeros(n, d);
        double[] g = new double[d];
        double[] row = new double[d];
        for (int t = 0; t < n; t++) {
            for (int j = 0; j < d; j++) {
                g[j] = standardNormal(r);
            }
            for (int i = 0; i < d; i++) {
                double s = mu[i];
                for (int j = 0; j <= i; j++) {
                    s += l[i][j] * g[j];
                }
                row[i] = s;
            }
            x.setRow(t, row);
        }
        return x;
    }

    /**
     * @param r the source of two uniforms
     * @return one standard normal (Box-Muller)
     */
    public static double standardNormal(SplittableRandom r) {
        double u = r.nextDouble();
        double v = r.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u)) * Math.cos(2 * Math.PI * v);
    }
}
