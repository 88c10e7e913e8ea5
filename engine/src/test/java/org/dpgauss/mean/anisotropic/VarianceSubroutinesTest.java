package org.dpgauss.mean.anisotropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * U7/U8 (Lemmas 4.3, 4.5, 4.6): Sigma_ii = i^-2, d = 20, l = 60, m = 400. Per group the chance that some
 * chi2_60/60 leaves [1/2, 2] is about 20 * 1.3e-3 < 0.03, so V is invalid with probability < 1e-30
 * (Hoeffding); the §4.6 condition holds at beta = 1e-4, so 15 runs of each estimator fail with probability < 2e-3.
 */
class VarianceSubroutinesTest {

    private static final int D = 20;
    private static final int M = 400;
    private static final int L = 60;
    private static final double[] SIGMA = AnisotropicTestData.polynomialSpectrum(D);

    @Test
    void findKthLargestIsWithinTheLemmaFactors() {
        FindKthLargestVariance f = FindKthLargestVariance.of(1.0, 1e-6);
        assertTrue(f.histogram().meetsAccuracyCondition(M, 1e-4));
        for (int k : new int[] {1, 3, 20}) {
            double q = SIGMA[k - 1]; // sorted decreasing
            for (long seed = 0; seed < 5; seed++) {
                double[][] v = VarianceTestData.gaussianV(SIGMA, M, L, 100 * k + seed);
                assertTrue(VarianceTestData.isValid(v, SIGMA));
                VarianceEstimate e = f.estimate(v, k, RandomSource.insecureSeeded(seed));
                assertTrue(e.value() > q / 16 && e.value() <= 4 * q, "k=" + k + " Q=" + q + " got " + e);
                // the §4.5 [D] tighter window under the concrete condition
                assertTrue(e.value() > q / 8 && e.value() <= 2 * q, "k=" + k + " Q=" + q + " got " + e);
            }
        }
    }

    @Test
    void varianceSumIsWithinTheLemmaFactors() {
        VarianceSum s = VarianceSum.of(1.0, 1e-6);
        int[][] sets = {IntStream.range(0, D).toArray(), {0}, {4, 9, 19}, IntStream.range(10, D).toArray()};
        for (int t = 0; t < sets.length; t++) {
            double total = 0;
            for (int i : sets[t]) {
                total += SIGMA[i];
            }
            for (long seed = 0; seed < 4; seed++) {
                double[][] v = VarianceTestData.gaussianV(SIGMA, M, L, 7000 + 10 * t + seed);
                VarianceEstimate e = s.estimate(v, sets[t], RandomSource.insecureSeeded(seed));
                assertTrue(e.value() > total / 16 && e.value() <= 4 * total, "S=" + total + " got " + e);
            }
        }
        double[][] v = VarianceTestData.gaussianV(SIGMA, M, L, 1);
        VarianceEstimate empty = s.estimate(v, new int[0], RandomSource.insecureSeeded(3));
        assertEquals(0.0, empty.value());
        assertEquals(Base4Bins.ZERO_BIN, empty.bin());
    }

    /** m = 20 groups: the largest count is at most 20 < tau' (about 29), so FAIL is certain. */
    @Test
    void tooFewGroupsFail() {
        double[][] v = VarianceTestData.gaussianV(SIGMA, 20, L, 5);
        VarianceEstimate e = VarianceSum.of(1.0, 1e-6).estimate(v, new int[] {0, 1}, RandomSource.insecureSeeded(1));
        assertSame(VarianceEstimate.FAIL, e);
        assertThrows(IllegalStateException.class, e::value);
        assertSame(VarianceEstimate.FAIL,
                FindKthLargestVariance.of(1.0, 1e-6).estimate(v, 1, RandomSource.insecureSeeded(1)));
    }

    @Test
    void invalidParametersAreRejected() {
        double[][] v = VarianceTestData.gaussianV(SIGMA, 5, 2, 5);
        FindKthLargestVariance f = FindKthLargestVariance.of(1.0, 1e-6);
        RandomSource r = RandomSource.insecureSeeded(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.estimate(v, 0, r));
        assertTrue(e.getMessage().contains("k=0") && e.getMessage().contains("[1, d=20]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> f.estimate(v, 21, r));
        VarianceSum s = VarianceSum.of(1.0, 1e-6);
        e = assertThrows(IllegalArgumentException.class, () -> s.estimate(v, new int[] {3, 3}, r));
        assertTrue(e.getMessage().contains("coordinate 3 appears twice"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> s.estimate(v, new int[] {20}, r));
        assertTrue(e.getMessage().contains("coordinate 20 must be in [0, 20)"), e.getMessage());
        double[][] bad = {{1, -1}};
        e = assertThrows(IllegalArgumentException.class, () -> s.estimate(bad, new int[] {0}, r));
        assertTrue(e.getMessage().contains("V[0][1]=-1.0") && e.getMessage().contains(">= 0"), e.getMessage());
        double[][] nan = {{1, Double.NaN}};
        assertThrows(IllegalArgumentException.class, () -> s.estimate(nan, new int[] {0}, r));
        double[][] ragged = {{1, 2}, {1}};
        e = assertThrows(IllegalArgumentException.class, () -> s.estimate(ragged, new int[] {0}, r));
        assertTrue(e.getMessage().contains("V row 1 has width 1, expected d=2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.estimate(new double[0][], new int[] {}, r));
        assertThrows(IllegalArgumentException.class, () -> VarianceSum.of(-1, 0.5));
    }
}
