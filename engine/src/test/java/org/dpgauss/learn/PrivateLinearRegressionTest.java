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
        PrivateLinearRegression m = model(0.5);
        Statement s = Releases.state(m, Dataset.of(x), 1e-6);
        double bound = s.accuracy().orElseThrow().bound();
        double e = s.parameters().number("noiseNormBound");
        assertEquals(1.96 * e * 6, bound, 1e-9 * bound, "B_Y^2 E (2 + 4 T^2) with T = 1");
        // the expected value is the bound's algebra at the noise's mean norm (issue 29 replay: 33x the realised
        // excess on diabetes): labelled as the worst case, an upper bound on the expected excess
        assertTrue(s.accuracy().orElseThrow().isScenario(), s.accuracy().orElseThrow().toString());
        assertTrue(s.accuracy().orElseThrow().expectedBasis().contains("upper bound on the expected excess"));
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
     * The adaptive ridge (post-processing): E on well-conditioned statistics (the floor the accuracy proof needs),
     * 2E - lambda_min on ill-conditioned ones, and the solve stays finite on an indefinite released matrix.
     */
    @Test
    void theRidgeIsAtLeastEAndAdaptsToTheConditioning() {
        PrivateLinearRegression m = model(1);
        double e = 0.01;
        // features [f1, f2] with A = diag(1, 1) (intercept column: the second), b = (0.5, 0.25)
        double[][] wellConditioned = {{1, 0, 0.5}, {0, 1, 0.25}, {0.5, 0.25, 1}};
        PrivateLinearRegression.Fit f = m.solve(wellConditioned, e);
        assertEquals(e, f.ridge, 0, "lambda_min(A~) = 1 >= 2E: the ridge is its floor E");
        assertEquals(0.5 / 1.01, f.beta[0], 1e-12);
        double[][] singular = {{1e-4, 0, 0.1}, {0, 1, 0.25}, {0.1, 0.25, 1}};
        f = m.solve(singular, e);
        assertEquals(2 * e - 1e-4, f.ridge, 1e-15);
        assertEquals(0.25 / (1 + e), f.beta[1], 1e-12, "the intercept's coordinate gets E, not the features' ridge");
        double[][] indefinite = {{-0.5, 0, 0.1}, {0, 1, 0.25}, {0.1, 0.25, 1}};
        f = m.solve(indefinite, e);
        assertEquals(2 * e + 0.5, f.ridge, 1e-12);
        for (double v : f.beta) {
            assertTrue(Double.isFinite(v));
        }
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
        double[][] moved = x.clone();
        moved[0] = x[799];
        moved[799] = x[0];
        PrivateRelease r = run(m, moved, 9);
        assertEquals(base.vector("coefficients")[0], r.vector("coefficients")[0], 1e-6);
    }
}
