package org.dpgauss.projection;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.RowSource;

/**
 * The public row-norm bound of spec ndis §6.1 ({@code ||x||_2 <= l} for every row), with a public floating-point
 * slack, and the row policy of the projection mechanisms: rows beyond the slack are scaled onto the ball of radius
 * {@code l} (spec §6.1 "Optional [X]"), with or without {@code clipRows} (issue 24, item 5: the domain is enforced
 * by construction, never by an error one neighbour triggers; {@code clipRows} now only says that the user expects
 * rows beyond l and changes the accuracy statement's wording). Nothing about how many rows were clipped leaves this
 * class: the count is a function of the data and has no place in a release.
 *
 * <p><b>Scale.</b> The decision compares a pairwise sum of squares with {@code l^2 (1 + 2^-40)}: l is admitted in
 * {@code [1e-100, 1e100]} ({@link #checkBound}), so {@code l^2} is a normal double; a row whose sum overflows is
 * beyond the bound (and is scaled from its direction, {@link #scaleOntoBall}), a row whose squares underflow is far
 * inside it. This is the one place that does not call {@link org.dpgauss.linalg.L2Clip}: the slack proof below needs
 * the pairwise sum's error bound for every d up to 2^31, tighter than the sequential sum's.
 *
 * <p><b>Slack (public, data-independent).</b> Rows normalised to the unit ball in floating point have norms like
 * {@code 1.0000000000000002}: a few ulps above the bound. A row is therefore accepted when its computed squared
 * norm is at most {@code l^2 (1 + 2^-40)} ({@link #SLACK}), and every guarantee is calibrated for the larger bound
 * {@code l' = l (1 + 2^-40)} ({@link #effectiveBound}), so the claim stays true for every accepted row. The value
 * 2^-40 is about 4000 ulps: far above what a normalisation produces (its squared norm is off by a relative
 * {@code ~d u}, {@code u = 2^-53}), and far below anything that changes the result (the ridge grows by a relative
 * {@code 2^-39}, i.e. {@code 2e-12}).
 *
 * <p><b>Why the accepted rows satisfy {@code ||x|| <= l'} exactly.</b> The squared norm is summed pairwise
 * (blocks of 8): for {@code d < 2^31} its relative error is at most {@code gamma_36 < 2^-47} (Higham, <i>Accuracy
 * and Stability of Numerical Algorithms</i>, §4.2; one more rounding per square), plus an absolute
 * {@code d 2^-1074} from squares that underflow, which is below {@code 2^-240 l^2} for the admitted range of l
 * ({@link #MIN_BOUND}). So an accepted row has {@code ||x||^2 <= l^2 (1 + 2^-40)(1 + 2^-46) <= l'^2}.
 */
final class BoundedRows {

    /** The public relative slack on the squared row norm accepted without clipping: {@code 2^-40}. */
    static final double SLACK = 0x1p-40;

    /** Smallest admitted row bound: l^2 must be a normal double with room for the underflow term. */
    static final double MIN_BOUND = 1e-100;

    /** Largest admitted row bound: l^2 and the ridge {@code l^2/p*} must be finite. */
    static final double MAX_BOUND = 1e100;

    /** Shrink factor applied after {@code l/||x||} so that a clipped row's norm is {@code <= l'} in floating point. */
    private static final double CLIP_SAFETY = 1 - 0x1p-50;

    private BoundedRows() {
    }

    /**
     * Checks a public row bound.
     *
     * @param rowBound the bound l
     * @throws IllegalArgumentException if it is not in {@code [1e-100, 1e100]}
     */
    static void checkBound(double rowBound) {
        Args.positive("rowBound", rowBound, "the public row-norm bound l must be a positive norm (spec ndis §6.1)");
        if (rowBound < MIN_BOUND || rowBound > MAX_BOUND) {
            throw new IllegalArgumentException("rowBound=" + rowBound + " is outside [1e-100, 1e100]: l^2 and the "
                    + "ridge l^2/p* must be normal floating-point numbers; rescale the data and the bound");
        }
    }

    /**
     * @param rowBound the public bound l
     * @return {@code l' = l (1 + 2^-40)}, rounded up: the bound every guarantee is calibrated for
     */
    static double effectiveBound(double rowBound) {
        return Math.nextUp(rowBound * (1 + SLACK));
    }

    /**
     * The rows a mechanism uses: the input itself when every row is within the bound and its slack, else the rows
     * beyond it scaled onto the ball of radius l. This is the mechanisms' domain map, not an input check: the
     * guarantee holds for every finite input (issue 24, item 5: a row above the bound is clipped, never an error
     * that one neighbour triggers; {@code dpgauss validate --row-bound} reports such rows, non-privately).
     *
     * @param data the rows (finite)
     * @param rowBound the public bound l
     * @return the rows to use
     */
    static RowSource clip(RowSource data, double rowBound) {
        return data.map(new ClipOntoBall(rowBound));
    }

    /** {@link #clip}, as a row map (finite rows). */
    private static final class ClipOntoBall implements BlockMap {
        private static final long serialVersionUID = 1L;
        private final double rowBound;

        ClipOntoBall(double rowBound) {
            this.rowBound = rowBound;
        }

        @Override
        public RowBlockMatrix apply(RowBlockMatrix block, ComputeEngine engine) {
            return clip(block, rowBound);
        }
    }

    /**
     * {@link #clip(RowSource, double)} on rows in memory: a copy with the rows beyond the bound (and its slack)
     * scaled onto the ball, or the input itself when none is.
     *
     * @param data the rows; may be null or empty (then null)
     * @param rowBound the public bound l
     * @return the rows to use
     * @throws IllegalArgumentException if an entry is not finite, naming its row and column, never the value
     */
    static RowBlockMatrix clip(RowBlockMatrix data, double rowBound) {
        if (data == null || data.rows() == 0) {
            return null;
        }
        double limit = rowBound * rowBound * (1 + SLACK);
        int d = data.cols();
        RowBlockMatrix out = null;
        double[] row = new double[d];
        for (int i = 0; i < data.rows(); i++) {
            data.copyRow(i, row, 0);
            for (int j = 0; j < d; j++) {
                if (!Double.isFinite(row[j])) {
                    throw new IllegalArgumentException("row " + (i + 1) + ", column " + (j + 1) + " is not a finite "
                            + "number (NaN or infinite): every value must be finite");
                }
            }
            if (sumOfSquares(row, 0, d) <= limit) { // l^2 is normal (l in [1e-100, 1e100]): no overflow
                continue;
            }
            if (out == null) {
                out = data.copy();
            }
            scaleOntoBall(row, rowBound);
            out.setRow(i, row);
        }
        return out == null ? data : out;
    }

    /** Scales {@code row} (non-zero, finite) to norm {@code l (1 - 2^-50)}, overflow- and underflow-safe. */
    private static void scaleOntoBall(double[] row, double rowBound) {
        double m = 0;
        for (double v : row) {
            m = Math.max(m, Math.abs(v));
        }
        for (int j = 0; j < row.length; j++) {
            row[j] /= m; // in [-1, 1]
        }
        double f = rowBound / Math.sqrt(sumOfSquares(row, 0, row.length)) * CLIP_SAFETY;
        for (int j = 0; j < row.length; j++) {
            row[j] *= f;
        }
    }

    /** Pairwise sum of {@code x_j^2} over {@code [from, to)}, recursive below 8 terms (error bound: class comment). */
    static double sumOfSquares(double[] x, int from, int to) {
        if (to - from <= 8) {
            double s = 0;
            for (int j = from; j < to; j++) {
                s += x[j] * x[j];
            }
            return s;
        }
        int mid = (from + to) >>> 1;
        return sumOfSquares(x, from, mid) + sumOfSquares(x, mid, to);
    }
}
