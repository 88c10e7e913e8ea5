package org.dpgauss.mean.anisotropic;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSource;

/**
 * The statistics V of Algorithm 2 (spec anisotropic-mean-estimation §4.2 (11)) as one row pass:
 * {@code V_i^(j) = (1/(2l)) sum_r (X_i^(j,2r-1) - X_i^(j,2r))^2} for the groups j of 2l consecutive rows (positions
 * {@code 2lj .. 2lj+2l-1}, j &lt; m). A group inside one block is computed where the block is; the rows of a group
 * that straddles a block boundary travel to the caller, which computes it with the same arithmetic. Every group's
 * sum runs over its pairs in order, so V does not depend on the layout.
 */
final class GroupVariances {

    private GroupVariances() {
    }

    /**
     * @param rows the rows, at least {@code 2 l m} of them
     * @param ell l, half the group size
     * @param m the number of groups
     * @return V, m x d
     */
    static double[][] of(RowSource rows, int ell, int m) {
        int d = rows.cols();
        int size = 2 * ell;
        long limit = (long) size * m;
        if (rows.rows() < limit) {
            throw new IllegalArgumentException("V needs 2lm=" + limit + " rows, the source has " + rows.rows());
        }
        RowLayout layout = rows.layout();
        Partial all = rows.reduce((b, block, e) -> {
            Partial p = new Partial();
            long start = layout.blockStart(b);
            long end = Math.min(start + block.rows(), limit);
            if (start >= end) {
                return p;
            }
            for (long j = start / size; j * size < end; j++) {
                long first = j * size;
                if (first >= start && first + size <= end) {
                    p.groups.put((int) j, group(block, (int) (first - start), ell, d));
                } else {
                    for (long pos = Math.max(first, start); pos < Math.min(first + size, end); pos++) {
                        p.cut.put(pos, block.row((int) (pos - start)));
                    }
                }
            }
            return p;
        }, (acc, p) -> {
            if (acc == null) {
                return p;
            }
            acc.groups.putAll(p.groups);
            acc.cut.putAll(p.cut);
            return acc;
        });
        double[][] v = new double[m][];
        all.groups.forEach((j, row) -> v[j] = row);
        RowBlockMatrix straddling = RowBlockMatrix.zeros(size, d);
        int filled = 0; // rows of the current straddling group seen, in position order
        for (Map.Entry<Long, double[]> e : all.cut.entrySet()) {
            long pos = e.getKey();
            if (pos % size != filled) {
                throw new IllegalStateException("the pass returned group " + pos / size + " of V incomplete");
            }
            straddling.setRow(filled++, e.getValue());
            if (filled == size) {
                v[(int) (pos / size)] = group(straddling, 0, ell, d);
                filled = 0;
            }
        }
        for (int j = 0; j < m; j++) {
            if (v[j] == null) {
                throw new IllegalStateException("the pass returned no rows of group " + j + " of V");
            }
        }
        return v;
    }

    /**
     * One group's row of V: its l pairs added in order, then divided by 2l; an overflowing entry is clamped to
     * {@code Double.MAX_VALUE} (a function of the group's rows).
     *
     * @param x rows
     * @param first the group's first row in x
     * @param ell l
     * @param d the number of columns
     * @return {@code V^(j)}, d values
     */
    static double[] group(RowBlockMatrix x, int first, int ell, int d) {
        double[] v = new double[d];
        double[] a = new double[d];
        double[] b = new double[d];
        for (int r = 0; r < ell; r++) {
            x.copyRow(first + 2 * r, a, 0);
            x.copyRow(first + 2 * r + 1, b, 0);
            for (int i = 0; i < d; i++) {
                double diff = a[i] - b[i];
                v[i] += diff * diff;
            }
        }
        for (int i = 0; i < d; i++) {
            v[i] = Math.min(v[i] / (2 * ell), Double.MAX_VALUE);
        }
        return v;
    }

    /** The groups a block holds whole, and the rows (by position) of those it cuts. */
    private static final class Partial implements Serializable {
        private static final long serialVersionUID = 1L;
        final TreeMap<Integer, double[]> groups = new TreeMap<>();
        final TreeMap<Long, double[]> cut = new TreeMap<>();
    }
}
