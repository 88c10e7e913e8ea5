package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.spark.api.java.JavaSparkContext;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowLayout;
import org.junit.jupiter.api.Test;

/**
 * The scaling benchmark's generated blocks: every pass regenerates the same rows, and they are the rows in memory
 * that {@link GeneratedRows#rows} returns, so a pass has the bits of {@link LocalRows} in the same layout.
 */
class GeneratedRowsTest {

    private static final int N = 3000;
    private static final int D = 4;
    private static final long SEED = 77;
    /** 3000 rows: 12 blocks of 256 (the last of 184), 4 groups of 3. */
    private static final RowLayout SMALL = RowLayout.of(256, 3);

    @Test
    void passesRegenerateTheRowsInMemory() {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(TestSpark.get().sparkContext());
        SparkRows spark = GeneratedRows.gaussian(sc, N, D, 1.5, SEED, SMALL, CpuEngine.instance().name());
        double[][] x = GeneratedRows.rows(N, D, 1.5, SEED, SMALL);
        LocalRows local = LocalRows.of(RowBlockMatrix.of(x), CpuEngine.instance(), SMALL);
        assertEquals(4, spark.partitions(), "one partition per group");
        double[] first = spark.gram(N).data;
        assertArrayEquals(local.gram(N).data, first, 0.0, "Gram");
        assertArrayEquals(first, spark.gram(N).data, 0.0, "a second pass regenerates the same rows");
        assertArrayEquals(local.exactColumnSums().rounded(), spark.exactColumnSums().rounded(), 0.0, "sums");
        assertEquals(local.firstRejected(r -> r[1] > 4.0), spark.firstRejected(r -> r[1] > 4.0), "first rejected");
    }

    /**
     * Blocks have their own streams and the entries their scale: the sample variance of the 12 000 entries of
     * N(0, 1.5^2) lies within 7 standard errors of 2.25 (failure probability below 1e-11; fixed seed).
     */
    @Test
    void blocksAreDistinctDrawsAtTheRequestedScale() {
        double[][] x = GeneratedRows.rows(N, D, 1.5, SEED, SMALL);
        for (int b = 1; b < SMALL.blockCount(N); b++) {
            assertFalse(Arrays.equals(x[0], x[b * 256]), "block " + b + " repeats block 0");
        }
        assertFalse(Arrays.equals(x[0], GeneratedRows.rows(N, D, 1.5, SEED + 1, SMALL)[0]), "the seed matters");
        double s = 0;
        for (double[] r : x) {
            for (double v : r) {
                s += v * v;
            }
        }
        double var = s / (N * D);
        double se = 2.25 * Math.sqrt(2.0 / (N * D));
        assertTrue(Math.abs(var - 2.25) < 7 * se, "sample variance " + var);
    }
}
