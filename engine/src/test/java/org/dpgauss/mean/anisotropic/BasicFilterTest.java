package org.dpgauss.mean.anisotropic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.CpuEngine;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/** BasicFilter (spec §3.1), U1 of spec §6 and privacy sanity test (a). */
class BasicFilterTest {

    @Test
    void keepProbabilityIsClampedTwoCOverNMinusOne() {
        assertEquals(0, BasicFilter.keepNumerator(5, 10));      // c = n/2: p = 0
        assertEquals(2, BasicFilter.keepNumerator(6, 10));      // p = 2/10
        assertEquals(10, BasicFilter.keepNumerator(10, 10));    // within lambda of every point: p = 1
        assertEquals(1.0, BasicFilter.keepProbability(1, 1));   // n = 1 keeps its point (spec §9)
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BasicFilter.keepNumerator(0, 10));
        // the count is private: the message names the rule, not the count (issue 24, item 2)
        assertTrue(!e.getMessage().contains("c=0") && e.getMessage().contains("[1, n=10]"), e.getMessage());
    }

    @Test
    void keepFrequencyMatchesProbability() {
        // 10000 rows all with c = 6 of n = 10 is impossible as data, so test the Bernoulli step directly:
        int n = 10;
        int[] counts = {6, 6, 6, 6, 6, 6, 6, 6, 6, 6};
        RandomSource r = RandomSource.insecureSeeded(3);
        int kept = 0;
        int trials = 20_000;
        for (int t = 0; t < trials; t++) {
            for (boolean k : BasicFilter.sample(counts, r)) {
                kept += k ? 1 : 0;
            }
        }
        // p = 0.2 over 200000 draws: sd 0.0009, tolerance 5 sd (failure probability < 1e-6)
        assertEquals(0.2, kept / (double) (trials * n), 0.0045);
    }

    @Test
    void gaussianDataAllPassAtLambdaStarForIdentityAndSigma() {
        // U1 (Lemma 3.2): Pr[C != X] <= beta = 0.01 for this fixed seed.
        int n = 500;
        int d = 40;
        double[] spec = AnisotropicTestData.polynomialSpectrum(d);
        RowBlockMatrix x = GaussianTestData.diagonal(n, AnisotropicTestData.farMean(d), spec, 11);
        ShapeMatrix sigma = ShapeMatrix.diagonal(spec);
        double lamSigma = LambdaRule.knownCovariance(sigma, n, 0.01);
        RowBlockMatrix y = RowBlockMatrix.zeros(n, d);
        double[] row = new double[d];
        double[] out = new double[d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, row, 0);
            sigma.applyPower(-0.25, row, out);
            y.setRow(i, out);
        }
        int[] all = new int[n];
        java.util.Arrays.fill(all, n);
        assertArrayEquals(all, CpuEngine.instance().neighbourCounts(y, lamSigma));
        double lamI = LambdaRule.folklore(sigma.tracePower(1), 1.0, n, 0.01);
        assertArrayEquals(all, CpuEngine.instance().neighbourCounts(x, lamI));
        boolean[] keep = BasicFilter.run(x, lamI, CpuEngine.instance(), RandomSource.insecureSeeded(1));
        for (boolean k : keep) {
            assertTrue(k);
        }
    }

    @Test
    void isolatedOutlierIsAlwaysDropped() {
        // Privacy sanity test (a) of spec §6: an outlier far from a cluster has c = 1 <= n/2, so p = 0.
        int n = 301;
        int d = 5;
        RowBlockMatrix x = RowBlockMatrix.zeros(n, d);
        RowBlockMatrix cluster = SyntheticData.standardNormal(n - 1, d, 5);
        for (int i = 0; i < n - 1; i++) {
            x.setRow(i, cluster.row(i));
        }
        x.set(n - 1, 0, 1e6);
        double lambda = LambdaRule.folklore(d, 1.0, n, 0.01);
        RandomSource r = RandomSource.insecureSeeded(9);
        for (int t = 0; t < 20; t++) {
            boolean[] keep = BasicFilter.run(x, lambda, CpuEngine.instance(), r);
            assertFalse(keep[n - 1]);
        }
    }
}
