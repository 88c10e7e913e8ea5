package org.dpgauss.secondmoment;

import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * Validation, scaling and norm clipping of the input rows ({@code ClipRow} of spec second-moment-estimation §2.1).
 * Clipping targets {@code r (1 - 4 (d + 2) u)} so that the true Euclidean norm of the computed row is {@code <= r}
 * despite the rounding of the norm and of the scaling ({@code u = 2^-53}); the sensitivity accounting of
 * {@link LevelSchedule} relies on it.
 */
final class RowBounds {

    private RowBounds() {
    }

    /** The clip target factor for dimension d. */
    static double safety(int d) {
        return 1 - 4.0 * (d + 2) * LevelSchedule.U;
    }

    /**
     * Rejects empty data and non-finite entries.
     *
     * @return n
     */
    static int checkData(RowBlockMatrix x) {
        Objects.requireNonNull(x, "x");
        if (x.rows() < 1) {
            throw new IllegalArgumentException("the data have no rows: a second moment needs n >= 1 (n is public"
                    + " and enters the noise scale)");
        }
        int d = x.cols();
        for (int b = 0; b < x.blockCount(); b++) {
            double[] blk = x.block(b);
            for (int k = 0; k < blk.length; k++) {
                if (!Double.isFinite(blk[k])) {
                    throw new IllegalArgumentException("row " + (x.blockStart(b) + k / d) + " (0-based), column "
                            + (k % d) + " is " + blk[k] + ": every entry must be finite (rows are never dropped,"
                            + " since n is public)");
                }
            }
        }
        return x.rows();
    }

    /**
     * Rejects (when {@code reject}) any row with norm above {@code radius}; the public-bound mode.
     */
    static void checkBound(RowBlockMatrix x, double radius) {
        int d = x.cols();
        double[] row = new double[d];
        for (int i = 0; i < x.rows(); i++) {
            x.copyRow(i, row, 0);
            double norm = norm(row);
            if (norm > radius) {
                throw new IllegalArgumentException("row " + i + " (0-based) has L2 norm " + norm + " > the public"
                        + " covering radius R=" + radius + ": the guarantee is stated for rows with ||x|| <= R;"
                        + " raise R, rescale the data, or clip to R explicitly (--clip R)");
            }
        }
    }

    /**
     * Returns a new matrix with every row multiplied by {@code scale} and then clipped to norm {@code radius}.
     *
     * @param clipFactors if not null (length n), receives each row's clip factor {@code c_i <= 1}
     */
    static RowBlockMatrix scaleAndClip(RowBlockMatrix x, double scale, double radius, double[] clipFactors) {
        int d = x.cols();
        RowBlockMatrix out = RowBlockMatrix.zeros(x.rows(), d);
        double[] row = new double[d];
        double target = radius * safety(d);
        for (int i = 0; i < x.rows(); i++) {
            x.copyRow(i, row, 0);
            for (int j = 0; j < d; j++) {
                row[j] *= scale;
            }
            double c = clip(row, radius, target);
            if (clipFactors != null) {
                clipFactors[i] = c;
            }
            out.setRow(i, row);
        }
        return out;
    }

    /**
     * Clips {@code row} in place: a row whose computed norm exceeds {@code target = radius * safety(d)} is scaled
     * to norm {@code target}, so its true norm is at most {@code radius}.
     *
     * @return the factor applied (1 when unchanged)
     */
    static double clip(double[] row, double radius, double target) {
        double norm = norm(row);
        if (norm <= target) {
            return 1.0;
        }
        double c = target / norm;
        for (int j = 0; j < row.length; j++) {
            row[j] *= c;
        }
        return c;
    }

    static double norm(double[] row) {
        double s = 0;
        for (double v : row) {
            s += v * v;
        }
        return Math.sqrt(s);
    }
}
