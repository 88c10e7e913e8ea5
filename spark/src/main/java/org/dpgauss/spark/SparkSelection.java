package org.dpgauss.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.RowLayout;
import scala.Tuple2;

/**
 * {@link SparkRows#select}: the rows a driver-drawn selection names, moved in one shuffle into the blocks of a new
 * layout. The selection travels as a broadcast {@code target} array ({@code target[p]}: the new index of the row at
 * position p, or -1), which stays until the selected rows are discarded, so a retried task reproduces the same
 * blocks. Private data (rows) and the selection (the release's randomness): never logged.
 */
final class SparkSelection {

    private SparkSelection() {
    }

    /**
     * @param blocks the cached blocks
     * @param maps the pending row maps
     * @param d the number of columns
     * @param engine the executors' engine name
     * @param from the blocks' layout
     * @param target the broadcast selection
     * @param k the number of selected rows
     * @param to the new layout
     * @param partitions the most partitions to use
     * @return the new blocks, cached and not yet materialised
     */
    static JavaRDD<RowBlockData> select(JavaRDD<RowBlockData> blocks, List<BlockMap> maps, int d, String engine,
            RowLayout from, Broadcast<int[]> target, long k, RowLayout to, int partitions) {
        int nb = to.blockCount(k);
        int groups = to.groupOf(nb - 1) + 1;
        int p = Math.max(1, Math.min(partitions, groups));
        int blockRows = to.blockRows();
        JavaPairRDD<Integer, Piece> pieces = blocks.flatMapToPair(b -> ExecutorEngines.sequential(() -> {
            ComputeEngine e = ExecutorEngines.get(engine);
            int[] t = target.value();
            long start = from.blockStart(b.index);
            RowBlockMatrix mat = null;
            Map<Integer, Piece> out = new TreeMap<>();
            double[] row = new double[d];
            for (int r = 0; r < b.rows; r++) {
                int i = t[(int) (start + r)];
                if (i < 0) {
                    continue;
                }
                if (mat == null) { // the maps run only on blocks that hold a selected row
                    mat = b.matrix(d);
                    for (BlockMap f : maps) {
                        mat = f.apply(mat, e);
                    }
                }
                int tb = i / blockRows;
                Piece piece = out.computeIfAbsent(tb, x -> new Piece(x, d));
                mat.copyRow(r, row, 0);
                piece.add(i - tb * blockRows, row);
            }
            List<Tuple2<Integer, Piece>> list = new ArrayList<>();
            for (Piece piece : out.values()) {
                piece.trim();
                list.add(new Tuple2<>(piece.block, piece));
            }
            return list;
        }).iterator());
        return pieces.repartitionAndSortWithinPartitions(new SparkRows.GroupPartitioner(to.blocksPerGroup(), groups, p))
                .mapPartitions(new Merge(d, blockRows, k))
                .persist(StorageLevel.MEMORY_AND_DISK());
    }

    /** The selected rows of one source block bound for one new block, with their places in it. */
    static final class Piece implements Serializable {
        private static final long serialVersionUID = 1L;
        final int block;
        private final int d;
        int rows;
        int[] within = new int[16];
        double[] data;

        Piece(int block, int d) {
            this.block = block;
            this.d = d;
            this.data = new double[16 * d];
        }

        void add(int place, double[] row) {
            if (rows == within.length) {
                within = java.util.Arrays.copyOf(within, 2 * rows);
                data = java.util.Arrays.copyOf(data, 2 * rows * d);
            }
            within[rows] = place;
            System.arraycopy(row, 0, data, rows * d, d);
            rows++;
        }

        void trim() {
            within = java.util.Arrays.copyOf(within, rows);
            data = java.util.Arrays.copyOf(data, rows * d);
        }

        @Override
        public String toString() {
            return "selection piece for block " + block + " (" + rows + " rows)";
        }
    }

    /** Places the pieces of each new block (sorted by block index) and checks that every row arrived. */
    private static final class Merge implements FlatMapFunction<Iterator<Tuple2<Integer, Piece>>, RowBlockData> {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final int blockRows;
        private final long k;

        Merge(int d, int blockRows, long k) {
            this.d = d;
            this.blockRows = blockRows;
            this.k = k;
        }

        @Override
        public Iterator<RowBlockData> call(Iterator<Tuple2<Integer, Piece>> it) {
            List<RowBlockData> out = new ArrayList<>();
            int block = -1;
            double[] data = null;
            int filled = 0;
            while (it.hasNext()) {
                Piece f = it.next()._2();
                if (f.block != block) {
                    if (data != null) {
                        out.add(finish(block, data, filled));
                    }
                    block = f.block;
                    data = new double[(int) Math.min(blockRows, k - (long) block * blockRows) * d];
                    filled = 0;
                }
                for (int r = 0; r < f.rows; r++) {
                    System.arraycopy(f.data, r * d, data, f.within[r] * d, d);
                }
                filled += f.rows;
            }
            if (data != null) {
                out.add(finish(block, data, filled));
            }
            return out.iterator();
        }

        private RowBlockData finish(int block, double[] data, int filled) {
            int size = data.length / d;
            if (filled != size) {
                throw new IllegalStateException("selected block " + block + " received " + filled + " of its " + size
                        + " rows");
            }
            return new RowBlockData(block, size, data);
        }
    }
}
