package org.dpgauss.sampling.stable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/**
 * LargestGoodSubset (spec §3.3): the production version (warm start, downdates, early exit) returns the
 * same sets as the literal Algorithm 4 on random data, planted outliers and adversarial inputs, and the
 * sets have the invariants of spec §6 T8. All data are fixed-seed; nothing here is statistical.
 */
class LargestGoodSubsetTest {

    private final ComputeEngine engine = CpuEngine.instance();

    private static double[] ladder(double lambda0, int k) {
        return StableCov.thresholds(lambda0, k);
    }

    private void assertSameSets(RowBlockMatrix y, double[] lambdas) {
        GoodSubset[] lit = LargestGoodSubset.literalAll(y, lambdas, engine);
        GoodSubset[] prod = LargestGoodSubset.productionAll(y, lambdas, engine);
        for (int l = 0; l < lambdas.length; l++) {
            assertArrayEquals(lit[l].members(), prod[l].members(), "threshold " + l + " (lambda=" + lambdas[l] + ")");
        }
        for (int l = 0; l < lambdas.length; l++) {
            checkInvariants(y, lit[l], lambdas[l]);
            if (l > 0) {
                for (int i : lit[l - 1].indices()) {
                    assertTrue(lit[l].contains(i), "nesting S_{l-1} in S_l at l=" + l);
                }
            }
        }
    }

    /** T8: good, maximal, and sum_{i in S} q_i = m d. */
    private void checkInvariants(RowBlockMatrix y, GoodSubset s, double lambda) {
        int m = y.rows();
        int d = y.cols();
        if (s.size() == 0) {
            return;
        }
        int[] idx = s.indices();
        DMatrixRMaj a = engine.weightedGram(y, idx, null, m);
        CholeskyResult c = engine.cholesky(a);
        assertTrue(c.isPositiveDefinite(), "a non-empty good set has a non-singular Gram");
        double[] q = engine.mahalanobisNorms(y, c.lower(), idx);
        double sum = 0;
        for (double v : q) {
            assertTrue(v <= lambda, "good: every kept norm <= lambda");
            sum += v;
        }
        assertEquals((double) m * d, sum, 1e-8 * m * d, "identity sum_S q_i = m d");
        // maximal: adding any removed point back gives a set that is not good for that point
        boolean[] mem = s.members();
        int checked = 0;
        for (int i = 0; i < m && checked < 5; i++) {
            if (!mem[i]) {
                checked++;
                mem[i] = true;
                int[] idx2 = GoodSubset.indicesOf(mem);
                DMatrixRMaj a2 = engine.weightedGram(y, idx2, null, m);
                CholeskyResult c2 = engine.cholesky(a2);
                if (c2.isPositiveDefinite()) {
                    double qi = engine.mahalanobisNorms(y, c2.lower(), new int[] {i})[0];
                    assertTrue(qi > lambda, "maximal: removed row " + i + " would have norm " + qi + " <= " + lambda);
                }
                mem[i] = false;
            }
        }
    }

    @Test
    void gaussianDataAgreeAtEveryThreshold() {
        for (long seed = 1; seed <= 4; seed++) {
            RowBlockMatrix y = StableCov.pairs(StableData.matrix(StableData.gaussian(400, 6, seed)));
            // lambda0 near typical norms so that the ladder peels different amounts at each threshold
            assertSameSets(y, ladder(8, 6));
        }
    }

    @Test
    void plantedOutliersAgree() {
        for (long seed = 10; seed <= 13; seed++) {
            double[][] x = StableData.withOutliers(StableData.gaussian(600, 5, seed), 0.05, 4 + seed, seed + 100);
            RowBlockMatrix y = StableCov.pairs(StableData.matrix(x));
            assertSameSets(y, ladder(4 * 5 + 20, 5));
            assertSameSets(y, ladder(6, 4));
        }
    }

    @Test
    void gradualOutliersExerciseDowndates() {
        // outliers at many scales: each threshold removes a few rows, so the downdate path runs
        SplittableRandom r = new SplittableRandom(77);
        double[][] x = StableData.gaussian(800, 8, 77);
        for (int t = 0; t < 30; t++) {
            int i = r.nextInt(x.length);
            double s = 1 + 0.3 * t;
            for (int j = 0; j < 8; j++) {
                x[i][j] += s * GaussianTestData.standardNormal(r);
            }
        }
        RowBlockMatrix y = StableCov.pairs(StableData.matrix(x));
        LargestGoodSubset.Stats st = new LargestGoodSubset.Stats();
        double[] lambdas = ladder(14, 10);
        GoodSubset[] prod = LargestGoodSubset.production(y, lambdas, engine, null, st);
        GoodSubset[] lit = LargestGoodSubset.literalAll(y, lambdas, engine);
        for (int l = 0; l < lambdas.length; l++) {
            assertArrayEquals(lit[l].members(), prod[l].members(), "threshold " + l);
        }
        assertTrue(st.downdates() > 0, "the downdate path was exercised: " + st);
    }

    @Test
    void largeBatchesAgree() {
        // 15% moderate outliers go in one batch (below a quarter of the active rows, so the factor is
        // downdated, and sum q_b / m > 1/2, so every norm is recomputed with the downdated factor)
        SplittableRandom r = new SplittableRandom(91);
        for (int rep = 0; rep < 3; rep++) {
            double[][] x = StableData.gaussian(1000, 4, 90 + rep);
            for (int t = 0; t < 150; t++) {
                int i = r.nextInt(x.length);
                for (int j = 0; j < 4; j++) {
                    x[i][j] += (2 + rep) * GaussianTestData.standardNormal(r);
                }
            }
            RowBlockMatrix y = StableCov.pairs(StableData.matrix(x));
            LargestGoodSubset.Stats st = new LargestGoodSubset.Stats();
            double[] lambdas = ladder(6, 8);
            GoodSubset[] prod = LargestGoodSubset.production(y, lambdas, engine, null, st);
            GoodSubset[] lit = LargestGoodSubset.literalAll(y, lambdas, engine);
            for (int l = 0; l < lambdas.length; l++) {
                assertArrayEquals(lit[l].members(), prod[l].members(), "rep " + rep + ", threshold " + l);
            }
            assertTrue(st.downdates() > 10, st.toString());
        }
    }

    @Test
    void duplicatesAgree() {
        double[][] base = StableData.gaussian(60, 4, 5);
        double[][] x = new double[240][];
        for (int i = 0; i < 240; i++) {
            x[i] = base[i % 60].clone(); // every row four times
        }
        x[7] = new double[] {100, -100, 50, 3};
        x[127] = x[7].clone();
        RowBlockMatrix y = StableCov.pairs(StableData.matrix(x));
        assertSameSets(y, ladder(6, 5));
        assertSameSets(y, ladder(2, 3));
    }

    @Test
    void onlySupportOfADirectionEmptiesTheSet() {
        // rows in the plane x_3 = 0 plus one row with x_3 != 0: that row has norm exactly m (leverage 1);
        // removing it makes A singular, so the answer is empty for lambda < m.
        SplittableRandom r = new SplittableRandom(9);
        int m = 50;
        double[][] y = new double[m][3];
        for (int i = 0; i < m; i++) {
            y[i][0] = GaussianTestData.standardNormal(r);
            y[i][1] = GaussianTestData.standardNormal(r);
        }
        y[17][2] = 0.3;
        RowBlockMatrix ym = StableData.matrix(y);
        GoodSubset lit = LargestGoodSubset.literal(ym, 20, engine);
        assertEquals(0, lit.size());
        assertSameSets(ym, ladder(20, 4));
        // and with lambda >= m the row survives
        assertEquals(m, LargestGoodSubset.literal(ym, m * (1 + 1e-6), engine).size());
        assertSameSets(ym, new double[] {m * (1 + 1e-6)});
    }

    @Test
    void singularDataGiveTheEmptySet() {
        // fewer pairs than dimensions: the Gram of [m] is singular
        RowBlockMatrix y = StableData.matrix(StableData.gaussian(4, 6, 3));
        assertEquals(0, LargestGoodSubset.literal(y, 100, engine).size());
        assertSameSets(y, ladder(10, 3));
        // an all-zero column
        double[][] z = StableData.gaussian(100, 3, 4);
        for (double[] row : z) {
            row[1] = 0;
        }
        assertSameSets(StableData.matrix(z), ladder(5, 3));
    }

    @Test
    void exactTiesOnTheThresholdAgree() {
        // +-e_j rows: A = (2/m) I, every norm is exactly m/2 = d in exact arithmetic; lambda0 = d puts the
        // lowest threshold on the tie (kept, as '>' is strict), which the production version must settle
        // exactly as the literal one does (it hands the tie to the literal algorithm).
        int d = 5;
        double[][] y = new double[2 * d][d];
        for (int j = 0; j < d; j++) {
            y[2 * j][j] = 1;
            y[2 * j + 1][j] = -1;
        }
        RowBlockMatrix ym = StableData.matrix(y);
        assertSameSets(ym, ladder(d, 3));
        LargestGoodSubset.Stats st = new LargestGoodSubset.Stats();
        GoodSubset[] prod = LargestGoodSubset.production(ym, ladder(d, 3), engine, null, st);
        // the computed norms round to one side of d; which side does not matter, only that both versions agree
        assertTrue(st.literalReplays() >= 1, "the tie was handed to the literal algorithm: " + st);
    }

    @Test
    void batchAndOneAtATimePeelingAgree() {
        // order independence (§3.3): removing only the single worst violator per round gives the same set
        double[][] x = StableData.withOutliers(StableData.gaussian(300, 4, 21), 0.1, 6, 22);
        RowBlockMatrix y = StableCov.pairs(StableData.matrix(x));
        double lambda = 9;
        int m = y.rows();
        boolean[] s = new boolean[m];
        java.util.Arrays.fill(s, true);
        while (true) {
            int[] idx = GoodSubset.indicesOf(s);
            if (idx.length == 0) {
                break;
            }
            CholeskyResult c = engine.cholesky(engine.weightedGram(y, idx, null, m));
            if (!c.isPositiveDefinite()) {
                java.util.Arrays.fill(s, false);
                break;
            }
            double[] q = engine.mahalanobisNorms(y, c.lower(), idx);
            int worst = -1;
            for (int t = 0; t < idx.length; t++) {
                if (q[t] > lambda && (worst < 0 || q[t] > q[worst])) {
                    worst = t;
                }
            }
            if (worst < 0) {
                break;
            }
            s[idx[worst]] = false;
        }
        assertArrayEquals(s, LargestGoodSubset.literal(y, lambda, engine).members());
        assertArrayEquals(s, LargestGoodSubset.productionAll(y, new double[] {lambda}, engine)[0].members());
    }

    @Test
    void downdateMatchesRefactorisation() {
        double[][] x = StableData.gaussian(200, 7, 31);
        RowBlockMatrix y = StableData.matrix(x);
        int m = 200;
        DMatrixRMaj a = engine.weightedGram(y, null, null, m);
        double[] l = engine.cholesky(a).lower().data.clone();
        int[] rest = new int[m - 1];
        for (int i = 1; i < m; i++) {
            rest[i - 1] = i;
        }
        double[] v = y.row(0);
        for (int j = 0; j < 7; j++) {
            v[j] /= Math.sqrt(m);
        }
        assertTrue(LargestGoodSubset.downdateOne(l, v, 7));
        double[] fresh = engine.cholesky(engine.weightedGram(y, rest, null, m)).lower().data;
        for (int t = 0; t < l.length; t++) {
            assertEquals(fresh[t], l[t], 1e-12, "entry " + t);
        }
        // removing the only support of a direction fails instead of producing a bogus factor
        double[] l2 = {1, 0, 0, 1};
        assertFalse(LargestGoodSubset.downdateOne(l2, new double[] {1, 0}, 2));
    }

    @Test
    void rejectsBadThresholds() {
        RowBlockMatrix y = StableData.matrix(StableData.gaussian(10, 2, 1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> LargestGoodSubset.literal(y, Double.NaN, engine));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> LargestGoodSubset.productionAll(y, new double[] {3, 2}, engine));
    }
}
