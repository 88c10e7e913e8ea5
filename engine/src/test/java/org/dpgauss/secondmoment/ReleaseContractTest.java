package org.dpgauss.secondmoment;

import static org.dpgauss.secondmoment.BaselineTestData.CPU;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.dpgauss.linalg.Norms;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivacySession;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/**
 * Issue 14 for the second-moment family: overflow-safe clipping (finding 3), typed budgets and named builders
 * (finding 10), neighbouring pairs through the one release path, and statements made before the data are read.
 */
class ReleaseContractTest {

    private static final double BIG = 1.7e308;

    /** d = 3 Gaussian rows, n = 3000 (the data of the command-line tests). */
    private static double[][] rows() {
        return GaussianTestData.centred(3000, new double[] {1, 0.09, 0.01}, 1).toArray();
    }

    private static PrivateRelease release(SecondMomentMethod m, double[][] x, long seed) {
        return Releases.run(m, Dataset.of(x), 1e-6, ReleaseContext.of(CPU, RandomSource.insecureSeeded(seed)));
    }

    /** The clipping of the code before issue 14 (scale, then clip by the plain norm), for rows where it is sound. */
    private static double[] oldScaleAndClip(double[] row, double scale, double radius) {
        double[] r = row.clone();
        for (int j = 0; j < r.length; j++) {
            r[j] *= scale;
        }
        double s = 0;
        for (double v : r) {
            s += v * v;
        }
        double norm = Math.sqrt(s);
        double target = radius * RowBounds.safety(r.length);
        if (norm > target) {
            double c = target / norm;
            for (int j = 0; j < r.length; j++) {
                r[j] *= c;
            }
        }
        return r;
    }

    /** Finding 3: rows are clipped in their original units; moderate rows are unchanged to the last bit. */
    @Test
    void clippingIsOverflowSafeAndBitIdenticalOnModerateRows() {
        SplittableRandom g = new SplittableRandom(3);
        for (int t = 0; t < 5000; t++) {
            int d = 1 + g.nextInt(6);
            double[] row = new double[d];
            double mag = Math.pow(10, g.nextInt(-100, 100));
            for (int j = 0; j < d; j++) {
                row[j] = mag * g.nextGaussian();
            }
            double scale = Math.pow(10, g.nextInt(-20, 20)) * (0.5 + g.nextDouble());
            double radius = Math.pow(10, g.nextInt(-5, 5));
            double[] mine = row.clone();
            RowBounds.scaleAndClipRow(mine, scale, radius, radius * RowBounds.safety(d));
            assertArrayEquals(oldScaleAndClip(row, scale, radius), mine, 0.0, "row " + t);
        }
        // rows whose squares or scaled entries overflow: finite, norm at most R, the row's direction
        double[][] huge = {{BIG, 0, 0}, {0, 0, -BIG}, {BIG, BIG, BIG}, {1e169, -1e169, 3}, {Double.MAX_VALUE, 1, 1}};
        for (double scale : new double[] {1, 20, 1e10}) {
            for (double[] h : huge) {
                double[] r = h.clone();
                RowBounds.scaleAndClipRow(r, scale, 2.0, 2.0 * RowBounds.safety(3));
                double n = Norms.euclidean(r);
                assertTrue(n <= 2.0 && n > 1.999, "norm " + n);
                double max = Math.max(Math.abs(h[0]), Math.max(Math.abs(h[1]), Math.abs(h[2])));
                double[] u = {h[0] / max, h[1] / max, h[2] / max};
                double un = Norms.euclidean(u);
                for (int j = 0; j < 3; j++) {
                    assertTrue(Double.isFinite(r[j]));
                    assertEquals(u[j] / un, r[j] / n, 1e-12, "the row's direction");
                }
            }
        }
        assertEquals(Double.POSITIVE_INFINITY, Norms.euclidean(new double[] {BIG, BIG}));
        assertEquals(BIG, Norms.euclidean(new double[] {BIG, 0}), 0.0);
        assertEquals(5e-300, Norms.euclidean(new double[] {3e-300, 4e-300}), 1e-314);
        double[] tiny = {3e-300, 4e-300};
        assertEquals(1.0, RowBounds.clip(tiny, 1, 0.5), 0.0);
        double[] overflowing = {BIG, BIG};
        RowBounds.clip(overflowing, 1, 0.5);
        assertEquals(0.5, Norms.euclidean(overflowing), 1e-15);
    }

    /** Finding 3: a whitened row that overflowed is whitened again from its direction, never NaN. */
    @Test
    void coinPressRewhitensAnOverflowedRowFromItsDirection() {
        RowBlockMatrix x = RowBlockMatrix.of(new double[][] {{0, 0, BIG}, {0.1, 0.2, 0.3}});
        DMatrixRMaj lower = new DMatrixRMaj(new double[][] {{1, 0, 0}, {0.5, 1, 0}, {0.1, 0.2, 0.01}});
        RowBlockMatrix w = CPU.whiten(x, lower);
        assertFalse(Double.isFinite(w.get(0, 2)), "the engine's whitening overflows on this row");
        double[] second = w.row(1);
        CoinPress.clipRows(w, x, lower, 100.0); // the second row's whitened norm (about 26) is below tau = 100
        double[] first = w.row(0);
        assertArrayEquals(new double[] {0, 0, 100.0 * RowBounds.safety(3)}, first, 1e-12);
        assertArrayEquals(second, w.row(1), 0.0, "moderate rows are untouched");
    }

    /**
     * Finding 3, neighbouring pairs: D and D with one row replaced by a row near Double.MAX_VALUE (CoinPress) or
     * by a row of 1e169 (recursive, scaled by 1/sqrt(lambda (1 - alpha)) before), through the one release path:
     * both PASS with the same released fields and identical public parameters; no error, no NaN.
     */
    @Test
    void neighbouringPairsWithAHugeRowReleaseTheSameFields() {
        double[][] d = rows();
        SecondMomentParams p = SecondMomentParams.builder().budget(Zcdp.of(1)).radius(4).minEigenvalue(0.005).build();
        List<SecondMomentMethod> methods = List.of(CoinPress.fromParams(p), RecursiveSecondMoment.fromParams(p),
                AnalyzeGauss.fromParams(p));
        double[][] replacements = {{0, 0, BIG}, {BIG, BIG, BIG}, {1e169, 1e169, 1e169}, {0, -1e169, 0}};
        for (SecondMomentMethod m : methods) {
            PrivateRelease base = release(m, d, 3);
            assertTrue(base.isPass(), m.name());
            for (double[] h : replacements) {
                double[][] n = d.clone();
                n[0] = h;
                PrivateRelease r = release(m, n, 3);
                assertTrue(r.isPass(), m.name());
                assertEquals(base.toMap().keySet(), r.toMap().keySet(), m.name());
                assertEquals(base.parameters(), r.parameters(), m.name() + ": public parameters depend on n, d only");
                assertEquals(base.guarantee(), r.guarantee(), m.name());
                for (double[] row : r.matrix("secondMoment")) {
                    for (double v : row) {
                        assertTrue(Double.isFinite(v), m.name());
                    }
                }
            }
        }
    }

    /** Finding 10: the budget is typed and the radius named; the builders say what is missing. */
    @Test
    void buildersNameWhatIsMissingAndCannotSwapRhoAndRadius() {
        IllegalStateException noBudget = assertThrows(IllegalStateException.class,
                () -> SecondMomentParams.builder().radius(6).build());
        assertEquals("budget(Zcdp.of(rho)) is required: the zCDP budget of the release", noBudget.getMessage());
        IllegalStateException noRadius = assertThrows(IllegalStateException.class,
                () -> SecondMomentParams.builder().budget(Zcdp.of(0.5)).build());
        assertEquals("radius(R) is required: the public covering radius of the rows", noRadius.getMessage());
        SecondMomentParams p = SecondMomentParams.builder().radius(6).budget(Zcdp.of(0.5)).build();
        assertEquals(0.5, p.rho(), 0.0);
        assertEquals(6.0, p.radius(), 0.0);
        IllegalArgumentException badRadius = assertThrows(IllegalArgumentException.class,
                () -> SecondMomentParams.builder().budget(Zcdp.of(0.5)).radius(-6).build());
        assertTrue(badRadius.getMessage().startsWith("radius R=-6.0 is outside (0, inf)"), badRadius.getMessage());

        IllegalStateException agRadius = assertThrows(IllegalStateException.class,
                () -> AnalyzeGauss.builder().budget(Zcdp.of(0.5)).build());
        assertEquals("radius(R) is required: the public clipping radius", agRadius.getMessage());
        IllegalStateException agBudget = assertThrows(IllegalStateException.class,
                () -> AnalyzeGauss.builder().radius(6).build());
        assertEquals("budget(Zcdp.of(rho)) is required: the zCDP budget", agBudget.getMessage());
        AnalyzeGauss ag = AnalyzeGauss.of(6, Zcdp.of(0.5));
        assertEquals(6.0, ag.radius(), 0.0);
        assertEquals(0.5, ag.budget().rho(), 0.0);
        IllegalArgumentException tiny = assertThrows(IllegalArgumentException.class,
                () -> AnalyzeGauss.of(1e-200, Zcdp.of(0.5)));
        assertTrue(tiny.getMessage().contains("radius R=1.0E-200"), tiny.getMessage());
        assertEquals(0.5, CoinPress.of(36, Zcdp.of(0.5)).budget().rho(), 0.0);
        IllegalStateException saBudget = assertThrows(IllegalStateException.class,
                () -> SubsampleAndAggregate.builder().groupSize(10).alpha(0.5).build());
        assertTrue(saBudget.getMessage().contains("stepBudget(ApproxDp) or totalBudget(ApproxDp)"));
        SubsampleAndAggregate sa = SubsampleAndAggregate.builder().totalBudget(ApproxDp.of(2, 1e-6)).build();
        assertEquals(2.0, sa.finalGuarantee().epsilon(), 1e-15);
        assertEquals(1e-6, sa.finalGuarantee().delta(), 1e-20);
    }

    /** Public parameters are validated in the statement, before any data are read. */
    @Test
    void statementsRefuseBeforeReadingTheData() {
        Dataset small = Dataset.of(new double[][] {{1, 2}, {3, 4}, {5, 6}});
        SubsampleAndAggregate sa = SubsampleAndAggregate.builder().groupSize(2)
                .stepBudget(ApproxDp.of(1, 1e-7)).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Releases.state(sa, small, 1e-6));
        assertTrue(e.getMessage().contains("Thm A.6"), e.getMessage());
        SecondMomentParams p = SecondMomentParams.builder().budget(Zcdp.of(1)).radius(4).lambdaBudget(1.0, null)
                .build();
        IllegalArgumentException g = assertThrows(IllegalArgumentException.class,
                () -> Releases.state(RecursiveSecondMoment.fromParams(p), small, 1e-6));
        assertTrue(g.getMessage().contains("group size 20"), g.getMessage());
        IllegalArgumentException dl = assertThrows(IllegalArgumentException.class,
                () -> Releases.state(RecursiveSecondMoment.fromParams(p), Dataset.of(rows()), 4e-7));
        assertTrue(dl.getMessage().contains("not below the release's delta"), dl.getMessage());
    }

    /** The family under a privacy session: each release is stated, charged and only then computed. */
    @Test
    void methodsRunInAPrivacySession() {
        PrivacySession s = PrivacySession.builder(Dataset.of(rows())).relation(NeighbouringRelation.REPLACE_ONE)
                .budget(ApproxDp.of(10, 1e-6)).context(ReleaseContext.of(CPU, RandomSource.insecureSeeded(1)))
                .open();
        PrivateRelease a = s.release(AnalyzeGauss.of(4, Zcdp.of(0.2)));
        PrivateRelease c = s.release(CoinPress.of(16, Zcdp.of(0.2)));
        assertTrue(a.isPass() && c.isPass());
        assertEquals(3, a.matrix("secondMoment").length);
        assertTrue(s.spent().epsilon() > 0 && s.spent().epsilon() < 10, s.spent().toString());
        assertThrows(org.dpgauss.privacy.accounting.BudgetExceededException.class,
                () -> s.release(AnalyzeGauss.of(4, Zcdp.of(50))));
    }
}
