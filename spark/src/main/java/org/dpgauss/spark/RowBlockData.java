package org.dpgauss.spark;

import java.io.Serializable;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * One block of a {@link org.dpgauss.rows.RowLayout} as cached by Spark: its index and its rows, dense and
 * row-major, decoded once when the session is opened. Private data: never logged ({@link #toString} names only
 * the shape).
 */
final class RowBlockData implements Serializable {

    private static final long serialVersionUID = 1L;

    final int index;
    final int rows;
    final double[] data;

    RowBlockData(int index, int rows, double[] data) {
        this.index = index;
        this.rows = rows;
        this.data = data;
    }

    /** @return the rows as a fresh one-block matrix (a copy: maps may not modify the cached rows) */
    RowBlockMatrix matrix(int d) {
        RowBlockMatrix m = RowBlockMatrix.zeros(rows, d, Math.max(1, rows));
        if (rows > 0) {
            System.arraycopy(data, 0, m.block(0), 0, rows * d);
        }
        return m;
    }

    @Override
    public String toString() {
        return "block " + index + " (" + rows + " rows)";
    }
}
