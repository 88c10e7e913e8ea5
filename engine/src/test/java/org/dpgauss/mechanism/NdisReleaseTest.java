package org.dpgauss.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.junit.jupiter.api.Test;

/**
 * BLR and GPR under the release contract (issue 14): neighbouring pairs that used to switch between a release and
 * an exception after the data were read (findings 2 and 4), the covered fallbacks, and the statement.
 */
class NdisReleaseTest {

    private static final ApproxDp BUDGET = ApproxDp.of(1, 1e-5);

    private static ReleaseContext seeded(long seed) {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(seed));
    }

    /** n rows of 5 features uniform in [-scale, scale] and a +-1 label from a logistic model, then the label. */
    static double[][] scaled(int n, double scale, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] w = {0.3, -0.2, 0.1, 0.05, -0.1};
        double[][] rows = new double[n][6];
        for (int i = 0; i < n; i++) {
            double m = 0;
            for (int j = 0; j < 5; j++) {
                rows[i][j] = (2 * r.nextDouble() - 1) * scale;
                m += rows[i][j] * w[j];
            }
            m = 3 * m / scale;
            rows[i][5] = r.nextDouble() < 1 / (1 + Math.exp(-m)) ? 1 : -1;
        }
        return rows;
    }

    private static BayesianLogisticRegression blr(int maxRows) {
        return BayesianLogisticRegression.builder().dimension(5).lambda(1).rowBound(10000).maxRows(maxRows)
                .budget(BUDGET).build();
    }

    /**
     * Finding 2: at features of scale 3000 (l = 10000, lambda = 1), the old absolute gradient tolerance 1e-10 was met
     * on these 3461 rows and missed once the 3462nd row was added (an ArithmeticException quoting the gradient
     * norm). Both neighbours now release theta with the same fields.
     */
    @Test
    void blrNeighboursAtLargeScaleBothRelease() {
        double[][] rows = scaled(3462, 3000, 11);
        BayesianLogisticRegression m = blr(100000);
        PrivateRelease a = Releases.run(m, Dataset.of(Arrays.copyOf(rows, 3461)), 1e-5, seeded(1));
        PrivateRelease b = Releases.run(m, Dataset.of(rows), 1e-5, seeded(1));
        assertTrue(a.isPass() && b.isPass());
        assertEquals(a.toMap().keySet(), b.toMap().keySet());
        assertEquals(a.parameters(), b.parameters(), "the parameters are public: the same on both neighbours");
        assertEquals(5, b.vector("theta").length);
        // both are Newton's certified points, not the fallback
        double[][][] xy = m.records(Dataset.of(rows).matrix(), null);
        assertTrue(m.newton(xy[0], xy[1][0]) != null);
    }

    /**
     * With a loose public bound (l = 10000 on features of scale 1), separable labels and a weak regulariser, theta*
     * is large, and Newton's point is still certified (the certificate's rounding term uses the data's own row
     * norms), so the release does not take the fallback.
     */
    @Test
    void blrCertifiesLargeMinimisersUnderALooseRowBound() {
        double[][] rows = scaled(20000, 1, 21);
        for (double[] row : rows) {
            row[5] = 0.3 * row[0] - 0.2 * row[1] + 0.1 * row[2] > 0 ? 1 : -1; // separable
        }
        BayesianLogisticRegression m = BayesianLogisticRegression.builder().dimension(5).lambda(0.01)
                .rowBound(10000).maxRows(200000).budget(BUDGET).build();
        double[][][] xy = m.records(Dataset.of(rows).matrix(), null);
        double[] theta = m.newton(xy[0], xy[1][0]);
        assertTrue(theta != null, "certified");
        double norm = Math.sqrt(BayesianLogisticRegression.dot(theta, theta));
        assertTrue(norm > 10, "a large minimiser: " + norm);
    }

    /** Finding 2: at scale 1000 with 30000 rows the old code always failed; now it releases. */
    @Test
    void blrReleasesAtScaleThousand() {
        PrivateRelease r = Releases.run(blr(100000), Dataset.of(scaled(30000, 1000, 11)), 1e-5, seeded(2));
        assertTrue(r.isPass());
        assertTrue(Arrays.stream(r.vector("theta")).allMatch(Double::isFinite));
    }

    /**
     * The fallback is covered: K public gradient steps land within the public residual of the exact minimiser
     * (here K reaches the target 1e-4 l/lambda), and the residual enters the sensitivity.
     */
    @Test
    void blrFallbackIsWithinThePublicResidual() {
        BayesianLogisticRegression m = BayesianLogisticRegression.builder().dimension(2).lambda(1).rowBound(1)
                .maxRows(50).budget(BUDGET).build();
        assertEquals(1e-4, m.residualBound(), 1e-18, "K steps reach the target r = 1e-4 l/lambda");
        assertTrue(m.fallbackIterations() > 0 && m.fallbackIterations() < 1000, "K=" + m.fallbackIterations());
        double[][] x = NdisMechanismTest.data(50, 2, 9);
        double[] y = NdisMechanismTest.labels(x, new double[] {4, -3}, 10);
        double[] exact = m.newton(x, y);
        double[] fallback = m.gradientDescent(x, y, m.fallbackIterations());
        double dist = Math.hypot(exact[0] - fallback[0], exact[1] - fallback[1]);
        assertTrue(dist <= m.residualBound(), dist + " > " + m.residualBound());
        double[] fewer = m.gradientDescent(x, y, m.fallbackIterations() / 4);
        assertTrue(Math.hypot(exact[0] - fewer[0], exact[1] - fewer[1]) > 1e-6, "the step count matters");
        // the sensitivity covers 2r: Delta = (l/lambda + 2r)/sqrt(sigma + top)
        double sigma = m.mechanism().variance();
        double top = 1 / (1 + 50 / 4.0);
        assertEquals((1 + 1e-12 + 2e-4) / Math.sqrt(sigma + top),
                m.mechanism().sensitivityAtVariance().meanSensitivity(), 1e-15);
    }

    /** Where K affordable steps cannot reach the target, the larger public residual is what the noise covers. */
    @Test
    void blrCappedFallbackResidualIsPublicAndCovered() {
        BayesianLogisticRegression m = blr(100000);
        double r = Math.sqrt(2 * 100000 * Math.log(2));
        assertEquals(r, m.residualBound(), 1e-9 * r, "beyond the work cap the fallback is theta = 0, residual R");
        assertEquals(0, m.fallbackIterations());
        assertTrue(r <= 0.05 * 10000, "R costs at most 10 % of the sensitivity l/lambda");
        Statement s = Releases.state(m, Dataset.of(scaled(10, 100, 3)), 1e-5);
        assertEquals(m.residualBound(), s.parameters().number("residualBound"));
        assertEquals(m.fallbackIterations(), (long) s.parameters().number("fallbackIterations"));
    }

    @Test
    void blrStatementIsPublicAndCamelCase() {
        BayesianLogisticRegression m = NdisMechanismTest.blr(2, 1, 1, 1000, 1, 1e-5,
                NdisGaussianMechanism.DEFAULT_VARIANT);
        Statement s = Releases.state(m, Dataset.of(new double[][] {{0.1, 0.2, 1}}), 1e-5);
        assertEquals("mechanism.blr", s.mechanism());
        assertEquals(NeighbouringRelation.ADD_REMOVE, s.guarantee().relation());
        assertTrue(s.guarantee().certified());
        assertEquals(Release.Kind.APPROX_DP, s.accounting().kind());
        assertEquals(m.mechanism().variance(), s.parameters().number("noiseVariance"));
        assertTrue(s.parameters().number("boundDelta") <= 1e-5);
        for (String name : s.parameters().names()) {
            assertTrue(name.matches("[a-z][a-zA-Z0-9]*"), name);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Releases.state(m, Dataset.of(new double[][] {{0.1, 1}}), 1e-5));
        assertTrue(e.getMessage().contains("d=2"), e.getMessage());
        PrivateRelease r = Releases.run(m, Dataset.of(new double[][] {{0.1, 0.2, 1}, {-0.3, 0.1, -1}}), 1e-5,
                seeded(3));
        assertFalse(r.guarantee().certified(), "an insecure seed withdraws the certification (in Releases)");
    }

    /** The mechanism is defined on every finite row: long rows are scaled onto the ball, labels by sign. */
    @Test
    void blrMapsEveryFiniteRecord() {
        BayesianLogisticRegression m = NdisMechanismTest.blr(2, 1, 1, 10, 1, 1e-5,
                NdisGaussianMechanism.DEFAULT_VARIANT);
        double[][][] xy = m.records(Dataset.of(new double[][] {{3, 4, 0}, {0.3, 0.4, 7}, {1e300, -1e300, -2}})
                .matrix(), null);
        assertEquals(0.6, xy[0][0][0], 1e-14); // clipped to l (1 - 4 (d + 2) u): true norm <= l (L2Clip.safeTarget)
        assertEquals(0.8, xy[0][0][1], 1e-14); // clipped to l (1 - 4 (d + 2) u): true norm <= l (L2Clip.safeTarget)
        assertEquals(0.3, xy[0][1][0]);
        assertEquals(Math.sqrt(0.5), xy[0][2][0], 1e-14);
        assertEquals(-1, xy[1][0][0]);
        assertEquals(1, xy[1][0][1]);
        assertEquals(-1, xy[1][0][2]);
        PrivateRelease r = Releases.run(m, Dataset.of(new double[][] {{3, 4, 0}, {1e300, -1e300, -2}}), 1e-5,
                seeded(4));
        assertTrue(r.isPass());
        // more rows than N=10: a secret random 10 are used, never an error (issue 24, item 5; failed before: "more
        // rows than the public maximum N=10"); the release has the same fields as one on at most N rows
        PrivateRelease over = Releases.run(m, Dataset.of(new double[12][3]), 1e-5, seeded(5));
        PrivateRelease under = Releases.run(m, Dataset.of(new double[10][3]), 1e-5, seeded(5));
        assertTrue(over.isPass() && under.isPass());
        assertEquals(under.toMap().keySet(), over.toMap().keySet());
        assertEquals(under.parameters(), over.parameters());
        assertTrue(over.guarantee().notes().contains("secret uniformly random"), over.guarantee().notes());
    }

    /**
     * Finding 4: a tiny noise variance (1e-17) used to pass validation and then fail in the factorisation exactly
     * when the data held duplicate rows; it is now refused before any data are read, naming the rule.
     */
    @Test
    void gprRefusesANoiseVarianceTheFactorisationCannotTakeBeforeReadingData() {
        GaussianProcessRegression.Builder b = GaussianProcessRegression.builder()
                .kernel(GaussianProcessRegression.rbf(1, 1)).noiseVariance(1e-17).labelBound(1).maxRows(10)
                .query(new double[] {0.3}).budget(BUDGET);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains("4 N (N + p + 8) 2^-53 s^2"), e.getMessage());
        double min = GaussianProcessRegression.minimumNoiseVariance(10, 1, 1);
        assertEquals(4 * 10 * 19 * 0x1p-53, min, 1e-30);
        b.noiseVariance(min).build();
    }

    /** Finding 4: at the smallest accepted noise variance, duplicate rows factorise: D and D minus a duplicate. */
    @Test
    void gprDuplicateRowNeighboursBothRelease() {
        int n = 200;
        double sn2 = GaussianProcessRegression.minimumNoiseVariance(n, 1, 1);
        GaussianProcessRegression g = NdisMechanismTest.gpr(GaussianProcessRegression.rbf(1, 1), sn2, 1, n,
                new double[] {0.3}, 1, 1e-5, NdisGaussianMechanism.DEFAULT_VARIANT);
        double[][] rows = new double[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = new double[] {0.3, 1};
        }
        PrivateRelease a = Releases.run(g, Dataset.of(rows), 1e-5, seeded(6));
        PrivateRelease b = Releases.run(g, Dataset.of(Arrays.copyOf(rows, n - 1)), 1e-5, seeded(6));
        assertTrue(a.isPass() && b.isPass());
        assertEquals(a.toMap().keySet(), b.toMap().keySet());
        // the factorisation succeeded (the covered prior fallback would give mean 0): n identical rows at the query
        // with y = 1 give mu* = n/(n + sn2) ~ 1
        double[][][] xy = g.records(Dataset.of(rows).matrix(), null);
        assertEquals(1, g.posterior(xy[0], xy[1][0])[0], 1e-9);
    }

    /** The prior predictive, GPR's covered fallback, is within the sensitivity of any posterior (class comment). */
    @Test
    void gprPriorFallbackIsWithinTheSensitivity() {
        double sn2 = 0.01;
        int n = 30;
        GaussianProcessRegression g = NdisMechanismTest.gpr(GaussianProcessRegression.rbf(2, 0.5), sn2, 1, n,
                new double[] {0}, 1, 1e-5, NdisGaussianMechanism.DEFAULT_VARIANT);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 0.01 * i;
            y[i] = 1;
        }
        double[] p = g.posterior(x, y);
        double sigma = g.mechanism().variance();
        double shift = Math.abs(p[0]) / Math.sqrt(sigma + p[1]);
        assertTrue(shift <= g.mechanism().sensitivityAtVariance().meanSensitivity(), shift + "");
    }

    @Test
    void gprStatement() {
        GaussianProcessRegression g = NdisMechanismTest.gpr(GaussianProcessRegression.rbf(1, 1), 0.5, 2, 100,
                new double[] {0.3, 0.1}, 1, 1e-5, NdisGaussianMechanism.DEFAULT_VARIANT);
        Statement s = Releases.state(g, Dataset.of(new double[][] {{0, 0, 1}}), 1e-5);
        assertEquals("mechanism.gpr", s.mechanism());
        assertEquals(0.5, s.parameters().number("gpNoiseVariance"));
        assertEquals(g.mechanism().variance(), s.parameters().number("noiseVariance"));
        assertThrows(IllegalArgumentException.class, () -> Releases.state(g, Dataset.of(new double[][] {{0, 1}}),
                1e-5));
        PrivateRelease r = Releases.run(g, Dataset.of(new double[][] {{0, 0, 5}, {0.2, 0.1, -1}}), 1e-5, seeded(7));
        assertEquals(1, r.vector("prediction").length);
    }

    /** A budgeted session composes the NDIS releases as (epsilon, delta) and refuses one that would exceed it. */
    @Test
    void sessionChargesTheStatedBudget() {
        Dataset data = Dataset.of(new double[][] {{0.1, 0.2, 1}, {-0.3, 0.1, -1}, {0.5, -0.4, 1}});
        org.dpgauss.release.PrivacySession s = org.dpgauss.release.PrivacySession.builder(data)
                .relation(NeighbouringRelation.ADD_REMOVE).budget(ApproxDp.of(1.5, 1e-4)).context(seeded(8)).open();
        PrivateRelease r = s.release(NdisMechanismTest.blr(2, 1, 1, 100, 1, 1e-5,
                NdisGaussianMechanism.DEFAULT_VARIANT));
        assertTrue(r.isPass());
        assertEquals(1, s.spent().epsilon(), 1e-12);
        GaussianProcessRegression g = NdisMechanismTest.gpr(GaussianProcessRegression.rbf(1, 1), 0.5, 1, 100,
                new double[] {0, 0}, 1, 1e-5, NdisGaussianMechanism.DEFAULT_VARIANT);
        assertThrows(org.dpgauss.privacy.accounting.BudgetExceededException.class, () -> s.release(g), "1 + 1 > 1.5");
        assertEquals(1, s.spent().epsilon(), 1e-12, "a refused release charges nothing");
    }
}
