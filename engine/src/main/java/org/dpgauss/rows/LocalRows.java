package org.dpgauss.rows;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.RowChunkMap;
import org.dpgauss.random.ChaCha20;
import org.ejml.data.DMatrixRMaj;

/**
 * Rows held in memory, in their row order, as blocks of a {@link RowLayout}. Transformations are applied at once
 * (block by block); reductions follow the layout's fixed order. With a single block the rows are not copied and
 * every pass is the engine's primitive on the whole matrix. Immutable (the blocks are not modified after they are
 * made).
 */
public final class LocalRows implements RowSource {

    private final RowBlockMatrix[] blocks;
    private final long rows;
    private final int cols;
    private final RowLayout layout;
    private final ComputeEngine engine;

    private LocalRows(RowBlockMatrix[] blocks, long rows, int cols, RowLayout layout, ComputeEngine engine) {
        this.blocks = blocks;
        this.rows = rows;
        this.cols = cols;
        this.layout = layout;
        this.engine = engine;
    }

    /**
     * @param x the rows (finite; not copied when they form one block: do not modify them while a release runs)
     * @param engine the engine every pass uses
     * @return the rows in the default layout for their dimension
     */
    public static LocalRows of(RowBlockMatrix x, ComputeEngine engine) {
        return of(x, engine, RowLayout.forDimension(Objects.requireNonNull(x, "rows").cols()));
    }

    /**
     * @param x the rows (finite; not copied when they form one block)
     * @param engine the engine every pass uses
     * @param layout the layout
     * @return the rows
     */
    public static LocalRows of(RowBlockMatrix x, ComputeEngine engine, RowLayout layout) {
        Objects.requireNonNull(x, "rows");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(layout, "layout");
        int n = x.rows();
        int d = x.cols();
        int nb = layout.blockCount(n);
        RowBlockMatrix[] blocks;
        if (nb <= 1) {
            blocks = new RowBlockMatrix[] {x};
        } else {
            blocks = new RowBlockMatrix[nb];
            double[] row = new double[d];
            for (int b = 0; b < nb; b++) {
                int start = (int) layout.blockStart(b);
                int count = Math.min(layout.blockRows(), n - start);
                RowBlockMatrix m = RowBlockMatrix.zeros(count, d, count);
                for (int k = 0; k < count; k++) {
                    x.copyRow(start + k, row, 0);
                    m.setRow(k, row);
                }
                blocks[b] = m;
            }
        }
        return new LocalRows(blocks, n, d, layout, engine);
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

    /** @return the engine every pass uses */
    public ComputeEngine engine() {
        return engine;
    }

    /** @return the rows as one matrix (a copy when they span several blocks) */
    public RowBlockMatrix matrix() {
        if (blocks.length == 1) {
            return blocks[0];
        }
        RowBlockMatrix out = RowBlockMatrix.zeros((int) rows, cols);
        double[] row = new double[cols];
        int i = 0;
        for (RowBlockMatrix b : blocks) {
            for (int k = 0; k < b.rows(); k++) {
                b.copyRow(k, row, 0);
                out.setRow(i++, row);
            }
        }
        return out;
    }

    @Override
    public LocalRows map(BlockMap f) {
        return map(f, cols);
    }

    @Override
    public LocalRows map(BlockMap f, int to) {
        Objects.requireNonNull(f, "map");
        if (to < 1) {
            throw new IllegalArgumentException("a row map to " + to + " columns: at least 1 is needed");
        }
        RowBlockMatrix[] out = new RowBlockMatrix[blocks.length];
        for (int b = 0; b < blocks.length; b++) {
            out[b] = f.apply(blocks[b], engine);
            if (out[b].rows() != blocks[b].rows() || out[b].cols() != to) {
                throw new IllegalStateException("a row map gave block " + b + " another shape than "
                        + blocks[b].rows() + " x " + to);
            }
        }
        return new LocalRows(out, rows, to, layout, engine);
    }

    @Override
    public DMatrixRMaj gram(double divisor) {
        if (blocks.length == 1) {
            return RowSource.blockGram(engine, blocks[0], divisor);
        }
        DMatrixRMaj total = null;
        DMatrixRMaj group = null;
        for (int b = 0; b < blocks.length; b++) {
            group = RowSource.fold(group, RowSource.blockGram(engine, blocks[b], 1.0));
            if (b == blocks.length - 1 || layout.groupOf(b + 1) != layout.groupOf(b)) {
                total = RowSource.fold(total, group);
                group = null;
            }
        }
        return RowSource.scaleGram(total, divisor);
    }

    @Override
    public DMatrixRMaj gram(RowChunkMap f, double divisor) {
        Objects.requireNonNull(f, "map");
        if (blocks.length == 1) {
            return engine.mappedGram(blocks[0], f, divisor);
        }
        DMatrixRMaj total = null;
        DMatrixRMaj group = null;
        for (int b = 0; b < blocks.length; b++) {
            group = RowSource.fold(group, engine.mappedGram(blocks[b], f, 1.0));
            if (b == blocks.length - 1 || layout.groupOf(b + 1) != layout.groupOf(b)) {
                total = RowSource.fold(total, group);
                group = null;
            }
        }
        return RowSource.scaleGram(total, divisor);
    }

    @Override
    public DMatrixRMaj gaussianProjection(int r, ChaCha20 generator) {
        if (blocks.length == 1) {
            return engine.gaussianProjection(blocks[0], r, generator, 0L);
        }
        DMatrixRMaj total = null;
        DMatrixRMaj group = null;
        for (int b = 0; b < blocks.length; b++) {
            group = RowSource.fold(group, engine.gaussianProjection(blocks[b], r, generator, layout.blockStart(b) * r));
            if (b == blocks.length - 1 || layout.groupOf(b + 1) != layout.groupOf(b)) {
                total = RowSource.fold(total, group);
                group = null;
            }
        }
        return total;
    }

    @Override
    public ExactColumnSums exactColumnSums() {
        ExactColumnSums s = ExactColumnSums.zeros(cols);
        for (RowBlockMatrix b : blocks) {
            for (int k = 0; k < b.blockCount(); k++) {
                double[] data = b.block(k);
                int count = b.blockRowCount(k);
                for (int r = 0; r < count; r++) {
                    s.add(data, r * cols);
                }
            }
        }
        return s;
    }

    @Override
    public long firstRejected(RowTest test) {
        Objects.requireNonNull(test, "test");
        double[] row = new double[cols];
        long i = 0;
        for (RowBlockMatrix b : blocks) {
            for (int k = 0; k < b.rows(); k++, i++) {
                b.copyRow(k, row, 0);
                if (test.rejects(row)) {
                    return i;
                }
            }
        }
        return -1;
    }

    @Override
    public <P> P reduce(BlockPass<P> pass, PartialFold<P> fold) {
        Objects.requireNonNull(pass, "pass");
        Objects.requireNonNull(fold, "fold");
        P total = null;
        P group = null;
        for (int b = 0; b < blocks.length; b++) {
            group = fold.apply(group, pass.apply(b, blocks[b], engine));
            if (b == blocks.length - 1 || layout.groupOf(b + 1) != layout.groupOf(b)) {
                total = fold.apply(total, group);
                group = null;
            }
        }
        return total;
    }

    @Override
    public LocalRows pairs(long from, long to) {
        RowSource.checkRange(from, to, rows, 2);
        RowBlockMatrix x = matrix();
        int f = (int) from;
        int m = (int) ((to - from) / 2);
        RowBlockMatrix y = RowBlockMatrix.zeros(m, cols);
        double[] a = new double[cols];
        double[] b = new double[cols];
        for (int i = 0; i < m; i++) {
            x.copyRow(f + i, a, 0);
            x.copyRow(f + i + m, b, 0);
            for (int j = 0; j < cols; j++) {
                a[j] = (a[j] - b[j]) / SQRT2;
            }
            y.setRow(i, a);
        }
        return of(y, engine, layout);
    }

    @Override
    public int[] neighbourCounts(double radius) {
        if (blocks.length == 1) {
            return engine.neighbourCounts(blocks[0], radius);
        }
        int[][] c = new int[blocks.length][];
        for (int b = 0; b < blocks.length; b++) {
            c[b] = engine.neighbourCounts(blocks[b], radius);
        }
        for (int a = 0; a < blocks.length; a++) {
            for (int b = a + 1; b < blocks.length; b++) {
                RowSource.crossCounts(blocks[a], blocks[b], radius, c[a], c[b]);
            }
        }
        int[] out = new int[(int) rows];
        for (int b = 0; b < blocks.length; b++) {
            System.arraycopy(c[b], 0, out, (int) layout.blockStart(b), c[b].length);
        }
        return out;
    }

    @Override
    public LocalRows slice(long from, long to) {
        RowSource.checkRange(from, to, rows, 1);
        int[] idx = new int[(int) (to - from)];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = (int) from + i;
        }
        return of(matrix().selectRows(idx), engine, layout);
    }

    @Override
    public LocalRows select(int[] positions, RowLayout to) {
        Objects.requireNonNull(to, "layout");
        RowSource.selectionTargets(positions, rows); // checks
        return of(matrix().selectRows(positions.clone()), engine, to);
    }

    @Override
    public LocalRows columns(int[] selected) {
        int[] sel = RowSource.checkColumns(selected, cols);
        RowBlockMatrix[] out = new RowBlockMatrix[blocks.length];
        double[] row = new double[cols];
        double[] sub = new double[sel.length];
        for (int b = 0; b < blocks.length; b++) {
            out[b] = RowBlockMatrix.zeros(blocks[b].rows(), sel.length);
            for (int r = 0; r < blocks[b].rows(); r++) {
                blocks[b].copyRow(r, row, 0);
                for (int c = 0; c < sel.length; c++) {
                    sub[c] = row[sel[c]];
                }
                out[b].setRow(r, sub);
            }
        }
        return new LocalRows(out, rows, sel.length, layout, engine);
    }

    @Override
    public DMatrixRMaj[] groupGrams(int[] order, int groupSize) {
        RowSource.checkGroups(order, groupSize, rows);
        RowBlockMatrix x = matrix();
        DMatrixRMaj[] out = new DMatrixRMaj[order.length / groupSize];
        for (int t = 0; t < out.length; t++) {
            out[t] = engine.weightedGram(x, java.util.Arrays.copyOfRange(order, t * groupSize, (t + 1) * groupSize),
                    null, groupSize);
        }
        return out;
    }

    /** The divisor of a paired difference (the same value as StableCov's). */
    private static final double SQRT2 = Math.sqrt(2.0);
}
