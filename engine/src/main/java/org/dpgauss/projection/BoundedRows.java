package org.dpgauss.projection;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.L2Clip;
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
 * <p><b>Scale.</b> Rows are clipped by {@link L2Clip}, the project's one clipping routine (issue 24, item 1): the
 * computed norm (power-of-two scaled outside {@code [2^-400, 2^400]}, so nothing overflows or underflows) is
 * compared with the target, never a squared norm with a squared bound.
 *
 * <p><b>Slack (public, data-independent).</b> Rows normalised to the unit ball in floating point have norms like
 * {@code 1.0000000000000002}: a few ulps above the bound. Every guarantee is therefore calibrated for the larger
 * bound {@code l' = l (1 + 2^-40)} ({@link #SLACK}, {@link #effectiveBound}), and rows are clipped to the target
 * {@code l' (1 - 4 (d + 2) u)} ({@link #target}), which is above l for {@code d <= 2000}: such rows are left as
 * they are. The value 2^-40 is about 4000 ulps: far above what a normalisation produces (its norm is off by a
 * relative {@code ~d u}, {@code u = 2^-53}), and far below anything that changes the result (the ridge grows by a
 * relative {@code 2^-39}, i.e. {@code 2e-12}). For larger d the target is below l by a relative {@code 4 (d + 2) u}
 * at most (4e-10 at d = 1e6): such rows are shortened by that much, which changes nothing a release can show.
 *
 * <p><b>Why every row used satisfies {@code ||x|| <= l'} exactly.</b> The computed norm of a row errs by a relative
 * {@code (d + 2) u} at most (Higham, <i>Accuracy and Stability of Numerical Algorithms</i>, §3.1 and §4.2; the
 * squares of a plain-range row that underflow add an absolute {@code d 2^-1074}, far below {@code 2^-200 l^2} for
 * the admitted {@code l >= 1e-100}), so a row left unchanged has a true norm at most
 * {@code l' (1 - 4 (d + 2) u) / (1 - (d + 2) u) <= l'}, and a clipped row ({@link L2Clip}: true norm at most
 * {@code target (1 + (d + 2) u)}) too.
 */
final class BoundedRows {

    /** The public relative slack of the calibrated bound {@code l' = l (1 + 2^-40)}. */
    static final double SLACK = 0x1p-40;

    /** Smallest admitted row bound: l^2 must be a normal double with room for the underflow term. */
    static final double MIN_BOUND = 1e-100;

    /** Largest admitted row bound: l^2 and the ridge {@code l^2/p*} must be finite. */
    static final double MAX_BOUND = 1e100;

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
        int d = data.cols();
        double target = target(rowBound, d);
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
            // the one scale-safe clipping routine: the norm compared with the target, never squared (issue 24)
            if (L2Clip.clip(row, 0, d, target) == 1.0) {
                continue;
            }
            if (out == null) {
                out = data.copy();
            }
            out.setRow(i, row);
        }
        return out == null ? data : out;
    }

    /**
     * The clip target for rows of length d: {@code l' (1 - 4 (d + 2) u)} ({@link L2Clip#safeTarget}), so that every
     * row the clip leaves unchanged or produces has a true norm at most {@code l'} (class comment).
     *
     * @param rowBound the public bound l
     * @param d the row length
     * @return the target
     */
    static double target(double rowBound, int d) {
        return L2Clip.safeTarget(effectiveBound(rowBound), d);
    }
}
