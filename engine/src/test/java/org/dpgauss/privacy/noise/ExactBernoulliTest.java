package org.dpgauss.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

class ExactBernoulliTest {

    private static final int N = 200_000;

    /** |frequency - p| < 6 standard errors: a correct sampler fails with probability about 2e-9 (normal approx.). */
    private static void assertFrequency(double p, int hits) {
        double se = Math.sqrt(p * (1 - p) / N);
        assertEquals(p, (double) hits / N, 6 * se, "frequency of Bernoulli(" + p + ")");
    }

    @Test
    void bernoulliExpNegHasProbabilityExpMinusGammaOnTheLongPath() {
        RandomSource r = RandomSource.insecureSeeded(11);
        long[][] gammas = {{0, 1}, {1, 2}, {1, 1}, {7, 3}, {5, 1}};
        for (long[] g : gammas) {
            int hits = 0;
            for (int i = 0; i < N; i++) {
                hits += ExactBernoulli.bernoulliExpNeg(r, g[0], g[1]) ? 1 : 0;
            }
            assertFrequency(Math.exp(-(double) g[0] / g[1]), hits);
        }
    }

    @Test
    void bernoulliExpNegHasProbabilityExpMinusGammaOnTheBigIntegerPath() {
        // gamma = 3 * 2^70 / 2^71 = 1.5, with numbers beyond 64 bits
        RandomSource r = RandomSource.insecureSeeded(12);
        BigInteger num = BigInteger.valueOf(3).shiftLeft(70);
        BigInteger den = BigInteger.ONE.shiftLeft(71);
        int hits = 0;
        for (int i = 0; i < N; i++) {
            hits += ExactBernoulli.bernoulliExpNeg(r, num, den) ? 1 : 0;
        }
        assertFrequency(Math.exp(-1.5), hits);
    }

    @Test
    void uniformBelowStaysInRangeAndHitsTheTopValue() {
        RandomSource r = RandomSource.insecureSeeded(13);
        boolean sawTop = false;
        for (int i = 0; i < 10_000; i++) {
            long u = ExactBernoulli.uniformBelow(r, 5);
            assertTrue(u >= 0 && u < 5);
            sawTop |= u == 4;
        }
        assertTrue(sawTop); // P[never 4 in 10^4 draws] = 0.8^10000
        BigInteger bound = BigInteger.ONE.shiftLeft(100).add(BigInteger.ONE);
        for (int i = 0; i < 1000; i++) {
            BigInteger u = ExactBernoulli.uniformBelow(r, bound);
            assertTrue(u.signum() >= 0 && u.compareTo(bound) < 0);
        }
    }
}
