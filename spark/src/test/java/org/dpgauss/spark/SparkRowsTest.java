package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.RowChunkMap;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSource;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The passes themselves, before any noise: on Spark they return the bits of {@link LocalRows} in the same layout
 * (the noise grid of a release would hide a last-bit difference), for 1 and 3 partitions and shuffled input.
 */
class SparkRowsTest {

    private static final double[][] X = TestSpark.gaussian(1000, 5, 31);
    /** 1000 rows: 16 blocks of 64 (the last of 40), 6 groups of 3. */
    private static final RowLayout SMALL = RowLayout.of(64, 3);
    private static final ComputeEngine CPU = CpuEngine.instance();

    /** A row map: scale by 1/2 and add the row's first value to the others (row-local, not linear). */
    private static final BlockMap MAP = (b, e) -> {
        RowBlockMatrix out = RowBlockMatrix.zeros(b.rows(), b.cols());
        double[] row = new double[b.cols()];
        for (int i = 0; i < b.rows(); i++) {
            b.copyRow(i, row, 0);
            for (int j = 1; j < row.length; j++) {
                row[j] = 0.5 * row[j] + row[0] * row[0];
            }
            out.setRow(i, row);
        }
        return out;
    };

    /** A streamed row map: whitening by a lower factor, then rows clipped to norm 1.5. */
    private static final RowChunkMap CHUNK_MAP = new RowChunkMap() {
        private static final long serialVersionUID = 1L;
        private final DMatrixRMaj lower = new DMatrixRMaj(new double[][] {{2, 0, 0, 0, 0}, {0.5, 1, 0, 0, 0},
            {0, 0.25, 3, 0, 0}, {1, 0, 0, 1, 0}, {0, 0, 0.5, 0.5, 2}});

        @Override
        public DMatrixRMaj whitening() {
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
                double c = Math.sqrt(s) > 1.5 ? 1.5 / Math.sqrt(s) : 1.0;
                for (int j = 0; j < d; j++) {
                    rows[offset + r * d + j] *= c;
                }
            }
        }
    };

    /** A row map from 5 to 7 columns: the row, its squared norm, a constant 1 (as a regression's scaled rows). */
    private static final BlockMap WIDEN = (b, e) -> {
        RowBlockMatrix out = RowBlockMatrix.zeros(b.rows(), 7);
        double[] row = new double[5];
        double[] wide = new double[7];
        for (int i = 0; i < b.rows(); i++) {
            b.copyRow(i, row, 0);
            double s = 0;
            for (int j = 0; j < 5; j++) {
                wide[j] = row[j];
                s += row[j] * row[j];
            }
            wide[5] = s;
            wide[6] = 1;
            out.setRow(i, wide);
        }
        return out;
    };

    /** A streamed map of 7 columns: rows clipped to norm 2 (no whitening). */
    private static final RowChunkMap CHUNK_MAP_7 = new RowChunkMap() {
        private static final long serialVersionUID = 1L;

        @Override
        public DMatrixRMaj whitening() {
            return null;
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
    };

    private static void assertSamePasses(RowSource local, RowSource spark) {
        assertEquals(local.rows(), spark.rows());
        assertArrayEquals(local.gram(1000).data, spark.gram(1000).data, 0.0, "Gram");
        assertArrayEquals(local.map(MAP).gram(7).data, spark.map(MAP).gram(7).data, 0.0, "Gram after a map");
        assertArrayEquals(local.gram(CHUNK_MAP, 7).data, spark.gram(CHUNK_MAP, 7).data, 0.0, "Gram of mapped rows");
        assertArrayEquals(local.map(MAP).gram(CHUNK_MAP, 7).data, spark.map(MAP).gram(CHUNK_MAP, 7).data, 0.0,
                "Gram of mapped rows after a map");
        int[] key = {1, 2, 3, 4, 5, 6, 7, 8};
        assertArrayEquals(local.gaussianProjection(3, ChaCha20.withKey(key, 9)).data,
                spark.gaussianProjection(3, ChaCha20.withKey(key, 9)).data, 0.0, "projection");
        assertArrayEquals(local.exactColumnSums().rounded(), spark.exactColumnSums().rounded(), 0.0, "sums");
        assertEquals(local.firstRejected(r -> r[2] > 0.9), spark.firstRejected(r -> r[2] > 0.9), "first rejected");
        assertEquals(-1, spark.firstRejected(r -> false));
        // a column selection (after the pending maps): the chosen columns, in the chosen order
        RowSource narrow = spark.map(MAP).columns(new int[] {4, 1});
        assertEquals(2, narrow.cols());
        double[] all = local.map(MAP).exactColumnSums().rounded();
        assertArrayEquals(new double[] {all[4], all[1]}, narrow.exactColumnSums().rounded(), 0.0, "columns");
        assertArrayEquals(local.map(MAP).columns(new int[] {4, 1}).gram(7).data, narrow.gram(7).data, 0.0,
                "Gram of columns");
        narrow.discard();
        // a map to another number of columns (a regression's [x, 1, y]), then a map of the wider rows
        RowSource wide = spark.map(MAP).map(WIDEN, 7).map(MAP);
        assertEquals(7, wide.cols());
        RowSource wideHere = local.map(MAP).map(WIDEN, 7).map(MAP);
        assertArrayEquals(wideHere.gram(7).data, wide.gram(7).data, 0.0, "Gram after a map to 7 columns");
        assertArrayEquals(wideHere.exactColumnSums().rounded(), wide.exactColumnSums().rounded(), 0.0,
                "sums after a map to 7 columns");
        assertArrayEquals(wideHere.gram(CHUNK_MAP_7, 7).data, wide.gram(CHUNK_MAP_7, 7).data, 0.0,
                "Gram of mapped rows after a map to 7 columns");
        assertThrows(IllegalArgumentException.class, () -> spark.columns(new int[] {1, 1}));
        assertThrows(IllegalArgumentException.class, () -> spark.columns(new int[] {5}));
    }

    @Test
    void everyPassHasTheBitsOfRowsInMemoryInTheSameLayout() {
        LocalRows local = LocalRows.of(RowBlockMatrix.of(X), CPU, SMALL);
        for (int p : new int[] {1, 3}) {
            SparkRows spark = SparkRows.load(TestSpark.table(X, p, 40 + p), TestSpark.columns(5), "id", SMALL, p,
                    CPU.name());
            try {
                assertEquals(p, spark.partitions());
                assertSamePasses(local, spark);
            } finally {
                spark.unpersist();
            }
        }
    }

    /** The same with the OpenBLAS engine on the executors and the driver (skipped where its natives cannot load). */
    @Test
    void openBlasPassesHaveTheBitsOfRowsInMemory() {
        String reason = org.dpgauss.engine.ComputeEngines.openBlasUnavailableReason();
        org.junit.jupiter.api.Assumptions.assumeTrue(reason == null, reason);
        ComputeEngine blas = org.dpgauss.engine.OpenBlasEngine.instance();
        for (RowLayout layout : new RowLayout[] {SMALL, RowLayout.of(600, 1)}) {
            SparkRows spark = SparkRows.load(TestSpark.table(X, 3, 43), TestSpark.columns(5), "id", layout, 3,
                    blas.name());
            try {
                assertSamePasses(LocalRows.of(RowBlockMatrix.of(X), blas, layout), spark);
            } finally {
                spark.unpersist();
            }
        }
    }

    /** The layout decides the bits: the same rows in one block give a (slightly) different Gram. */
    @Test
    void theLayoutIsNumerical() {
        double[] blocked = LocalRows.of(RowBlockMatrix.of(X), CPU, SMALL).gram(1000).data;
        double[] whole = LocalRows.of(RowBlockMatrix.of(X), CPU).gram(1000).data;
        assertFalse(java.util.Arrays.equals(blocked, whole));
        assertArrayEquals(whole, blocked, 1e-14);
    }
}
