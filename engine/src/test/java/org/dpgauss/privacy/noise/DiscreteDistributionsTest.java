package org.dpgauss.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

/** Exact-distribution tests of the integer samplers (CKS20 Algorithms 2 and 3). */
class DiscreteDistributionsTest {

    private static final int N = 200_000;
    /** Failure probability of each chi-square test for a correct sampler. */
    private static final double ALPHA = 1e-6;

    private static long[] draw(DiscreteGaussian g, long seed) {
        RandomSource r = RandomSource.insecureSeeded(seed);
        long[] s = new long[N];
        for (int i = 0; i < N; i++) {
            s[i] = g.sample(r);
        }
        return s;
    }

    @Test
    void integerSigmaMatchesTheExactPmf() {
        NoiseStats.assertChiSquareFits(draw(DiscreteGaussian.withIntegerSigma(3), 1),
                NoiseStats.discreteGaussianPmf(9), ALPHA);
        NoiseStats.assertChiSquareFits(draw(DiscreteGaussian.withIntegerSigma(1), 2),
                NoiseStats.discreteGaussianPmf(1), ALPHA);
    }

    @Test
    void rationalSigmaSquaredMatchesTheExactPmf() {
        // sigma^2 = 2 and 7/3 take the BigInteger path with t = floor(sigma) + 1
        NoiseStats.assertChiSquareFits(draw(DiscreteGaussian.withSigmaSquared(2, 1), 3),
                NoiseStats.discreteGaussianPmf(2), ALPHA);
        NoiseStats.assertChiSquareFits(draw(DiscreteGaussian.withSigmaSquared(7, 3), 4),
                NoiseStats.discreteGaussianPmf(7.0 / 3), ALPHA);
        // a perfect square given as a fraction is routed to the integer path
        assertEquals(1, DiscreteGaussian.withSigmaSquared(32, 2).sigmaSquaredDenominator());
    }

    @Test
    void chiSquareDetectsAWrongSigma() {
        // the same samples against sigma^2 = 10 instead of 9 must be rejected: guards against a vacuous test
        long[] s = draw(DiscreteGaussian.withIntegerSigma(3), 1);
        assertThrows(AssertionError.class,
                () -> NoiseStats.assertChiSquareFits(s, NoiseStats.discreteGaussianPmf(10), ALPHA));
    }

    @Test
    void discreteLaplaceMatchesTheExactPmf() {
        for (long t : new long[] {1, 4}) {
            DiscreteLaplace lap = DiscreteLaplace.withScale(t);
            RandomSource r = RandomSource.insecureSeeded(5 + t);
            long[] s = new long[N];
            for (int i = 0; i < N; i++) {
                s[i] = lap.sample(r);
            }
            NoiseStats.assertChiSquareFits(s, NoiseStats.discreteLaplacePmf(t), ALPHA);
        }
    }

    @Test
    void invalidParametersAreRejectedWithTheirRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DiscreteGaussian.withIntegerSigma(0));
        assertTrue(e.getMessage().contains("sigma=0") && e.getMessage().contains("[1, "), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.withSigmaSquared(0, 1));
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.withSigmaSquared(1, -1));
        assertThrows(IllegalArgumentException.class, () -> DiscreteLaplace.withScale(0));
        assertThrows(IllegalArgumentException.class, () -> DiscreteLaplace.withScale(DiscreteLaplace.MAX_SCALE + 1));
    }
}
