package org.dpgauss.rows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.Random;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.ChaCha20;
import org.junit.jupiter.api.Test;

/** The row-pass seam in memory: layouts, the one-block identity with the engine, exact sums. */
class RowPassesTest {

    private static final CpuEngine CPU = CpuEngine.instance();

    private static RowBlockMatrix gaussian(int n, int d, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = r.nextGaussian() * (1 + j);
            }
        }
        return RowBlockMatrix.of(x);
    }

    @Test
    void defaultLayoutFollowsItsRule() {
        RowLayout l50 = RowLayout.forDimension(50);
        assertEquals(83456, l50.blockRows());
        assertEquals(1, l50.blocksPerGroup());
        RowLayout l500 = RowLayout.forDimension(500);
        assertEquals(8192, l500.blockRows());
        assertEquals(16, l500.blocksPerGroup());
        RowLayout l1000 = RowLayout.forDimension(1000);
        assertEquals(4096, l1000.blockRows());
        assertEquals(63, l1000.blocksPerGroup());
        assertEquals(512, RowLayout.forDimension(100_000).blockRows());
        assertEquals(24415, l1000.blockCount(100_000_000L));
        assertThrows(IllegalArgumentException.class, () -> RowLayout.of(0, 1));
        assertThrows(IllegalArgumentException.class, () -> RowLayout.forDimension(0));
    }

    /** One block: the rows are not copied and every pass is the engine's primitive on the whole matrix. */
    @Test
    void oneBlockIsTheEngineOnTheWholeMatrix() {
        RowBlockMatrix x = gaussian(700, 6, 1);
        LocalRows rows = LocalRows.of(x, CPU);
        assertSame(x, rows.matrix());
        assertArrayEquals(CPU.weightedGram(x, null, null, 700).data, rows.gram(700).data, 0.0);
        int[] key = {9, 8, 7, 6, 5, 4, 3, 2};
        assertArrayEquals(CPU.gaussianProjection(x, 4, ChaCha20.withKey(key, 0), 0L).data,
                rows.gaussianProjection(4, ChaCha20.withKey(key, 0)).data, 0.0);
    }

    /** Rows whitened by a lower factor and clipped to norm 2: a streamed map. */
    private static final class WhitenClip implements org.dpgauss.linalg.RowChunkMap {
        private static final long serialVersionUID = 1L;
        private final org.ejml.data.DMatrixRMaj lower;

        WhitenClip(org.ejml.data.DMatrixRMaj lower) {
            this.lower = lower;
        }

        @Override
        public org.ejml.data.DMatrixRMaj whitening() {
            return lower;
        }

        @Override
        public void apply(double[] rows, int offset, int count, RowBlockMatrix source, int first) {
            int d = source.cols();
            for (int r = 0; r < count; r++) {
                double s = 0;
                for (int j = 0; j < d; j++) {
                    s += rows[offset + r * d + j] * rows[offset + r * d + j];
                }
                double c = Math.sqrt(s) > 2 ? 2 / Math.sqrt(s) : 1.0;
                for (int j = 0; j < d; j++) {
                    rows[offset + r * d + j] *= c;
                }
            }
        }
    }

    /**
     * The Gram of mapped rows is the engine's mappedGram on one block (the EJML default: whiten, map, Gram, so the
     * bits of map-then-gram) and the layout's fold of the block results on several, equal to rounding.
     */
    @Test
    void mappedGramIsTheEngineOnOneBlockAndTheFoldOnSeveral() {
        RowBlockMatrix x = gaussian(1000, 5, 4);
        WhitenClip f = new WhitenClip(CPU.cholesky(CPU.weightedGram(x, null, null, 1000)).lower());
        double[] whole = CPU.mappedGram(x, f, 1000).data;
        assertArrayEquals(whole, LocalRows.of(x, CPU).gram(f, 1000).data, 0.0);
        BlockMap asMap = (b, e) -> org.dpgauss.linalg.RowChunkMap.materialise(f, b, e::whiten);
        assertArrayEquals(whole, LocalRows.of(x, CPU).map(asMap).gram(1000).data, 0.0, "map, then Gram");
        LocalRows blocked = LocalRows.of(x, CPU, RowLayout.of(64, 3));
        double[] g = blocked.gram(f, 1000).data;
        assertArrayEquals(blocked.map(asMap).gram(1000).data, g, 0.0, "map, then Gram, in the same layout");
        for (int k = 0; k < g.length; k++) {
            assertEquals(whole[k], g[k], 1e-14 * Math.abs(whole[k]) + 1e-16);
        }
        assertEquals(1000, blocked.rows());
    }

    /** Appends the row's squared norm and a constant 1: a row map from d to d + 2 columns. */
    private static final BlockMap WIDEN = (b, e) -> {
        int d = b.cols();
        RowBlockMatrix out = RowBlockMatrix.zeros(b.rows(), d + 2);
        double[] row = new double[d];
        double[] wide = new double[d + 2];
        for (int i = 0; i < b.rows(); i++) {
            b.copyRow(i, row, 0);
            double s = 0;
            for (int j = 0; j < d; j++) {
                wide[j] = row[j];
                s += row[j] * row[j];
            }
            wide[d] = s;
            wide[d + 1] = 1;
            out.setRow(i, wide);
        }
        return out;
    };

    /**
     * A map to another number of columns keeps the rows' order and the source's layout: its passes are those of the
     * widened rows held in that layout (each row where it was), and a map whose blocks are not as wide as it says is
     * an error, not a silent reshaping.
     */
    @Test
    void aMapToOtherColumnsKeepsTheOrderAndTheLayout() {
        RowBlockMatrix x = gaussian(1000, 5, 8);
        RowLayout small = RowLayout.of(64, 3);
        LocalRows widened = LocalRows.of(x, CPU, small).map(WIDEN, 7);
        assertEquals(7, widened.cols());
        assertEquals(1000, widened.rows());
        assertSame(small, widened.layout());
        RowBlockMatrix direct = WIDEN.apply(x, CPU);
        assertArrayEquals(LocalRows.of(direct, CPU, small).gram(1000).data, widened.gram(1000).data, 0.0);
        assertArrayEquals(direct.toArray()[999], widened.matrix().toArray()[999], 0.0, "the last row");
        assertArrayEquals(LocalRows.of(direct, CPU).gram(1000).data, LocalRows.of(x, CPU).map(WIDEN, 7).gram(1000).data,
                0.0, "one block");
        assertThrows(IllegalStateException.class, () -> LocalRows.of(x, CPU, small).map(WIDEN, 6));
        assertThrows(IllegalArgumentException.class, () -> LocalRows.of(x, CPU).map(WIDEN, 0));
    }

    /** Several blocks: the projection's G rows follow the row position, so the result is D^T G to rounding. */
    @Test
    void blocksAgreeWithTheWholeMatrixToRounding() {
        RowBlockMatrix x = gaussian(1000, 5, 2);
        LocalRows blocked = LocalRows.of(x, CPU, RowLayout.of(64, 3));
        assertEquals(1000, blocked.matrix().rows());
        assertArrayEquals(x.toArray()[999], blocked.matrix().toArray()[999], 0.0);
        double[] whole = CPU.weightedGram(x, null, null, 1000).data;
        double[] g = blocked.gram(1000).data;
        for (int k = 0; k < g.length; k++) {
            assertEquals(whole[k], g[k], 1e-14 * Math.abs(whole[k]) + 1e-16);
        }
        int[] key = {1, 1, 2, 3, 5, 8, 13, 21};
        double[] p1 = CPU.gaussianProjection(x, 3, ChaCha20.withKey(key, 4), 0L).data;
        double[] p2 = blocked.gaussianProjection(3, ChaCha20.withKey(key, 4)).data;
        for (int k = 0; k < p1.length; k++) {
            assertEquals(p1[k], p2[k], 1e-12 * (1 + Math.abs(p1[k])));
        }
        assertEquals(-1, blocked.firstRejected(r -> false));
        assertEquals(999, blocked.firstRejected(r -> r[0] == x.get(999, 0)));
    }

    @Test
    void exactSumsAreExactAndIgnoreOrder() {
        double[] v = {1e16, 1.0, -1e16, 1e-3, 3.0, -2.5e-17, 0x1p-60};
        ExactColumnSums forward = ExactColumnSums.zeros(1);
        ExactColumnSums backward = ExactColumnSums.zeros(1);
        BigDecimal exact = BigDecimal.ZERO;
        for (int i = 0; i < v.length; i++) {
            forward.add(new double[] {v[i]});
            backward.add(new double[] {v[v.length - 1 - i]});
            exact = exact.add(new BigDecimal(v[i]));
        }
        assertEquals(exact.doubleValue(), forward.rounded()[0], 0.0);
        assertEquals(forward.rounded()[0], backward.rounded()[0], 0.0);
        // a naive left-to-right sum loses the 1.0 entirely
        double naive = 0;
        for (double t : v) {
            naive += t;
        }
        assertEquals(4.001, forward.rounded()[0], 1e-15);
        assertEquals(false, naive == forward.rounded()[0]);
        ExactColumnSums split = ExactColumnSums.zeros(1);
        ExactColumnSums rest = ExactColumnSums.zeros(1);
        for (int i = 0; i < v.length; i++) {
            (i % 2 == 0 ? split : rest).add(new double[] {v[i]});
        }
        split.addAll(rest);
        assertEquals(forward.rounded()[0], split.rounded()[0], 0.0);
        RowBlockMatrix x = gaussian(300, 3, 5);
        assertArrayEquals(LocalRows.of(x, CPU).exactColumnSums().rounded(),
                LocalRows.of(x, CPU, RowLayout.of(7, 2)).exactColumnSums().rounded(), 0.0);
    }
}
