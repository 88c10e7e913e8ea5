package org.dpgauss.learn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Private linear regression (issue 26, item 2): clean-data agreement, truthfulness, neighbouring pairs. */
class PrivateLinearRegressionTest {

    private static final CpuEngine CPU = CpuEngine.instance();
    static final double[] THETA = {0.6, -0.4, 0.2};
    static final double THETA0 = 0.3;

    /**
     * Rows {@code [x1, y, x2, x3]} (the target in column 1): x uniform in [-0.5, 0.5]^3 (norm at most 0.87),
     * {@code y = x . THETA + THETA0 + 0.1 g} clamped to [-1.4, 1.4] (never reached: |y| <= 0.9 + 0.5).
     */
    static double[][] rows(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] out = new double[n][4];
        for (int i = 0; i < n; i++) {
            double[] x = {r.nextDouble() - 0.5, r.nextDouble() - 0.5, r.nextDouble() - 0.5};
            double y = THETA0 + 0.1 * Math.max(-5, Math.min(5, r.nextGaussian()));
            for (int j = 0; j < 3; j++) {
                y += x[j] * THETA[j];
            }
            out[i] = new double[] {x[0], y, x[1], x[2]};
        }
        return out;
    }

    /** Ordinary least squares with an intercept: [theta (3), theta0]. */
    static double[] ols(double[][] rows) {
        int n = rows.length;
        DMatrixRMaj a = new DMatrixRMaj(n, 4);
        DMatrixRMaj y = new DMatrixRMaj(n, 1);
        for (int i = 0; i < n; i++) {
            a.set(i, 0, rows[i][0]);
            a.set(i, 1, rows[i][2]);
            a.set(i, 2, rows[i][3]);
            a.set(i, 3, 1);
            y.set(i, 0, rows[i][1]);
        }
        DMatrixRMaj t = new DMatrixRMaj(4, 1);
        CommonOps_DDRM.solve(a, y, t);
        return t.data.clone();
    }

    static double mse(double[][] rows, double[] theta, double theta0) {
        double s = 0;
        for (double[] r : rows) {
            double e = r[1] - theta0 - theta[0] * r[0] - theta[1] * r[2] - theta[2] * r[3];
            s += e * e;
        }
        return s / rows.length;
    }

    private static PrivateLinearRegression model(double rho) {
        return PrivateLinearRegression.builder().target(1).featureBound(0.9).targetBound(1.4).budget(Zcdp.of(rho))
                .build();
    }

    private static PrivateLinearRegression adassp(double rho) {
        return PrivateLinearRegression.builder().target(1).featureBound(0.9).targetBound(1.4).budget(Zcdp.of(rho))
                .method(PrivateLinearRegression.Method.ADASSP).build();
    }

    private static PrivateRelease run(PrivateLinearRegression m, double[][] x, long seed) {
        return Releases.run(m, Dataset.of(x), 1e-6, ReleaseContext.of(CPU, RandomSource.insecureSeeded(seed)));
    }

    @Test
    void highBudgetOnCleanDataGivesTheLeastSquaresFit() {
        double[][] x = rows(5000, 1);
        double[] o = ols(x);
        PrivateRelease r = run(model(1e8), x, 2);
        double[] c = r.vector("coefficients");
        for (int j = 0; j < 3; j++) {
            assertEquals(o[j], c[j], 2e-3, "coefficient " + j);
        }
        assertEquals(o[3], r.scalar("intercept"), 2e-3);
    }

    @Test
    void publicCentresAreUndoneInTheReleasedIntercept() {
        double[][] x = rows(5000, 1);
        double[][] shifted = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            shifted[i] = new double[] {x[i][0] + 10, x[i][1] + 100, x[i][2] - 10, x[i][3] + 5};
        }
        double[] o = ols(shifted);
        PrivateLinearRegression m = PrivateLinearRegression.builder().target(1).featureBound(0.9).targetBound(1.4)
                .featureCentre(new double[] {10, -10, 5}).targetCentre(100).budget(Zcdp.of(1e8)).build();
        PrivateRelease r = run(m, shifted, 2);
        double[] c = r.vector("coefficients");
        for (int j = 0; j < 3; j++) {
            assertEquals(o[j], c[j], 2e-3, "coefficient " + j);
        }
        assertEquals(o[3], r.scalar("intercept"), 5e-2);
    }

    /**
     * Truthfulness: the stated excess-MSE bound (over every comparator in the ball; the OLS fit lies in it here:
     * its scaled norm is about 0.4) holds in 200 seeded releases at a small budget, with at most 25 failures; at the
     * stated failure probability 0.05, 25 or more in 200 have probability below 1e-4 (binomial tail).
     */
    @Test
    void statedAccuracyHoldsAtItsProbability() {
        double[][] x = rows(300, 3);
        double[] o = ols(x);
        double scaled = Math.sqrt((o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) * 0.81 / 1.96 + o[3] * o[3] / 1.96);
        assertTrue(scaled <= 1, "the OLS fit is in the comparator ball (scaled norm " + scaled + ")");
        double best = mse(x, new double[] {o[0], o[1], o[2]}, o[3]);
        PrivateLinearRegression m = adassp(0.5);
        Statement s = Releases.state(m, Dataset.of(x), 1e-6);
        double bound = s.accuracy().orElseThrow().bound();
        double e = s.parameters().number("ridge");
        assertEquals(s.parameters().number("gramNoiseBound") + s.parameters().number("crossNoiseBound"), e, 1e-12 * e);
        assertEquals(1.96 * e * 4, bound, 1e-9 * bound, "B_Y^2 E (2 + 2 T^2) with T = 1");
        // the expected value is the bound's algebra at the noise norms' means (issue 29 replay: 33x the realised
        // excess on diabetes for the earlier ssp-ridge): labelled as the worst case over the data, not an expectation
        assertTrue(s.accuracy().orElseThrow().isScenario(), s.accuracy().orElseThrow().toString());
        assertTrue(s.accuracy().orElseThrow().expectedBasis().contains("worst case of the bound's algebra"));
        int failures = 0;
        double worst = 0;
        for (int t = 0; t < 200; t++) {
            PrivateRelease r = run(m, x, 100 + t);
            double excess = mse(x, r.vector("coefficients"), r.scalar("intercept")) - best;
            assertTrue(excess >= -1e-12, "OLS is the least-squares minimum");
            assertTrue(r.scalar("ridge") >= e, "the ridge is at least E");
            worst = Math.max(worst, excess / bound);
            if (excess > bound) {
                failures++;
            }
        }
        assertTrue(failures <= 25, failures + " of 200 releases broke the stated bound");
        assertTrue(worst > 1e-3, "the excess is not trivially zero: " + worst);
    }

    /**
     * SSP truthfulness, in each regime: the stated excess-MSE bound holds against the OLS fit (the global minimum,
     * so the check is at least as strict as the statement's minimum over the comparator ball) in 200 seeded
     * releases, with at most 25 failures; at the stated failure probability 0.05, 25 or more in 200 have
     * probability below 1e-4 (binomial tail). Regimes: n = 300 at rho 0.5 (a private centre and two radii),
     * n = 120 at rho 0.08 (one radius), n = 40 at rho 0.05 (neither).
     */
    @Test
    @Tag("slow")
    void sspStatedAccuracyHoldsAtItsProbabilityInEveryRegime() {
        Object[][] cases = {{300, 0.5, "centred"}, {120, 0.08, "box-radius"}, {40, 0.05, "box"}};
        for (Object[] c : cases) {
            double[][] x = rows((Integer) c[0], 3);
            double[] o = ols(x);
            double best = mse(x, new double[] {o[0], o[1], o[2]}, o[3]);
            PrivateLinearRegression m = model((Double) c[1]);
            Statement s = Releases.state(m, Dataset.of(x), 1e-6);
            assertEquals(PrivateLinearRegression.ID_SSP, s.mechanism());
            assertEquals(c[2], s.parameters().toMap().get("regime"), "the regime at n=" + c[0]);
            double bound = s.accuracy().orElseThrow().bound();
            double eCap = s.parameters().number("gramNoiseBoundAtCap");
            double kappa = s.parameters().number("ridgeFactor");
            assertEquals("box".equals(c[2]) ? 2 : 1, kappa, 0);
            assertEquals(1.96 * eCap * (3 + kappa), bound, 1e-9 * bound,
                    "B_Y^2 E (2 + (1 + kappa) T^2) at the largest radius, T = 1");
            int failures = 0;
            double worst = 0;
            boolean centredSeen = false;
            for (int t = 0; t < 200; t++) {
                PrivateRelease r = run(m, x, 100 + t);
                assertTrue(r.isPass());
                double excess = mse(x, r.vector("coefficients"), r.scalar("intercept")) - best;
                assertTrue(excess >= -1e-12, "OLS is the least-squares minimum");
                assertTrue(r.scalar("radius") > 0 && r.scalar("radius") <= s.parameters().number("radiusCap"));
                assertTrue(r.scalar("ridge") > 0, "the ridge is kappa times the noise bound at the released radius");
                centredSeen |= r.scalar("centred") == 1;
                worst = Math.max(worst, excess / bound);
                if (excess > bound) {
                    failures++;
                }
            }
            assertTrue(failures <= 25, failures + " of 200 releases broke the stated bound at n=" + c[0]);
            assertTrue(worst > 1e-6, "the excess is not trivially zero: " + worst);
            if (!"centred".equals(c[2])) {
                assertTrue(!centredSeen, "no private centre without the centred regime");
            }
        }
    }

    /**
     * SSP's expected excess is estimated from the release (post-processing of its noised second moment, labelled
     * {@code release:}) and tracks the realised excess over OLS: over 31 seeds on clean data with a loose target bound
     * (B_Y = 3, so a missing B_Y^2 scale would be off by 9x), the median of stated/realised lies in [0.4, 2.5]; the
     * bound is still the a-priori one.
     */
    @Test
    void sspExpectedExcessComesFromTheReleaseAndTracksTheRealisedOne() {
        double[][] x = rows(2000, 7);
        double[] o = ols(x);
        double best = mse(x, new double[] {o[0], o[1], o[2]}, o[3]);
        PrivateLinearRegression m = PrivateLinearRegression.builder().target(1).featureBound(0.9).targetBound(3)
                .budget(Zcdp.of(0.05)).build();
        double bound = Releases.state(m, Dataset.of(x), 1e-6).accuracy().orElseThrow().bound();
        double[] ratios = new double[31];
        for (int t = 0; t < ratios.length; t++) {
            PrivateRelease r = run(m, x, 700 + t);
            org.dpgauss.release.Accuracy a = r.accuracy().orElseThrow();
            assertTrue(a.isFromRelease(), a.expectedBasis());
            assertEquals(bound, a.bound(), 0, "the bound is the a-priori one");
            assertTrue(!r.values().containsKey(PrivateLinearRegression.EXPECTED_EXCESS), "an input, not printed");
            double excess = mse(x, r.vector("coefficients"), r.scalar("intercept")) - best;
            ratios[t] = a.expected() / excess;
        }
        java.util.Arrays.sort(ratios);
        double median = ratios[ratios.length / 2];
        assertTrue(median >= 0.4 && median <= 2.5, "stated/realised median " + median);
    }

    /**
     * The regime is a function of public numbers only (n, the budget, the intercept): more rows unlock the radius
     * search, then the private centre; without an intercept there is no centre.
     */
    @Test
    void theSspRegimeFollowsPublicNumbersOnly() {
        PrivateLinearRegression m = model(0.02);
        assertEquals(PrivateLinearRegression.Regime.BOX, m.regime(50));
        assertEquals(PrivateLinearRegression.Regime.CENTRED, m.regime(100_000));
        int firstRadius = -1;
        int firstCentre = -1;
        for (int n = 1; n < 100_000 && firstCentre < 0; n++) {
            PrivateLinearRegression.Regime r = m.regime(n);
            if (firstRadius < 0 && r != PrivateLinearRegression.Regime.BOX) {
                firstRadius = n;
                assertEquals(PrivateLinearRegression.Regime.BOX_RADIUS, r, "one radius before two");
            }
            if (r == PrivateLinearRegression.Regime.CENTRED) {
                firstCentre = n;
            }
        }
        assertTrue(firstRadius > 0 && firstCentre > firstRadius, firstRadius + " " + firstCentre);
        PrivateLinearRegression noIntercept = PrivateLinearRegression.builder().target(1).featureBound(0.9)
                .targetBound(1.4).budget(Zcdp.of(0.02)).intercept(false).build();
        assertEquals(PrivateLinearRegression.Regime.BOX_RADIUS, noIntercept.regime(100_000));
        Statement s = Releases.state(noIntercept, Dataset.of(rows(50, 1)), 1e-6);
        assertEquals(0.0, s.parameters().number("constant"));
    }

    /**
     * The private centre is used where it shrinks the released radius: rows far from the box's centre (features
     * shifted by 0.4, inside B_X) are centred privately; rows around it are not. A mutant that always keeps the box's
     * centre, or always takes the private one, fails one of the two.
     */
    @Test
    void aPrivateCentreIsUsedWhereItShrinksTheRadius() {
        double[][] x = rows(5000, 4);
        double[][] far = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            far[i] = new double[] {x[i][0] * 0.3 + 0.4, x[i][1] * 0.3 + 0.7, x[i][2] * 0.3 + 0.4, x[i][3] * 0.3 + 0.4};
        }
        PrivateLinearRegression m = model(5.0);
        assertEquals(1.0, run(m, far, 3).scalar("centred"), "far from the box's centre: a private centre");
        double[][] near = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            near[i] = new double[] {x[i][0], x[i][1] - 0.3, x[i][2], x[i][3]};
        }
        PrivateRelease r = run(m, near, 3);
        assertEquals(0.0, r.scalar("centred"), "around the box's centre: the box's centre");
        double[] o = ols(far);
        PrivateRelease f = run(PrivateLinearRegression.builder().target(1).featureBound(0.9).targetBound(1.4)
                .budget(Zcdp.of(1e8)).build(), far, 3);
        for (int j = 0; j < 3; j++) {
            assertEquals(o[j], f.vector("coefficients")[j], 5e-3, "coefficient " + j + " about a private centre");
        }
        assertEquals(o[3], f.scalar("intercept"), 5e-3);
    }

    /**
     * The ridge (post-processing): exactly E where A~ + E I is positive definite (the event of the accuracy proof),
     * 2E - lambda_min(A~) where it is not, and the solve stays finite on an indefinite released matrix.
     */
    @Test
    void theRidgeIsEAndRisesOnlyOffTheEvent() {
        double e = 0.01;
        double[][] wellConditioned = {{1, 0}, {0, 1}};
        PrivateLinearRegression.Fit f = PrivateLinearRegression.solve(wellConditioned, new double[] {0.5, 0.25}, e);
        assertEquals(e, f.ridge, 0);
        assertEquals(0.5 / 1.01, f.beta[0], 1e-12);
        assertEquals(0.25 / 1.01, f.beta[1], 1e-12, "the intercept's coordinate gets the same ridge");
        double[][] indefinite = {{-0.5, 0}, {0, 1}};
        f = PrivateLinearRegression.solve(indefinite, new double[] {0.1, 0.25}, e);
        assertEquals(2 * e + 0.5, f.ridge, 1e-12);
        assertEquals(0.1 / (2 * e), f.beta[0], 1e-9);
        for (double v : f.beta) {
            assertTrue(Double.isFinite(v));
        }
    }

    /**
     * Per-column bounds (as diffprivlib's bounds_X): features on very different scales are scaled per column, so a
     * high budget recovers the least-squares fit on the original units.
     */
    @Test
    void perColumnBoxScalingRecoversTheFitOnTheOriginalUnits() {
        double[][] x = rows(5000, 1);
        double[][] scaled = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            scaled[i] = new double[] {x[i][0] * 1000 + 50, x[i][1], x[i][2] / 1000, x[i][3] + 7};
        }
        double[] o = ols(scaled);
        PrivateLinearRegression m = PrivateLinearRegression.builder().target(1)
                .featureBox(new double[] {-450, -0.0005, 6.5}, new double[] {550, 0.0005, 7.5}).targetBound(1.4)
                .budget(Zcdp.of(1e8)).build();
        PrivateRelease r = run(m, scaled, 2);
        double[] c = r.vector("coefficients");
        for (int j = 0; j < 3; j++) {
            assertEquals(o[j], c[j], 2e-3 * Math.abs(o[j]), "coefficient " + j);
        }
        assertEquals(o[3], r.scalar("intercept"), 2e-2);
    }

    /**
     * Inside the public box, the features' centre and L2 radius found privately: at a high budget the fit is the
     * least-squares one and the radius a power of two below the box's corner bound; with too few rows for the
     * budget no bucket stands out and the box's midpoint and corner are used, a PASS, not a FAIL.
     */
    @Test
    void aPrivateFeatureBallInsideTheBox() {
        double[][] x = rows(5000, 1);
        double[] o = ols(x);
        PrivateLinearRegression.Builder b = PrivateLinearRegression.builder().target(1)
                .featureBox(new double[] {-0.5, -0.5, -0.5}, new double[] {0.5, 0.5, 0.5}).targetBound(1.4)
                .findFeatureBall(true);
        PrivateRelease r = run(b.budget(Zcdp.of(1e6)).build(), x, 2);
        double[] c = r.vector("coefficients");
        for (int j = 0; j < 3; j++) {
            assertEquals(o[j], c[j], 5e-3, "coefficient " + j);
        }
        double bx = r.scalar("featureBound");
        assertTrue(bx <= 2 * Math.sqrt(3) && bx >= 1, "scaled rows have norm up to sqrt 3: " + bx);
        assertEquals(0, r.vector("featureCentre")[0], 0.05);
        PrivateRelease few = run(b.budget(Zcdp.of(1e-3)).build(), rows(40, 2), 3);
        assertTrue(few.isPass(), "too few rows: the box's corner, not a FAIL");
        assertEquals(Math.sqrt(3), few.scalar("featureBound"), 0);
        assertEquals(0, few.vector("featureCentre")[1], 0);
    }

    /**
     * No bounds given: a share of the budget finds the centres and bounds (mean --clip auto, twice), released with the
     * fit; at a high budget the fit is the least-squares one, on data far from the origin.
     */
    @Test
    void withoutBoundsTheBoundsAreFoundPrivately() {
        double[][] x = rows(5000, 1);
        double[][] shifted = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            shifted[i] = new double[] {x[i][0] + 30, x[i][1] - 200, x[i][2] + 30, x[i][3] + 30};
        }
        double[] o = ols(shifted);
        PrivateLinearRegression m = PrivateLinearRegression.builder().target(1).budget(Zcdp.of(1e6)).build();
        Statement s = Releases.state(m, Dataset.of(shifted), 1e-6);
        assertEquals(PrivateLinearRegression.DEFAULT_BOUNDS_SHARE, s.parameters().number("boundsShare"), 0);
        PrivateRelease r = run(m, shifted, 2);
        assertTrue(r.isPass());
        double[] c = r.vector("coefficients");
        for (int j = 0; j < 3; j++) {
            assertEquals(o[j], c[j], 5e-3, "coefficient " + j);
        }
        assertEquals(o[3], r.scalar("intercept"), 0.5);
        assertEquals(-199.7, r.scalar("targetCentre"), 0.1, "the target's centre is its mean");
        double by = r.scalar("targetBound");
        assertTrue(by >= 1 && by <= 4, "a power of two covering the target's spread: " + by);
        double bx = r.scalar("featureBound");
        assertTrue(bx >= 0.5 && bx <= 2, "a power of two covering the features' spread: " + bx);
        assertEquals(30, r.vector("featureCentre")[1], 0.05);
    }

    /**
     * Truthfulness with private bounds: the statement is per unit of the released B_Y^2; it holds in 100 seeded
     * releases with at most 14 failures (at the stated failure probability 0.05, 14 or more in 100 have probability
     * below 1e-3).
     */
    @Test
    void statedAccuracyHoldsWithPrivateBounds() {
        double[][] x = rows(4000, 3);
        double[] o = ols(x);
        double best = mse(x, new double[] {o[0], o[1], o[2]}, o[3]);
        PrivateLinearRegression auto = PrivateLinearRegression.builder().target(1).budget(Zcdp.of(0.5))
                .method(PrivateLinearRegression.Method.ADASSP).build();
        double perUnit = Releases.state(auto, Dataset.of(x), 1e-6).accuracy().orElseThrow().bound();
        int failures = 0;
        for (int t = 0; t < 100; t++) {
            PrivateRelease r = run(auto, x, 500 + t);
            assertTrue(r.isPass());
            double by = r.scalar("targetBound");
            double bx = r.scalar("featureBound");
            double[] fc = r.vector("featureCentre");
            double tc = r.scalar("targetCentre");
            // OLS in the ball of radius 1 of the released scaling (the comparator of the statement)
            double cn = Math.sqrt((o[0] * o[0] + o[1] * o[1] + o[2] * o[2]) * bx * bx / (by * by)
                    + Math.pow(o[3] + o[0] * fc[0] + o[1] * fc[1] + o[2] * fc[2] - tc, 2) / (by * by));
            assertTrue(cn <= 1, "the OLS fit is in the comparator ball: " + cn);
            double excess = mse(x, r.vector("coefficients"), r.scalar("intercept")) - best;
            if (excess / (by * by) > perUnit) {
                failures++;
            }
        }
        assertTrue(failures <= 14, failures + " of 100 releases broke the stated bound");
        // a given target bound with private feature bounds: the statement is absolute, in units of B_Y^2 = 1.96
        Statement mixed = Releases.state(PrivateLinearRegression.builder().target(1).targetBound(1.4)
                .budget(Zcdp.of(0.5)).method(PrivateLinearRegression.Method.ADASSP).build(), Dataset.of(x), 1e-6);
        double e = mixed.parameters().number("ridge");
        assertEquals(1.96 * e * 4, mixed.accuracy().orElseThrow().bound(), 1e-9 * e);
    }

    private static PrivateLinearRegression projection(int rank, double epsilon) {
        return PrivateLinearRegression.builder().target(1).featureBound(0.9).targetBound(1.4)
                .projection(rank, org.dpgauss.privacy.ApproxDp.of(epsilon, 1e-6)).build();
    }

    /**
     * The NDIS random projection (sketch and solve): at a large epsilon, rank and n the fit is the OLS one (the
     * mechanism's ridge, about 3/p*, shrinks it by about lambda / (n/12/0.81)).
     */
    @Test
    @Tag("slow")
    void projectionAtHighBudgetGivesTheLeastSquaresFit() {
        double[][] x = rows(20000, 1);
        double[] o = ols(x);
        PrivateLinearRegression m = projection(4000, 50);
        Statement s = Releases.state(m, Dataset.of(x), 1e-6);
        assertEquals(org.dpgauss.privacy.NeighbouringRelation.ADD_REMOVE, s.guarantee().relation());
        assertEquals(PrivateLinearRegression.ID_PROJECTION, s.mechanism());
        PrivateRelease r = run(m, x, 2);
        double[] c = r.vector("coefficients");
        for (int j = 0; j < 3; j++) {
            assertEquals(o[j], c[j], 0.03, "coefficient " + j);
        }
        assertEquals(o[3], r.scalar("intercept"), 0.03);
    }

    /**
     * Truthfulness of the projection's statement, SSE(released) - kappa SSE(OLS) <= bound (the OLS fit lies in the
     * comparator ball), in 100 seeded releases at epsilon 1 with at most 14 failures (at the stated failure
     * probability 0.05, 14 or more in 100 have probability below 1e-3); and the default rank gives kappa = 3.
     */
    @Test
    @Tag("slow")
    void projectionStatedAccuracyHolds() {
        double[][] x = rows(300, 3);
        double[] o = ols(x);
        double bestSse = mse(x, new double[] {o[0], o[1], o[2]}, o[3]) * x.length;
        int rank = PrivateLinearRegression.defaultRank(4, true);
        PrivateLinearRegression m = projection(rank, 1);
        Statement s = Releases.state(m, Dataset.of(x), 1e-6);
        double kappa = s.parameters().number("sketchKappa");
        assertTrue(kappa <= 3 && kappa > 2.95, "the default rank is the smallest with a' <= 1/2: " + kappa);
        double bound = s.accuracy().orElseThrow().bound();
        assertEquals(kappa * s.parameters().number("projectionRidge") * 2 * 1.96, bound, 1e-9 * bound);
        int failures = 0;
        double worst = 0;
        for (int t = 0; t < 100; t++) {
            PrivateRelease r = run(m, x, 300 + t);
            double sse = mse(x, r.vector("coefficients"), r.scalar("intercept")) * x.length;
            double excess = sse - kappa * bestSse;
            worst = Math.max(worst, (sse - bestSse) / bound);
            if (excess > bound) {
                failures++;
            }
        }
        assertTrue(failures <= 14, failures + " of 100 releases broke the stated bound");
        assertTrue(worst > 1e-3, "the excess is not trivially zero: " + worst);
    }

    /** Add/remove neighbours for the projection: one row more (in or far out of the bounds) gives the same fields. */
    @Test
    void projectionNeighboursReleaseTheSameFields() {
        double[][] x = rows(400, 5);
        PrivateLinearRegression m = projection(200, 1);
        PrivateRelease base = run(m, x, 9);
        for (double[] o : new double[][] {{1e300, -1e300, 1e300, 1e300}, {0.1, 0.2, 0.3, 0.4}}) {
            double[][] y = java.util.Arrays.copyOf(x, x.length + 1);
            y[x.length] = o;
            PrivateRelease r = run(m, y, 9);
            assertEquals(base.status(), r.status());
            assertEquals(base.values().keySet(), r.values().keySet());
            for (double v : r.vector("coefficients")) {
                assertTrue(Double.isFinite(v));
            }
        }
        assertThrows(IllegalArgumentException.class, () -> PrivateLinearRegression.builder().target(1)
                .featureBound(1).projection(100, org.dpgauss.privacy.ApproxDp.of(1, 1e-6)).build(),
                "the projection needs both bounds");
        assertThrows(IllegalArgumentException.class, () -> Releases.state(projection(3, 1), Dataset.of(x), 1e-6),
                "a rank below the columns is refused");
    }

    @Test
    void parametersAreRefusedBeforeTheDataAreRead() {
        assertThrows(IllegalStateException.class,
                () -> PrivateLinearRegression.builder().featureBound(1).targetBound(1).budget(Zcdp.of(1)).build());
        assertThrows(IllegalArgumentException.class, () -> PrivateLinearRegression.builder().target(0)
                .featureBound(0).targetBound(1).budget(Zcdp.of(1)).build());
        PrivateLinearRegression beyond = PrivateLinearRegression.builder().target(4).featureBound(1).targetBound(1)
                .budget(Zcdp.of(1)).build();
        assertThrows(IllegalArgumentException.class, () -> Releases.state(beyond, Dataset.of(rows(20, 1)), 1e-6));
    }

    /**
     * Neighbouring pairs: one row replaced by an outlier (features or target at +-1e300 or MAX_VALUE, far outside
     * the bounds, or rows swapped) gives PASS with the same fields and finite values, and moves the coefficients by
     * a bounded amount.
     */
    @Test
    void neighbouringPairsReleaseTheSameFields() {
        double[][] x = rows(800, 5);
        PrivateLinearRegression m = model(1.0);
        PrivateRelease base = run(m, x, 9);
        double[][] outliers = {
            {1e300, 1e300, 1e300, 1e300}, {-1e300, -1e300, 1e300, -1e300}, {0, Double.MAX_VALUE, 0, 0},
            {Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE, 1e-300}, {3, 7, -3, 0}};
        for (double[] o : outliers) {
            double[][] y = x.clone();
            y[0] = o;
            PrivateRelease r = run(m, y, 9);
            assertEquals(base.status(), r.status());
            assertEquals(base.values().keySet(), r.values().keySet());
            double[] c = r.vector("coefficients");
            for (int j = 0; j < 3; j++) {
                assertTrue(Double.isFinite(c[j]));
                assertEquals(base.vector("coefficients")[j], c[j], 0.5, "one row moves a coefficient boundedly");
            }
            assertTrue(Double.isFinite(r.scalar("intercept")));
        }
        PrivateLinearRegression auto = PrivateLinearRegression.builder().target(1).budget(Zcdp.of(1.0)).build();
        PrivateRelease autoBase = run(auto, x, 9);
        assertTrue(autoBase.isPass());
        for (double[] o : outliers) {
            double[][] y = x.clone();
            y[0] = o;
            PrivateRelease r = run(auto, y, 9);
            assertEquals(autoBase.status(), r.status(), "private bounds: the same status on both neighbours");
            assertEquals(autoBase.values().keySet(), r.values().keySet());
            for (double v : r.vector("coefficients")) {
                assertTrue(Double.isFinite(v));
            }
            assertTrue(Double.isFinite(r.scalar("intercept")) && Double.isFinite(r.scalar("targetBound")));
        }
        double[][] moved = x.clone();
        moved[0] = x[799];
        moved[799] = x[0];
        PrivateRelease r = run(m, moved, 9);
        assertEquals(base.vector("coefficients")[0], r.vector("coefficients")[0], 1e-6);
    }
}
