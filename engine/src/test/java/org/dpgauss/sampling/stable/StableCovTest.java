package org.dpgauss.sampling.stable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** StableCov (spec §3.2): production equals literal; T1 and T9 of spec §6. Fixed seeds, deterministic. */
class StableCovTest {

    private final ComputeEngine engine = CpuEngine.instance();

    private static void assertSame(StableCovResult a, StableCovResult b) {
        assertEquals(a.score(), b.score(), "score");
        assertArrayEquals(a.weights(), b.weights(), "weights");
    }

    @Test
    void productionEqualsLiteral() {
        for (long seed = 1; seed <= 3; seed++) {
            double[][] x = StableData.withOutliers(StableData.gaussian(1000, 6, seed), 0.03, 3 + 2 * seed, seed + 7);
            RowBlockMatrix xm = StableData.matrix(x);
            for (double lambda0 : new double[] {6, 12, 4 * 6 + 20}) {
                StableCov sc = StableCov.of(lambda0, 5);
                assertSame(sc.applyLiteral(xm, engine), sc.apply(xm, engine));
            }
        }
    }

    @Test
    void scoreZeroCharacterisation() {
        // T1: Score = 0 <=> max_i Y_i^T Sigma-bar^{-1} Y_i <= lambda0, Sigma-bar = (1/m) sum Y Y^T
        double[][] x = StableData.gaussian(800, 5, 3);
        RowBlockMatrix y = StableCov.pairs(StableData.matrix(x));
        int m = y.rows();
        DMatrixRMaj a = engine.weightedGram(y, null, null, m);
        double[] q = engine.mahalanobisNorms(y, engine.cholesky(a).lower(), null);
        double max = 0;
        for (double v : q) {
            max = Math.max(max, v);
        }
        StableCovResult above = StableCov.of(max * 1.001, 4).applyToPairs(y, engine);
        assertEquals(0, above.score());
        for (double w : above.weights()) {
            assertEquals(1.0 / m, w, 1e-15, "score 0 implies uniform weights");
        }
        StableCovResult below = StableCov.of(max * 0.999, 4).applyToPairs(y, engine);
        assertTrue(below.score() > 0);
        assertSame(StableCov.of(max * 0.999, 4).applyLiteralToPairs(y, engine), below);
    }

    @Test
    void weightsLieOnTheGrid() {
        // T9: w_i in {0, 1/(km), ..., 1/m}, sum <= 1; Sigma-hat = sum w_i Y_i Y_i^T; combine = W z
        double[][] x = StableData.withOutliers(StableData.gaussian(500, 4, 8), 0.1, 5, 9);
        int k = 6;
        StableCovResult r = StableCov.of(5, k).apply(StableData.matrix(x), engine);
        int m = r.m();
        double sum = 0;
        for (double w : r.weights()) {
            double c = w * k * m;
            assertEquals(Math.rint(c), c, 1e-9, "w_i k m is an integer");
            assertTrue(c >= 0 && c <= k + 1e-9);
            sum += w;
        }
        assertTrue(sum <= 1 + 1e-12);
        double[] w = r.weights();
        DMatrixRMaj s = r.sigmaHat();
        double[] z = new double[m];
        for (int i = 0; i < m; i++) {
            z[i] = Math.sin(i + 1.0);
        }
        double[] wz = r.combine(z);
        for (int a = 0; a < 4; a++) {
            double e = 0;
            double f = 0;
            for (int i = 0; i < m; i++) {
                e += z[i] * Math.sqrt(w[i]) * r.pairs().get(i, a);
                f += w[i] * r.pairs().get(i, a) * r.pairs().get(i, 0);
            }
            assertEquals(e, wz[a], 1e-10);
            assertEquals(f, s.get(a, 0), 1e-10);
        }
    }

    @Test
    void pairingFollowsAlgorithm3() {
        double[][] x = {{1, 2}, {3, 5}, {0, 0}, {7, -1}, {4, 4}};
        RowBlockMatrix y = StableCov.pairs(StableData.matrix(x));
        assertEquals(2, y.rows());
        assertEquals((1 - 0) / Math.sqrt(2), y.get(0, 0), 0);
        assertEquals((5 + 1) / Math.sqrt(2), y.get(1, 1), 0);
    }

    @Test
    void validatesParameters() {
        assertThrows(IllegalArgumentException.class, () -> StableCov.of(0.5, 3));
        assertThrows(IllegalArgumentException.class, () -> StableCov.of(Double.NaN, 3));
        assertThrows(IllegalArgumentException.class, () -> StableCov.of(5, 0));
        assertThrows(IllegalArgumentException.class,
                () -> StableCov.of(5, 2).apply(StableData.matrix(new double[][] {{1, 2}}), engine));
        assertThrows(IllegalArgumentException.class,
                () -> StableCov.of(5, 2).applyToPairs(StableData.matrix(new double[][] {{1, Double.NaN}}), engine));
    }
}
