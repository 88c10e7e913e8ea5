package org.dpgauss.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.Supplier;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.mechanism.BayesianLogisticRegression;
import org.dpgauss.mechanism.GaussianProcessRegression;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.projection.PtrProjection;
import org.dpgauss.projection.RandomProjectionMechanism;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.dpgauss.secondmoment.CoinPress;
import org.dpgauss.secondmoment.SecondMomentParams;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, items 5 and 6, as an attacker with two neighbouring datasets sees them through a {@link PrivacySession}:
 * a row outside a public bound (above {@code --radius} for Analyze Gauss and CoinPress, above {@code --row-bound}
 * for the projections without clipRows, a BLR label outside {-1, 1} or feature norm above l, a GPR label above B,
 * more rows than {@code --max-rows}) is brought into the domain by the guarantee's rule, so both neighbours give the
 * same status, the same released fields, the same public parameters and the same charge. Each pair threw on one
 * neighbour only on the code before issue 24 (an error naming the row, before the charge, i.e. for free). And a
 * session charges before anything reads the data: compute runs after the charge, and a failure there stays charged.
 */
class NeighbouringPairsTest {

    private static PrivacySession session(double[][] rows, NeighbouringRelation r) {
        return PrivacySession.builder(Dataset.of(rows)).relation(r).budget(ApproxDp.of(100, 1e-5))
                .context(ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(11))).open();
    }

    /** Both neighbours release with the same status, fields, parameters and charge. */
    private static void samePublicView(Supplier<PrivateMechanism> m, double[][] a, double[][] b,
            NeighbouringRelation r) {
        PrivacySession sa = session(a, r);
        PrivacySession sb = session(b, r);
        PrivateRelease ra = sa.release(m.get());
        PrivateRelease rb = sb.release(m.get());
        assertEquals(ra.status(), rb.status(), "status");
        assertEquals(ra.values().keySet(), rb.values().keySet(), "released fields");
        assertEquals(ra.toMap().keySet(), rb.toMap().keySet(), "release keys");
        if (r == NeighbouringRelation.REPLACE_ONE) {
            assertEquals(ra.parameters(), rb.parameters(), "public parameters");
        }
        assertEquals(ra.guarantee().toMap(), rb.guarantee().toMap(), "guarantee");
        assertEquals(sa.spent(), sb.spent(), "charge");
        assertEquals(1, sa.report().releases().size());
        assertEquals(1, sb.report().releases().size());
    }

    private static double[][] gaussianRows(int n, int d, long seed, double scale) {
        java.util.SplittableRandom g = new java.util.SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                row[j] = scale * g.nextGaussian();
            }
        }
        return x;
    }

    private static double[][] replaced(double[][] x, int i, double[] row) {
        double[][] y = x.clone();
        y[i] = row.clone();
        return y;
    }

    @Test
    void analyzeGaussAndCoinPressClipARowAboveTheRadius() {
        double[][] a = gaussianRows(200, 3, 1, 0.1);
        double[][] b = replaced(a, 17, new double[] {30, -40, 1e6}); // far above R = 1
        SecondMomentParams p = SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1.0).clipToRadius(false).build();
        samePublicView(() -> AnalyzeGauss.fromParams(p), a, b, NeighbouringRelation.REPLACE_ONE);
        samePublicView(() -> CoinPress.fromParams(p), a, b, NeighbouringRelation.REPLACE_ONE);
    }

    @Test
    void projectionsClipARowAboveTheBoundWithoutClipRows() {
        double[][] a = gaussianRows(50, 4, 2, 0.2);
        double[][] b = Arrays.copyOf(a, 51);
        b[50] = new double[] {3, 4, 0, 1e200}; // the added row, far above l = 1 (add/remove)
        samePublicView(() -> RandomProjectionMechanism.of(3, ApproxDp.of(1, 1e-6), 1), a, b,
                NeighbouringRelation.ADD_REMOVE);
        samePublicView(() -> PtrProjection.builder().rank(3).budget(ApproxDp.of(1, 1e-6)).testNoise(10).rowBound(1)
                .build(), a, b, NeighbouringRelation.ADD_REMOVE);
    }

    @Test
    void blrMapsLabelsAndNormsAndKeepsAtMostMaxRows() {
        double[][] a = gaussianRows(10, 3, 3, 0.3);
        for (int i = 0; i < a.length; i++) {
            a[i][2] = i % 2 == 0 ? 1 : -1;
        }
        Supplier<PrivateMechanism> blr = () -> BayesianLogisticRegression.builder().dimension(2).lambda(1).rowBound(1)
                .maxRows(10).budget(ApproxDp.of(1, 1e-5)).build();
        double[][] label = Arrays.copyOf(a, 11);
        label[10] = new double[] {0.1, 0.2, 7}; // label outside {-1, 1}
        samePublicView(blr, Arrays.copyOf(a, 9), Arrays.copyOf(label, 10), NeighbouringRelation.ADD_REMOVE);
        double[][] norm = Arrays.copyOf(a, 10);
        norm[9] = new double[] {3e5, -4e5, 1}; // feature norm far above l = 1
        samePublicView(blr, Arrays.copyOf(a, 9), norm, NeighbouringRelation.ADD_REMOVE);
        samePublicView(blr, a, label, NeighbouringRelation.ADD_REMOVE); // 10 rows (= N) and 11 rows (> N)
    }

    @Test
    void gprClipsALabelAboveItsBoundAndKeepsAtMostMaxRows() {
        double[][] a = gaussianRows(10, 3, 4, 0.5);
        for (double[] row : a) {
            row[2] = Math.max(-1, Math.min(1, row[2]));
        }
        Supplier<PrivateMechanism> gpr = () -> GaussianProcessRegression.builder()
                .kernel(GaussianProcessRegression.rbf(1, 1)).noiseVariance(0.5).labelBound(1).maxRows(10)
                .query(new double[] {0.1, 0.2}).budget(ApproxDp.of(1, 1e-5)).build();
        double[][] b = Arrays.copyOf(a, 11);
        b[10] = new double[] {0.3, 0.3, 1e9}; // label far above B = 1, and one row more than N = 10
        samePublicView(gpr, Arrays.copyOf(a, 10), Arrays.copyOf(b, 10), NeighbouringRelation.ADD_REMOVE);
        samePublicView(gpr, a, b, NeighbouringRelation.ADD_REMOVE);
    }

    /** The repro, in the library: one row at 1e205 with clip radius 1e200 does not move the mean beyond C. */
    @Test
    void theClippedMeanClipsAtEveryScale() {
        // from the smallest radius whose noise grid is normal to the largest whose grid stays finite (NoiseGrid)
        for (double c : new double[] {1e-299, 1e-200, 1e-150, 1, 1e150, 1e200, 1e288}) {
            double[][] a = new double[5][2];
            double[][] b = replaced(a, 0, new double[] {c * 1e5, 0}); // 1e5 times the radius
            double[][] huge = replaced(a, 0, new double[] {Double.MAX_VALUE, -Double.MAX_VALUE}); // norm overflows
            double[] hugeMean = session(huge, NeighbouringRelation.REPLACE_ONE).release(
                    ClippedGaussianMean.builder().clipRadius(c).rho(10).build(2)).vector("mean");
            assertTrue(Math.hypot(hugeMean[0], hugeMean[1]) <= c / 5 + 9 * ClippedGaussianMean.builder().clipRadius(c)
                    .rho(10).build(2).sigma(5), "C=" + c + ": " + Arrays.toString(hugeMean));
            ClippedGaussianMean m = ClippedGaussianMean.builder().clipRadius(c).rho(10).build(2);
            PrivacySession sb = session(b, NeighbouringRelation.REPLACE_ONE);
            double[] mean = sb.release(m).vector("mean");
            double sigma = m.sigma(5);
            // the clipped row contributes C/n = c/5; the noise is 6 sigma at most here (probability < 1e-8 per value)
            assertTrue(Math.abs(mean[0]) <= c / 5 + 6 * sigma, "C=" + c + ": mean " + mean[0] + " sigma " + sigma);
            assertTrue(Math.abs(mean[1]) <= 6 * sigma, "C=" + c);
            samePublicView(() -> m, a, b, NeighbouringRelation.REPLACE_ONE);
        }
        // a radius whose noise scale would leave the normal doubles is refused while stating: before the charge and
        // before the data are read, identically on both neighbours
        for (double c : new double[] {1e-300, 1e300}) {
            ClippedGaussianMean edge = ClippedGaussianMean.builder().clipRadius(c).rho(10).build(2);
            for (double[][] x : new double[][][] {new double[5][2], replaced(new double[5][2], 0, new double[] {c, 0})}) {
                PrivacySession s = session(x, NeighbouringRelation.REPLACE_ONE);
                assertThrows(IllegalArgumentException.class, () -> s.release(edge));
                assertEquals(0, s.report().releases().size());
            }
        }
        assertThrows(IllegalArgumentException.class,
                () -> ClippedGaussianMean.builder().clipRadius(Double.MAX_VALUE).rho(1).build(2), "2C overflows");
        assertThrows(IllegalArgumentException.class,
                () -> ClippedGaussianMean.builder().clipRadius(Double.MIN_VALUE).rho(1).build(2), "subnormal C");
    }

    /**
     * The same through the privately chosen radius with a wide bucket range (issue 24, item 1): 2000 rows at 1e200
     * and one at 1e280; the chosen radius is about 2^665, whose square overflows, so a C*C comparison would leave
     * the far row unclipped and move the mean by 5e276.
     */
    @Test
    void theAutoClippedMeanClipsAtHugeRadii() {
        double[][] x = new double[2001][];
        for (int i = 0; i < 2000; i++) {
            x[i] = new double[] {1e200, 0};
        }
        x[2000] = new double[] {1e280, 0};
        PrivacySession s = session(x, NeighbouringRelation.REPLACE_ONE);
        PrivateRelease r = s.release(org.dpgauss.mean.AutoClippedGaussianMean.of(new double[2], Zcdp.of(1), 0.5,
                -10, 950));
        assertTrue(r.isPass());
        double[] mean = r.vector("mean");
        assertTrue(mean[0] > 0.5e200 && mean[0] < 2e200, "mean " + mean[0] + " at radius " + r.scalar("clipRadius"));
    }

    /** A mechanism that records, when it computes, how many releases its session had already charged. */
    private static final class ChargeProbe implements PrivateMechanism {
        PrivacySession session;
        int chargedWhenComputing = -1;
        final boolean throwing;

        ChargeProbe(boolean throwing) {
            this.throwing = throwing;
        }

        @Override
        public NeighbouringRelation relation() {
            return NeighbouringRelation.ADD_REMOVE;
        }

        @Override
        public Statement state(PublicContext c) {
            return Statement.builder(c, "test.charge", PrivacyGuarantee.zcdp(NeighbouringRelation.ADD_REMOVE,
                    Zcdp.of(0.1), c.delta(), true, "probe")).description("a probe")
                    .parameters(PublicParameters.builder().put("d", c.dimension()).build()).build();
        }

        @Override
        public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
            chargedWhenComputing = session.report().releases().size();
            if (throwing) {
                throw new IllegalArgumentException("a data-dependent failure after the charge");
            }
            return Outcome.pass().scalar("x", 0).build();
        }
    }

    /** Fails if anything that reads the data (compute, or a check moved before the charge) runs before spend. */
    @Test
    void aSessionChargesBeforeAnythingReadsTheData() {
        PrivacySession s = session(new double[][] {{1, 2}}, NeighbouringRelation.ADD_REMOVE);
        ChargeProbe ok = new ChargeProbe(false);
        ok.session = s;
        s.release(ok);
        assertEquals(1, ok.chargedWhenComputing, "compute ran after the charge");
        ChargeProbe failing = new ChargeProbe(true);
        failing.session = s;
        ApproxDp before = s.spent();
        assertThrows(IllegalArgumentException.class, () -> s.release(failing));
        assertEquals(2, failing.chargedWhenComputing);
        assertEquals(2, s.report().releases().size(), "a failure after the charge stays charged");
        assertTrue(s.spent().epsilon() > before.epsilon());
    }

    /** Over budget: refused before compute runs, nothing charged. */
    @Test
    void overBudgetIsRefusedBeforeAnyRead() {
        PrivacySession s = PrivacySession.builder(Dataset.of(new double[][] {{1, 2}}))
                .relation(NeighbouringRelation.ADD_REMOVE).budget(ApproxDp.of(0.01, 1e-6)).open();
        ChargeProbe p = new ChargeProbe(false);
        p.session = s;
        assertThrows(org.dpgauss.privacy.accounting.BudgetExceededException.class, () -> s.release(p));
        assertEquals(-1, p.chargedWhenComputing, "never computed");
        assertEquals(0, s.report().releases().size());
    }
}
