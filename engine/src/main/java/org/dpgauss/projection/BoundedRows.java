package org.dpgauss.projection;

import org.dpgauss.linalg.RowBlockMatrix;

/**
 * The public row-norm bound of spec ndis §6.1: every row must satisfy {@code ||x||_2 <= l}. Rows above it are
 * rejected (the error names the first, 0-based) or, when clipping is enabled, scaled onto the ball of radius
 * {@code l} (spec §6.1 "Optional [X]"). Non-finite entries are always rejected.
 *
 * @param data the rows to use (the input itself, or a clipped copy); null when the input has no rows
 * @param clipped how many rows were scaled down
 */
record BoundedRows(RowBlockMatrix data, int clipped) {

    /** Shrink factor applied after {@code l/||x||} so the clipped squared norm is {@code <= l^2} in floating point. */
    private static final double CLIP_SAFETY = 1 - 0x1p-50;

    static BoundedRows check(RowBlockMatrix data, double rowBound, boolean clip) {
        if (data == null || data.rows() == 0) {
            return new BoundedRows(null, 0);
        }
        double bound2 = rowBound * rowBound;
        int d = data.cols();
        RowBlockMatrix out = null;
        int clipped = 0;
        double[] row = new double[d];
        for (int i = 0; i < data.rows(); i++) {
            data.copyRow(i, row, 0);
            double ss = 0;
            for (int j = 0; j < d; j++) {
                if (!Double.isFinite(row[j])) {
                    throw new IllegalArgumentException("row " + i + " (0-based), column " + j + " is " + row[j]
                            + ": every entry must be finite");
                }
                ss += row[j] * row[j];
            }
            if (ss <= bound2) {
                continue;
            }
            if (!clip) {
                throw new IllegalArgumentException("row " + i + " (0-based) has L2 norm " + Math.sqrt(ss)
                        + " > the public row bound l=" + rowBound + ": the guarantee assumes ||x|| <= l for every "
                        + "row (spec ndis §6.1); rescale the data, raise l, or clip explicitly (--clip-rows)");
            }
            if (out == null) {
                out = data.copy();
            }
            double f = rowBound / Math.sqrt(ss) * CLIP_SAFETY;
            for (int j = 0; j < d; j++) {
                row[j] *= f;
            }
            out.setRow(i, row);
            clipped++;
        }
        return new BoundedRows(out == null ? data : out, clipped);
    }
}
