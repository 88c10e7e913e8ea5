package org.dpgauss.secondmoment;

import static org.dpgauss.secondmoment.BaselineTestData.CPU;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.dpgauss.linalg.RowBlockMatrix;
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
import org.dpgauss.testing.GaussianTestData;

/**
 * Truthfulness of the stated accuracy (issue 15): on data meeting each statement's assumptions, the realised relative
 * spectral error {@code ||S~ - S||_2 / ||S||_2} exceeds the stated 95% bound in at most 5% of the runs (checked
 * with a binomial allowance: more than {@link #ALLOWED} of {@link #RUNS} has probability below 0.002 if the true
 * rate is 5%), and the stated expected value is within a factor 2 of the realised median. Fixed seeds.
 */
class SecondMomentAccuracyTest {

    static final int RUNS = 200;
    /** P(Binomial(200, 0.05) > 20) < 0.002. */
    static final int ALLOWED = 20;

    /** Realised errors of {@code runs} releases, sorted. */
    static double[] errors(RowBlockMatrix x, int runs, long seed, Function<RandomSource, DMatrixRMaj> release) {
        DMatrixRMaj s = BaselineTestData.secondMoment(x);
        double norm = SpectralMetrics.spectralNorm(s);
        RandomSource random = RandomSource.insecureSeeded(seed);
        double[] e = new double[runs];
        for (int r = 0; r < runs; r++) {
            DMatrixRMaj est = release.apply(random);
            DMatrixRMaj diff = new DMatrixRMaj(s.numRows, s.numCols);
            CommonOps_DDRM.subtract(est, s, diff);
            e[r] = SpectralMetrics.spectralNorm(diff) / norm;
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

    /** n rows of norm exactly {@code c sqrt(d)}: c times a random sign vector, so S = c^2 I up to O(1/sqrt(n)). */
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

    static void check(String what, Accuracy a, double[] e) {
        int over = exceedances(e, a.bound());
        double med = median(e);
        System.out.printf(java.util.Locale.ROOT, "%s: expected %.4g bound %.4g median %.4g max %.4g over %d/%d%n",
                what, a.expected(), a.bound(), med, e[e.length - 1], over, e.length);
        assertTrue(over <= ALLOWED * e.length / RUNS, what + ": " + over + " of " + e.length
                + " runs exceeded the stated " + a.probability() + " bound " + a.bound());
        assertTrue(a.expected() <= 2 * med && med <= 2 * a.expected(), what + ": stated expected " + a.expected()
                + " is not within a factor 2 of the realised median " + med);
    }

    @Test
    void analyzeGaussStatementHoldsForRowsAtTheRadius() {
        int n = 2000;
        int d = 4;
        RowBlockMatrix x = signs(n, new double[] {1, 1, 1, 1}, 11); // norm 2 = R, ||S|| >= R^2/d = 1
        AnalyzeGauss m = AnalyzeGauss.of(2.0, Zcdp.of(0.5));
        Accuracy a = stated(m, n, d);
        assertEquals(SpectralAccuracy.METRIC, a.metric());
        assertEquals(0.95, a.probability());
        assertTrue(a.assumptions().contains("R^2/d"), a.assumptions());
        check("analyze-gauss", a, errors(x, RUNS, 1, r -> m.matrix(x, r, CPU)));
        // with a public lower bound on ||S|| the statement divides by it
        AnalyzeGauss withBound = AnalyzeGauss.builder().radius(2.0).budget(Zcdp.of(0.5)).normLowerBound(0.5).build();
        assertEquals(2 * a.expected(), stated(withBound, n, d).expected(), 1e-9 * a.expected());
    }

    @Test
    void analyzeGaussBoundHoldsOnGaussianRowsWithoutANormBound() {
        int n = 5000;
        int d = 10;
        RowBlockMatrix x = GaussianTestData.centred(n, BaselineTestData.geometric(d, 10), 12);
        double r = BaselineTestData.maxRowNorm(x); // R about the largest norm: ||S|| >= R^2/(d + 2 sqrt(2d ln n) + 2 ln n)
        AnalyzeGauss m = AnalyzeGauss.of(r, Zcdp.of(0.5));
        Accuracy a = stated(m, n, d);
        assertTrue(a.assumptions().contains("Gaussian rows whose largest norm is about R"), a.assumptions());
        double[] e = errors(x, RUNS, 6, rr -> m.matrix(x, rr, CPU));
        System.out.printf(java.util.Locale.ROOT, "analyze-gauss (gaussian, no norm bound): expected %.4g bound %.4g"
                + " median %.4g max %.4g%n", a.expected(), a.bound(), median(e), e[e.length - 1]);
        assertTrue(exceedances(e, a.bound()) <= ALLOWED);
        // the expected value takes ||S|| = R^2/d, about 2x too large for these rows: within a factor 3
        assertTrue(median(e) <= 3 * a.expected() && a.expected() <= 3 * median(e));
    }

    @Test
    void coinPressStatementHoldsOnGaussianRows() {
        int n = 4000;
        int d = 5;
        RowBlockMatrix x = GaussianTestData.centred(n, new double[] {1, 1, 1, 0.8, 0.6}, 21);
        double u = Math.pow(BaselineTestData.maxRowNorm(x), 2); // S <= u I
        CoinPress m = CoinPress.of(u, Zcdp.of(0.5)).withNormLowerBound(0.5); // ||S|| is about 1
        Accuracy a = stated(m, n, d);
        assertTrue(m.locksOn(n, d));
        check("coinpress", a, errors(x, 100, 2, r -> m.matrix(x, r, CPU)));
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
        assertTrue(over <= 10, over + " runs exceeded " + a.bound());
        // an ill-conditioned S gives a smaller error relative to ||S|| than the (near-isotropic) expected value
        assertTrue(median(e) <= a.expected());
    }

    @Test
    void recursiveOutsideEventEStatesTheWorstCaseAndTheRowsThatWouldSuffice() {
        // iris-like: n = 150, d = 4
        RecursiveSecondMoment m = RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(0.5))
                .radius(10).minEigenvalue(0.01).build());
        Accuracy a = stated(m, 150, 4);
        assertTrue(a.expected() >= 1 && a.bound() == a.expected(), a.toString());
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
        check("subsample-aggregate", a, got);
    }
}
