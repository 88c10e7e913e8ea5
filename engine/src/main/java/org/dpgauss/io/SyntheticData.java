package org.dpgauss.io;

import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.CounterBasedGenerator;
import org.dpgauss.random.Philox4x32;

/**
 * Synthetic Gaussian data for {@code demo} and {@code bench}, drawn from Philox-4x32-10 (simulation
 * randomness, never privacy noise) so the same key gives the same data on any machine. The bench
 * module uses the same generator, so JMH and {@code dpgauss bench} time the same data.
 */
public final class SyntheticData {

    private SyntheticData() {
    }

    /** Rows {@code mean + sqrt(variances) .* z} with z standard normal; element (i, j) uses normal i*d + j. */
    public static RowBlockMatrix gaussian(int n, int d, double[] mean, double[] variances, long key) {
        CounterBasedGenerator g = Philox4x32.withKey(key, 0x5EEDL);
        RowBlockMatrix x = RowBlockMatrix.zeros(n, d);
        double[] sd = new double[d];
        for (int j = 0; j < d; j++) {
            sd[j] = Math.sqrt(variances[j]);
        }
        for (int b = 0; b < x.blockCount(); b++) {
            double[] block = x.block(b);
            g.fillNormals((long) x.blockStart(b) * d, block, 0, block.length);
            for (int k = 0; k < block.length; k++) {
                int j = k % d;
                block[k] = mean[j] + sd[j] * block[k];
            }
        }
        return x;
    }

    public static RowBlockMatrix standardNormal(int n, int d, long key) {
        return gaussian(n, d, new double[d], filled(d, 1.0), key);
    }

    public static double[] filled(int d, double v) {
        double[] a = new double[d];
        java.util.Arrays.fill(a, v);
        return a;
    }
}
