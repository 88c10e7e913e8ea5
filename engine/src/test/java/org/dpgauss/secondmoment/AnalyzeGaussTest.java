package org.dpgauss.secondmoment;

import static org.dpgauss.secondmoment.BaselineTestData.CPU;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class AnalyzeGaussTest {

    @Test
    void sharedHelpersBuildTheZcdpGuaranteeAndPickTheNoise() {
        // replaceOneZcdp: the shared guarantee of Analyze Gauss and CoinPress (deterministic, no failure probability)
        PrivacyGuarantee g = AnalyzeGauss.replaceOneZcdp(0.5, 1e-6, true, "released X");
        assertTrue(g.isZcdp());
        assertEquals(0.5, g.zcdp().orElseThrow().rho(), 0);
        assertEquals(Zcdp.of(0.5).toApproxDpTight(1e-6).epsilon(), g.approxDp().orElseThrow().epsilon(), 0);
        assertTrue(g.certified());
        assertEquals("released X; (epsilon, delta) by the tight CKS20 conversion", g.notes());
        PrivacyGuarantee insecure = AnalyzeGauss.replaceOneZcdp(0.5, 1e-6, false, "released X");
        assertFalse(insecure.certified());
        assertTrue(insecure.notes().endsWith("; INSECURE randomness: not private"), insecure.notes());
        // noiseFor / accountingNoise: an injected noise wins; otherwise secure noise and the shared accounting noise
        SymmetricNoise none = SymmetricNoise.none();
        assertSame(none, AnalyzeGauss.noiseFor(none, RandomSource.insecureSeeded(1)));
        assertTrue(AnalyzeGauss.noiseFor(null, RandomSource.insecureSeeded(1)) instanceof SymmetricGaussianNoise);
        assertSame(none, AnalyzeGauss.accountingNoise(none));
        assertSame(AnalyzeGauss.ACCOUNTING, AnalyzeGauss.accountingNoise(null));
    }

    @Test
    void extraFlagAcceptsOnlyZeroOrOneAndNamesBothMeanings() {
        SecondMomentParams absent = SecondMomentParams.builder(1, 1).build();
        assertFalse(absent.extraFlag("f", "off", "on"));
        assertTrue(SecondMomentParams.builder(1, 1).extra("f", 1).build().extraFlag("f", "off", "on"));
        assertFalse(SecondMomentParams.builder(1, 1).extra("f", 0).build().extraFlag("f", "off", "on"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SecondMomentParams.builder(1, 1).extra("f", 0.5).build().extraFlag("f", "off", "on"));
        assertEquals("f=0.5 must be 0 (off) or 1 (on)", e.getMessage());
    }

    @Test
    void sigmaIsTheZcdpGaussianMechanismForTheStatedSensitivity() {
        AnalyzeGauss tight = AnalyzeGauss.of(3.0, 0.5);
        assertEquals(Math.sqrt(2) * 9 / 1000, tight.l2Sensitivity(1000), 1e-15);
        // sigma = Delta/sqrt(2 rho) = R^2/(n sqrt(rho)), raised only by the Gram's rounding error (2 gamma_{n+1} R^2,
        // relative 1.6e-13 here) and the grid rounding g sqrt(d(d+1)/2) with g ~ 2^-20 sigma (relative 3e-6 at d=10)
        double ideal = 9 / (1000 * Math.sqrt(0.5));
        double sigma = tight.sigma(1000, 10);
        assertTrue(sigma >= ideal && sigma <= ideal * (1 + 1e-5), sigma + " vs " + ideal);
        assertTrue(tight.accountedRho(1000, 10) <= 0.5 && tight.accountedRho(1000, 10) > 0.5 * (1 - 1e-6));
        AnalyzeGauss paper = AnalyzeGauss.of(3.0, 0.5, AnalyzeGauss.Sensitivity.PAPER);
        assertEquals(4 * 9 / (1000 * Math.sqrt(2 * 0.5)), paper.sigma(1000, 10), 1e-15);
        // the paper's 4 R^2/n overstates the sensitivity by 2 sqrt(2): it spends about rho/8
        assertEquals(0.5 / 8, paper.accountedRho(1000, 10), 1e-5);
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
        // Noise-free oracle (spec §4.2 item 5 for one level): the output is the clipped second moment.
        double[][] rows = {{3, 4}, {0.6, 0.8}, {0, 0}, {-10, 0}};
        SecondMomentEstimate e = AnalyzeGauss.of(1.0, 1).withNoise(SymmetricNoise.none())
                .estimate(RowBlockMatrix.of(rows), RandomSource.insecureSeeded(1), CPU);
        assertFalse(e.certified());
        DMatrixRMaj s = e.matrix();
        // clipped rows: (0.6, 0.8), (0.6, 0.8), (0, 0), (-1, 0)
        // (up to the clipping's floating-point safety margin 4 (d + 2) 2^-53, RowBounds)
        assertEquals((0.36 + 0.36 + 1) / 4, s.get(0, 0), 1e-13);
        assertEquals((0.48 + 0.48) / 4, s.get(0, 1), 1e-13);
        assertEquals((0.64 + 0.64) / 4, s.get(1, 1), 1e-13);
    }

    @Test
    void psdProjectionRowsAreThePsdProjection() {
        // shared by the CLI's JSON output: rows of an indefinite release's projection (deterministic)
        DMatrixRMaj indefinite = new DMatrixRMaj(new double[][] {{1, 2}, {2, 1}}); // eigenvalues 3 and -1
        SecondMomentEstimate e = SecondMomentEstimate.pass(indefinite,
                AnalyzeGauss.replaceOneZcdp(1, 1e-6, false, "test"), "test", false, Map.of());
        double[][] rows = e.psdProjectionRows();
        DMatrixRMaj p = e.psdProjection();
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                assertEquals(p.get(i, j), rows[i][j], 0);
                assertEquals(1.5, rows[i][j], 1e-12); // 3 v v^T with v = (1, 1)/sqrt(2)
            }
        }
    }

    @Test
    void noiseIsSymmetricWithTheStatedSigma() {
        // 200 releases, d = 6: 4200 independent entries (i <= j) of (release - exact)/sigma. Their sample variance
        // has standard deviation sqrt(2/4200) = 0.022 under the stated sigma, so leaving [0.9, 1.1] (4.6 standard
        // deviations) has probability below 1e-5; |mean| > 0.07 (4.5 sd) likewise. Fixed seed: deterministic.
        RowBlockMatrix x = BaselineTestData.gaussian(500, BaselineTestData.geometric(6, 10), 5);
        AnalyzeGauss ag = AnalyzeGauss.of(BaselineTestData.maxRowNorm(x), 1.0);
        DMatrixRMaj exact = BaselineTestData.secondMoment(x);
        double sigma = SymmetricGaussianNoise.effectiveSigma(ag.sigma(500, 6));
        RandomSource random = RandomSource.insecureSeeded(2026);
        double sum = 0;
        double sumSq = 0;
        int count = 0;
        for (int rep = 0; rep < 200; rep++) {
            DMatrixRMaj out = ag.estimate(x, random, CPU).matrix();
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
                () -> AnalyzeGauss.of(1, 1).estimate(RowBlockMatrix.of(new double[][] {{1, 2}, {Double.NaN, 0}}),
                        RandomSource.insecureSeeded(1), CPU));
        assertTrue(e.getMessage().contains("row 1"), e.getMessage());
        // public-bound mode: rows longer than R are input errors, not clipped
        SecondMomentParams p = SecondMomentParams.builder(1, 1.0).clipToRadius(false).build();
        IllegalArgumentException bound = assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.fromParams(p)
                .estimate(RowBlockMatrix.of(new double[][] {{3, 4}}), RandomSource.insecureSeeded(1), CPU));
        assertTrue(bound.getMessage().contains("R=1.0"), bound.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.fromParams(SecondMomentParams.builder(1, 1)
                .extra(AnalyzeGauss.EXTRA_PAPER_SENSITIVITY, 2).build()));
    }

    @Test
    void guaranteeIsZcdpReplaceOneAndUncertifiedWhenInsecure() {
        RowBlockMatrix x = RowBlockMatrix.of(new double[][] {{0.5, 0}, {0, 0.5}});
        SecondMomentEstimate e = AnalyzeGauss.of(1, 0.3).estimate(x, RandomSource.insecureSeeded(1), CPU);
        Map<String, Object> g = e.guarantee().toMap();
        assertEquals("replace-one", g.get("relation"));
        assertEquals(0.3, (Double) g.get("rho"), 0.0);
        assertFalse((Boolean) g.get("certified"));
        assertFalse(e.certified());
        assertEquals(AnalyzeGauss.NAME, e.method());
        assertTrue(AnalyzeGauss.of(1, 0.3).estimate(x, RandomSource.secure(), CPU).certified());
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
