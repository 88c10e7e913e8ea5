package org.dpgauss.secondmoment;

import static org.dpgauss.secondmoment.BaselineTestData.CPU;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.testing.GaussianTestData;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.Statement;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/**
 * Truthfulness of the stated accuracy: on data meeting each statement's assumptions, the realised absolute spectral
 * error {@code ||S~ - S||_2} exceeds the stated 95% bound in no more runs than a binomial allowance (more than
 * {@link #allowed} of the runs has probability below 0.002 if the true rate is 5%), and the stated expected value is
 * within a factor 2 of the realised median. Fixed seeds.
 */
class SecondMomentAccuracyTest {

    static final int RUNS = 200;

    /** The largest count of exceedances whose probability is at least 0.002 under Binomial(runs, 0.05). */
    static int allowed(int runs) {
        org.apache.commons.statistics.distribution.BinomialDistribution b =
                org.apache.commons.statistics.distribution.BinomialDistribution.of(runs, 0.05);
        int k = 0;
        while (b.survivalProbability(k) >= 0.002) {
            k++;
        }
        return k;
    }

    /** Realised absolute errors {@code ||S~ - S||_2} of {@code runs} releases, sorted. */
    static double[] errors(RowBlockMatrix x, int runs, long seed, Function<RandomSource, DMatrixRMaj> release) {
        DMatrixRMaj s = BaselineTestData.secondMoment(x);
        RandomSource random = RandomSource.insecureSeeded(seed);
        double[] e = new double[runs];
        for (int r = 0; r < runs; r++) {
            DMatrixRMaj est = release.apply(random);
            DMatrixRMaj diff = new DMatrixRMaj(s.numRows, s.numCols);
            CommonOps_DDRM.subtract(est, s, diff);
            e[r] = SpectralMetrics.spectralNorm(diff);
        }
        Arrays.sort(e);
        return e;
    }

    static int exceedances(double[] e, double bound) {
        int c = 0;
        for (double v : e) {
            if (v > bound) {
                c++;
            }
        }
        return c;
    }

    static double median(double[] sorted) {
        int k = sorted.length;
        return k % 2 == 1 ? sorted[k / 2] : 0.5 * (sorted[k / 2 - 1] + sorted[k / 2]);
    }

    static Accuracy stated(org.dpgauss.release.PrivateMechanism m, int n, int d) {
        Statement s = m.state(PublicContext.forPlanning(n, d, NeighbouringRelation.REPLACE_ONE, 1e-6));
        return s.accuracy().orElseThrow();
    }

    /** n rows of norm exactly {@code ||scale||}: random signs times scale, so S = diag(scale^2) up to O(1/sqrt(n)). */
    static RowBlockMatrix signs(int n, double[] scale, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] a = new double[n][scale.length];
        for (double[] row : a) {
            for (int j = 0; j < row.length; j++) {
                row[j] = r.nextBoolean() ? scale[j] : -scale[j];
            }
        }
        return RowBlockMatrix.of(a);
    }

    /** n rows of norm 1: a common mean plus Gaussian spread, each divided by its norm (like a normalised table). */
    static RowBlockMatrix unitRows(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] a = new double[n][d];
        for (double[] row : a) {
            double norm = 0;
            for (int j = 0; j < d; j++) {
                row[j] = 1 + 0.5 * Math.sin(j) + 0.5 * Math.pow(0.7, j) * r.nextGaussian();
                norm += row[j] * row[j];
            }
            for (int j = 0; j < d; j++) {
                row[j] /= Math.sqrt(norm);
            }
        }
        return RowBlockMatrix.of(a);
    }

    static void check(String what, Accuracy a, double[] e) {
        check(what, a, e, true);
    }

    /** The bound's exceedances within the binomial allowance and, if {@code expected}, the expected value within 2x. */
    static void check(String what, Accuracy a, double[] e, boolean expected) {
        int over = exceedances(e, a.bound());
        double med = median(e);
        System.out.printf(java.util.Locale.ROOT, "%s: expected %.4g bound %.4g median %.4g (expected/median %.3f) max"
                + " %.4g over %d/%d%n", what, a.expected(), a.bound(), med, a.expected() / med, e[e.length - 1], over,
                e.length);
        assertTrue(over <= allowed(e.length), what + ": " + over + " of " + e.length
                + " runs exceeded the stated " + a.probability() + " bound " + a.bound());
        assertTrue(!expected || a.expected() <= 2 * med && med <= 2 * a.expected(), what + ": stated expected " + a.expected()
                + " is not within a factor 2 of the realised median " + med);
    }

    @Test
    void analyzeGaussStatementHoldsForAnyRowsWithinTheRadius() {
        // a normalised table (rows of norm 1 = R with a large common mean): the error is the noise alone
        int n = 500;
        int d = 10;
        RowBlockMatrix x = unitRows(n, d, 11);
        AnalyzeGauss m = AnalyzeGauss.of(1.0, Zcdp.of(0.5));
        Accuracy a = stated(m, n, d);
        assertEquals(SpectralAccuracy.METRIC, a.metric());
        assertEquals(0.95, a.probability());
        assertEquals(1.0, a.units().get(0).value(), 0); // in units of R^2 = 1
        assertEquals(1, a.units().size()); // no relative form without a public lower bound on ||S||
        check("analyze-gauss (unit rows)", a, errors(x, RUNS, 1, r -> m.matrix(x, r, CPU)));
        // Gaussian rows under R = their largest norm
        RowBlockMatrix g = GaussianTestData.centred(2000, BaselineTestData.geometric(d, 10), 12);
        double r = BaselineTestData.maxRowNorm(g);
        AnalyzeGauss mg = AnalyzeGauss.builder().radius(r).budget(Zcdp.of(0.5)).normLowerBound(0.5).build();
        Accuracy ag = stated(mg, 2000, d);
        check("analyze-gauss (gaussian)", ag, errors(g, RUNS, 6, rr -> mg.matrix(g, rr, CPU)));
        // with a public lower bound on ||S|| the statement is also given relative to it
        assertEquals(r * r, ag.units().get(0).value(), 1e-12);
        assertEquals(0.5, ag.units().get(1).value(), 0);
        assertTrue(ag.toMap().containsKey("alsoIn"));
    }

    /** The mean squared row norm {@code tr S}: the prior u of rows "of norm about sqrt(u)". */
    static double meanSquaredNorm(RowBlockMatrix x) {
        double s = 0;
        for (int i = 0; i < x.rows(); i++) {
            for (double v : x.row(i)) {
                s += v * v;
            }
        }
        return s / x.rows();
    }

    @Test
    void coinPressStatementHoldsOnGaussianRowsLockedOnOrNot() {
        int d = 5;
        RowBlockMatrix x = GaussianTestData.centred(4000, new double[] {1, 1, 1, 1, 1}, 21);
        double u = meanSquaredNorm(x); // rows of norm about sqrt(u): S ~ (u/d) I <= u I
        CoinPress m = CoinPress.of(u, Zcdp.of(0.5));
        assertTrue(m.locksOn(4000, d));
        Accuracy a = stated(m, 4000, d);
        assertTrue(a.assumptions().contains("lock on at this n"), a.assumptions());
        assertEquals(u, a.units().get(0).value(), 0); // in units of u
        check("coinpress (locked on)", a, errors(x, 100, 2, r -> m.matrix(x, r, CPU)));
        // a public lower bound on ||S|| sets the scale instead (and gives the relative form)
        CoinPress mb = CoinPress.of(Math.pow(BaselineTestData.maxRowNorm(x), 2), Zcdp.of(0.5)).withNormLowerBound(0.9);
        Accuracy ab = stated(mb, 4000, d);
        assertEquals(0.9, ab.units().get(1).value(), 0);
        check("coinpress (locked on, lower bound)", ab, errors(x, 100, 5, r -> mb.matrix(x, r, CPU)));
        // below the lock-on n the step noise is amplified: the simulation follows it
        int n = 442;
        int d2 = 10;
        RowBlockMatrix y = GaussianTestData.centred(n, BaselineTestData.geometric(d2, 10), 22);
        double u2 = Math.pow(BaselineTestData.maxRowNorm(y), 2);
        CoinPress m2 = CoinPress.of(u2, Zcdp.of(0.5));
        assertTrue(!m2.locksOn(n, d2));
        Accuracy a2 = stated(m2, n, d2);
        assertTrue(a2.assumptions().contains("n=442 is below the"), a2.assumptions());
        check("coinpress (not locked on)", a2, errors(y, 100, 3, r -> m2.matrix(y, r, CPU)));
    }

    /**
     * Issue 29: the demo's badly conditioned rows N(0, diag(1 .. 1e-4)), d = 10, with a lambda_min bound 0.5e-4 from
     * the shared parameters. Before the data are read the expected value is that of the scenario S = s I at s = the
     * bound, far below this data's error (no public s is right for every S), so the statement labels it a scenario;
     * the release carries the expected value computed from the released matrix instead (issue 26 item 0), within a
     * factor 2 of the realised median, and its bound holds. 40 runs, fixed seed; the binomial allowance at failure
     * probability 0.002.
     */
    @Test
    void coinPressExpectedIsALabelledScenarioAndItsBoundHolds() {
        int n = 5000;
        int d = 10;
        double[] var = BaselineTestData.geometric(d, 1e4);
        double trace = 0;
        for (double v : var) {
            trace += v;
        }
        RowBlockMatrix x = GaussianTestData.centred(n, var, 29);
        double r = 3 * Math.sqrt(trace);
        CoinPress m = CoinPress.fromParams(SecondMomentParams.builder().budget(Zcdp.of(0.5)).radius(r)
                .minEigenvalue(0.5e-4).build());
        Accuracy a = stated(m, n, d);
        assertTrue(a.isScenario(), a.toString());
        String basis = String.valueOf(a.toMap().get("expectedBasis"));
        assertTrue(basis.startsWith("scenario: near-isotropic rows S = s I, s=5.000e-05"), basis);
        assertTrue(basis.contains("not an expectation for these rows"), basis);
        Released rel = released(m, x, 40, 31);
        assertTrue(exceedances(rel.errors, a.bound()) <= allowed(40), "bound " + a.bound());
        assertTrue(a.expected() < median(rel.errors) / 10, "the scenario is far from these rows, as its label warns");
        checkFromRelease("coinpress (demo's badly conditioned rows, lambda_min bound)", rel);
        // every a-priori CoinPress statement is labelled, with or without a lower bound
        assertTrue(CoinPress.of(r * r, Zcdp.of(0.5)).accuracy(n, d, 0.95).isScenario());
    }

    /** Releases through the one release path: realised errors and the accuracy each release carries. */
    static final class Released {
        final double[] errors;
        final double[] expected;
        final Accuracy last;

        Released(double[] errors, double[] expected, Accuracy last) {
            this.errors = errors;
            this.expected = expected;
            this.last = last;
        }
    }

    static Released released(org.dpgauss.release.PrivateMechanism m, RowBlockMatrix x, int runs, long seed) {
        DMatrixRMaj s = BaselineTestData.secondMoment(x);
        org.dpgauss.release.ReleaseContext ctx = org.dpgauss.release.ReleaseContext.of(CPU,
                RandomSource.insecureSeeded(seed));
        double[] e = new double[runs];
        double[] ex = new double[runs];
        Accuracy last = null;
        for (int k = 0; k < runs; k++) {
            org.dpgauss.release.PrivateRelease rel = org.dpgauss.release.Releases.run(m,
                    org.dpgauss.release.Dataset.of(x), 1e-6, ctx);
            assertTrue(rel.isPass());
            DMatrixRMaj diff = new DMatrixRMaj(rel.matrix("secondMoment"));
            CommonOps_DDRM.subtractEquals(diff, s);
            e[k] = SpectralMetrics.spectralNorm(diff);
            last = rel.accuracy().orElseThrow();
            ex[k] = last.expected();
        }
        Arrays.sort(e);
        Arrays.sort(ex);
        return new Released(e, ex, last);
    }

    /**
     * The expected value computed from each release: labelled so, and its median over the runs within a factor 2
     * of the realised median error (each run's within a factor 2.5: it carries its release's noise).
     */
    static void checkFromRelease(String what, Released r) {
        double med = median(r.errors);
        double ex = median(r.expected);
        System.out.printf(java.util.Locale.ROOT, "%s: expected from release %.4g (%.4g..%.4g), realised median %.4g"
                + " (ratio %.3f)%n", what, ex, r.expected[0], r.expected[r.expected.length - 1], med, ex / med);
        assertTrue(r.last.isFromRelease() && !r.last.isScenario(), r.last.toString());
        assertTrue(String.valueOf(r.last.toMap().get("expectedBasis")).startsWith("release: "), r.last.toString());
        assertTrue(ex <= 2 * med && med <= 2 * ex, what + ": the expected value from the release " + ex
                + " is not within a factor 2 of the realised median " + med);
        assertTrue(r.expected[0] >= med / 2.5 && r.expected[r.expected.length - 1] <= 2.5 * med, what
                + ": a release's expected value is more than 2.5x from the realised median " + med);
    }

    /**
     * Issue 26 item 0: CoinPress's release states an expected error computed from its own released matrix
     * (post-processing), within a factor 2 of the realised median on Gaussian rows at several n, d and scales (locked
     * on or not, isotropic or not, tight or loose prior), the demo's well-conditioned rows included; the bound, stated
     * before the data are read, holds at the binomial allowance (failure probability 0.002 per case). Fixed seeds.
     */
    @Test
    @org.junit.jupiter.api.Tag("slow")
    void coinPressExpectedFromTheReleaseTracksTheRealisedError() {
        // the demo's well-conditioned rows N(1, diag(0.5..2)), d = 10, R = 2 sqrt(E||x||^2): a loose prior
        int d = 10;
        double[] mu = new double[d];
        double[] v = new double[d];
        double msq = 0;
        for (int j = 0; j < d; j++) {
            mu[j] = 1;
            v[j] = 0.5 + 1.5 * j / (d - 1);
            msq += v[j] + 1;
        }
        RowBlockMatrix w = GaussianTestData.diagonal(4000, mu, v, 41);
        CoinPress mw = CoinPress.fromParams(SecondMomentParams.builder().budget(Zcdp.of(0.5))
                .radius(2 * Math.sqrt(msq)).minEigenvalue(0.4).build());
        Released rw = released(mw, w, 30, 42);
        check("coinpress demo well-conditioned (bound)", stated(mw, 4000, d), rw.errors, false);
        checkFromRelease("coinpress demo well-conditioned", rw);
        // isotropic rows of scale 100 under their largest norm (locked on)
        RowBlockMatrix g = GaussianTestData.centred(3000, new double[] {100, 100, 100, 100, 100, 100}, 43);
        CoinPress mg = CoinPress.of(Math.pow(BaselineTestData.maxRowNorm(g), 2), Zcdp.of(0.5));
        Released rg = released(mg, g, 30, 44);
        check("coinpress isotropic scale 100 (bound)", stated(mg, 3000, 6), rg.errors, false);
        checkFromRelease("coinpress isotropic scale 100", rg);
        // below the lock-on n, d = 13 (the step noise is amplified), geometric spectrum
        RowBlockMatrix y = GaussianTestData.centred(178, BaselineTestData.geometric(13, 3), 45);
        CoinPress my = CoinPress.of(Math.pow(BaselineTestData.maxRowNorm(y), 2), Zcdp.of(0.5));
        Released ry = released(my, y, 30, 46);
        check("coinpress n=178 d=13 (bound)", stated(my, 178, 13), ry.errors, false);
        checkFromRelease("coinpress n=178 d=13", ry);
        // d = 30, scale 1e-3, between the regimes
        RowBlockMatrix z = GaussianTestData.centred(2000, scaled(BaselineTestData.geometric(30, 10), 1e-3), 47);
        CoinPress mz = CoinPress.of(Math.pow(BaselineTestData.maxRowNorm(z), 2), Zcdp.of(0.5));
        Released rz = released(mz, z, 20, 48);
        check("coinpress d=30 scale 1e-3 (bound)", stated(mz, 2000, 30), rz.errors, false);
        checkFromRelease("coinpress d=30 scale 1e-3", rz);
    }

    static double[] scaled(double[] a, double c) {
        double[] b = a.clone();
        for (int i = 0; i < b.length; i++) {
            b[i] *= c;
        }
        return b;
    }

    /** The noise-norm law behind every statement: at d = 100 the sqrt(d) term dominates the bound. */
    @Test
    void noiseNormBoundAndExpectedValueMatchTheNoise() {
        int d = 100;
        RandomSource random = RandomSource.insecureSeeded(17);
        SymmetricNoise noise = SymmetricGaussianNoise.using(random);
        double[] e = new double[RUNS];
        double mean = 0;
        for (int r = 0; r < RUNS; r++) {
            e[r] = SpectralMetrics.spectralNorm(noise.perturb(new DMatrixRMaj(d, d), 1.0));
            mean += e[r] / RUNS;
        }
        Accuracy a = Accuracy.of(SpectralAccuracy.METRIC, SpectralAccuracy.expectedNoiseNorm(1.0, d),
                SpectralAccuracy.noiseNormBound(1.0, d, 0.05), 0.95, "");
        Arrays.sort(e);
        check("SymGauss(100, 1) norm", a, e);
        assertEquals(1, a.expected() / mean, 0.05, "E||N|| " + mean + " vs " + a.expected());
        assertTrue(e[RUNS - 1] > 0.9 * 2 * Math.sqrt(d), "the norm reaches about 2 sqrt(d): " + e[RUNS - 1]);
    }

    /**
     * Below its lock-on n on a normalised table (rows of norm 1 = sqrt(u)): the step noise is amplified by the
     * preconditioner, which the bound's recurrence follows.
     */
    @Test
    void coinPressBoundFollowsTheAmplifiedStepNoise() {
        int n = 178;
        int d = 13;
        RowBlockMatrix x = unitRows(n, d, 23);
        CoinPress m = CoinPress.of(1.0, Zcdp.of(0.5));
        Accuracy a = stated(m, n, d);
        check("coinpress (unit rows, not locked on)", a, errors(x, 100, 9, r -> m.matrix(x, r, CPU)));
        assertTrue(a.expected() > 1, "far above ||S||_2 <= 1: " + a.expected());
    }

    @Test
    void recursiveWithOneLevelIsExactForAnyRowsWithinTheRadius() {
        // a normalised table with a loose lambda bound: R^2/(lambda (1-alpha)) = 2000 <= 640 m, one level
        int n = 500;
        int d = 10;
        RowBlockMatrix x = unitRows(n, d, 13);
        RecursiveSecondMoment m = RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(0.5))
                .radius(1).minEigenvalue(0.001).build());
        Statement st = m.state(PublicContext.forPlanning(n, d, NeighbouringRelation.REPLACE_ONE, 1e-6));
        assertEquals(1, st.parameters().number("levels"), 0);
        Accuracy a = st.accuracy().orElseThrow();
        assertTrue(a.assumptions().contains("one level"), a.assumptions());
        assertEquals(0.001, a.units().get(1).value(), 0); // relative to the public lambda bound
        check("recursive (one level)", a, errors(x, RUNS, 7, r -> m.run(x, r, CPU, null)));
    }

    @Test
    void recursiveStatementHoldsInItsProvenRegime() {
        int n = 5000;
        int d = 3;
        // near-isotropic rows of norm sqrt(3) under a loose public radius 40: two levels, nothing halved or clipped
        RowBlockMatrix x = signs(n, new double[] {1, 1, 1}, 31);
        RecursiveSecondMoment m = RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(4))
                .radius(40).minEigenvalue(0.9).build());
        Statement st = m.state(PublicContext.forPlanning(n, d, NeighbouringRelation.REPLACE_ONE, 1e-6));
        assertEquals(2, st.parameters().number("levels"), 0);
        Accuracy a = st.accuracy().orElseThrow();
        assertTrue(a.assumptions().contains("event E"), a.assumptions());
        check("recursive (isotropic, L=2)", a, errors(x, RUNS, 3, r -> m.run(x, r, CPU, null)));
        // isotropic Gaussian rows under R = their largest norm: four levels, the top direction halved
        RowBlockMatrix g = GaussianTestData.centred(20000, new double[] {1, 1, 1, 1, 1}, 5);
        RecursiveSecondMoment mg = RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(4))
                .radius(BaselineTestData.maxRowNorm(g)).minEigenvalue(0.003).build());
        Statement sg = mg.state(PublicContext.forPlanning(20000, 5, NeighbouringRelation.REPLACE_ONE, 1e-6));
        assertEquals(4, sg.parameters().number("levels"), 0);
        assertTrue(sg.accuracy().orElseThrow().assumptions().contains("n meets event E"));
        check("recursive (gaussian, L=4)", sg.accuracy().orElseThrow(), errors(g, 100, 4,
                r -> mg.run(g, r, CPU, null)));
    }
    @Test
    void recursiveBoundHoldsOnIllConditionedData() {
        int n = 6000;
        int d = 3;
        // S = diag(1, 1e-2, 4e-4) (signs, so every leverage is about d = 3 < m(1 + alpha) = 4.5: nothing clipped)
        RowBlockMatrix x = signs(n, new double[] {1, 0.1, 0.02}, 41);
        RecursiveSecondMoment m = RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(4))
                .radius(Math.sqrt(1.0104)).minEigenvalue(3.5e-4).build());
        Statement st = m.state(PublicContext.forPlanning(n, d, NeighbouringRelation.REPLACE_ONE, 1e-6));
        assertEquals(3, st.parameters().number("levels"), 0);
        Accuracy a = st.accuracy().orElseThrow();
        double[] e = errors(x, 100, 4, r -> m.run(x, r, CPU, null));
        int over = exceedances(e, a.bound());
        System.out.printf(java.util.Locale.ROOT, "recursive (ill-conditioned, L=3): expected %.4g bound %.4g median"
                + " %.4g over %d/%d%n", a.expected(), a.bound(), median(e), over, e.length);
        assertTrue(over <= allowed(100), over + " runs exceeded " + a.bound());
        assertTrue(a.expected() <= 2 * median(e) && median(e) <= 2 * a.expected());
    }

    @Test
    void recursiveOutsideEventEStatesTheWorstCaseAndTheRowsThatWouldSuffice() {
        // iris-like: n = 150, d = 4
        RecursiveSecondMoment m = RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(0.5))
                .radius(10).minEigenvalue(0.01).build());
        Accuracy a = stated(m, 150, 4);
        assertTrue(a.bound() >= 100, a.toString()); // the clipping's worst case R^2 = 100 is added
        long nE = m.rowsForProvenAccuracy(150, 4);
        assertTrue(nE > 150, "nE=" + nE);
        assertTrue(a.assumptions().contains("n=150 is below the " + nE + " rows"), a.assumptions());
        // at that n the statement is in the proven regime
        assertTrue(stated(m, (int) nE, 4).assumptions().contains("n meets event E"));
    }

    @Test
    void recursiveWithAlgorithm4NamesTheRowsAPassNeeds() {
        RecursiveSecondMoment m = RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(0.5))
                .radius(10).lambdaBudget(1.0, null).build());
        Statement st = m.state(PublicContext.forPlanning(150, 4, NeighbouringRelation.REPLACE_ONE, 1e-6));
        assertTrue(st.failMeaning().contains("3 groups of K=40 rows"), st.failMeaning());
        assertTrue(st.failMeaning().contains("so a FAIL is expected"), st.failMeaning());
        assertTrue(st.accuracy().isPresent());
    }

    @Test
    void subsampleAndAggregateStatementHoldsOnAgreeingGroups() {
        int n = 6000;
        int d = 2;
        RowBlockMatrix x = GaussianTestData.centred(n, new double[] {1, 0.5}, 51);
        SubsampleAndAggregate m = SubsampleAndAggregate.builder().groupSize(40)
                .totalBudget(ApproxDp.of(4, 1e-6)).allowUncertified(true).build();
        Accuracy a = stated(m, n, d);
        Statement st = m.state(PublicContext.forPlanning(n, d, NeighbouringRelation.REPLACE_ONE, 1e-6));
        assertTrue(st.failMeaning().contains("150 groups of m=40 rows"), st.failMeaning());
        Statement few = m.state(PublicContext.forPlanning(2000, d, NeighbouringRelation.REPLACE_ONE, 1e-6));
        assertTrue(few.failMeaning().contains("n=2000 is below that, so a FAIL is certain"), few.failMeaning());
        assertEquals(SpectralAccuracy.RELATIVE_METRIC, a.metric());
        assertEquals(0.9, a.probability(), 1e-12);
        assertEquals(1.0, a.bound(), 1e-12); // 2 alpha
        int fails = 0;
        RandomSource random = RandomSource.insecureSeeded(5);
        DMatrixRMaj s = BaselineTestData.secondMoment(x);
        double[] e = new double[100];
        int k = 0;
        for (int r = 0; r < 100; r++) {
            DMatrixRMaj est = m.matrix(x, random, CPU);
            if (est == null) {
                fails++;
                continue;
            }
            DMatrixRMaj diff = new DMatrixRMaj(d, d);
            CommonOps_DDRM.subtract(est, s, diff);
            e[k++] = SpectralMetrics.spectralNorm(diff) / SpectralMetrics.spectralNorm(s);
        }
        double[] got = Arrays.copyOf(e, k);
        Arrays.sort(got);
        assertTrue(fails <= 10, fails + " FAILs");
        for (int i = 0; i < got.length; i++) { // its statement is relative: ||S~ - S|| / ||S||
            got[i] /= SpectralMetrics.spectralNorm(s);
        }
        check("subsample-aggregate", a, got);
    }
}
