package org.dpgauss.io;

import java.util.ArrayList;
import java.util.List;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * A growable store of rows of a fixed width, for readers that learn the row count only at the
 * end (CSV). Rows go into a list of chunks whose size doubles from small up to one
 * {@link RowBlockMatrix} block, so a tiny file costs little and a large one never needs a single
 * huge array or the repeated copying of an {@code ArrayList}-style growth. {@link #toMatrix}
 * copies into the final matrix and drops each chunk once copied; the peak is about twice the
 * data (the chunks plus the matrix, which allocates all its blocks up front).
 *
 * <p>Usage per row: {@code int off = beginRow(); fill chunk()[off .. off+cols); endRow();}.
 */
final class RowAccumulator {

    private static final int FIRST_CHUNK_ROWS = 256;

    private final int cols;
    private final int maxChunkRows;
    private final List<double[]> chunks = new ArrayList<>();
    private double[] current;
    private int usedInCurrent;
    private long rows;

    RowAccumulator(int cols) {
        if (cols < 1) {
            throw new IllegalArgumentException("cols=" + cols + " must be >= 1");
        }
        this.cols = cols;
        this.maxChunkRows = Math.max(1, RowBlockMatrix.DEFAULT_BLOCK_ELEMENTS / cols);
    }

    int cols() {
        return cols;
    }

    long rows() {
        return rows;
    }

    /** Makes room for one more row; returns its offset in {@link #chunk()}. */
    int beginRow() {
        if (current == null || usedInCurrent == current.length) {
            int chunkRows = current == null
                    ? Math.min(FIRST_CHUNK_ROWS, maxChunkRows)
                    : (int) Math.min((long) maxChunkRows, 2L * (current.length / cols));
            current = new double[chunkRows * cols];
            chunks.add(current);
            usedInCurrent = 0;
        }
        return usedInCurrent;
    }

    /** The chunk that the row begun last lives in. */
    double[] chunk() {
        return current;
    }

    /** Commits the row begun last. */
    void endRow() {
        usedInCurrent += cols;
        rows++;
    }

    /**
     * Moves the rows into a new matrix ({@code blockRows <= 0}: the default layout). The
     * accumulator is empty afterwards.
     */
    RowBlockMatrix toMatrix(int blockRows) {
        if (rows > Integer.MAX_VALUE) {
            throw new IllegalStateException(rows + " rows exceed a RowBlockMatrix");
        }
        int n = (int) rows;
        RowBlockMatrix m = blockRows > 0
                ? RowBlockMatrix.zeros(n, cols, blockRows)
                : RowBlockMatrix.zeros(n, cols);
        int b = 0;
        int boff = 0;
        for (int c = 0; c < chunks.size(); c++) {
            double[] src = chunks.get(c);
            int len = src == current ? usedInCurrent : src.length;
            int soff = 0;
            while (soff < len) {
                double[] dst = m.block(b);
                int k = Math.min(len - soff, dst.length - boff);
                System.arraycopy(src, soff, dst, boff, k);
                soff += k;
                boff += k;
                if (boff == dst.length) {
                    b++;
                    boff = 0;
                }
            }
            chunks.set(c, null);
        }
        chunks.clear();
        current = null;
        usedInCurrent = 0;
        rows = 0;
        return m;
    }
}
