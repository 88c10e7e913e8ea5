package org.dpgauss.release;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * The sensitive data a session releases statistics of: n rows of d finite doubles, validated when the dataset is
 * made, so that no mechanism meets a malformed value after it has started reading. Error messages name the row,
 * the column and the rule, never the value (an exception may end up in a service's log).
 */
public final class Dataset {

    private final RowBlockMatrix rows;

    private Dataset(RowBlockMatrix rows) {
        this.rows = rows;
    }

    /**
     * @param rows the data, one array per row (copied)
     * @return the dataset
     * @throws IllegalArgumentException naming the first row/column that is missing, ragged or not finite
     */
    public static Dataset of(double[][] rows) {
        Objects.requireNonNull(rows, "rows");
        if (rows.length == 0) {
            throw new IllegalArgumentException("the dataset has no rows: a release needs at least one");
        }
        if (rows[0] == null || rows[0].length == 0) {
            throw new IllegalArgumentException("row 1 has no columns: every row needs at least one value");
        }
        int d = rows[0].length;
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] == null) {
                throw new IllegalArgumentException("row " + (i + 1) + " is missing (null)");
            }
            if (rows[i].length != d) {
                throw new IllegalArgumentException("row " + (i + 1) + " has " + rows[i].length + " columns but row 1"
                        + " has " + d + ": every row needs the same number of columns");
            }
        }
        RowBlockMatrix m = RowBlockMatrix.of(rows);
        checkFinite(m);
        return new Dataset(m);
    }

    /**
     * @param rows the data (not copied: do not modify it while a release runs)
     * @return the dataset
     * @throws IllegalArgumentException naming the first cell that is not finite
     */
    public static Dataset of(RowBlockMatrix rows) {
        checkNotEmpty(rows);
        checkFinite(rows);
        return new Dataset(rows);
    }

    /**
     * Reads the dataset from a {@code .csv} or {@code .npy} file ({@link DataReader#read}). The readers reject
     * every value that is not finite as they parse it, naming the file, the row and the column, so the rows are not
     * scanned a second time (at 1e5 x 100 that scan is a pass over 80 MB).
     *
     * @param path the file
     * @return the dataset
     * @throws IOException as {@link DataReader#read} (a {@link org.dpgauss.io.DataFormatException} for a value
     *     that is not finite)
     * @throws IllegalArgumentException if the file holds no rows or no columns
     */
    public static Dataset read(Path path) throws IOException {
        RowBlockMatrix rows = DataReader.read(path);
        checkNotEmpty(rows);
        return new Dataset(rows);
    }

    private static void checkNotEmpty(RowBlockMatrix rows) {
        Objects.requireNonNull(rows, "rows");
        if (rows.rows() == 0 || rows.cols() == 0) {
            throw new IllegalArgumentException("the dataset is empty (" + rows.rows() + " x " + rows.cols()
                    + "): a release needs at least one row and one column");
        }
    }

    private static void checkFinite(RowBlockMatrix m) {
        int d = m.cols();
        for (int b = 0; b < m.blockCount(); b++) {
            double[] block = m.block(b);
            int len = m.blockRowCount(b) * d;
            if (allFinite(block, len)) {
                continue;
            }
            for (int k = 0; k < len; k++) {
                if (!Double.isFinite(block[k])) {
                    int row = m.blockStart(b) + k / d;
                    throw new IllegalArgumentException("row " + (row + 1) + ", column " + (k % d + 1)
                            + " is not a finite number (NaN or infinite): every value must be finite");
                }
            }
        }
    }

    /**
     * Whether {@code v[0, len)} is finite: x * 0 is (signed) zero for finite x and NaN for an infinity or NaN, so
     * four independent sums of it scan without a branch per entry (a whole 1e5 x 100 dataset is read once per
     * release); only a block that fails is scanned again for the first cell.
     */
    private static boolean allFinite(double[] v, int len) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int k4 = len & ~3;
        for (int k = 0; k < k4; k += 4) {
            s0 += v[k] * 0.0;
            s1 += v[k + 1] * 0.0;
            s2 += v[k + 2] * 0.0;
            s3 += v[k + 3] * 0.0;
        }
        for (int k = k4; k < len; k++) {
            s0 += v[k] * 0.0;
        }
        return s0 + s1 + s2 + s3 == 0.0;
    }

    /** @return the rows; private data, for mechanisms */
    public RowBlockMatrix matrix() {
        return rows;
    }

    /** @return the number of columns d (public: the schema) */
    public int dimension() {
        return rows.cols();
    }

    /**
     * @return the number of rows n; private under add/remove neighbours, where only mechanisms may use it
     */
    public int size() {
        return rows.rows();
    }
}
