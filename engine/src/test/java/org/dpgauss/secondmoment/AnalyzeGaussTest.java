package org.dpgauss.secondmoment;

import static org.dpgauss.secondmoment.BaselineTestData.CPU;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.dpgauss.privacy.Zcdp;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

class AnalyzeGaussTest {

    @Test
    void sharedHelpersBuildTheZcdpGuaranteeAndPickTheNoise() {
        // the statement: rho-zCDP under replace-one, converted by the one conversion policy (CKS20), certified by the
        // recipe; the random source withdraws the certification in Releases only (deterministic)
        Statement st = Releases.state(AnalyzeGauss.of(1, Zcdp.of(0.5)), Dataset.of(new double[][] {{0.1, 0.2}}),
                1e-6);
        PrivacyGuarantee g = st.guarantee();
        assertTrue(g.isZcdp());
        assertEquals(0.5, g.zcdp().orElseThrow().rho(), 0);
        // CKS20 Cor. 13 at rho = 0.5, delta = 1e-6, minimised with mpmath (the golden of ZcdpTest)
        assertEquals(5.2215344445301690534, g.approxDp().orElseThrow().epsilon(), 1e-11);
        assertEquals(ConversionPolicy.NAME, g.conversion());
        assertTrue(g.certified());
        assertEquals("second-moment.analyze-gauss", st.mechanism());
        assertEquals("", st.failMeaning(), "Analyze Gauss never FAILs");
        // the seam with a noise that is not secure: the recipe is uncertified
        assertFalse(Releases.state(SecondMomentEstimate.withNoise(AnalyzeGauss.of(1, Zcdp.of(0.5)),
                SymmetricNoise.none()), Dataset.of(new double[][] {{0.1, 0.2}}), 1e-6).guarantee().certified());
        // noiseFor / accountingNoise: an injected noise wins; otherwise secure noise and the shared accounting noise
        SymmetricNoise none = SymmetricNoise.none();
        assertSame(none, AnalyzeGauss.noiseFor(none, RandomSource.insecureSeeded(1)));
        assertTrue(AnalyzeGauss.noiseFor(null, RandomSource.insecureSeeded(1)) instanceof SymmetricGaussianNoise);
        assertSame(none, AnalyzeGauss.accountingNoise(none));
        assertSame(AnalyzeGauss.ACCOUNTING, AnalyzeGauss.accountingNoise(null));
    }

    @Test
    void extraFlagAcceptsOnlyZeroOrOneAndNamesBothMeanings() {
        SecondMomentParams absent = SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).build();
        assertFalse(absent.extraFlag("f", "off", "on"));
        assertTrue(SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).extra("f", 1).build().extraFlag("f", "off", "on"));
        assertFalse(SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).extra("f", 0).build().extraFlag("f", "off", "on"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).extra("f", 0.5).build().extraFlag("f", "off", "on"));
        assertEquals("f=0.5 must be 0 (off) or 1 (on)", e.getMessage());
    }

    @Test
    void sigmaIsTheZcdpGaussianMechanismForTheStatedSensitivity() {
        AnalyzeGauss tight = AnalyzeGauss.of(3.0, Zcdp.of(0.5));
        assertEquals(Math.sqrt(2) * 9 / 1000, tight.l2Sensitivity(1000), 1e-15);
        // sigma = Delta/sqrt(2 rho) = R^2/(n sqrt(rho)), raised only by the Gram's rounding error (2 gamma_{n+1} R^2,
        // relative 1.6e-13 here) and the grid rounding g sqrt(d(d+1)/2) with g ~ 2^-20 sigma (relative 3e-6 at d=10)
        double ideal = 9 / (1000 * Math.sqrt(0.5));
        double sigma = tight.sigma(1000, 10);
        assertTrue(sigma >= ideal && sigma <= ideal * (1 + 1e-5), sigma + " vs " + ideal);
        assertTrue(tight.accountedRho(1000, 10) <= 0.5 && tight.accountedRho(1000, 10) > 0.5 * (1 - 1e-6));
        AnalyzeGauss paper = AnalyzeGauss.builder().radius(3.0).budget(Zcdp.of(0.5))
                .sensitivity(AnalyzeGauss.Sensitivity.PAPER).build();
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
        // the sensitivity the accounting uses (not l2Sensitivity, which no release reads): at sigma = 1 and without
        // grid rounding the accounted rho is Delta'^2/2, Delta' = sqrt(2) R^2/n plus the Gram's rounding 2 gamma R^2
        double bound = Math.sqrt(2 * AnalyzeGauss.accountedRho(r * r, n, d, 1.0, SymmetricNoise.none()));
        assertEquals(Math.sqrt(2) * r * r / n, bound, 1e-12, "Delta' = sqrt(2) R^2/n up to rounding terms");
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
        SecondMomentEstimate e = SecondMomentEstimate.run(SecondMomentEstimate.withNoise(AnalyzeGauss.of(1.0,
                Zcdp.of(1)), SymmetricNoise.none()), RowBlockMatrix.of(rows), RandomSource.insecureSeeded(1), CPU);
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
        // shared by every method's outcome: the released psdProjection of an indefinite matrix (deterministic)
        DMatrixRMaj indefinite = new DMatrixRMaj(new double[][] {{1, 2}, {2, 1}}); // eigenvalues 3 and -1
        Outcome o = SecondMomentRelease.outcome(indefinite, true);
        assertTrue(o.isPass());
        PrivateRelease r = Releases.run(new FixedOutcome(o), Dataset.of(new double[][] {{1, 2}}), 1e-6,
                ReleaseContext.of(CPU, RandomSource.insecureSeeded(1)));
        double[][] rows = r.matrix("psdProjection");
        assertArrayEquals(new double[] {1, 2}, r.matrix("secondMoment")[0], 0);
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                assertEquals(1.5, rows[i][j], 1e-12); // 3 v v^T with v = (1, 1)/sqrt(2)
            }
        }
        // without --psd only the raw matrix is released; a non-finite matrix is FAIL, never an exception
        assertEquals(1, Releases.run(new FixedOutcome(SecondMomentRelease.outcome(indefinite, false)),
                Dataset.of(new double[][] {{1, 2}}), 1e-6, ReleaseContext.of(CPU, RandomSource.insecureSeeded(1)))
                .values().size());
        assertFalse(SecondMomentRelease.outcome(new DMatrixRMaj(new double[][] {{Double.NaN}}), false).isPass());
    }

    /** A mechanism returning a fixed outcome, to read an outcome back through the release path. */
    private static final class FixedOutcome implements SecondMomentMethod {
        private final Outcome outcome;

        FixedOutcome(Outcome outcome) {
            this.outcome = outcome;
        }

        @Override
        public String name() {
            return "fixed";
        }

        @Override
        public Statement state(PublicContext context) {
            return Statement.builder(context, "second-moment.fixed", PrivacyGuarantee.zcdp(
                    NeighbouringRelation.REPLACE_ONE, Zcdp.of(1), context.delta(), false, "test")).build();
        }

        @Override
        public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
            return outcome;
        }
    }

    @Test
    void noiseIsSymmetricWithTheStatedSigma() {
        // 200 releases, d = 6: 4200 independent entries (i <= j) of (release - exact)/sigma. Their sample variance
        // has standard deviation sqrt(2/4200) = 0.022 under the stated sigma, so leaving [0.9, 1.1] (4.6 standard
        // deviations) has probability below 1e-5; |mean| > 0.07 (4.5 sd) likewise. Fixed seed: deterministic.
        RowBlockMatrix x = GaussianTestData.centred(500, BaselineTestData.geometric(6, 10), 5);
        AnalyzeGauss ag = AnalyzeGauss.of(BaselineTestData.maxRowNorm(x), Zcdp.of(1.0));
        DMatrixRMaj exact = BaselineTestData.secondMoment(x);
        double sigma = SymmetricGaussianNoise.effectiveSigma(ag.sigma(500, 6));
        RandomSource random = RandomSource.insecureSeeded(2026);
        double sum = 0;
        double sumSq = 0;
        int count = 0;
        for (int rep = 0; rep < 200; rep++) {
            DMatrixRMaj out = SecondMomentEstimate.run(ag, x, random, CPU).matrix();
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
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.of(0, Zcdp.of(1)));
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.of(Double.NaN, Zcdp.of(1)));
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.of(1, Zcdp.of(0)));
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.of(1, Zcdp.of(Double.POSITIVE_INFINITY)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SecondMomentEstimate.run(AnalyzeGauss.of(1, Zcdp.of(1)), RowBlockMatrix.of(new double[][] {{1, 2},
                        {Double.NaN, 0}}), RandomSource.insecureSeeded(1), CPU));
        assertTrue(e.getMessage().contains("row 2"), e.getMessage());
        // public-bound mode (issue 24, item 5): rows longer than R are clipped to R as in clip mode, never an error
        // (failed before issue 24: the release threw naming "row 2")
        SecondMomentParams p = SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1.0).clipToRadius(false).build();
        RowBlockMatrix beyond = RowBlockMatrix.of(new double[][] {{0.5, 0}, {3, 4}});
        SecondMomentEstimate bound = SecondMomentEstimate.run(AnalyzeGauss.fromParams(p), beyond,
                RandomSource.insecureSeeded(1), CPU);
        SecondMomentEstimate clip = SecondMomentEstimate.run(AnalyzeGauss.of(1, Zcdp.of(1)), beyond,
                RandomSource.insecureSeeded(1), CPU);
        assertArrayEquals(clip.matrix().data, bound.matrix().data, 0.0);
        assertThrows(IllegalArgumentException.class, () -> AnalyzeGauss.fromParams(SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1)
                .extra(AnalyzeGauss.EXTRA_PAPER_SENSITIVITY, 2).build()));
    }

    @Test
    void guaranteeIsZcdpReplaceOneAndUncertifiedWhenInsecure() {
        RowBlockMatrix x = RowBlockMatrix.of(new double[][] {{0.5, 0}, {0, 0.5}});
        SecondMomentEstimate e = SecondMomentEstimate.run(AnalyzeGauss.of(1, Zcdp.of(0.3)), x,
                RandomSource.insecureSeeded(1), CPU);
        Map<String, Object> g = e.guarantee().toMap();
        assertEquals("replace-one", g.get("relation"));
        assertEquals(0.3, (Double) g.get("rho"), 0.0);
        assertFalse((Boolean) g.get("certified"));
        assertFalse(e.certified());
        assertEquals(AnalyzeGauss.ID, e.mechanism());
        assertTrue(SecondMomentEstimate.run(AnalyzeGauss.of(1, Zcdp.of(0.3)), x, RandomSource.secure(), CPU)
                .certified());
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
