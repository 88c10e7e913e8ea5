package org.dpgauss.spark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.RowLayout;
import org.ejml.data.DMatrixRMaj;
import scala.Tuple2;

/**
 * {@link org.dpgauss.rows.RowSource#groupGrams} on cached blocks: the driver turns the groups' positions into each
 * position's slot (group and place in the group), broadcasts it for one pass (destroyed after it, never logged),
 * every row goes to its group in one shuffle, and each group's m rows are put in slot order and given to the
 * engine's {@code weightedGram} with divisor m, as the single-machine engine gathers them.
 */
final class RandomGroups {

    private RandomGroups() {
    }

    static DMatrixRMaj[] grams(JavaRDD<RowBlockData> blocks, List<BlockMap> maps, long n, int d, RowLayout layout,
            String engine, int[] order, int m) {
        int groups = order.length / m;
        int[] slot = new int[(int) n];
        java.util.Arrays.fill(slot, -1);
        for (int k = 0; k < order.length; k++) {
            slot[order[k]] = k;
        }
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(blocks.context());
        Broadcast<int[]> shared = jsc.broadcast(slot);
        try {
            int partitions = Math.max(1, Math.min(blocks.getNumPartitions(), groups));
            List<Tuple2<Integer, DMatrixRMaj>> out = blocks.flatMapToPair(b -> ExecutorEngines.sequential(() -> {
                ComputeEngine e = ExecutorEngines.get(engine);
                RowBlockMatrix x = b.matrix(d);
                for (BlockMap f : maps) {
                    x = f.apply(x, e);
                }
                int[] s = shared.value();
                long start = layout.blockStart(b.index);
                List<Tuple2<Integer, Tuple2<Integer, double[]>>> rows = new ArrayList<>();
                for (int k = 0; k < b.rows; k++) {
                    int at = s[(int) (start + k)];
                    if (at >= 0) {
                        rows.add(new Tuple2<>(at / m, new Tuple2<>(at % m, x.row(k))));
                    }
                }
                return rows.iterator();
            })).partitionBy(new HashPartitioner(partitions)).mapPartitions(it -> {
                Map<Integer, RowBlockMatrix> members = new HashMap<>();
                Map<Integer, Integer> filled = new HashMap<>();
                it.forEachRemaining(t -> {
                    members.computeIfAbsent(t._1(), g -> RowBlockMatrix.zeros(m, d)).setRow(t._2()._1(), t._2()._2());
                    filled.merge(t._1(), 1, Integer::sum);
                });
                List<Tuple2<Integer, DMatrixRMaj>> grams = new ArrayList<>();
                for (Map.Entry<Integer, RowBlockMatrix> g : members.entrySet()) {
                    if (filled.get(g.getKey()) != m) {
                        throw new IllegalStateException("group " + g.getKey() + " received " + filled.get(g.getKey())
                                + " of its " + m + " rows");
                    }
                    grams.add(new Tuple2<>(g.getKey(), ExecutorEngines.sequential(
                            () -> ExecutorEngines.get(engine).weightedGram(g.getValue(), null, null, m))));
                }
                return grams.iterator();
            }).collect();
            DMatrixRMaj[] sigma = new DMatrixRMaj[groups];
            for (Tuple2<Integer, DMatrixRMaj> t : out) {
                sigma[t._1()] = t._2();
            }
            for (int t = 0; t < groups; t++) {
                if (sigma[t] == null) {
                    throw new IllegalStateException("the pass returned no second moment for group " + t);
                }
            }
            return sigma;
        } catch (RuntimeException e) {
            throw SparkRows.unwrap(e);
        } finally {
            shared.destroy();
            java.util.Arrays.fill(slot, 0); // after the job: in local mode the executors read this very array
        }
    }
}
