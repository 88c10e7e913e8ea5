package org.dpgauss.mean.anisotropic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

class SparseTopVarTest {

    @Test
    void perInstanceBudgetIsTheBetterValidComposition() {
        // k = 1: basic composition gives the whole epsilon
        assertEquals(1.0, Sparse.perInstanceEpsilon(1, 1.0, 1e-6));
        // large k: advanced composition wins and satisfies its inequality, at least Dwork-Roth's choice
        int k = 400;
        double e0 = Sparse.perInstanceEpsilon(k, 1.0, 1e-6);
        double dr = 1.0 / Math.sqrt(8 * k * Math.log(1e6));
        assertTrue(e0 >= dr && e0 > 1.0 / k, "epsilon_0=" + e0);
        assertTrue(Math.sqrt(2 * k * Math.log(1e6)) * e0 + k * e0 * Math.expm1(e0) <= 1.0);
        Sparse s = Sparse.of(k, 1.0, 1e-6);
        assertTrue(s.thresholdNoiseScale() >= 2 / e0 && s.queryNoiseScale() >= 4 / e0);
        // the corrected §9 A6 scale sqrt(32 k ln(1/delta))/epsilon bounds the threshold scale from above
        assertTrue(s.thresholdNoiseScale() <= Math.sqrt(32 * k * Math.log(1e6)) * (1 + 1e-5));
    }

    /**
     * Counts far above/below T = m/2 with m = 1000: alpha(d = 8, beta = 1e-4) < 300 for k = 2, so each run is exact
     * except with probability 1e-4; 30 runs: < 3e-3.
     */
    @Test
    void sparseSelectsTheFirstKAboveThreshold() {
        Sparse s = Sparse.of(2, 1.0, 1e-6);
        assertTrue(s.accuracy(8, 1e-4) < 300, "alpha=" + s.accuracy(8, 1e-4));
        long[] counts = {0, 1000, 100, 1000, 1000, 0, 1000, 1000};
        Sparse wide = Sparse.of(8, 8.0, 1e-6);
        assertTrue(wide.accuracy(8, 1e-4) < 300, "alpha=" + wide.accuracy(8, 1e-4));
        for (long seed = 0; seed < 30; seed++) {
            assertArrayEquals(new int[] {1, 3}, s.select(counts, 500, RandomSource.insecureSeeded(seed)));
            // cutoff not reached: every positive, and only positives
            assertArrayEquals(new int[] {1, 3, 4, 6, 7}, wide.select(counts, 500, RandomSource.insecureSeeded(seed)));
        }
    }

    /**
     * U9 / Lemma 4.7: Sigma_ii = i^-2, d = 20, k = 3, R = Sigma_33 = 1/9, m = 800, l = 60 (V valid except w.p.
     * < 1e-30). The condition alpha < 0.3 m holds at beta = 1e-4: each of 5 runs fails w.p. < 1e-4.
     */
    @Test
    void topVarFindsTheLargeVariances() {
        double[] sigma = AnisotropicTestData.polynomialSpectrum(20);
        TopVar t = TopVar.of(3, 1.0, 1e-6);
        assertTrue(t.meetsAccuracyCondition(800, 20, 1e-4));
        assertFalse(t.meetsAccuracyCondition(400, 20, 1e-4));
        double r = sigma[2];
        for (long seed = 0; seed < 5; seed++) {
            double[][] v = VarianceTestData.gaussianV(sigma, 800, 60, 300 + seed);
            int[] top = t.select(v, r, RandomSource.insecureSeeded(seed));
            assertEquals(3, top.length, Arrays.toString(top));
            for (int i : top) {
                assertTrue(sigma[i] >= r / 4, "selected " + i + " with Sigma_ii=" + sigma[i]);
            }
        }
    }

    /**
     * §9 A9: ten coordinates with variance 1, one with variance 1000 last in index order, the rest 1e-4; k = 3,
     * so Q = 1. FindKth gives R^ in (1/8, 2]. PAPER (R = R^/8) stops after coordinates 0, 1, 2 and leaves the
     * variance-1000 coordinate in I_bot; HIGH (R = 64 R^ in (8, 128]) selects exactly it. Conditions at
     * beta = 1e-4 each (histogram and sparse), 3 seeds: failure < 1e-3.
     */
    @Test
    void raisedThresholdCatchesTheLateLargeVariance() {
        double[] sigma = new double[20];
        Arrays.fill(sigma, 1e-4);
        Arrays.fill(sigma, 0, 10, 1.0);
        sigma[19] = 1000;
        FindKthLargestVariance find = FindKthLargestVariance.of(1.0, 1e-6);
        TopVar t = TopVar.of(3, 1.0, 1e-6);
        assertTrue(find.histogram().meetsAccuracyCondition(800, 1e-4) && t.meetsAccuracyCondition(800, 20, 1e-4));
        for (long seed = 0; seed < 3; seed++) {
            double[][] v = VarianceTestData.gaussianV(sigma, 800, 60, 900 + seed);
            double rHat = find.estimate(v, 3, RandomSource.insecureSeeded(seed)).value();
            assertTrue(rHat > 1.0 / 8 && rHat <= 2, "R^=" + rHat);
            int[] paper = t.select(v, TopVar.Threshold.PAPER.r(rHat), RandomSource.insecureSeeded(seed + 50));
            assertArrayEquals(new int[] {0, 1, 2}, paper);
            int[] high = t.select(v, TopVar.Threshold.HIGH.r(rHat), RandomSource.insecureSeeded(seed + 70));
            assertArrayEquals(new int[] {19}, high);
        }
    }

    @Test
    void invalidParametersAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sparse.of(0, 1, 1e-6));
        assertTrue(e.getMessage().contains("k=0") && e.getMessage().contains("[1, 2^20]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Sparse.of(2, 1, 2.0));
        assertTrue(e.getMessage().contains("delta=2.0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Sparse.of(1 << 20, 0x1p-25, 0.5));
        assertTrue(e.getMessage().contains("epsilon_0="), e.getMessage());
        Sparse s = Sparse.of(2, 1, 1e-6);
        RandomSource r = RandomSource.insecureSeeded(1);
        e = assertThrows(IllegalArgumentException.class, () -> s.select(new long[] {3, -1}, 1, r));
        assertTrue(e.getMessage().contains("counts[1] must") && e.getMessage().contains("[0, 2^31)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> s.select(new long[] {3}, Double.NaN, r));
        assertTrue(e.getMessage().contains("threshold=NaN"), e.getMessage());
        TopVar t = TopVar.of(2, 1, 1e-6);
        e = assertThrows(IllegalArgumentException.class, () -> t.select(new double[][] {{1}}, 0, r));
        assertTrue(e.getMessage().contains("R=0.0") && e.getMessage().contains("positive"), e.getMessage());
        assertTrue(t.guarantee().certified(), "the recipe's certification (Releases judges the random source)");
    }
}
