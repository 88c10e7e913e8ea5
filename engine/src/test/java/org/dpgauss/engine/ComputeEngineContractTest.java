package org.dpgauss.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.CholeskyVerdict;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.RowChunkMap;
import org.dpgauss.linalg.SymmetricEigen;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.random.CounterBasedGenerator;
import org.dpgauss.random.Philox4x32;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every {@link ComputeEngine} must meet, checked against {@link NaiveReference} on random
 * inputs of several shapes (1x1, d=1, n<d, rows crossing block boundaries) and on edge cases with a known
 * verdict (singular, not positive definite). Subclass once per backend (EJML's {@code Generic*Test}
 * pattern); a backend that cannot run here is skipped by its subclass, never faked.
 *
 * <p>Test data come from a fixed-seed {@link SplittableRandom}; nothing here is statistical.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ComputeEngineContractTest {

    protected ComputeEngine engine;

    /** The backend under test. */
    protected abstract ComputeEngine createEngine();

    /** Relative tolerance for floating-point results against the naive reference. */
    protected double tolerance() {
        return 1e-11;
    }

    @BeforeAll
    void open() {
        engine = createEngine();
    }

    @AfterAll
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    // ---------- data -------------------------------------------------------------------------

    static double[][] gaussian(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                row[j] = normal(r) * (1 + j);
            }
        }
        return x;
    }

    static double normal(SplittableRandom r) {
        double u1 = r.nextDouble();
        while (u1 == 0) {
            u1 = r.nextDouble();
        }
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    /** Shapes (n, d, blockRows): 1x1, d=1, n<d, n>d with blocks that do not divide n. */
    static Stream<Arguments> shapes() {
        return Stream.of(Arguments.of(1, 1, 1), Arguments.of(9, 1, 4), Arguments.of(3, 8, 2),
                Arguments.of(40, 5, 7), Arguments.of(700, 12, 97), Arguments.of(1100, 3, 1100));
    }

    static double[][] arr(DMatrixRMaj m) {
        double[][] a = new double[m.numRows][m.numCols];
        for (int i = 0; i < m.numRows; i++) {
            for (int j = 0; j < m.numCols; j++) {
                a[i][j] = m.get(i, j);
            }
        }
        return a;
    }

    static DMatrixRMaj dense(double[][] a) {
        return new DMatrixRMaj(a);
    }

    public static DMatrixRMaj spd(int d, long seed) {
        double[][] y = gaussian(d + 5, d, seed);
        double[][] a = NaiveReference.gram(y, null, null, d + 5);
        for (int i = 0; i < d; i++) {
            a[i][i] += 0.5;
        }
        return dense(a);
    }

    void assertClose(double[][] expected, DMatrixRMaj actual, String what) {
        assertEquals(expected.length, actual.numRows, what + ": rows");
        assertEquals(expected[0].length, actual.numCols, what + ": cols");
        double scale = 0;
        for (double[] r : expected) {
            for (double v : r) {
                scale = Math.max(scale, Math.abs(v));
            }
        }
        for (int i = 0; i < expected.length; i++) {
            for (int j = 0; j < expected[0].length; j++) {
                assertEquals(expected[i][j], actual.get(i, j), tolerance() * Math.max(scale, 1e-300),
                        what + " (" + i + "," + j + ")");
            }
        }
    }

    void assertClose(double[] expected, double[] actual, String what) {
        assertEquals(expected.length, actual.length, what + ": length");
        double scale = 0;
        for (double v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tolerance() * Math.max(scale, 1e-300), what + " [" + i + "]");
        }
    }

    // ---------- weighted Gram ------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("shapes")
    void weightedGramMatchesNaive(int n, int d, int blockRows) {
        double[][] y = gaussian(n, d, 11 + n);
        RowBlockMatrix ym = RowBlockMatrix.of(y, blockRows);
        assertClose(NaiveReference.gram(y, null, null, n), engine.weightedGram(ym, null, null, n), "all rows");
        SplittableRandom r = new SplittableRandom(5);
        double[] w = new double[n];
        for (int i = 0; i < n; i++) {
            w[i] = r.nextInt(4) == 0 ? 0 : r.nextDouble();
        }
        int[] subset = java.util.stream.IntStream.range(0, n).filter(i -> i % 3 != 1).toArray();
        double m = 2.5 * n;
        assertClose(NaiveReference.gram(y, subset, w, m), engine.weightedGram(ym, subset, w, m), "weighted subset");
    }

    /**
     * A row map for the mapped Gram: rows longer than {@code c} scaled to norm c, rows that are not finite (a
     * whitening overflowed) replaced by zero, after the optional whitening by {@code lower}.
     */
    static final class ClipTo implements RowChunkMap {
        private static final long serialVersionUID = 1L;
        private final DMatrixRMaj lower;
        private final double c;

        ClipTo(DMatrixRMaj lower, double c) {
            this.lower = lower;
            this.c = c;
        }

        @Override
        public DMatrixRMaj whitening() {
            return lower;
        }

        @Override
        public void apply(double[] rows, int offset, int count, RowBlockMatrix source, int first) {
            int d = source.cols();
            for (int r = 0; r < count; r++) {
                clip(rows, offset + r * d, d, c);
            }
        }

        static void clip(double[] a, int off, int d, double c) {
            double s = 0;
            for (int j = off; j < off + d; j++) {
                s += a[j] * a[j];
            }
            double norm = Math.sqrt(s);
            double f = !Double.isFinite(norm) ? 0.0 : norm > c ? c / norm : 1.0;
            for (int j = off; j < off + d; j++) {
                a[j] *= f;
            }
        }
    }

    /** The Gram of whitened (or raw) rows clipped to about their median norm, so some rows are clipped. */
    @ParameterizedTest
    @MethodSource("shapes")
    void mappedGramMatchesNaive(int n, int d, int blockRows) {
        double[][] x = gaussian(n, d, 31 + n);
        RowBlockMatrix xm = RowBlockMatrix.of(x, blockRows);
        DMatrixRMaj l = engine.cholesky(spd(d, 32 + d)).lower();
        double[][] whitened = NaiveReference.product(x, false, NaiveReference.inverse(arr(l)), true);
        double m = 2.5 * n;
        for (boolean whiten : new boolean[] {false, true}) {
            double[][] rows = whiten ? whitened : x;
            double[] norms = java.util.Arrays.stream(rows).mapToDouble(org.dpgauss.linalg.Norms::euclidean).sorted()
                    .toArray();
            double c = norms[n / 2];
            double[][] clipped = new double[n][];
            for (int i = 0; i < n; i++) {
                clipped[i] = rows[i].clone();
                ClipTo.clip(clipped[i], 0, d, c);
            }
            DMatrixRMaj g = engine.mappedGram(xm, new ClipTo(whiten ? l : null, c), m);
            assertClose(NaiveReference.gram(clipped, null, null, m), g, whiten ? "whitened, clipped" : "clipped");
            assertArrayEquals(x[n - 1], xm.row(n - 1), 0.0, "the rows are not modified");
        }
        assertThrows(IllegalArgumentException.class, () -> engine.mappedGram(xm, new ClipTo(null, 1), 0.0));
        assertThrows(IllegalArgumentException.class,
                () -> engine.mappedGram(xm, new ClipTo(new DMatrixRMaj(d + 1, d + 1), 1), 1.0));
    }

    @Test
    void weightedGramIsExactlySymmetricAndEmptySubsetIsZero() {
        RowBlockMatrix y = RowBlockMatrix.of(gaussian(300, 6, 3), 50);
        DMatrixRMaj a = engine.weightedGram(y, null, null, 300);
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                assertEquals(a.get(i, j), a.get(j, i), 0.0);
            }
        }
        DMatrixRMaj zero = engine.weightedGram(y, new int[0], null, 300);
        for (double v : zero.data) {
            assertEquals(0.0, v, 0.0);
        }
    }

    @Test
    void weightedGramRejectsBadArguments() {
        RowBlockMatrix y = RowBlockMatrix.of(gaussian(5, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> engine.weightedGram(y, null, null, 0));
        assertThrows(IllegalArgumentException.class, () -> engine.weightedGram(y, null, new double[4], 1));
        assertThrows(IllegalArgumentException.class,
                () -> engine.weightedGram(y, null, new double[] {1, 1, -1, 1, 1}, 1));
        assertThrows(IllegalArgumentException.class, () -> engine.weightedGram(y, new int[] {5}, null, 1));
    }

    // ---------- Cholesky and triangular solves ---------------------------------------------------

    @ParameterizedTest
    @MethodSource("shapes")
    void choleskyReproducesMatrix(int n, int d, int blockRows) {
        DMatrixRMaj a = spd(d, n);
        CholeskyResult c = engine.cholesky(a);
        assertEquals(CholeskyVerdict.POSITIVE_DEFINITE, c.verdict());
        double[][] l = arr(c.lower());
        for (int i = 0; i < d; i++) {
            assertTrue(l[i][i] > 0, "positive diagonal");
            for (int j = i + 1; j < d; j++) {
                assertEquals(0.0, l[i][j], 0.0, "upper triangle is zero");
            }
        }
        assertClose(arr(a), dense(NaiveReference.product(l, false, l, true)), "L L^T");
    }

    @Test
    void choleskyVerdictsOnEdgeCases() {
        assertEquals(2.0, engine.cholesky(dense(new double[][] {{4}})).lower().get(0, 0), 0.0);
        assertEquals(CholeskyVerdict.SINGULAR, engine.cholesky(dense(new double[][] {{0}})).verdict());
        assertEquals(CholeskyVerdict.NOT_POSITIVE_DEFINITE, engine.cholesky(dense(new double[][] {{-1}})).verdict());
        assertEquals(CholeskyVerdict.NOT_POSITIVE_DEFINITE,
                engine.cholesky(dense(new double[][] {{1, 2}, {2, 1}})).verdict(), "indefinite");
        assertEquals(CholeskyVerdict.SINGULAR, engine.cholesky(new DMatrixRMaj(4, 4)).verdict(), "zero matrix");
        // Gram of n < d rows: rank n < d
        double[][] y = gaussian(3, 8, 2);
        DMatrixRMaj g = engine.weightedGram(RowBlockMatrix.of(y), null, null, 3);
        assertEquals(CholeskyVerdict.SINGULAR, engine.cholesky(g).verdict(), "n < d");
        // rank-deficient: third column = first + second
        double[][] z = gaussian(50, 3, 4);
        for (double[] row : z) {
            row[2] = row[0] + row[1];
        }
        CholeskyResult rd = engine.cholesky(engine.weightedGram(RowBlockMatrix.of(z), null, null, 50));
        assertEquals(CholeskyVerdict.SINGULAR, rd.verdict(), "dependent columns");
        assertEquals(2, rd.failedPivot());
        assertThrows(IllegalStateException.class, rd::lower);
    }

    @Test
    void choleskyRejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> engine.cholesky(new DMatrixRMaj(2, 3)));
        assertThrows(IllegalArgumentException.class, () -> engine.cholesky(dense(new double[][] {{Double.NaN}})));
        // every position of a larger matrix is scanned, and the message names the cell
        for (double bad : new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN}) {
            for (int k = 0; k < 49; k += 5) { // every residue mod 4 (the scan sums four lanes)
                DMatrixRMaj a = spd(7, 5);
                a.data[k] = bad;
                String msg = assertThrows(IllegalArgumentException.class, () -> engine.cholesky(a)).getMessage();
                assertTrue(msg.contains("(" + k / 7 + ", " + k % 7 + ")"), msg);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void triangularSolvesMatchNaive(int n, int d, int blockRows) {
        DMatrixRMaj l = engine.cholesky(spd(d, 7 + d)).lower();
        double[][] b = gaussian(d, 1 + n % 4, 9);
        double[][] linv = NaiveReference.inverse(arr(l));
        assertClose(NaiveReference.product(linv, false, b, false), engine.solveLower(l, dense(b)), "L X = B");
        assertClose(NaiveReference.product(linv, true, b, false), engine.solveLowerTranspose(l, dense(b)), "L^T X = B");
    }

    // ---------- Mahalanobis norms and whitening ------------------------------------------------

    @ParameterizedTest
    @MethodSource("shapes")
    void mahalanobisNormsMatchNaive(int n, int d, int blockRows) {
        double[][] x = gaussian(n, d, 21);
        DMatrixRMaj a = spd(d, 22);
        DMatrixRMaj l = engine.cholesky(a).lower();
        double[][] ainv = NaiveReference.inverse(arr(a));
        RowBlockMatrix xm = RowBlockMatrix.of(x, blockRows);
        double[] expected = new double[n];
        for (int i = 0; i < n; i++) {
            expected[i] = NaiveReference.quadForm(ainv, x[i]);
        }
        assertClose(expected, engine.mahalanobisNorms(xm, l, null), "all rows");
        int[] rows = new int[] {n - 1, 0, n / 2};
        assertClose(new double[] {expected[n - 1], expected[0], expected[n / 2]},
                engine.mahalanobisNorms(xm, l, rows), "listed rows in order");

        RowBlockMatrix z = engine.whiten(xm, l);
        double[][] linv = NaiveReference.inverse(arr(l));
        assertClose(NaiveReference.product(x, false, linv, true), dense(z.toArray()), "X L^-T");
    }

    @Test
    void mahalanobisRejectsMismatchedFactor() {
        RowBlockMatrix x = RowBlockMatrix.of(gaussian(4, 3, 1));
        DMatrixRMaj l = engine.cholesky(spd(2, 1)).lower();
        assertThrows(IllegalArgumentException.class, () -> engine.mahalanobisNorms(x, l, null));
        assertThrows(IllegalArgumentException.class, () -> engine.whiten(x, l));
        assertThrows(IllegalArgumentException.class, () -> engine.mahalanobisNorms(x, new DMatrixRMaj(3, 3), null));
    }

    // ---------- rows times a small matrix ---------------------------------------------------------

    @ParameterizedTest
    @MethodSource("shapes")
    void multiplyRowsMatchesNaive(int n, int d, int blockRows) {
        double[][] x = gaussian(n, d, 31);
        RowBlockMatrix xm = RowBlockMatrix.of(x, blockRows);
        for (int m : new int[] {1, d, d + 3}) {
            double[][] b = gaussian(d, m, 32 + m);
            RowBlockMatrix y = engine.multiplyRows(xm, dense(b));
            assertEquals(n, y.rows(), "rows");
            assertEquals(blockRows, y.blockRows(), "the input's block layout");
            assertClose(NaiveReference.product(x, false, b, false), dense(y.toArray()), "X B, m=" + m);
        }
    }

    @Test
    void multiplyRowsRejectsMismatchedOrNonFiniteFactor() {
        RowBlockMatrix x = RowBlockMatrix.of(gaussian(4, 3, 1));
        assertThrows(IllegalArgumentException.class, () -> engine.multiplyRows(x, new DMatrixRMaj(2, 3)));
        assertThrows(IllegalArgumentException.class, () -> engine.multiplyRows(x, null));
        DMatrixRMaj nan = new DMatrixRMaj(3, 2);
        nan.set(1, 1, Double.NaN);
        assertThrows(IllegalArgumentException.class, () -> engine.multiplyRows(x, nan));
    }

    // ---------- distances to a reference set -----------------------------------------------------

    @ParameterizedTest
    @MethodSource("shapes")
    void largestReferenceDistancesMatchNaive(int n, int d, int blockRows) {
        double[][] x = gaussian(n, d, 31);
        double[][] ref = gaussian(Math.min(n, 37), d, 32);
        int keep = Math.min(ref.length, 5);
        RowBlockMatrix out = engine.largestReferenceDistances(RowBlockMatrix.of(x, blockRows),
                RowBlockMatrix.of(ref), keep);
        double[][] expected = NaiveReference.largestDistances(x, ref, keep);
        assertClose(expected, dense(out.toArray()), "keep largest");
        RowBlockMatrix every = engine.largestReferenceDistances(RowBlockMatrix.of(x, blockRows),
                RowBlockMatrix.of(ref), ref.length);
        assertClose(NaiveReference.largestDistances(x, ref, ref.length), dense(every.toArray()), "keep all");
    }

    @Test
    void referenceDistancesOfFarAwayDataHaveNoCancellation() {
        // rows near 1e6: |x|^2 + |r|^2 - 2 x.r would lose every digit without centring / recomputation
        double[][] x = gaussian(50, 4, 41);
        double[][] ref = gaussian(20, 4, 42);
        for (double[] r : x) {
            r[0] += 1e6;
        }
        for (double[] r : ref) {
            r[0] += 1e6;
        }
        RowBlockMatrix out = engine.largestReferenceDistances(RowBlockMatrix.of(x), RowBlockMatrix.of(ref), 3);
        assertClose(NaiveReference.largestDistances(x, ref, 3), dense(out.toArray()), "offset data");
    }

    @Test
    void referenceDistancesRejectBadKeep() {
        RowBlockMatrix x = RowBlockMatrix.of(gaussian(4, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> engine.largestReferenceDistances(x, x, 0));
        assertThrows(IllegalArgumentException.class, () -> engine.largestReferenceDistances(x, x, 5));
        assertThrows(IllegalArgumentException.class,
                () -> engine.largestReferenceDistances(x, RowBlockMatrix.of(gaussian(4, 3, 1)), 1));
    }

    // ---------- neighbour counts -------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("shapes")
    void neighbourCountsMatchNaive(int n, int d, int blockRows) {
        double[][] x = gaussian(n, d, 51);
        RowBlockMatrix xm = RowBlockMatrix.of(x, blockRows);
        for (double radius : new double[] {0.0, 1.0, 2.0 * Math.sqrt(d), 4.0 * d, 1e9}) {
            assertArrayEquals(NaiveReference.neighbourCounts(x, radius), engine.neighbourCounts(xm, radius),
                    "radius " + radius);
        }
    }

    @Test
    void neighbourCountsCountTiesAndDuplicates() {
        // integer lattice: squared distances are exact integers, so radius 1 and sqrt(2) hit ties exactly
        int side = 23;
        double[][] x = new double[side * side + 3][];
        for (int i = 0; i < side * side; i++) {
            x[i] = new double[] {i / side, i % side};
        }
        x[side * side] = new double[] {0, 0};
        x[side * side + 1] = new double[] {0, 0};
        x[side * side + 2] = new double[] {5, 5};
        RowBlockMatrix xm = RowBlockMatrix.of(x, 100);
        for (double radius : new double[] {0, 1, Math.sqrt(2), 2, 3}) {
            assertArrayEquals(NaiveReference.neighbourCounts(x, radius), engine.neighbourCounts(xm, radius),
                    "radius " + radius);
        }
        int[] c = engine.neighbourCounts(xm, 0);
        assertEquals(3, c[0], "three copies of the origin");
        assertEquals(1, c[1], "only itself");
    }

    @Test
    void neighbourCountsRejectBadRadius() {
        RowBlockMatrix x = RowBlockMatrix.of(gaussian(4, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> engine.neighbourCounts(x, -1));
        assertThrows(IllegalArgumentException.class, () -> engine.neighbourCounts(x, Double.NaN));
    }

    // ---------- Gaussian random projection ------------------------------------------------------

    @ParameterizedTest
    @MethodSource("shapes")
    void gaussianProjectionMatchesNaive(int n, int d, int blockRows) {
        double[][] x = gaussian(n, d, 61);
        for (CounterBasedGenerator g : new CounterBasedGenerator[] {Philox4x32.withKey(77L, 3L),
                ChaCha20.withKey(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 9L)}) {
            for (int r : new int[] {1, 7}) {
                DMatrixRMaj p = engine.gaussianProjection(RowBlockMatrix.of(x, blockRows), r, g, 13);
                assertClose(NaiveReference.projection(x, r, g, 13), p, g.name() + " r=" + r);
            }
        }
    }

    @Test
    void gaussianProjectionDoesNotDependOnBlockLayout() {
        double[][] x = gaussian(1500, 4, 62);
        CounterBasedGenerator g = Philox4x32.withKey(5L, 0L);
        DMatrixRMaj a = engine.gaussianProjection(RowBlockMatrix.of(x, 1500), 6, g, 0);
        DMatrixRMaj b = engine.gaussianProjection(RowBlockMatrix.of(x, 123), 6, g, 0);
        assertArrayEquals(a.data, b.data, 0.0, "bit-identical for any block size");
    }

    // ---------- eigendecomposition and products ---------------------------------------------------

    @ParameterizedTest
    @MethodSource("shapes")
    void symmetricEigenMatchesJacobi(int n, int d, int blockRows) {
        DMatrixRMaj a = spd(d, 71 + n);
        SymmetricEigen e = engine.symmetricEigen(a);
        double[] expected = NaiveReference.jacobiEigenvalues(arr(a));
        assertClose(expected, e.values(), "eigenvalues");
        double[][] v = arr(e.vectors());
        double[][] vtv = NaiveReference.product(v, true, v, false);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                assertEquals(i == j ? 1.0 : 0.0, vtv[i][j], 1e-10, "orthonormal");
            }
        }
        double[][] av = NaiveReference.product(arr(a), false, v, false);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                assertEquals(av[i][j], v[i][j] * e.value(j), 1e-10 * Math.max(1, Math.abs(e.value(d - 1))), "A v = l v");
            }
        }
    }

    @Test
    void symmetricEigenOfSingularAndRepeatedSpectra() {
        double[][] y = gaussian(2, 5, 3);
        SymmetricEigen e = engine.symmetricEigen(dense(NaiveReference.gram(y, null, null, 2)));
        double[] v = e.values();
        for (int i = 0; i < 3; i++) {
            assertEquals(0.0, v[i], 1e-12 * v[4], "rank 2 of 5: three zero eigenvalues");
        }
        SymmetricEigen id = engine.symmetricEigen(dense(new double[][] {{2, 0, 0}, {0, 2, 0}, {0, 0, 2}}));
        assertArrayEquals(new double[] {2, 2, 2}, id.values(), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> engine.symmetricEigen(dense(new double[][] {{1, 2}, {0, 1}})));
    }

    @Test
    void multiplyMatchesNaiveForEveryTransposition() {
        double[][] a = gaussian(7, 4, 81);
        double[][] b = gaussian(4, 6, 82);
        double[][] bt = NaiveReference.transpose(b);
        double[][] at = NaiveReference.transpose(a);
        assertClose(NaiveReference.product(a, false, b, false), engine.multiply(dense(a), false, dense(b), false), "AB");
        assertClose(NaiveReference.product(a, false, b, false), engine.multiply(dense(at), true, dense(b), false), "A^T B");
        assertClose(NaiveReference.product(a, false, b, false), engine.multiply(dense(a), false, dense(bt), true), "A B^T");
        assertClose(NaiveReference.product(a, false, b, false), engine.multiply(dense(at), true, dense(bt), true), "A^T B^T");
        double[][] big = gaussian(120, 110, 83); // 110 x 120 x 110 multiply-adds: above the concurrent threshold
        assertClose(NaiveReference.product(big, true, big, false), engine.multiply(dense(big), true, dense(big), false),
                "concurrent path");
        assertClose(new double[][] {{6}}, engine.multiply(dense(new double[][] {{2}}), false, dense(new double[][] {{3}}), false), "1x1");
        assertThrows(IllegalArgumentException.class, () -> engine.multiply(dense(a), false, dense(a), false));
    }

    // ---------- LargestGoodSubset peeling -------------------------------------------------------

    @Test
    void largestGoodSubsetMatchesLiteralAlgorithm() {
        int m = 400;
        int d = 5;
        double[][] y = gaussian(m, d, 91);
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < d; j++) {
                y[i * 7][j] *= 6 + i; // planted outliers
            }
        }
        RowBlockMatrix ym = RowBlockMatrix.of(y, 64);
        for (double lambda : new double[] {d * 1.5, d * 3.0, d * 10.0}) {
            boolean[] expected = NaiveReference.largestGoodSubset(y, lambda, m);
            GoodSubset s = engine.largestGoodSubset(ym, lambda, null, m);
            assertArrayEquals(expected, s.members(), "lambda " + lambda);
            // every kept row satisfies the good-set condition
            double[][] inv = NaiveReference.inverse(NaiveReference.gram(y, s.indices(), null, m));
            for (int i : s.indices()) {
                assertTrue(NaiveReference.quadForm(inv, y[i]) <= lambda * (1 + 1e-12));
            }
        }
    }

    @Test
    void largestGoodSubsetIsNestedAndWarmStartsGiveTheSameSet() {
        int m = 300;
        double[][] y = gaussian(m, 4, 92);
        for (int i = 0; i < 30; i++) {
            y[i][i % 4] *= 8;
        }
        RowBlockMatrix ym = RowBlockMatrix.of(y);
        GoodSubset previous = null;
        double[] lambdas = {40, 25, 15, 9, 6};
        for (double lambda : lambdas) {
            GoodSubset cold = engine.largestGoodSubset(ym, lambda, null, m);
            if (previous != null) {
                GoodSubset warm = engine.largestGoodSubset(ym, lambda, previous.members(), m);
                assertEquals(cold, warm, "warm start from the larger threshold's set, lambda " + lambda);
                for (int i : cold.indices()) {
                    assertTrue(previous.contains(i), "nested");
                }
            }
            previous = cold;
        }
    }

    @Test
    void largestGoodSubsetSingularCasesGiveTheEmptySet() {
        // n < d: the Gram is singular from the start
        GoodSubset s = engine.largestGoodSubset(RowBlockMatrix.of(gaussian(3, 6, 1)), 100, null, 3);
        assertEquals(0, s.size());
        // a row that is the only support of a direction has q = m > lambda; removing it makes A singular
        int m = 50;
        double[][] y = gaussian(m, 3, 93);
        for (double[] row : y) {
            row[2] = 0;
        }
        y[10][2] = 1;
        GoodSubset t = engine.largestGoodSubset(RowBlockMatrix.of(y), 20, null, m);
        assertArrayEquals(NaiveReference.largestGoodSubset(y, 20, m), t.members());
        assertEquals(0, t.size(), "the unique support is peeled, then everything");
        // the same row with a threshold above m keeps everything
        assertEquals(m, engine.largestGoodSubset(RowBlockMatrix.of(y), m + 1, null, m).size());
        // duplicates: two copies of the supporting row each have q = m/2
        y[11] = y[10].clone();
        assertEquals(m, engine.largestGoodSubset(RowBlockMatrix.of(y), m / 2.0 * (1 + 1e-9), null, m).size(),
                "q = m/2 (up to rounding) <= lambda: kept");
    }

    @Test
    void largestGoodSubsetRejectsBadArguments() {
        RowBlockMatrix y = RowBlockMatrix.of(gaussian(5, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> engine.largestGoodSubset(y, 0, null, 5));
        assertThrows(IllegalArgumentException.class, () -> engine.largestGoodSubset(y, 1, new boolean[4], 5));
        assertFalse(engine.name().isEmpty());
    }
}
