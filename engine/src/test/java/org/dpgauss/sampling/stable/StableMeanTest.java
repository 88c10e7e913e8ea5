package org.dpgauss.sampling.stable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** StableMean / LargestCore (spec §3.4-3.5): fused equals literal; T1 and T9. Fixed seeds, deterministic. */
class StableMeanTest {

    private final ComputeEngine engine = CpuEngine.instance();

    static int[] reference(int n, int size, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = 0; i < size; i++) {
            int j = i + r.nextInt(n - i);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return java.util.Arrays.copyOf(p, size);
    }

    static DMatrixRMaj covariance(double[][] x) {
        RowBlockMatrix y = StableCov.pairs(StableData.matrix(x));
        return CpuEngine.instance().weightedGram(y, null, null, y.rows());
    }

    @Test
    void fusedEqualsLiteral() {
        for (long seed = 1; seed <= 3; seed++) {
            double[][] x = StableData.withOutliers(StableData.gaussian(500, 5, seed), 0.04, 3 + seed, seed + 3);
            DMatrixRMaj sigma = covariance(StableData.gaussian(400, 5, seed));
            int[] r = reference(500, 60, seed);
            for (double lambda0 : new double[] {8, 12, 30}) {
                StableMean sm = StableMean.of(lambda0, 5);
                StableMeanResult a = sm.apply(StableData.matrix(x), sigma, r, engine);
                StableMeanResult b = sm.applyLiteral(StableData.matrix(x), sigma, r, engine);
                assertEquals(b.score(), a.score());
                assertArrayEquals(b.weights(), a.weights());
                assertArrayEquals(b.setSizes(), a.setSizes());
            }
        }
    }

    @Test
    void smallReferenceSetAndDuplicates() {
        // |R| < 2k+1 (tau <= 0 for the largest l) and duplicated rows
        double[][] base = StableData.gaussian(30, 3, 4);
        double[][] x = new double[90][];
        for (int i = 0; i < 90; i++) {
            x[i] = base[i % 30];
        }
        DMatrixRMaj sigma = covariance(StableData.gaussian(200, 3, 5));
        int[] r = reference(90, 7, 6);
        StableMean sm = StableMean.of(6, 5);
        StableMeanResult a = sm.apply(StableData.matrix(x), sigma, r, engine);
        StableMeanResult b = sm.applyLiteral(StableData.matrix(x), sigma, r, engine);
        assertEquals(b.score(), a.score());
        assertArrayEquals(b.weights(), a.weights());
    }

    @Test
    void singularSigmaHatGivesEmptyCores() {
        double[][] x = StableData.gaussian(50, 3, 7);
        DMatrixRMaj sigma = new DMatrixRMaj(3, 3);
        sigma.set(0, 0, 1);
        sigma.set(1, 1, 1); // rank 2
        int[] r = reference(50, 20, 8);
        int k = 4;
        StableMeanResult a = StableMean.of(10, k).apply(StableData.matrix(x), sigma, r, engine);
        StableMeanResult b = StableMean.of(10, k).applyLiteral(StableData.matrix(x), sigma, r, engine);
        assertEquals(k, a.score());
        assertArrayEquals(new double[50], a.weights());
        assertArrayEquals(b.weights(), a.weights());
        assertArrayEquals(new double[3], a.weightedMean(StableData.matrix(x)));
    }

    @Test
    void scoreZeroCharacterisationAndWeights() {
        // T1: Score2 = 0 <=> max_{i, j in R} ||X_i - X_j||^2_Sigma-hat <= lambda0; T9: v >= 0, sum v = 1
        double[][] x = StableData.gaussian(300, 4, 11);
        DMatrixRMaj sigma = covariance(StableData.gaussian(600, 4, 11));
        int[] r = reference(300, 40, 12);
        LargestCore core = LargestCore.compute(StableData.matrix(x), sigma, r, 1, engine);
        double max = 0;
        RowBlockMatrix white = engine.whiten(StableData.matrix(x), engine.cholesky(sigma).lower());
        for (int i = 0; i < 300; i++) {
            for (int j : r) {
                double e = 0;
                for (int c = 0; c < 4; c++) {
                    double v = white.get(i, c) - white.get(j, c);
                    e += v * v;
                }
                max = Math.max(max, e);
            }
        }
        assertTrue(core.contains(0, max, 40));
        StableMeanResult zero = StableMean.of(max * 1.0001, 3).apply(StableData.matrix(x), sigma, r, engine);
        assertEquals(0, zero.score());
        for (double v : zero.weights()) {
            assertEquals(1.0 / 300, v, 1e-15);
        }
        double[] mu = zero.weightedMean(StableData.matrix(x));
        double mean0 = 0;
        for (double[] row : x) {
            mean0 += row[0] / 300;
        }
        assertEquals(mean0, mu[0], 1e-12);
        StableMeanResult pos = StableMean.of(max * 0.9999, 3).apply(StableData.matrix(x), sigma, r, engine);
        assertTrue(pos.score() > 0);
        double s = 0;
        for (double v : pos.weights()) {
            assertTrue(v >= 0);
            s += v;
        }
        assertEquals(1, s, 1e-12);
    }

    @Test
    void randomReferenceSetsAreDegreeRepresentative() {
        // Def 3.2 / spec §6: N_i = {j : ||X_i - X_j||^2_Sigma <= e^2 lambda0}, Ñ_i = N_i ∩ R; R is representative if
        // | |Ñ_i|/|R| - |N_i|/n1 | <= 1/6 for all i. lambda0 = 1 makes the neighbourhoods non-trivial (|N_i|/n1
        // from ~0 to ~0.85). |R| = 18 ln(16 n1 / 1e-6) = 436; by Hoeffding's bound for sampling without
        // replacement each (R, i) fails with probability <= 2 exp(-2 |R| / 36) = 6e-11, so the 20 draws x 2000
        // rows fail together with probability <= 2.4e-6.
        int n1 = 2000;
        int size = (int) Math.ceil(18 * Math.log(16.0 * n1 / 1e-6));
        double[][] x = StableData.gaussian(n1, 2, 41);
        DMatrixRMaj sigma = covariance(StableData.gaussian(4000, 2, 41));
        RowBlockMatrix white = engine.whiten(StableData.matrix(x), engine.cholesky(sigma).lower());
        double radius = Math.exp(2) * 1.0;
        boolean[][] nb = new boolean[n1][n1];
        int[] deg = new int[n1];
        double lo = 1;
        double hi = 0;
        for (int i = 0; i < n1; i++) {
            for (int j = 0; j < n1; j++) {
                double a = white.get(i, 0) - white.get(j, 0);
                double b = white.get(i, 1) - white.get(j, 1);
                nb[i][j] = a * a + b * b <= radius;
                deg[i] += nb[i][j] ? 1 : 0;
            }
            lo = Math.min(lo, deg[i] / (double) n1);
            hi = Math.max(hi, deg[i] / (double) n1);
        }
        assertTrue(lo < 0.3 && hi > 0.6, "neighbourhood fractions spread: " + lo + ".." + hi);
        for (int draw = 0; draw < 20; draw++) {
            int[] r = reference(n1, size, 1000 + draw);
            double worst = 0;
            for (int i = 0; i < n1; i++) {
                int c = 0;
                for (int j : r) {
                    c += nb[i][j] ? 1 : 0;
                }
                worst = Math.max(worst, Math.abs(c / (double) size - deg[i] / (double) n1));
            }
            assertTrue(worst <= 1.0 / 6, "draw " + draw + ": deviation " + worst);
        }
    }

    @Test
    void validatesInputs() {
        double[][] x = StableData.gaussian(20, 2, 1);
        DMatrixRMaj sigma = covariance(StableData.gaussian(50, 2, 2));
        StableMean sm = StableMean.of(5, 2);
        assertThrows(IllegalArgumentException.class, () -> sm.apply(StableData.matrix(x), sigma, new int[] {1, 1}, engine));
        assertThrows(IllegalArgumentException.class, () -> sm.apply(StableData.matrix(x), sigma, new int[] {20}, engine));
        assertThrows(IllegalArgumentException.class, () -> sm.apply(StableData.matrix(x), new DMatrixRMaj(3, 3),
                new int[] {1}, engine));
        assertThrows(IllegalArgumentException.class, () -> StableMean.of(0.9, 2));
    }
}
