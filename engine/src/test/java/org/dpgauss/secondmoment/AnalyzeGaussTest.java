package org.dpgauss.secondmoment;

import static org.dpgauss.secondmoment.BaselineTestData.CPU;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class AnalyzeGaussTest {

    @Test
    void sigmaIsTheZcdpGaussianMechanismForTheStatedSensitivity() {
        AnalyzeGauss tight = AnalyzeGauss.of(3.0, 0.5);
        assertEquals(Math.sqrt(2) * 9 / 1000, tight.l2Sensitivity(1000), 1e-15);
        // sigma = Delta/sqrt(2 rho) = R^2/(n sqrt(rho))
        assertEquals(9 / (1000 * Math.sqrt(0.5)), tight.sigma(1000), 1e-15);
        AnalyzeGauss paper = AnalyzeGauss.of(3.0, 0.5, AnalyzeGauss.Sensitivity.PAPER);
        assertEquals(4 * 9 / (1000 * Math.sqrt(2 * 0.5)), paper.sigma(1000), 1e-15);
    }

    @Test
    void tightSensitivityBoundsEveryReplacementAndIsAttained() {
        // Upper-triangle L2 norm of (x x^T - x' x'^T)/n over random pairs in the ball of radius R.
        double r = 2.0;
        int n = 7;
        int d = 5;
        double bound = AnalyzeGauss.of(r, 1).l2Sensitivity(n);
        SplittableRandom g = new SplittableRandom(11);
        double worst = 0;
        for (int trial = 0; trial < 2000; trial++) {
            double[] x = point(g, d, r);
            double[] y = point(g, d, r);
            worst = Math.max(worst, upperTriangleDiff(x, y, n));
        }
        assertTrue(worst <= bound * (1 + 1e-12), worst + " > " + bound);
        double[] e1 = new double[d];
        double[] e2 = new double[d];
        e1[0] = r;
        e2[1] = r;
        assertEquals(bound, upperTriangleDiff(e1, e2, n), 1e-12);
    }

    @Test
    void clippingShrinksOnlyRowsOutsideTheBall() {
        double[][] rows = {{3, 4}, {0.6, 0.8}, {0, 0}, {-10, 0}};
        DMatrixRMaj s = AnalyzeGauss.clippedSecondMoment(RowBlockMatrix.of(rows), 1.0, CPU);
        // clipped rows: (0.6, 0.8), (0.6, 0.8), (0, 0), (-1, 0)
        assertEquals((0.36 + 0.36 + 1) / 4, s.get(0, 0), 1e-15);
        assertEquals((0.48 + 0.48) / 4, s.get(0, 1), 1e-15);
        assertEquals((0.64 + 0.64) / 4, s.get(1, 1), 1e-15);
    }

    @Test
    void noiseIsSymmetricWithTheStatedSigma() {
        // 200 releases, d = 6: 4200 independent entries (i <= j) of (release - exact)/sigma. Their sample variance
        // has standard deviation sqrt(2/4200) = 0.022 under the stated sigma, so leaving [0.9, 1.1] (4.6 standard
        // deviations) has probability below 1e-5; |mean| > 0.07 (4.5 sd) likewise. Fixed seed: deterministic.
        RowBlockMatrix x = BaselineTestData.gaussian(500, BaselineTestData.geometric(6, 10), 5);
        AnalyzeGauss ag = AnalyzeGauss.of(BaselineTestData.maxRowNorm(x), 1.0);
        DMatrixRMaj exact = BaselineTestData.secondMoment(x);
        double sigma = ag.sigma(500);
        RandomSource random = RandomSource.insecureSeeded(2026);
        double sum = 0;
        double sumSq = 0;
        int count = 0;
        for (int rep = 0; rep < 200; rep++) {
            DMatrixRMaj out = ag.release(x, random, CPU);
            for (int i = 0; i < 6; i++) {
                for (int j = i; j < 6; j++) {
                    assertEquals(out.get(i, j), out.get(j, i), 0.0);
                    double z = (out.get(i, j) - exact.get(i, j)) / sigma;
                    sum += z;
                    sumSq += z * z;
                    count++;
                }
            }
        }
        double mean = sum / count;
        double var = sumSq / count - mean * mean;
        assertTrue(Math.abs(mean) < 0.07, "mean " + mean);
        assertTrue(var > 0.9 && var < 1.1, "variance " + var);
    }

    @Test
    void rejectsInvalidParametersAndData() {
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.of(0, 1));
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.of(Double.NaN, 1));
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.of(1, 0));
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.of(1, Double.POSITIVE_INFINITY));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AnalyzeGauss.of(1, 1).release(RowBlockMatrix.of(new double[][] {{1, 2}, {Double.NaN, 0}}),
                        RandomSource.insecureSeeded(1), CPU));
        assertTrue(e.getMessage().contains("row 1"), e.getMessage());
    }

    @Test
    void guaranteeIsZcdpReplaceOneAndUncertifiedWhenInsecure() {
        Map<String, Object> g = AnalyzeGauss.of(1, 0.3).guarantee(true).toMap();
        assertEquals("replace-one", g.get("relation"));
        assertEquals(0.3, (Double) g.get("rho"), 0.0);
        assertFalse((Boolean) g.get("certified"));
        assertTrue(AnalyzeGauss.of(1, 0.3).guarantee(false).certified());
    }

    private static double[] point(SplittableRandom g, int d, double r) {
        double[] x = new double[d];
        double s = 0;
        for (int j = 0; j < d; j++) {
            x[j] = g.nextGaussian();
            s += x[j] * x[j];
        }
        double scale = r * Math.pow(g.nextDouble(), 0.2) / Math.sqrt(s);
        if (g.nextInt(4) == 0) {
            scale = r / Math.sqrt(s); // on the sphere, where the worst case lives
        }
        for (int j = 0; j < d; j++) {
            x[j] *= scale;
        }
        return x;
    }

    private static double upperTriangleDiff(double[] x, double[] y, int n) {
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            for (int j = i; j < x.length; j++) {
                double v = (x[i] * x[j] - y[i] * y[j]) / n;
                s += v * v;
            }
        }
        return Math.sqrt(s);
    }
}
