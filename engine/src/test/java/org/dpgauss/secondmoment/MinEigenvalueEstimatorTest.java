package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.Release;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/** Algorithm 4 (spec §2.5): buckets, accuracy P9, FAIL and the guarantee. */
class MinEigenvalueEstimatorTest {

    private static final ComputeEngine CPU = CpuEngine.instance();

    @Test
    void bucketsAreGeometricWithRatioOneOverOneMinusAlpha() {
        MinEigenvalueEstimator e = MinEigenvalueEstimator.of(10, 0.5, 1, 1e-6);
        assertEquals(2.0, e.ratio());
        assertEquals(0, e.bucket(1.0));
        assertEquals(0, e.bucket(1.999));
        assertEquals(1, e.bucket(2.0));
        assertEquals(-1, e.bucket(0.5));
        assertEquals(-2, e.bucket(0.49));
        assertEquals(MinEigenvalueEstimator.ZERO_BUCKET, e.bucket(0.0));
        assertEquals(MinEigenvalueEstimator.ZERO_BUCKET, e.bucket(-1e-3));
        assertEquals(0.25, e.lowerEdge(-2));
        assertEquals(0.0, e.lowerEdge(MinEigenvalueEstimator.ZERO_BUCKET));
        MinEigenvalueEstimator f = MinEigenvalueEstimator.of(10, 0.25, 1, 1e-6);
        for (double lambda : new double[] {1e-9, 3e-4, 0.7, 1, 4.0 / 3, 1e5}) {
            long j = f.bucket(lambda);
            assertTrue(f.lowerEdge(j) <= lambda && lambda < f.lowerEdge(j + 1), "bucket of " + lambda);
        }
    }

    /**
     * P9 on Gaussian data with lambda_min = 1e-2 (d = 3, n = 20000, groups of m = 100, 200 groups, eps = 1): group
     * minimum eigenvalues lie in about [0.68, 1.4] lambda_min, so at most two buckets hold them and the released
     * lower edge is in [(1-alpha)^2, 1+alpha] lambda_min. Failure probability per run below 1e-6 (Wishart extreme
     * eigenvalue concentration; FAIL needs a Laplace(2) draw below -70); 10 seeds.
     */
    @Test
    void estimateIsWithinTheP9Interval() {
        RowBlockMatrix x = GaussianTestData.centred(20_000, new double[] {1, 0.1, 0.01}, 17);
        double lambdaMin = SpectralMetrics.eigenvalues(SpectralMetrics.secondMoment(x, CPU))[0];
        MinEigenvalueEstimator est = MinEigenvalueEstimator.of(100, 0.5, 1.0, 1e-6);
        for (long seed = 0; seed < 10; seed++) {
            double l = est.estimate(x, RandomSource.insecureSeeded(seed), CPU);
            assertTrue(l >= 0.25 * lambdaMin && l <= 1.5 * lambdaMin, "lambda~=" + l + " vs lambda_min=" + lambdaMin);
        }
    }

    /** Two groups cannot pass the threshold 1 + 2 ln(1/delta)/eps ~ 28.6: FAIL (probability of PASS < 1e-5). */
    @Test
    void tooFewGroupsFail() {
        RowBlockMatrix x = GaussianTestData.centred(10, new double[] {1, 1}, 3);
        double l = MinEigenvalueEstimator.of(5, 0.5, 1.0, 1e-6).estimate(x, RandomSource.insecureSeeded(1), CPU);
        assertTrue(Double.isNaN(l));
    }

    @Test
    void guaranteeAndValidation() {
        MinEigenvalueEstimator est = MinEigenvalueEstimator.of(50, 0.5, 0.3, 1e-7);
        Release g = est.step("alg4");
        assertEquals(NeighbouringRelation.REPLACE_ONE, g.relation());
        assertEquals(Release.Kind.APPROX_DP, g.kind());
        assertEquals(0.3, g.approxDp().epsilon());
        assertEquals(1e-7, g.approxDp().delta());
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(0, 0.5, 1, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(5, 0.7, 1, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(5, 0.5, 0, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(5, 0.5, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(50, 0.5, 1, 1e-6)
                .estimate(GaussianTestData.centred(10, new double[] {1}, 1), RandomSource.insecureSeeded(1), CPU));
    }

    /**
     * The groups as a selection and one pass: each group's lambda_min is the engine's value on the rows in memory
     * in shuffled order (the direct computation below), bit for bit, in the default layout and in blocks that do not
     * hold a whole number of groups (64 rows, m = 7: the groups' blocks hold 63), and the leftover rows are dropped.
     */
    @Test
    void groupMinimaAreTheEngineValuesOnTheShuffledRowsInEveryLayout() {
        int n = 200;
        int m = 7;
        int groups = n / m;
        RowBlockMatrix x = GaussianTestData.centred(n, new double[] {1, 0.3, 0.05}, 5);
        int[] order = new int[n];
        java.util.List<Integer> shuffled = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            shuffled.add(i);
        }
        java.util.Collections.shuffle(shuffled, new java.util.Random(3));
        for (int i = 0; i < n; i++) {
            order[i] = shuffled.get(i);
        }
        double[] direct = new double[groups];
        for (int t = 0; t < groups; t++) {
            int[] rows = java.util.Arrays.copyOfRange(order, t * m, t * m + m);
            direct[t] = CPU.symmetricEigen(CPU.weightedGram(x, rows, null, m)).value(0);
        }
        MinEigenvalueEstimator est = MinEigenvalueEstimator.of(m, 0.5, 1.0, 1e-6);
        for (org.dpgauss.rows.RowLayout layout : java.util.List.of(org.dpgauss.rows.RowLayout.forDimension(3),
                org.dpgauss.rows.RowLayout.of(64, 2), org.dpgauss.rows.RowLayout.of(5, 1))) {
            double[] passes = est.groupMinima(org.dpgauss.rows.LocalRows.of(x, CPU, layout), order, groups);
            assertEquals(groups, passes.length, layout.toString());
            for (int t = 0; t < groups; t++) {
                assertEquals(Double.doubleToLongBits(direct[t]), Double.doubleToLongBits(passes[t]),
                        layout + ", group " + t);
            }
        }
        assertEquals(63, MinEigenvalueEstimator.groupLayout(org.dpgauss.rows.RowLayout.of(64, 2), m).blockRows());
        assertEquals(7, MinEigenvalueEstimator.groupLayout(org.dpgauss.rows.RowLayout.of(5, 1), m).blockRows());
    }

    /** A selection names distinct rows of the source. */
    @Test
    void selectionsRefuseRepeatedOrMissingRows() {
        org.dpgauss.rows.LocalRows rows = org.dpgauss.rows.LocalRows.of(
                GaussianTestData.centred(10, new double[] {1}, 1), CPU);
        org.dpgauss.rows.RowLayout lay = rows.layout();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> rows.select(new int[] {1, 1}, lay))
                .getMessage().contains("repeated"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> rows.select(new int[] {10}, lay))
                .getMessage().contains("is not one of the n=10 rows"));
        assertThrows(IllegalArgumentException.class, () -> rows.select(new int[0], lay));
        assertEquals(3, rows.select(new int[] {9, 0, 4}, lay).rows());
    }
}
