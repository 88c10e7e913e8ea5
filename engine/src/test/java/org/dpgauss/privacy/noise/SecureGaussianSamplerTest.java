package org.dpgauss.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.RandomSource;
import org.dpgauss.special.Normal;
import org.junit.jupiter.api.Test;

class SecureGaussianSamplerTest {

    private static final int N = 200_000;
    /** Failure probability of each KS check for a correct sampler (DKW bound). */
    private static final double ALPHA = 1e-6;

    private static double[] draw(double sigma, long seed) {
        double[] out = new double[N];
        SecureGaussianSampler.using(RandomSource.insecureSeeded(seed)).sample(out, sigma);
        return out;
    }

    @Test
    void momentsMatchTheRequestedSigma() {
        for (double sigma : new double[] {1.0, 1e6, 3.7e-5}) {
            double[] x = draw(sigma, 42);
            double mean = 0;
            for (double v : x) {
                mean += v / N;
            }
            double var = 0;
            for (double v : x) {
                var += (v - mean) * (v - mean) / (N - 1);
            }
            // sample mean ~ N(0, sigma^2/N), sample variance has relative sd sqrt(2/N) = 0.0032: 6 standard
            // errors each, failure probability about 4e-9 for a correct sampler; a 2% error in sigma fails.
            assertEquals(0.0, mean / sigma, 6 / Math.sqrt(N), "mean for sigma=" + sigma);
            assertEquals(1.0, var / (sigma * sigma), 6 * Math.sqrt(2.0 / N), "variance for sigma=" + sigma);
        }
    }

    @Test
    void distributionIsTheContinuousGaussianUpToTheGrid() {
        for (double sigma : new double[] {1.0, 1e6}) {
            double[] x = draw(sigma, 7);
            // One grid point carries at most g/(sigma sqrt(2 pi)) < 2^-20 of mass; the CDF of g*N_Z(0, s^2) is
            // within that (plus the 2^-20 relative change of scale) of the continuous CDF.
            NoiseStats.assertKsFits(x, v -> Normal.cdf(v / sigma), ALPHA, 2 * 0x1p-20);
        }
    }

    @Test
    void ksDetectsAWrongScale() {
        double[] x = draw(1.0, 7);
        assertThrows(AssertionError.class,
                () -> NoiseStats.assertKsFits(x, v -> Normal.cdf(v / 1.05), ALPHA, 2 * 0x1p-20));
    }

    @Test
    void everyOutputIsAnExactGridPoint() {
        for (double sigma : new double[] {1.0, 0.1, 1e6, 123.456, 1e-300, 1e280}) {
            double g = SecureGaussianSampler.grid(sigma);
            assertEquals(Math.scalb(1.0, Math.getExponent(g)), g, 0.0, "grid is a power of two");
            double ratio = sigma / g;
            assertTrue(ratio >= 0x1p20 && ratio < 0x1p21, "sigma/g=" + ratio);
            SecureGaussianSampler s = SecureGaussianSampler.using(RandomSource.insecureSeeded(3));
            for (int i = 0; i < 2000; i++) {
                double v = s.sample(sigma);
                double k = v / g;
                assertEquals(Math.rint(k), k, 0.0, "value/g must be an integer");
                assertEquals(v, k * g, 0.0, "value must equal (value/g)*g exactly");
                assertTrue(Math.abs(k) < 0x1p53);
            }
        }
    }

    @Test
    void effectiveSigmaIsNeverBelowTheRequestedOne() {
        for (double sigma : new double[] {1.0, Math.PI, 1e-7, 7e9}) {
            double e = SecureGaussianSampler.effectiveSigma(sigma);
            assertTrue(e >= sigma && e <= sigma * (1 + 0x1p-20), sigma + " -> " + e);
        }
        assertEquals(1.0, SecureGaussianSampler.effectiveSigma(1.0), 0.0);
    }

    @Test
    void badSigmaIsRejectedWithTheParameterAndRange() {
        SecureGaussianSampler s = SecureGaussianSampler.using(RandomSource.insecureSeeded(1));
        for (double bad : new double[] {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY, 1e-310, 1e300}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.sample(bad));
            assertTrue(e.getMessage().startsWith("sigma="), e.getMessage());
            assertTrue(e.getMessage().contains("outside") || e.getMessage().contains("not a number"),
                    e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> s.sample(new double[3], 0.0));
        assertThrows(IllegalArgumentException.class, () -> s.sampleIndex(1.0, 3.0)); // not a power of two
        assertThrows(IllegalArgumentException.class, () -> s.sampleIndex(1.0, 2.0)); // sigma/grid < 1
    }

    @Test
    void theDefaultSourceIsSecureRandom() {
        SecureGaussianSampler s = SecureGaussianSampler.create();
        assertFalse(s.source().isInsecure());
        assertTrue(s.source().describe().contains("SecureRandom"), s.source().describe());
        assertTrue(Double.isFinite(s.sample(1.0)));
        SecureLaplaceSampler l = SecureLaplaceSampler.create();
        assertFalse(l.source().isInsecure());
        assertTrue(l.source().describe().contains("SecureRandom"), l.source().describe());
    }

    @Test
    void seededSamplersAreReproducible() {
        assertEquals(draw(2.0, 99)[123], draw(2.0, 99)[123], 0.0);
    }
}
