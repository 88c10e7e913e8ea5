package org.dpgauss.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.ChaCha20;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * Same input, same bits: every streamed OpenBLAS primitive is run repeatedly (and from two threads at once, which
 * share OpenBLAS's thread pool) on data spanning several chunks and blocks, and must return bit-identical
 * results each time. Nothing here is statistical; a nondeterministic reduction order fails it.
 */
@EnabledIf("org.dpgauss.engine.OpenBlasTestSupport#openBlasUsable")
class OpenBlasDeterminismTest {

    /** 9000 rows in blocks of 2500 (not a multiple of the 1024-row chunks), d = 41. */
    private static final RowBlockMatrix X = RowBlockMatrix.of(ComputeEngineContractTest.gaussian(9000, 41, 7), 2500);

    /** All streamed results of one pass, as one vector of doubles. */
    private static double[] pass(ComputeEngine e) {
        int n = X.rows();
        double[] w = IntStream.range(0, n).mapToDouble(i -> (i % 5) / 2.0).toArray();
        int[] subset = IntStream.range(0, n).filter(i -> i % 3 != 0).toArray();
        DMatrixRMaj gram = e.weightedGram(X, null, null, n);
        DMatrixRMaj weighted = e.weightedGram(X, subset, w, n);
        DMatrixRMaj l = e.cholesky(gram).lower();
        double[] norms = e.mahalanobisNorms(X, l, null);
        RowBlockMatrix z = e.whiten(X, l);
        DMatrixRMaj proj = e.gaussianProjection(X, 19, ChaCha20.withKey(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 1L), 5);
        RowBlockMatrix dist = e.largestReferenceDistances(X, X.selectRows(new int[] {3, 50, 900, 4000, 8999}), 3);
        DMatrixRMaj eig = e.symmetricEigen(gram).vectors();
        DMatrixRMaj mapped = e.mappedGram(X, new ComputeEngineContractTest.ClipTo(l, 6.0), n);
        return concat(gram.data, weighted.data, l.data, norms, z.block(1), z.block(3), proj.data, dist.block(0),
                eig.data, mapped.data);
    }

    private static double[] concat(double[]... parts) {
        return java.util.Arrays.stream(parts).flatMapToDouble(java.util.Arrays::stream).toArray();
    }

    private static long[] bits(double[] v) {
        long[] b = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = Double.doubleToRawLongBits(v[i]);
        }
        return b;
    }

    @Test
    void repeatedRunsAreBitIdentical() {
        ComputeEngine e = OpenBlasEngine.instance();
        long[] first = bits(pass(e));
        for (int rep = 0; rep < 3; rep++) {
            assertArrayEquals(first, bits(pass(e)), "run " + (rep + 2));
        }
    }

    @Test
    void concurrentCallersGetTheSameBits() throws Exception {
        ComputeEngine e = OpenBlasEngine.instance();
        long[] expected = bits(pass(e));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<double[]> a = pool.submit(() -> pass(e));
            Future<double[]> b = pool.submit(() -> pass(e));
            assertArrayEquals(expected, bits(a.get()), "thread 1");
            assertArrayEquals(expected, bits(b.get()), "thread 2");
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void resultsDoNotDependOnTheBlockLayout() {
        // the chunks are cut from rows, not blocks: another block size streams the same chunks
        ComputeEngine e = OpenBlasEngine.instance();
        RowBlockMatrix other = RowBlockMatrix.of(X.toArray(), 777);
        assertArrayEquals(bits(e.weightedGram(X, null, null, 9000).data),
                bits(e.weightedGram(other, null, null, 9000).data), "Gram");
        DMatrixRMaj proj1 = e.gaussianProjection(X, 6, ChaCha20.withKey(new int[] {9, 9, 9, 9, 9, 9, 9, 9}, 0L), 0);
        DMatrixRMaj proj2 = e.gaussianProjection(other, 6, ChaCha20.withKey(new int[] {9, 9, 9, 9, 9, 9, 9, 9}, 0L), 0);
        assertArrayEquals(bits(proj1.data), bits(proj2.data), "projection");
        DMatrixRMaj l = e.cholesky(e.weightedGram(X, null, null, 9000)).lower();
        assertArrayEquals(bits(e.mappedGram(X, new ComputeEngineContractTest.ClipTo(l, 6.0), 9000).data),
                bits(e.mappedGram(other, new ComputeEngineContractTest.ClipTo(l, 6.0), 9000).data), "mapped Gram");
        assertEquals(X, other);
    }

    /**
     * A factor whose inverse overflows ({@code -b/(a c)} with a = c = 1e-160) is solved by substitution, chunk by
     * chunk: the bits of whitening the whole matrix, clipping it and taking its Gram.
     */
    @Test
    void aFactorWithoutAFiniteInverseIsSolvedBySubstitution() {
        ComputeEngine e = OpenBlasEngine.instance();
        DMatrixRMaj l = new DMatrixRMaj(new double[][] {{1e-160, 0, 0}, {1, 1e-160, 0}, {0.5, 2, 3}});
        double[][] y = ComputeEngineContractTest.gaussian(3000, 3, 5);
        double[][] ly = new double[3000][3];
        for (int i = 0; i < 3000; i++) { // x = L y: finite whitened rows (y, up to the cancellation in x_1)
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k <= j; k++) {
                    ly[i][j] += l.get(j, k) * y[i][k];
                }
            }
        }
        RowBlockMatrix x = RowBlockMatrix.of(ly, 1100);
        ComputeEngineContractTest.ClipTo f = new ComputeEngineContractTest.ClipTo(l, 1e170);
        RowBlockMatrix solved = org.dpgauss.linalg.RowChunkMap.materialise(f, x, e::whiten);
        double[] expected = e.weightedGram(solved, null, null, 3000).data;
        assertTrue(expected[0] > 0, "the rows are not all replaced by zero");
        assertArrayEquals(bits(expected), bits(e.mappedGram(x, f, 3000).data));
        // with a finite inverse the product differs from the substitution in the last bits only
        DMatrixRMaj good = new DMatrixRMaj(new double[][] {{2, 0, 0}, {1, 3, 0}, {0.5, 2, 3}});
        ComputeEngineContractTest.ClipTo g = new ComputeEngineContractTest.ClipTo(good, 1e170);
        double[] exact = e.weightedGram(org.dpgauss.linalg.RowChunkMap.materialise(g, x, e::whiten), null, null, 3000)
                .data;
        double[] product = e.mappedGram(x, g, 3000).data;
        for (int k = 0; k < exact.length; k++) {
            assertEquals(exact[k], product[k], 1e-13 * Math.abs(exact[k]));
        }
    }
}
