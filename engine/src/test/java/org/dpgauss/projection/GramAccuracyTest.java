package org.dpgauss.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.function.Function;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Accuracy;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Test;

/**
 * The stated accuracy of the projection family is truthful: on data meeting its assumptions the realised spectral
 * error of the Gram estimate exceeds the stated 95% bound in at most 21 of 200 runs (if the true exceedance rate
 * were exactly 5%, more than 21 would happen with probability below 1e-3: binomial(200, 0.05) tail), and the stated
 * expected error is within a factor 2 of the realised median. Fixed seeds.
 */
class GramAccuracyTest {

    private static final CpuEngine CPU = CpuEngine.instance();
    private static final int RUNS = 200;
    private static final int MAX_OVER = 21;
    private static final ApproxDp BUDGET = ApproxDp.of(1, 1e-6);

    /** n rows of norm l along one direction (the statement's "expected" model). */
    static double[][] aligned(int n, int d, double l) {
        double[][] x = new double[n][d];
        for (double[] row : x) {
            row[0] = (row.length > 1 ? 0.6 : 1) * l;
            if (row.length > 1) {
                row[1] = 0.8 * l;
            }
        }
        return x;
    }

    /** Uncentred Gaussian rows (mean of norm 0.7 l, spread 0.3 l), scaled into the l-ball. */
    static double[][] uncentred(int n, int d, double l, long seed) {
        Random g = new Random(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                row[j] = l * (0.7 / Math.sqrt(d) + 0.3 * g.nextGaussian() / Math.sqrt(d));
                s += row[j] * row[j];
            }
            double f = Math.min(1, l / Math.sqrt(s)) * (1 - 1e-12);
            for (int j = 0; j < d; j++) {
                row[j] *= f;
            }
        }
        return x;
    }

    /** Rows spread evenly on the sphere of radius l (isotropic Gram). */
    static double[][] sphere(int n, int d, double l, long seed) {
        Random g = new Random(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                row[j] = g.nextGaussian();
                s += row[j] * row[j];
            }
            for (int j = 0; j < d; j++) {
                row[j] *= l / Math.sqrt(s) * (1 - 1e-12);
            }
        }
        return x;
    }

    static double spectralError(DMatrixRMaj estimate, double[][] rows) {
        int d = rows[0].length;
        DMatrixRMaj x = new DMatrixRMaj(rows);
        DMatrixRMaj gram = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransA(x, x, gram);
        DMatrixRMaj diff = estimate.copy();
        CommonOps_DDRM.subtractEquals(diff, gram);
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, false, true);
        assertTrue(eig.decompose(diff));
        double m = 0;
        for (int i = 0; i < d; i++) {
            m = Math.max(m, Math.abs(eig.getEigenvalue(i).getReal()));
        }
        return m;
    }

    /** Realised errors of {@code RUNS} releases; asserts the bound's exceedance rate; returns the median. */
    static double check(String what, Accuracy a, double[][] rows, long seed,
            Function<RandomSource, ProjectionRelease> release, Function<Double, Double> toMetric) {
        RandomSource random = RandomSource.insecureSeeded(seed);
        double[] e = new double[RUNS];
        int over = 0;
        for (int t = 0; t < RUNS; t++) {
            e[t] = toMetric.apply(spectralError(release.apply(random).gramEstimate(), rows));
            if (e[t] > a.bound()) {
                over++;
            }
        }
        assertTrue(over <= MAX_OVER, what + ": " + over + " of " + RUNS + " runs exceeded the stated bound " + a);
        Arrays.sort(e);
        double median = 0.5 * (e[RUNS / 2 - 1] + e[RUNS / 2]);
        System.out.printf("%s: expected %.4g, bound %.4g, realised median %.4g, max %.4g, over %d/%d%n", what,
                a.expected(), a.bound(), median, e[RUNS - 1], over, RUNS);
        return median;
    }

    static void assertWithinFactorTwo(String what, double expected, double median) {
        assertTrue(expected <= 2 * median && median <= 2 * expected,
                what + ": stated expected " + expected + " vs realised median " + median);
    }

    @Test
    void projectionStatementHoldsOnAlignedAndUncentredData() {
        int n = 400;
        int d = 8;
        int r = 60;
        double l = 2.0;
        RandomProjectionMechanism m = RandomProjectionMechanism.of(r, BUDGET, l).maxRows(n);
        Accuracy a = m.accuracy(d);
        assertEquals(GramAccuracy.METRIC, a.metric());
        assertEquals(0.95, a.probability());
        for (double[][] rows : new double[][][] {aligned(n, d, l), uncentred(n, d, l, 5)}) {
            RowBlockMatrix x = RowBlockMatrix.of(rows);
            double median = check("rp", a, rows, 31, rnd -> m.release(x, CPU, rnd), e -> e);
            assertWithinFactorTwo("rp", a.expected(), median);
        }
        // spread-out rows: the bound still holds; the error is smaller than stated (the assumptions say so)
        double[][] s = sphere(n, d, l, 6);
        double median = check("rp sphere", a, s, 32, rnd -> m.release(RowBlockMatrix.of(s), CPU, rnd), e -> e);
        assertTrue(median <= a.expected() * 1.1, "spread-out rows give less than the stated expected error");
    }

    @Test
    void boundIsTightestWhenTheRidgeDominates() {
        // few rows: the ridge dominates D^T D, the regime where the bound is closest to the realised error
        int n = 3;
        int d = 6;
        int r = 40;
        RandomProjectionMechanism m = RandomProjectionMechanism.of(r, BUDGET, 1).maxRows(n);
        Accuracy a = m.accuracy(d);
        double[][] rows = uncentred(n, d, 1, 7);
        double median = check("rp few rows", a, rows, 33, rnd -> m.release(RowBlockMatrix.of(rows), CPU, rnd),
                e -> e);
        assertWithinFactorTwo("rp few rows", a.expected(), median);
        // the relative statement (no public bound on n): ||S - D^T D|| / (||D^T D|| + lambda)
        RandomProjectionMechanism rel = RandomProjectionMechanism.of(r, BUDGET, 1);
        Accuracy b = rel.accuracy(d);
        assertEquals(GramAccuracy.RELATIVE_METRIC, b.metric());
        double norm = gramNorm(rows) + rel.ridge();
        double relMedian = check("rp relative", b, rows, 34,
                rnd -> rel.release(RowBlockMatrix.of(rows), CPU, rnd), e -> e / norm);
        assertWithinFactorTwo("rp relative", b.expected(), relMedian);
    }

    @Test
    void lsvAndPtrStatementsHold() {
        int n = 300;
        int d = 6;
        int r = 50;
        RandomProjectionMechanism lsv = RandomProjectionMechanism.lsvBaseline(r, BUDGET, 1).maxRows(n);
        Accuracy a = lsv.accuracy(d);
        double[][] rows = uncentred(n, d, 1, 8);
        RowBlockMatrix x = RowBlockMatrix.of(rows);
        assertWithinFactorTwo("lsv", a.expected(), check("lsv", a, rows, 35, rnd -> lsv.release(x, CPU, rnd),
                e -> e));
        assertTrue(a.expected() > RandomProjectionMechanism.of(r, BUDGET, 1).maxRows(n).accuracy(d).expected(),
                "the LSV ridge is larger, so is its stated error");
        PtrProjection ptr = PtrProjection.builder().rank(r).budget(BUDGET).testNoise(10).rowBound(1).maxRows(n)
                .build();
        Accuracy p = ptr.accuracy(d);
        assertWithinFactorTwo("ptr", p.expected(), check("ptr", p, rows, 36, rnd -> ptr.release(x, CPU, rnd),
                e -> e));
    }

    @Test
    void poissonStatementHolds() {
        int n = 400;
        int d = 6;
        int r = 50;
        PoissonSubsampledProjection pois = PoissonSubsampledProjection.builder().rank(r).budget(BUDGET)
                .samplingRate(0.3).rowBound(1).maxRows(n).build();
        Accuracy a = pois.accuracy(d);
        assertEquals(GramAccuracy.METRIC, a.metric());
        for (double[][] rows : new double[][][] {aligned(n, d, 1), uncentred(n, d, 1, 9)}) {
            RowBlockMatrix x = RowBlockMatrix.of(rows);
            assertWithinFactorTwo("poisson", a.expected(), check("poisson", a, rows, 37,
                    rnd -> pois.release(x, CPU, rnd), e -> e));
        }
        // without a bound on n: the relative statement, tightest with few rows
        PoissonSubsampledProjection rel = PoissonSubsampledProjection.builder().rank(r).budget(BUDGET)
                .samplingRate(0.3).rowBound(1).build();
        Accuracy b = rel.accuracy(d);
        assertEquals(GramAccuracy.RELATIVE_METRIC, b.metric());
        double[][] few = uncentred(4, d, 1, 10);
        double norm = gramNorm(few) + rel.inner().ridge();
        double median = check("poisson relative", b, few, 38,
                rnd -> rel.release(RowBlockMatrix.of(few), CPU, rnd), e -> e / norm);
        assertWithinFactorTwo("poisson relative", b.expected(), median);
    }

    @Test
    void statementIsPublicAndInTheRelease() {
        RandomProjectionMechanism m = RandomProjectionMechanism.of(20, BUDGET, 1).maxRows(1000);
        Accuracy a = m.accuracy(5);
        // a function of public quantities only: the same for any data of that shape
        assertEquals(a.toMap(), org.dpgauss.release.Releases.state(m,
                org.dpgauss.release.Dataset.of(uncentred(10, 5, 1, 1)), 1e-6).accuracy().orElseThrow().toMap());
        assertEquals(a.toMap(), org.dpgauss.release.Releases.state(m,
                org.dpgauss.release.Dataset.of(sphere(700, 5, 1, 2)), 1e-6).accuracy().orElseThrow().toMap());
        // the Wishart deviation approximation against E||W - I|| = E|chi2_r/r - 1| at d = 1 (exact: r = 100)
        double exact = Math.sqrt(2.0 / 100) * Math.sqrt(2 / Math.PI);
        assertEquals(exact, GramAccuracy.wishartDeviation(1, 100), 0.1 * exact);
    }

    static double gramNorm(double[][] rows) {
        int d = rows[0].length;
        double[][] zero = new double[d][d];
        DMatrixRMaj z = new DMatrixRMaj(zero);
        return spectralError(z, rows);
    }
}
