package org.dpgauss.spark;

import static org.apache.spark.sql.functions.col;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.RowChunkMap;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.BlockPass;
import org.dpgauss.rows.BlockValuesPass;
import org.dpgauss.rows.ExactColumnSums;
import org.dpgauss.rows.PartialFold;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowTest;
import org.ejml.data.DMatrixRMaj;
import scala.Tuple2;

/**
 * Rows held by Spark as the dense blocks of a {@link RowLayout}: the rows are ordered by an explicit id column
 * (never by Spark's scan order), cut into blocks by their position in that order, decoded once and cached. A pass
 * runs the pending row maps and one engine primitive on every block inside the executors (sequentially within a
 * task), folds the blocks of each group in block order, and the driver folds the groups in group order: the same
 * rule as {@link org.dpgauss.rows.LocalRows}, so with the same layout and engine the result has the same bits,
 * whatever the partitioning or the input order. Immutable; {@link #unpersist()} frees the cached blocks.
 */
public final class SparkRows implements RowSource {

    private final JavaRDD<RowBlockData> blocks;
    private final long rows;
    private final int cols;
    private final RowLayout layout;
    private final String engine;
    private final List<BlockMap> maps;
    /** Whether the cached blocks were made by {@link #pairs} (freed by {@link #discard}). */
    private final boolean derived;
    /** The broadcast selection behind the blocks of {@link #select} (destroyed by {@link #discard}), or null. */
    private final Broadcast<int[]> selection;

    private SparkRows(JavaRDD<RowBlockData> blocks, long rows, int cols, RowLayout layout, String engine,
            List<BlockMap> maps) {
        this(blocks, rows, cols, layout, engine, maps, false, null);
    }

    private SparkRows(JavaRDD<RowBlockData> blocks, long rows, int cols, RowLayout layout, String engine,
            List<BlockMap> maps, boolean derived) {
        this(blocks, rows, cols, layout, engine, maps, derived, null);
    }

    private SparkRows(JavaRDD<RowBlockData> blocks, long rows, int cols, RowLayout layout, String engine,
            List<BlockMap> maps, boolean derived, Broadcast<int[]> selection) {
        this.derived = derived;
        this.selection = selection;
        this.blocks = blocks;
        this.rows = rows;
        this.cols = cols;
        this.layout = layout;
        this.engine = engine;
        this.maps = Collections.unmodifiableList(maps);
    }

    /**
     * Orders, validates, blocks and caches the rows (runs Spark jobs). Every value column must be numeric, every
     * value present and finite, every id present; a repeated id is no error: its rows follow one another in the
     * order of their values (column by column), a rule that needs no error; an error names the column and the row
     * (its 1-based position in id order), never a value.
     *
     * @param data the table
     * @param valueColumns the columns that form the rows, in order
     * @param idColumn a column whose values order the rows (any orderable type, not null; ties broken by the values)
     * @param layout the layout (null: {@link RowLayout#forDimension} of the number of value columns)
     * @param partitions Spark partitions of the cached blocks (at most one per group is useful; &lt;= 0: the
     *        context's default parallelism)
     * @param engineName the engine executors run ({@link ComputeEngine#name()} of the driver's engine)
     * @return the rows
     * @throws IllegalArgumentException on a missing or non-numeric column or a bad value or id
     */
    public static SparkRows load(Dataset<Row> data, List<String> valueColumns, String idColumn, RowLayout layout,
            int partitions, String engineName) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(idColumn, "id column");
        Objects.requireNonNull(engineName, "engine");
        List<String> names = List.copyOf(Objects.requireNonNull(valueColumns, "value columns"));
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no value columns: name at least one numeric column");
        }
        StructType schema = data.schema();
        field(schema, idColumn, "id column");
        for (String c : names) {
            DataType t = field(schema, c, "value column").dataType();
            if (!(t instanceof NumericType)) {
                throw new IllegalArgumentException("value column '" + c + "' has type " + t.simpleString()
                        + ": every value column must be numeric");
            }
            if (c.equals(idColumn)) {
                throw new IllegalArgumentException("column '" + c + "' is the id column: it cannot also be a value");
            }
        }
        int d = names.size();
        RowLayout lay = layout != null ? layout : RowLayout.forDimension(d);
        if (!data.filter(col(idColumn).isNull()).limit(1).isEmpty()) {
            throw new IllegalArgumentException("the id column '" + idColumn + "' has a missing (null) value: every"
                    + " row needs an id, which defines the row order");
        }
        Column[] sel = new Column[d + 1];
        sel[0] = col(idColumn);
        for (int j = 0; j < d; j++) {
            sel[j + 1] = col(names.get(j)).cast(DataTypes.DoubleType);
        }
        Dataset<Row> selected = data.select(sel).toDF(orderColumns(d));
        long n = selected.count();
        if (n == 0) {
            throw new IllegalArgumentException("the table has no rows: a release needs at least one");
        }
        int nb = lay.blockCount(n);
        int groups = lay.groupOf(nb - 1) + 1;
        int p = partitions > 0 ? partitions : data.sparkSession().sparkContext().defaultParallelism();
        p = Math.max(1, Math.min(p, groups));
        // Id order, ties (a repeated id) broken by the row's values, column by column: a total order on the rows
        // up to rows equal in id and every value, which are interchangeable, so no neighbour meets an error here
        // (issue 24 item 5). Mechanisms that pair or group rows read them in a secret order drawn from the release's
        // noise source (org.dpgauss.rows.SecretPermutation), so this order only fixes the bits, never the pairs.
        Column[] order = new Column[d + 1];
        for (int j = 0; j <= d; j++) {
            order[j] = selected.col(selected.columns()[j]);
        }
        JavaPairRDD<Row, Long> ranked = selected.sort(order).javaRDD().zipWithIndex();
        JavaPairRDD<Integer, RowBlockData> fragments = ranked.mapPartitionsToPair(
                new Fragments(d, lay.blockRows(), names));
        JavaRDD<RowBlockData> cached = fragments
                .repartitionAndSortWithinPartitions(new GroupPartitioner(lay.blocksPerGroup(), groups, p))
                .mapPartitions(new MergeFragments(d, lay.blockRows(), n))
                .persist(StorageLevel.MEMORY_AND_DISK());
        long made;
        try {
            made = cached.count();
        } catch (Exception e) { // Spark rethrows task failures as the checked SparkException
            cached.unpersist(false);
            throw unwrap(e);
        }
        if (made != nb) {
            cached.unpersist(false);
            throw new IllegalStateException("blocking the rows made " + made + " blocks instead of " + nb);
        }
        return new SparkRows(cached, n, d, lay, engineName, new ArrayList<>());
    }

    /** The names of the selected columns: the id, then the values v0..v(d-1) (no clash with the user's names). */
    private static String[] orderColumns(int d) {
        String[] names = new String[d + 1];
        names[0] = "__dpgauss_id";
        for (int j = 0; j < d; j++) {
            names[j + 1] = "__dpgauss_v" + j;
        }
        return names;
    }

    /**
     * Rows whose blocks an RDD already holds in id order: no sort, no validation, no cache, so every pass recomputes
     * the RDD (the scaling benchmark's blocks generated inside the tasks). Each partition must hold whole groups of
     * the layout, in group order, with its blocks in index order, block b holding positions {@code b B ..}.
     *
     * @param blocks the blocks
     * @param n the number of rows, at least 1
     * @param d the number of columns, at least 1
     * @param layout the layout the blocks follow
     * @param engineName the engine executors run
     * @return the rows
     */
    static SparkRows ofBlocks(JavaRDD<RowBlockData> blocks, long n, int d, RowLayout layout, String engineName) {
        if (n < 1 || d < 1) {
            throw new IllegalArgumentException("n=" + n + ", d=" + d + ": both must be at least 1");
        }
        return new SparkRows(Objects.requireNonNull(blocks, "blocks"), n, d, Objects.requireNonNull(layout, "layout"),
                Objects.requireNonNull(engineName, "engine"), new ArrayList<>());
    }

    private static StructField field(StructType schema, String name, String what) {
        for (StructField f : schema.fields()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("the " + what + " '" + name + "' is not in the table (columns: "
                + String.join(", ", schema.fieldNames()) + ")");
    }

    /** Rethrows a validation error raised inside a task as itself (its message names the row and column). */
    static RuntimeException unwrap(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException) {
                return new IllegalArgumentException(t.getMessage());
            }
        }
        return e instanceof RuntimeException ? (RuntimeException) e
                : new IllegalStateException("a Spark job failed: " + e.getMessage(), e);
    }

    @Override
    public long rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public RowLayout layout() {
        return layout;
    }

    /** @return the engine executors run */
    public String engine() {
        return engine;
    }

    /** @return the number of Spark partitions holding the blocks */
    public int partitions() {
        return blocks.getNumPartitions();
    }

    /** Frees the cached blocks. */
    public void unpersist() {
        blocks.unpersist(false);
    }

    @Override
    public SparkRows map(BlockMap f) {
        List<BlockMap> next = new ArrayList<>(maps);
        next.add(Objects.requireNonNull(f, "map"));
        return new SparkRows(blocks, rows, cols, layout, engine, next, derived, selection);
    }

    /**
     * The rows after the pending maps and f, as blocks of {@code to} columns: one narrow map over the cached blocks
     * (kept in their partitions and order), recomputed from them on each pass like {@link #map(BlockMap)}; nothing
     * new is cached. Each block is copied out of f's result row by row, so a pass reads exactly the rows that
     * {@link org.dpgauss.rows.LocalRows#map(BlockMap, int)} forms in memory.
     */
    @Override
    public SparkRows map(BlockMap f, int to) {
        Objects.requireNonNull(f, "map");
        if (to < 1) {
            throw new IllegalArgumentException("a row map to " + to + " columns: at least 1 is needed");
        }
        List<BlockMap> chain = new ArrayList<>(maps);
        chain.add(f);
        int d = cols;
        String eng = engine;
        JavaRDD<RowBlockData> mapped = blocks.map(b -> ExecutorEngines.sequential(() -> {
            ComputeEngine e = ExecutorEngines.get(eng);
            RowBlockMatrix m = b.matrix(d);
            for (BlockMap g : chain) {
                m = g.apply(m, e);
            }
            if (m.rows() != b.rows || m.cols() != to) {
                throw new IllegalStateException("a row map gave block " + b.index + " another shape than " + b.rows
                        + " x " + to);
            }
            double[] data = new double[b.rows * to];
            double[] row = new double[to];
            for (int k = 0; k < b.rows; k++) {
                m.copyRow(k, row, 0);
                System.arraycopy(row, 0, data, k * to, to);
            }
            return new RowBlockData(b.index, b.rows, data);
        }));
        return new SparkRows(mapped, rows, to, layout, engine, new ArrayList<>(), false, null);
    }

    /**
     * The selected rows (one shuffle, {@link SparkSelection}): the driver's selection is broadcast as one int per
     * row and destroyed by {@link #discard}; the rows, after the pending maps, go to their new blocks and are cached.
     */
    @Override
    public SparkRows select(int[] positions, RowLayout to) {
        Objects.requireNonNull(to, "layout");
        int[] target = RowSource.selectionTargets(positions, rows);
        Broadcast<int[]> b = JavaSparkContext.fromSparkContext(blocks.context()).broadcast(target);
        JavaRDD<RowBlockData> cached = SparkSelection.select(blocks, maps, cols, engine, layout, b, positions.length,
                to, blocks.getNumPartitions());
        long made;
        try {
            made = cached.count();
        } catch (Exception e) { // Spark rethrows task failures as the checked SparkException
            cached.unpersist(false);
            b.destroy();
            throw unwrap(e);
        }
        int nb = to.blockCount(positions.length);
        if (made != nb) {
            cached.unpersist(false);
            b.destroy();
            throw new IllegalStateException("selecting rows made " + made + " blocks instead of " + nb);
        }
        return new SparkRows(cached, positions.length, cols, to, engine, new ArrayList<>(), true, b);
    }

    /**
     * The paired rows (one shuffle): every row at position {@code from + p}, {@code p < 2m}, goes, after the pending
     * maps, to pair {@code p mod m} as its first (p &lt; m) or second half; each block of pairs is formed on the
     * executor that receives its halves, with the arithmetic of the single-machine pairing, and cached.
     */
    @Override
    public SparkRows pairs(long from, long to) {
        RowSource.checkRange(from, to, rows, 2);
        return derive(from, (to - from) / 2, true);
    }

    /** The rows of a range, re-blocked from position 0 (one shuffle) and cached. */
    @Override
    public SparkRows slice(long from, long to) {
        RowSource.checkRange(from, to, rows, 1);
        return derive(from, to - from, false);
    }

    /** Rows {@code from..from+m-1} (and, paired, {@code from+m..from+2m-1} as second halves) in new blocks. */
    private SparkRows derive(long from, long m, boolean paired) {
        List<BlockMap> chain = maps;
        int d = cols;
        String eng = engine;
        RowLayout lay = layout;
        int blockRows = lay.blockRows();
        int nb = lay.blockCount(m);
        int groups = lay.groupOf(nb - 1) + 1;
        int p = Math.max(1, Math.min(blocks.getNumPartitions(), groups));
        long end = from + (paired ? 2 * m : m);
        JavaPairRDD<Integer, PairPiece> pieces = blocks.flatMapToPair(b -> ExecutorEngines.sequential(() -> {
            ComputeEngine e = ExecutorEngines.get(eng);
            RowBlockMatrix mat = b.matrix(d);
            for (BlockMap f : chain) {
                mat = f.apply(mat, e);
            }
            long start = lay.blockStart(b.index);
            List<Tuple2<Integer, PairPiece>> out = new ArrayList<>();
            PairPiece cur = null;
            double[] row = new double[d];
            for (int k = 0; k < mat.rows(); k++) {
                long pos = start + k;
                if (pos < from) {
                    continue;
                }
                if (pos >= end) {
                    break;
                }
                int side = pos - from < m ? 0 : 1;
                long i = side == 0 ? pos - from : pos - from - m;
                int pb = (int) (i / blockRows);
                int within = (int) (i - (long) pb * blockRows);
                if (cur == null || cur.block != pb || cur.side != side) {
                    cur = new PairPiece(pb, side, within, new double[(mat.rows() - k) * d]);
                    out.add(new Tuple2<>(pb, cur));
                }
                mat.copyRow(k, row, 0);
                System.arraycopy(row, 0, cur.data, cur.rows * d, d);
                cur.rows++;
            }
            for (Tuple2<Integer, PairPiece> t : out) {
                t._2().data = Arrays.copyOf(t._2().data, t._2().rows * d);
            }
            return out;
        }).iterator());
        JavaRDD<RowBlockData> cached = pieces
                .repartitionAndSortWithinPartitions(new GroupPartitioner(lay.blocksPerGroup(), groups, p))
                .mapPartitions(new MergePairs(d, blockRows, m, paired))
                .persist(StorageLevel.MEMORY_AND_DISK());
        long made;
        try {
            made = cached.count();
        } catch (Exception e) { // Spark rethrows task failures as the checked SparkException
            cached.unpersist(false);
            throw unwrap(e);
        }
        if (made != nb) {
            cached.unpersist(false);
            throw new IllegalStateException("re-blocking the rows made " + made + " blocks instead of " + nb);
        }
        return new SparkRows(cached, m, d, lay, eng, new ArrayList<>(), true);
    }

    /**
     * The self-join: the blocks (after the pending maps) paired with themselves ({@code cartesian}, block a with block
     * b &gt;= a), the engine's counts within a block and {@link RowSource#crossCounts} across two; the integer
     * counts of each block are added by key and collected (n ints on the driver).
     */
    @Override
    public int[] neighbourCounts(double radius) {
        if (rows > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("neighbour counts are for at most 2^31-1 rows");
        }
        List<BlockMap> chain = maps;
        int d = cols;
        String eng = engine;
        JavaRDD<RowBlockData> mapped = maps.isEmpty() ? blocks : blocks.map(b -> ExecutorEngines.sequential(() -> {
            ComputeEngine e = ExecutorEngines.get(eng);
            RowBlockMatrix m = b.matrix(d);
            for (BlockMap f : chain) {
                m = f.apply(m, e);
            }
            double[] data = new double[b.rows * d];
            for (int k = 0; k < b.rows; k++) {
                m.copyRow(k, data, k * d);
            }
            return new RowBlockData(b.index, b.rows, data);
        }));
        List<Tuple2<Integer, int[]>> counts;
        try {
            counts = mapped.cartesian(mapped).filter(t -> t._1().index <= t._2().index)
                    .flatMapToPair(t -> ExecutorEngines.sequential(() -> {
                        ComputeEngine e = ExecutorEngines.get(eng);
                        RowBlockMatrix a = t._1().matrix(d);
                        List<Tuple2<Integer, int[]>> out = new ArrayList<>();
                        if (t._1().index == t._2().index) {
                            out.add(new Tuple2<>(t._1().index, e.neighbourCounts(a, radius)));
                        } else {
                            RowBlockMatrix b = t._2().matrix(d);
                            int[] ca = new int[a.rows()];
                            int[] cb = new int[b.rows()];
                            RowSource.crossCounts(a, b, radius, ca, cb);
                            out.add(new Tuple2<>(t._1().index, ca));
                            out.add(new Tuple2<>(t._2().index, cb));
                        }
                        return out;
                    }).iterator())
                    .reduceByKey((x, y) -> {
                        int[] z = x.clone();
                        for (int k = 0; k < z.length; k++) {
                            z[k] += y[k];
                        }
                        return z;
                    }).collect();
        } catch (Exception e) { // Spark rethrows task failures as the checked SparkException
            throw unwrap(e);
        }
        int[] out = new int[(int) rows];
        for (Tuple2<Integer, int[]> t : counts) {
            System.arraycopy(t._2(), 0, out, (int) layout.blockStart(t._1()), t._2().length);
        }
        return out;
    }

    /**
     * The chosen columns of the rows after the pending maps, in new cached blocks of the same layout (one map over
     * the blocks, kept in their partitions and order; cached on first use, freed by {@link #discard}).
     */
    @Override
    public SparkRows columns(int[] selected) {
        int[] sel = RowSource.checkColumns(selected, cols);
        List<BlockMap> chain = maps;
        int d = cols;
        String eng = engine;
        JavaRDD<RowBlockData> narrow = blocks.map(b -> ExecutorEngines.sequential(() -> {
            ComputeEngine e = ExecutorEngines.get(eng);
            RowBlockMatrix m = b.matrix(d);
            for (BlockMap f : chain) {
                m = f.apply(m, e);
            }
            double[] row = new double[d];
            double[] data = new double[b.rows * sel.length];
            for (int k = 0; k < b.rows; k++) {
                m.copyRow(k, row, 0);
                for (int c = 0; c < sel.length; c++) {
                    data[k * sel.length + c] = row[sel[c]];
                }
            }
            return new RowBlockData(b.index, b.rows, data);
        })).persist(StorageLevel.MEMORY_AND_DISK());
        return new SparkRows(narrow, rows, sel.length, layout, engine, new ArrayList<>(), true);
    }

    /** The random groups' second moments: one shuffle ({@link RandomGroups}). */
    @Override
    public DMatrixRMaj[] groupGrams(int[] order, int groupSize) {
        RowSource.checkGroups(order, groupSize, rows);
        return RandomGroups.grams(blocks, maps, rows, cols, layout, engine, order, groupSize);
    }

    /**
     * Frees the cached blocks of {@link #pairs}, {@link #slice}, {@link #columns} or {@link #select} (and its
     * broadcast); the session's own rows stay until {@link #unpersist}.
     */
    @Override
    public void discard() {
        if (derived) {
            blocks.unpersist(false);
        }
        if (selection != null) {
            selection.destroy();
        }
    }

    /** Consecutive rows of one side of one block of pairs. Private data: never logged. */
    static final class PairPiece implements Serializable {
        private static final long serialVersionUID = 1L;
        final int block;
        final int side;
        final int first;
        int rows;
        double[] data;

        PairPiece(int block, int side, int first, double[] data) {
            this.block = block;
            this.side = side;
            this.first = first;
            this.data = data;
        }

        @Override
        public String toString() {
            return "pair block " + block + " side " + side + " (" + rows + " rows)";
        }
    }

    /**
     * Forms each new block from its pieces; paired, from its two halves: {@code (a - b) / sqrt 2}, as the
     * single-machine pairing.
     */
    private static final class MergePairs implements FlatMapFunction<Iterator<Tuple2<Integer, PairPiece>>,
            RowBlockData> {
        private static final long serialVersionUID = 1L;
        private static final double SQRT2 = Math.sqrt(2.0);
        private final int d;
        private final int blockRows;
        private final long m;
        private final boolean paired;

        MergePairs(int d, int blockRows, long m, boolean paired) {
            this.d = d;
            this.blockRows = blockRows;
            this.m = m;
            this.paired = paired;
        }

        @Override
        public Iterator<RowBlockData> call(Iterator<Tuple2<Integer, PairPiece>> it) {
            List<RowBlockData> out = new ArrayList<>();
            int block = -1;
            double[][] halves = null;
            int[] filled = new int[2];
            while (it.hasNext()) {
                PairPiece f = it.next()._2();
                if (f.block != block) {
                    if (halves != null) {
                        out.add(finish(block, halves, filled));
                    }
                    block = f.block;
                    int size = (int) Math.min(blockRows, m - (long) block * blockRows);
                    halves = new double[][] {new double[size * d], paired ? new double[size * d] : null};
                    filled[0] = 0;
                    filled[1] = 0;
                }
                System.arraycopy(f.data, 0, halves[f.side], f.first * d, f.rows * d);
                filled[f.side] += f.rows;
            }
            if (halves != null) {
                out.add(finish(block, halves, filled));
            }
            return out.iterator();
        }

        private RowBlockData finish(int block, double[][] halves, int[] filled) {
            double[] a = halves[0];
            double[] b = halves[1];
            int size = a.length / d;
            if (filled[0] != size || filled[1] != (paired ? size : 0)) {
                throw new IllegalStateException("pair block " + block + " received " + filled[0] + " and "
                        + filled[1] + " of its " + size + " rows");
            }
            for (int t = 0; paired && t < a.length; t++) {
                a[t] = (a[t] - b[t]) / SQRT2;
            }
            return new RowBlockData(block, size, a);
        }
    }

    @Override
    public DMatrixRMaj gram(double divisor) {
        boolean single = layout.blockCount(rows) == 1;
        double div = single ? divisor : 1.0;
        DMatrixRMaj sum = reduce((index, m, e) -> RowSource.blockGram(e, m, div), RowSource::fold);
        return single ? sum : RowSource.scaleGram(sum, divisor);
    }

    @Override
    public DMatrixRMaj gram(RowChunkMap f, double divisor) {
        Objects.requireNonNull(f, "map");
        boolean single = layout.blockCount(rows) == 1;
        double div = single ? divisor : 1.0;
        DMatrixRMaj sum = reduce((index, m, e) -> e.mappedGram(m, f, div), RowSource::fold);
        return single ? sum : RowSource.scaleGram(sum, divisor);
    }

    @Override
    public DMatrixRMaj gaussianProjection(int r, ChaCha20 generator) {
        int[] key = generator.keyCopy();
        long stream = generator.stream();
        RowLayout lay = layout;
        try {
            return reduce((index, m, e) -> e.gaussianProjection(m, r, ChaCha20.withKey(key, stream),
                    lay.blockStart(index) * r), RowSource::fold);
        } finally {
            Arrays.fill(key, 0);
        }
    }

    @Override
    public ExactColumnSums exactColumnSums() {
        int d = cols;
        return reduce((index, m, e) -> {
            ExactColumnSums s = ExactColumnSums.zeros(d);
            for (int b = 0; b < m.blockCount(); b++) { // a map may return several storage blocks (large d)
                double[] data = m.block(b);
                for (int k = 0; k < m.blockRowCount(b); k++) {
                    s.add(data, k * d);
                }
            }
            return s;
        }, (acc, p) -> {
            if (acc == null) {
                return p;
            }
            acc.addAll(p);
            return acc;
        });
    }

    @Override
    public long firstRejected(RowTest test) {
        Objects.requireNonNull(test, "test");
        RowLayout lay = layout;
        int d = cols;
        return reduce((index, m, e) -> {
            double[] row = new double[d];
            for (int k = 0; k < m.rows(); k++) {
                m.copyRow(k, row, 0);
                if (test.rejects(row)) {
                    return lay.blockStart(index) + k;
                }
            }
            return -1L;
        }, (acc, p) -> acc == null || acc < 0 ? p : acc);
    }

    /**
     * The per-row vector (the release's noise, e.g. StableMean's {@code g}) as a broadcast, destroyed as soon as the
     * pass returns: each executor fetches it once, and no copy outlives the pass (inside the closure it would travel
     * in the stage's task binary, which Spark removes only when the driver's garbage collector finds it unreachable).
     * The same arithmetic as in memory on the same slices, so the same bits.
     */
    @Override
    public <P> P reduce(double[] perRow, BlockValuesPass<P> pass, PartialFold<P> fold) {
        RowSource.checkPerRow(perRow, rows);
        Objects.requireNonNull(pass, "pass");
        Broadcast<double[]> values = JavaSparkContext.fromSparkContext(blocks.context()).broadcast(perRow);
        RowLayout lay = layout;
        try {
            return reduce((b, m, e) -> {
                int start = (int) lay.blockStart(b);
                return pass.apply(b, m, Arrays.copyOfRange(values.value(), start, start + m.rows()), e);
            }, fold);
        } finally {
            values.destroy();
        }
    }

    /** One pass: per-group partials on the executors, folded on the driver in group order. */
    @Override
    public <P> P reduce(BlockPass<P> pass, PartialFold<P> fold) {
        List<BlockMap> chain = maps;
        int d = cols;
        String eng = engine;
        RowLayout lay = layout;
        FlatMapFunction<Iterator<RowBlockData>, Tuple2<Integer, P>> task = it -> {
            List<RowBlockData> mine = new ArrayList<>();
            it.forEachRemaining(mine::add);
            return ExecutorEngines.sequential(() -> {
                ComputeEngine e = ExecutorEngines.get(eng);
                List<Tuple2<Integer, P>> out = new ArrayList<>();
                Integer group = null;
                P acc = null;
                for (RowBlockData b : mine) { // sorted by block index within the partition
                    RowBlockMatrix m = b.matrix(d);
                    for (BlockMap f : chain) {
                        m = f.apply(m, e);
                    }
                    P p = pass.apply(b.index, m, e);
                    int g = lay.groupOf(b.index);
                    if (group != null && g != group) {
                        out.add(new Tuple2<>(group, acc));
                        acc = null;
                    }
                    group = g;
                    acc = fold.apply(acc, p);
                }
                if (group != null) {
                    out.add(new Tuple2<>(group, acc));
                }
                return out;
            }).iterator();
        };
        List<Tuple2<Integer, P>> partials;
        try {
            partials = new ArrayList<>(blocks.mapPartitions(task).collect());
        } catch (Exception e) { // Spark rethrows task failures as the checked SparkException
            throw unwrap(e);
        }
        partials.sort(Comparator.comparing(Tuple2::_1));
        P total = null;
        for (int k = 0; k < partials.size(); k++) {
            if (partials.get(k)._1() != k) {
                throw new IllegalStateException("a pass returned group " + partials.get(k)._1() + " where group " + k
                        + " was expected");
            }
            total = fold.apply(total, partials.get(k)._2());
        }
        return total;
    }

    /** Cuts a sorted partition of (row, position) into pieces of blocks, checking every value. */
    private static final class Fragments implements
            org.apache.spark.api.java.function.PairFlatMapFunction<Iterator<Tuple2<Row, Long>>, Integer, RowBlockData> {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final int blockRows;
        private final List<String> names;

        Fragments(int d, int blockRows, List<String> names) {
            this.d = d;
            this.blockRows = blockRows;
            this.names = names;
        }

        @Override
        public Iterator<Tuple2<Integer, RowBlockData>> call(Iterator<Tuple2<Row, Long>> it) {
            List<Tuple2<Integer, RowBlockData>> out = new ArrayList<>();
            int block = -1;
            int first = 0;
            double[] buf = null;
            int count = 0;
            while (it.hasNext()) {
                Tuple2<Row, Long> t = it.next();
                long rank = t._2();
                int b = (int) (rank / blockRows);
                int within = (int) (rank - (long) b * blockRows);
                if (b != block || within != first + count) {
                    if (count > 0) {
                        out.add(fragment(block, first, count, buf));
                    }
                    block = b;
                    first = within;
                    count = 0;
                    buf = new double[Math.min(blockRows - within, 4096) * d];
                }
                if ((count + 1) * d > buf.length) {
                    buf = Arrays.copyOf(buf, Math.min((blockRows - first) * d, 2 * buf.length));
                }
                Row r = t._1();
                for (int j = 0; j < d; j++) {
                    if (r.isNullAt(j + 1)) {
                        throw new IllegalArgumentException("row " + (rank + 1) + " (in id order), column '"
                                + names.get(j) + "' is missing (null): every value must be present");
                    }
                    double v = r.getDouble(j + 1);
                    if (!Double.isFinite(v)) {
                        throw new IllegalArgumentException("row " + (rank + 1) + " (in id order), column '"
                                + names.get(j) + "' is not a finite number (NaN or infinite): every value must be"
                                + " finite");
                    }
                    buf[count * d + j] = v;
                }
                count++;
            }
            if (count > 0) {
                out.add(fragment(block, first, count, buf));
            }
            return out.iterator();
        }

        /** A piece of block {@code b} from row {@code first} within it; {@code index} carries the offset. */
        private Tuple2<Integer, RowBlockData> fragment(int b, int first, int count, double[] buf) {
            return new Tuple2<>(b, new RowBlockData(first, count, Arrays.copyOf(buf, count * d)));
        }
    }

    /** Joins the pieces of each block (sorted by block index) into whole blocks. */
    private static final class MergeFragments implements
            FlatMapFunction<Iterator<Tuple2<Integer, RowBlockData>>, RowBlockData> {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final int blockRows;
        private final long n;

        MergeFragments(int d, int blockRows, long n) {
            this.d = d;
            this.blockRows = blockRows;
            this.n = n;
        }

        @Override
        public Iterator<RowBlockData> call(Iterator<Tuple2<Integer, RowBlockData>> it) {
            List<RowBlockData> out = new ArrayList<>();
            int block = -1;
            double[] data = null;
            int filled = 0;
            while (it.hasNext()) {
                Tuple2<Integer, RowBlockData> t = it.next();
                int b = t._1();
                if (b != block) {
                    if (data != null) {
                        out.add(finish(block, data, filled));
                    }
                    block = b;
                    long size = Math.min(blockRows, n - (long) b * blockRows);
                    data = new double[(int) size * d];
                    filled = 0;
                }
                RowBlockData f = t._2();
                System.arraycopy(f.data, 0, data, f.index * d, f.rows * d); // f.index: the piece's first row
                filled += f.rows;
            }
            if (data != null) {
                out.add(finish(block, data, filled));
            }
            return out.iterator();
        }

        private RowBlockData finish(int block, double[] data, int filled) {
            int expected = data.length / d;
            if (filled != expected) {
                throw new IllegalStateException("block " + block + " received " + filled + " of its " + expected
                        + " rows");
            }
            return new RowBlockData(block, expected, data);
        }
    }

    /** Sends each block to the partition of its group (whole groups per partition, in group order). */
    static final class GroupPartitioner extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int blocksPerGroup;
        private final int groups;
        private final int partitions;

        GroupPartitioner(int blocksPerGroup, int groups, int partitions) {
            this.blocksPerGroup = blocksPerGroup;
            this.groups = groups;
            this.partitions = partitions;
        }

        @Override
        public int numPartitions() {
            return partitions;
        }

        @Override
        public int getPartition(Object key) {
            int g = (Integer) key / blocksPerGroup;
            return (int) ((long) g * partitions / groups);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof GroupPartitioner && ((GroupPartitioner) o).blocksPerGroup == blocksPerGroup
                    && ((GroupPartitioner) o).groups == groups && ((GroupPartitioner) o).partitions == partitions;
        }

        @Override
        public int hashCode() {
            return Objects.hash(blocksPerGroup, groups, partitions);
        }
    }
}
