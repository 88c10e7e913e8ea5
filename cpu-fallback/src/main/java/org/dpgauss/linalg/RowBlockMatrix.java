package org.dpgauss.linalg;

import java.util.Arrays;
import java.util.Objects;

/**
 * A dense row-major matrix of doubles stored as blocks of whole rows, so that {@code rows * cols}
 * may exceed the length of one Java array (and one device transfer).
 *
 * <p>Block {@code b} holds rows {@code [b * blockRows, min(rows, (b + 1) * blockRows))} contiguously,
 * row-major, in {@code block(b)}. Every primitive streams over blocks; none needs the whole matrix in
 * one array. The matrix is mutable (readers fill it, whitening writes a new one); share it read-only.
 */
public final class RowBlockMatrix {

    /** Default block budget: 2^23 doubles (64 MiB) per block. */
    public static final int DEFAULT_BLOCK_ELEMENTS = 1 << 23;

    private final int rows;
    private final int cols;
    private final int blockRows;
    private final double[][] blocks;

    private RowBlockMatrix(int rows, int cols, int blockRows) {
        if (rows < 0) {
            throw new IllegalArgumentException("rows=" + rows + " must be >= 0");
        }
        if (cols < 1) {
            throw new IllegalArgumentException("cols=" + cols + " must be >= 1");
        }
        if (blockRows < 1) {
            throw new IllegalArgumentException("blockRows=" + blockRows + " must be >= 1");
        }
        if ((long) blockRows * cols > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("blockRows*cols=" + ((long) blockRows * cols)
                    + " exceeds one Java array; use a smaller block");
        }
        this.rows = rows;
        this.cols = cols;
        this.blockRows = blockRows;
        int nb = rows == 0 ? 0 : (int) ((rows + (long) blockRows - 1) / blockRows);
        this.blocks = new double[nb][];
        for (int b = 0; b < nb; b++) {
            int start = b * blockRows;
            int count = Math.min(blockRows, rows - start);
            blocks[b] = new double[count * cols];
        }
    }

    /** A zero matrix with the default block size ({@value #DEFAULT_BLOCK_ELEMENTS} doubles per block). */
    public static RowBlockMatrix zeros(int rows, int cols) {
        return new RowBlockMatrix(rows, cols, defaultBlockRows(rows, cols));
    }

    /** A zero matrix whose blocks hold {@code blockRows} rows (tests use small blocks to cross boundaries). */
    public static RowBlockMatrix zeros(int rows, int cols, int blockRows) {
        return new RowBlockMatrix(rows, cols, blockRows);
    }

    /** Copies a rectangular {@code double[rows][cols]} array. */
    public static RowBlockMatrix of(double[][] data) {
        return of(data, defaultBlockRows(data.length, data.length == 0 ? 1 : data[0].length));
    }

    /** Copies a rectangular {@code double[rows][cols]} array into blocks of {@code blockRows} rows. */
    public static RowBlockMatrix of(double[][] data, int blockRows) {
        Objects.requireNonNull(data, "data");
        if (data.length == 0) {
            throw new IllegalArgumentException("data has no rows");
        }
        int cols = data[0].length;
        RowBlockMatrix m = new RowBlockMatrix(data.length, cols, blockRows);
        for (int i = 0; i < data.length; i++) {
            if (data[i].length != cols) {
                throw new IllegalArgumentException("row " + i + " has " + data[i].length
                        + " columns, expected " + cols);
            }
            m.setRow(i, data[i]);
        }
        return m;
    }

    static int defaultBlockRows(int rows, int cols) {
        int br = Math.max(1, DEFAULT_BLOCK_ELEMENTS / Math.max(1, cols));
        return Math.max(1, Math.min(br, Math.max(1, rows)));
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    /** Rows per block (the last block may hold fewer). */
    public int blockRows() {
        return blockRows;
    }

    public int blockCount() {
        return blocks.length;
    }

    /** First row of block {@code b}. */
    public int blockStart(int b) {
        return b * blockRows;
    }

    /** Number of rows in block {@code b}. */
    public int blockRowCount(int b) {
        return blocks[b].length / cols;
    }

    /** The backing row-major array of block {@code b} (not a copy). */
    public double[] block(int b) {
        return blocks[b];
    }

    public double get(int i, int j) {
        checkIndex(i, j);
        return blocks[i / blockRows][(i % blockRows) * cols + j];
    }

    public void set(int i, int j, double v) {
        checkIndex(i, j);
        blocks[i / blockRows][(i % blockRows) * cols + j] = v;
    }

    /** Copies row {@code i} into {@code dst[off .. off+cols)}. */
    public void copyRow(int i, double[] dst, int off) {
        checkIndex(i, 0);
        System.arraycopy(blocks[i / blockRows], (i % blockRows) * cols, dst, off, cols);
    }

    /** A fresh copy of row {@code i}. */
    public double[] row(int i) {
        double[] r = new double[cols];
        copyRow(i, r, 0);
        return r;
    }

    public void setRow(int i, double[] src) {
        if (src.length != cols) {
            throw new IllegalArgumentException("row has " + src.length + " values, expected " + cols);
        }
        checkIndex(i, 0);
        System.arraycopy(src, 0, blocks[i / blockRows], (i % blockRows) * cols, cols);
    }

    /** The rows listed in {@code idx}, in that order, as a new matrix. */
    public RowBlockMatrix selectRows(int[] idx) {
        RowBlockMatrix out = new RowBlockMatrix(idx.length, cols, defaultBlockRows(idx.length, cols));
        double[] buf = new double[cols];
        for (int k = 0; k < idx.length; k++) {
            copyRow(idx[k], buf, 0);
            out.setRow(k, buf);
        }
        return out;
    }

    /** A {@code double[rows][cols]} copy; only for small matrices (tests, JSON output). */
    public double[][] toArray() {
        double[][] a = new double[rows][];
        for (int i = 0; i < rows; i++) {
            a[i] = row(i);
        }
        return a;
    }

    /** Returns a deep copy with the same block layout. */
    public RowBlockMatrix copy() {
        RowBlockMatrix m = new RowBlockMatrix(rows, cols, blockRows);
        for (int b = 0; b < blocks.length; b++) {
            System.arraycopy(blocks[b], 0, m.blocks[b], 0, blocks[b].length);
        }
        return m;
    }

    /** Column means over all rows. */
    public double[] columnMeans() {
        double[] mu = new double[cols];
        for (double[] blk : blocks) {
            for (int k = 0; k < blk.length; k++) {
                mu[k % cols] += blk[k];
            }
        }
        for (int c = 0; c < cols; c++) {
            mu[c] /= rows;
        }
        return mu;
    }

    /** Total number of stored values, which may exceed {@link Integer#MAX_VALUE}. */
    public long size() {
        return (long) rows * cols;
    }

    private void checkIndex(int i, int j) {
        if (i < 0 || i >= rows || j < 0 || j >= cols) {
            throw new IndexOutOfBoundsException("(" + i + ", " + j + ") outside " + rows + " x " + cols);
        }
    }

    @Override
    public String toString() {
        return "RowBlockMatrix[" + rows + " x " + cols + ", " + blocks.length + " blocks of "
                + blockRows + " rows]";
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof RowBlockMatrix)) {
            return false;
        }
        RowBlockMatrix m = (RowBlockMatrix) o;
        if (m.rows != rows || m.cols != cols) {
            return false;
        }
        double[] a = new double[cols];
        double[] b = new double[cols];
        for (int i = 0; i < rows; i++) {
            copyRow(i, a, 0);
            m.copyRow(i, b, 0);
            if (!Arrays.equals(a, b)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = 31 * rows + cols;
        double[] a = new double[cols];
        for (int i = 0; i < rows; i++) {
            copyRow(i, a, 0);
            h = 31 * h + Arrays.hashCode(a);
        }
        return h;
    }
}
