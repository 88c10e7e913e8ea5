package org.dpgauss.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

class SecureLaplaceSamplerTest {

    private static final int N = 200_000;
    private static final double ALPHA = 1e-6;

    private static double[] draw(double b, long seed) {
        double[] out = new double[N];
        SecureLaplaceSampler.using(RandomSource.insecureSeeded(seed)).sample(out, b);
        return out;
    }

    private static double laplaceCdf(double x, double b) {
        return x < 0 ? 0.5 * Math.exp(x / b) : 1 - 0.5 * Math.exp(-x / b);
    }

    @Test
    void momentsMatchTheRequestedScale() {
        for (double b : new double[] {1.0, 1e6}) {
            double[] x = draw(b, 21);
            double mean = 0;
            double sq = 0;
            for (double v : x) {
                mean += v / N;
                sq += v * v / N;
            }
            // Laplace(b): variance 2b^2, E[X^4] = 24 b^4, so sd(mean)/b = sqrt(2/N) and the relative sd of the
            // second moment is sqrt((24 - 4)/4 / N) = sqrt(5/N); 6 standard errors, failure about 4e-9.
            assertEquals(0.0, mean / b, 6 * Math.sqrt(2.0 / N), "mean for b=" + b);
            assertEquals(1.0, sq / (2 * b * b), 6 * Math.sqrt(5.0 / N), "variance for b=" + b);
        }
    }

    @Test
    void distributionIsTheContinuousLaplaceUpToTheGrid() {
        for (double b : new double[] {1.0, 1e6}) {
            double[] x = draw(b, 8);
            // one grid point carries at most about g/(2b) < 2^-21 of mass
            NoiseStats.assertKsFits(x, v -> laplaceCdf(v, b), ALPHA, 2 * 0x1p-20);
        }
        double[] x = draw(1.0, 8);
        assertThrows(AssertionError.class,
                () -> NoiseStats.assertKsFits(x, v -> laplaceCdf(v, 1.05), ALPHA, 2 * 0x1p-20));
    }

    @Test
    void everyOutputIsAnExactGridPoint() {
        for (double b : new double[] {1.0, 0.37, 5e7}) {
            double g = SecureLaplaceSampler.grid(b);
            SecureLaplaceSampler s = SecureLaplaceSampler.using(RandomSource.insecureSeeded(4));
            for (int i = 0; i < 2000; i++) {
                double k = s.sample(b) / g;
                assertEquals(Math.rint(k), k, 0.0);
            }
        }
    }

    @Test
    void badScaleIsRejectedWithTheParameterAndRange() {
        SecureLaplaceSampler s = SecureLaplaceSampler.using(RandomSource.insecureSeeded(1));
        for (double bad : new double[] {0.0, -2.0, Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.sample(bad));
            assertTrue(e.getMessage().startsWith("scale="), e.getMessage());
        }
    }
}
