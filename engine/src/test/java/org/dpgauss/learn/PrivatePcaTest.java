package org.dpgauss.learn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.junit.jupiter.api.Test;

/** Private PCA (issue 26, item 1): clean-data agreement, truthfulness of the stated accuracy, neighbouring pairs. */
class PrivatePcaTest {

    private static final CpuEngine CPU = CpuEngine.instance();

    /** Rows {@code mu + g A} with g standard Gaussian: covariance A^T A, top eigenvalues well separated. */
    static double[][] rows(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] a = {{3, 1, 0, 0}, {0, 2, 0.5, 0}, {0, 0, 1, 0}, {0, 0, 0, 0.3}};
        double[] mu = {5, -3, 2, 1};
        double[][] x = new double[n][4];
        for (int i = 0; i < n; i++) {
            double[] g = {r.nextGaussian(), r.nextGaussian(), r.nextGaussian(), r.nextGaussian()};
            for (int j = 0; j < 4; j++) {
                double s = mu[j];
                for (int t = 0; t < 4; t++) {
                    s += g[t] * a[t][j];
                }
                x[i][j] = s;
            }
        }
        return x;
    }

    /** The covariance (1/n) sum (x - xbar)(x - xbar)^T. */
    static double[][] covariance(double[][] x) {
        int n = x.length;
        int d = x[0].length;
        double[] m = new double[d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                m[j] += row[j] / n;
            }
        }
        double[][] c = new double[d][d];
        for (double[] row : x) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    c[i][j] += (row[i] - m[i]) * (row[j] - m[j]) / n;
                }
            }
        }
        return c;
    }

    static double quadratic(double[][] c, double[] v) {
        double s = 0;
        for (int i = 0; i < v.length; i++) {
            for (int j = 0; j < v.length; j++) {
                s += v[i] * c[i][j] * v[j];
            }
        }
        return s;
    }

    private static PrivateRelease run(PrivatePca pca, double[][] x, long seed) {
        return Releases.run(pca, Dataset.of(x), 1e-6, ReleaseContext.of(CPU, RandomSource.insecureSeeded(seed)));
    }

    private static PrivatePca pca(double rho) {
        return PrivatePca.builder().k(2).radius(15).meanRadius(20).budget(Zcdp.of(rho)).build();
    }

    @Test
    void highBudgetOnCleanDataFindsTheTrueComponentsAndVariances() {
        double[][] x = rows(4000, 1);
        double[][] c = covariance(x);
        SymmetricEigen truth = SymmetricEigen.of(c);
        PrivateRelease r = run(pca(1e6), x, 2);
        assertTrue(r.isPass());
        double[][] v = r.matrix("components");
        double[] var = r.vector("variances");
        double[][] tv = truth.topVectors(2);
        double[] tl = truth.topValues(2);
        for (int i = 0; i < 2; i++) {
            double dot = 0;
            for (int j = 0; j < 4; j++) {
                dot += v[i][j] * tv[i][j];
            }
            assertEquals(1.0, Math.abs(dot), 1e-4, "component " + i + " aligns with the true eigenvector");
            assertEquals(tl[i], var[i], 1e-3 * tl[i], "variance " + i);
        }
        // the private mean is close to the rows' mean
        double[] m = r.vector("mean");
        assertEquals(5, m[0], 0.2);
        assertEquals(-3, m[1], 0.2);
    }

    /**
     * Truthfulness at a small budget: in 200 seeded releases, the stated events (top-k variance missed at most the
     * bound, every variance within varianceErrorBound of the true eigenvalue) fail at most 30 times. The statement
     * says they hold with probability >= 0.94; if it were true with failure probability 0.06 exactly, 30 or more
     * failures in 200 have probability below 1e-5 (binomial tail), so a failing test means a false statement.
     */
    @Test
    void statedAccuracyHoldsAtItsProbability() {
        double[][] x = rows(400, 3);
        double[][] c = covariance(x);
        SymmetricEigen truth = SymmetricEigen.of(c);
        double[] tl = truth.values();
        PrivatePca p = PrivatePca.builder().k(2).radius(15).meanRadius(20).budget(Zcdp.of(2.0)).build();
        Statement s = Releases.state(p, Dataset.of(x), 1e-6);
        double bound = s.accuracy().orElseThrow().bound();
        double varBound = s.parameters().number("varianceErrorBound");
        assertEquals(2 * 2 * varBound, bound, 1e-9 * bound, "the loss bound is 2kE");
        // its expected value is the Ky Fan bound's worst case, far above typical losses: labelled, not an
        // expectation for these rows (issue 29 replay: 16-116x the realised loss on scikit-learn's tables)
        assertTrue(s.accuracy().orElseThrow().isScenario(), s.accuracy().orElseThrow().toString());
        assertTrue(s.accuracy().orElseThrow().expectedBasis().contains("upper bound on the expected loss"));
        int failures = 0;
        double worstVar = 0;
        double worstLoss = 0;
        for (int t = 0; t < 200; t++) {
            PrivateRelease r = run(p, x, 100 + t);
            double[][] v = r.matrix("components");
            double[] var = r.vector("variances");
            double loss = tl[0] + tl[1] - quadratic(c, v[0]) - quadratic(c, v[1]);
            double ve = Math.max(Math.abs(var[0] - tl[0]), Math.abs(var[1] - tl[1]));
            worstVar = Math.max(worstVar, ve / varBound);
            worstLoss = Math.max(worstLoss, loss / bound);
            if (loss > bound || ve > varBound) {
                failures++;
            }
        }
        assertTrue(failures <= 30, failures + " of 200 releases broke the stated accuracy");
        // and the variance bound is not vacuous: the realised errors reach a fair share of it
        assertTrue(worstVar > 0.2, "the largest realised variance error is " + worstVar + " of E");
    }

    /**
     * {@code --method coinpress}: the expected loss is computed from the released spectrum (simulated CoinPress runs
     * on it, post-processing), not the scenario's Ky Fan worst case, and it is within a factor 2 of the realised
     * median loss (deterministic: fixed seeds). The a-priori bound is unchanged and truthful: in 60 releases the
     * stated events (loss at most the bound, every variance within varianceErrorBound) fail at most 10 times; at the
     * stated failure probability 0.06, 10 or more failures in 60 have probability below 1e-3 (binomial tail).
     */
    @Test
    void coinPressStatesItsExpectedLossFromTheReleaseWithinAFactorTwo() {
        double[][] x = rows(2000, 5);
        double[][] c = covariance(x);
        double[] tl = SymmetricEigen.of(c).values();
        PrivatePca p = PrivatePca.builder().k(2).radius(15).meanRadius(20).method("coinpress").budget(Zcdp.of(0.5))
                .build();
        Statement s = Releases.state(p, Dataset.of(x), 1e-6);
        double bound = s.accuracy().orElseThrow().bound();
        double varBound = s.parameters().number("varianceErrorBound");
        int runs = 60;
        double[] realised = new double[runs];
        double[] stated = new double[runs];
        int failures = 0;
        for (int t = 0; t < runs; t++) {
            PrivateRelease r = run(p, x, 700 + t);
            assertTrue(r.isPass());
            org.dpgauss.release.Accuracy a = r.accuracy().orElseThrow();
            assertTrue(a.isFromRelease(), a.expectedBasis());
            assertEquals(bound, a.bound(), 0.0, "the bound is the a-priori one");
            assertEquals(4, r.vector("spectrum").length, "the spectrum the expected value is computed from");
            double[][] v = r.matrix("components");
            double[] var = r.vector("variances");
            realised[t] = tl[0] + tl[1] - quadratic(c, v[0]) - quadratic(c, v[1]);
            stated[t] = a.expected();
            if (realised[t] > bound || Math.abs(var[0] - tl[0]) > varBound || Math.abs(var[1] - tl[1]) > varBound) {
                failures++;
            }
        }
        assertTrue(failures <= 10, failures + " of " + runs + " releases broke the stated bound");
        java.util.Arrays.sort(realised);
        java.util.Arrays.sort(stated);
        double ratio = stated[runs / 2] / realised[runs / 2];
        assertTrue(ratio >= 0.5 && ratio <= 2, "stated expected " + stated[runs / 2] + " against the realised median "
                + realised[runs / 2] + ": ratio " + ratio);
    }

    @Test
    void aPublicCentreSpendsNothingOnTheMeanAndTheGuaranteeIsTheSecondMomentStep() {
        double[][] x = rows(500, 4);
        PrivatePca p = PrivatePca.builder().k(1).radius(15).budget(Zcdp.of(0.5)).centre(new double[] {5, -3, 2, 1})
                .build();
        PrivateRelease r = run(p, x, 5);
        assertTrue(r.isPass());
        assertTrue(!r.values().containsKey("mean"));
        assertEquals(0.5, r.guarantee().zcdp().orElseThrow().rho(), 1e-15);
    }

    @Test
    void theComposedGuaranteeMeetsTheTargetEpsilonAndTheSessionFormIsTheTotalRho() {
        double[][] x = rows(500, 4);
        Zcdp rho = ConversionPolicy.rhoFor(1.0, 1e-6);
        PrivatePca p = PrivatePca.builder().k(2).radius(15).budget(rho).build();
        Statement s = Releases.state(p, Dataset.of(x), 1e-6);
        double eps = s.guarantee().approxDp().orElseThrow().epsilon();
        assertTrue(eps <= 1.0 + 1e-12 && eps > 0.99, "composed epsilon " + eps);
        assertEquals(Release.Kind.ZCDP, s.accounting().kind());
        // E = the second-moment step's bound + the squared bound of the mean step (the rank-one centring error)
        org.dpgauss.release.PublicContext pc = org.dpgauss.release.PublicContext.forPlanning(500, 4,
                org.dpgauss.privacy.NeighbouringRelation.REPLACE_ONE, 1e-6);
        double sm = Releases.state(org.dpgauss.secondmoment.AnalyzeGauss.of(15, Zcdp.of(rho.rho() * 0.9)), pc)
                .accuracy().orElseThrow().bound();
        double mean = org.dpgauss.mean.ClippedGaussianMean.of(15, new double[4], Zcdp.of(rho.rho() * 0.1))
                .accuracy(500, PrivatePca.MEAN_PROBABILITY).bound();
        assertEquals(sm + mean * mean, s.parameters().number("varianceErrorBound"), 1e-9 * sm);
        assertEquals(0.95 + PrivatePca.MEAN_PROBABILITY - 1, s.accuracy().orElseThrow().probability(), 1e-12);
        assertEquals(rho.rho(), s.accounting().zcdp().rho(), 1e-12 * rho.rho());
    }

    /**
     * In a session both learners are one charge each (state, charge, compute): the second, over the budget, is
     * refused before any row is read, and the first's charge is its total rho.
     */
    @Test
    void aSessionChargesEachLearnerOnceAndRefusesOverBudgetBeforeReading() {
        double[][] x = rows(300, 9);
        org.dpgauss.release.PrivacySession session = org.dpgauss.release.PrivacySession.builder(Dataset.of(x))
                .relation(org.dpgauss.privacy.NeighbouringRelation.REPLACE_ONE)
                .budget(org.dpgauss.privacy.ApproxDp.of(1.0, 1e-6))
                .context(ReleaseContext.of(CPU, RandomSource.insecureSeeded(1))).open();
        Zcdp rho = ConversionPolicy.rhoFor(0.9, 1e-6);
        assertTrue(session.release(PrivatePca.builder().k(1).radius(15).budget(rho).build()).isPass());
        double spent = session.spent().epsilon();
        assertTrue(spent <= 0.9 + 1e-9 && spent > 0.89, "one zCDP charge of the total rho: " + spent);
        PrivateLinearRegression more = PrivateLinearRegression.builder().target(0).featureBound(20).targetBound(10)
                .budget(rho).build();
        assertThrows(org.dpgauss.privacy.accounting.BudgetExceededException.class, () -> session.release(more));
        assertEquals(spent, session.spent().epsilon(), 0);
    }

    @Test
    void parametersAreRefusedBeforeTheDataAreRead() {
        assertThrows(IllegalStateException.class, () -> PrivatePca.builder().radius(1).budget(Zcdp.of(1)).build());
        assertThrows(IllegalArgumentException.class,
                () -> PrivatePca.builder().k(1).radius(Double.POSITIVE_INFINITY).budget(Zcdp.of(1)).build());
        assertThrows(IllegalArgumentException.class,
                () -> PrivatePca.builder().k(1).radius(1).budget(Zcdp.of(1)).meanShare(1).build());
        assertThrows(IllegalArgumentException.class,
                () -> PrivatePca.builder().k(1).radius(1).budget(Zcdp.of(1)).method("nope").build());
        PrivatePca tooMany = PrivatePca.builder().k(5).radius(1).budget(Zcdp.of(1)).build();
        assertThrows(IllegalArgumentException.class, () -> Releases.state(tooMany, Dataset.of(rows(50, 1)), 1e-6));
    }

    /**
     * Neighbouring pairs: one row replaced by an outlier (1e300 in every entry, -1e300 and 1e300 mixed, far out of
     * the radius, or the same rows in another order) releases PASS with the same fields and finite values, and the
     * release moves no more than one clipped row can move it.
     */
    @Test
    void neighbouringPairsReleaseTheSameFields() {
        double[][] x = rows(600, 7);
        PrivatePca p = pca(1.0);
        PrivateRelease base = run(p, x, 11);
        double[][][] outliers = {
            {{1e300, 1e300, 1e300, 1e300}}, {{-1e300, 1e300, -1e300, 1e300}}, {{1e3, 0, 0, 0}},
            {{Double.MAX_VALUE, -Double.MAX_VALUE, 0, 1e-300}}};
        for (double[][] o : outliers) {
            double[][] y = x.clone();
            y[0] = o[0];
            PrivateRelease r = run(p, y, 11);
            assertEquals(base.status(), r.status());
            assertEquals(base.values().keySet(), r.values().keySet());
            for (double[] row : r.matrix("components")) {
                for (double v : row) {
                    assertTrue(Double.isFinite(v));
                }
            }
            // one replaced row moves the clipped centred second moment by at most 2 R^2/n (plus the mean's share)
            double[] a = base.vector("variances");
            double[] b = r.vector("variances");
            assertEquals(a[0], b[0], 2 * 225.0 / 600 + 2.0, "the first variance moves by a bounded amount");
        }
        double[][] moved = x.clone();
        double[] first = moved[0];
        moved[0] = moved[599];
        moved[599] = first;
        PrivateRelease r = run(p, moved, 11);
        assertEquals(base.values().keySet(), r.values().keySet());
        assertArrayEquals(base.vector("variances"), r.vector("variances"), 1e-6);
    }
}
