package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSource;
import org.junit.jupiter.api.Test;

/**
 * A selection (random groups, Poisson subsamples) moves exactly the named rows, after the pending maps, into the new
 * layout in the order named: every row at its place, the same as rows in memory, for 1 and 3 partitions.
 */
class SparkSelectionTest {

    private static final double[][] X = TestSpark.gaussian(700, 3, 41);
    private static final RowLayout SMALL = RowLayout.of(64, 2);
    private static final ComputeEngine CPU = CpuEngine.instance();

    /** Doubles every value (a row map the selection must apply before moving the rows). */
    private static final BlockMap TWICE = (b, e) -> {
        RowBlockMatrix out = b.copy();
        double[] row = new double[b.cols()];
        for (int i = 0; i < b.rows(); i++) {
            b.copyRow(i, row, 0);
            for (int j = 0; j < row.length; j++) {
                row[j] *= 2;
            }
            out.setRow(i, row);
        }
        return out;
    };

    /** Every row, in order, with its block index and place: one value per row and column plus two. */
    private static double[] contents(RowSource rows) {
        int d = rows.cols();
        RowLayout lay = rows.layout();
        return rows.reduce((index, block, e) -> {
            double[] out = new double[block.rows() * (d + 2)];
            for (int k = 0; k < block.rows(); k++) {
                out[k * (d + 2)] = index;
                out[k * (d + 2) + 1] = lay.blockStart(index) + k;
                block.copyRow(k, out, k * (d + 2) + 2);
            }
            return out;
        }, (acc, p) -> {
            if (acc == null) {
                return p;
            }
            double[] c = java.util.Arrays.copyOf(acc, acc.length + p.length);
            System.arraycopy(p, 0, c, acc.length, p.length);
            return c;
        });
    }

    @Test
    void theNamedRowsInTheNamedOrder() {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < X.length; i++) {
            all.add(i);
        }
        Collections.shuffle(all, new Random(8));
        int[] chosen = all.subList(0, 450).stream().mapToInt(Integer::intValue).toArray();
        RowLayout to = RowLayout.of(45, 3);
        double[] local = contents(LocalRows.of(RowBlockMatrix.of(X), CPU, SMALL).map(TWICE).select(chosen, to));
        assertEquals(450 * 5, local.length);
        for (int i = 0; i < chosen.length; i++) { // the expected values, independently of LocalRows
            assertEquals(i, local[i * 5 + 1]);
            for (int j = 0; j < 3; j++) {
                assertEquals(2 * X[chosen[i]][j], local[i * 5 + 2 + j]);
            }
        }
        for (int p : new int[] {1, 3}) {
            SparkRows spark = SparkRows.load(TestSpark.table(X, p, 50 + p), TestSpark.columns(3), "id", SMALL, p,
                    CPU.name());
            try {
                RowSource selected = spark.map(TWICE).select(chosen, to);
                try {
                    assertEquals(450, selected.rows());
                    assertEquals(to, selected.layout());
                    assertArrayEquals(local, contents(selected), 0.0, p + " partitions");
                } finally {
                    selected.discard();
                }
                assertTrue(assertThrows(IllegalArgumentException.class,
                        () -> spark.select(new int[] {3, 700}, to)).getMessage().contains("not one of the n=700"));
            } finally {
                spark.unpersist();
            }
        }
    }
}
