package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.spark.SparkEnv;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManager;
import org.apache.spark.storage.BlockResult;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.BlockValuesPass;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.PartialFold;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSource;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.runtime.AbstractFunction1;

/**
 * What the driver ships per release leaves nothing behind: a per-row vector (the release's noise, e.g. StableMean's
 * {@code g}) is a broadcast destroyed when its pass returns, and a selection's broadcast is destroyed when the
 * selected rows are discarded. The pass with the vector has the bits of rows in memory (1 and 3 partitions).
 */
class SparkBroadcastLifetimeTest {

    private static final double[][] X = TestSpark.gaussian(500, 3, 61);
    private static final RowLayout SMALL = RowLayout.of(64, 2);
    private static final ComputeEngine CPU = CpuEngine.instance();

    /** {@code sum_i v_i x_i}: each block's rows weighted by its entries. */
    private static final BlockValuesPass<double[]> WEIGHTED = (b, rows, v, e) -> {
        double[] out = new double[rows.cols()];
        double[] row = new double[rows.cols()];
        for (int i = 0; i < rows.rows(); i++) {
            rows.copyRow(i, row, 0);
            for (int j = 0; j < row.length; j++) {
                out[j] += v[i] * row[j];
            }
        }
        return out;
    };

    private static final PartialFold<double[]> ADD = (acc, p) -> {
        if (acc == null) {
            return p;
        }
        for (int j = 0; j < acc.length; j++) {
            acc[j] += p[j];
        }
        return acc;
    };

    /** The values the driver's block manager holds as broadcasts (local mode: the executors' too). */
    private static List<Object> broadcastValues() {
        BlockManager bm = SparkEnv.get().blockManager();
        List<Object> out = new ArrayList<>();
        for (BlockId id : scala.jdk.javaapi.CollectionConverters.asJava(bm.getMatchingBlockIds(
                new AbstractFunction1<BlockId, Object>() {
                    @Override
                    public Object apply(BlockId id) {
                        return id.isBroadcast() && !id.name().contains("_piece");
                    }
                }))) {
            Option<BlockResult> r = bm.getLocalValues(id);
            if (r.isDefined()) {
                scala.collection.Iterator<Object> it = r.get().data();
                while (it.hasNext()) { // consuming the values releases the block's read lock
                    out.add(it.next());
                }
            }
        }
        return out;
    }

    /** Waits (removal is asynchronous) until no broadcast value matches. */
    private static boolean goneWithin(Predicate<Object> match, long millis) throws InterruptedException {
        long end = System.currentTimeMillis() + millis;
        do {
            if (broadcastValues().stream().noneMatch(match)) {
                return true;
            }
            Thread.sleep(50);
        } while (System.currentTimeMillis() < end);
        return false;
    }

    @Test
    void perRowValuesAndSelectionsAreDestroyed() throws InterruptedException {
        double[] noise = new Random(5).doubles(X.length).toArray();
        double[] local = LocalRows.of(RowBlockMatrix.of(X), CPU, SMALL).reduce(noise, WEIGHTED, ADD);
        for (int p : new int[] {1, 3}) {
            SparkRows spark = SparkRows.load(TestSpark.table(X, p, 70 + p), TestSpark.columns(3), "id", SMALL, p,
                    CPU.name());
            try {
                assertArrayEquals(local, spark.reduce(noise, WEIGHTED, ADD), 0.0, p + " partitions");
                assertTrue(goneWithin(v -> v instanceof double[] && ((double[]) v).length == X.length, 10_000),
                        "the per-row vector's broadcast is destroyed after its pass");

                RowSource selected = spark.select(new int[] {4, 2, 499, 0}, SMALL);
                Predicate<Object> target = v -> v instanceof int[] && ((int[]) v).length == X.length;
                assertEquals(4, selected.rows());
                assertTrue(broadcastValues().stream().anyMatch(target), "the selection is held while its rows are");
                selected.discard();
                assertTrue(goneWithin(target, 10_000), "the selection's broadcast is destroyed on discard");
            } finally {
                spark.unpersist();
            }
        }
    }
}
