package org.dpgauss.secondmoment;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.L2Clip;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.RowChunkMap;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.RowSource;
import org.ejml.data.DMatrixRMaj;

/**
 * Norm bounds and norm clipping of the input rows ({@code ClipRow} of spec second-moment-estimation §2.1).
 * Clipping targets {@code r (1 - 4 (d + 2) u)} so that the true Euclidean norm of the computed row is {@code <= r}
 * despite the rounding of the norm and of the scaling ({@code u = 2^-53}); the sensitivity accounting of
 * {@link LevelSchedule} relies on it.
 *
 * <p>The clipping itself is {@link L2Clip}'s, the project's one clipping routine (issue 24, item 1).
 *
 * <p><b>Every finite input</b> (issue 14, finding 3). Norms are computed overflow- and underflow-safely: a row whose
 * largest entry lies outside {@code [2^-400, 2^400]} is first scaled by the power of two {@code 2^-e} of that entry
 * (exact), so a row of entries near {@code Double.MAX_VALUE} has a finite direction and a norm that is compared,
 * not squared. Rows are clipped in their original units: {@code ClipRow(s x, r)} is computed from {@code x} and
 * {@code s} without forming {@code s x} first when that product could overflow. On rows whose entries lie in
 * {@code [2^-400, 2^400]} (and {@code s x} as well) every result is bit-identical to the plain computation
 * {@code sqrt(sum x_j^2)}. No NaN or infinity can leave these methods for a finite input.
 */
final class RowBounds {

    /** Entries and products with magnitudes in [SAFE_LOW, SAFE_HIGH] square and sum without overflow/underflow. */
    private static final double SAFE_HIGH = 0x1p400;
    private static final double SAFE_LOW = 0x1p-400;

    private RowBounds() {
    }

    /** The clip target factor for dimension d. */
    static double safety(int d) {
        return 1 - 4.0 * (d + 2) * LevelSchedule.U;
    }

    /** {@link #scaleAndClip} as a row map. */
    static BlockMap scaleAndClipMap(double scale, double radius) {
        return new ScaleAndClip(scale, radius);
    }

    /**
     * Rows {@code x -> ClipRow(x, radius)} on their way into a Gram ({@link RowSource#gram(RowChunkMap, double)}):
     * the rows of {@code scaleAndClip(x, 1, radius)}, bit for bit ({@link #clipPlain} decides and scales as
     * {@link #clip} on the plain path), clipped in the engine's chunk instead of a copy of the data.
     */
    static RowChunkMap clipMap(double radius) {
        return new Clip(radius);
    }

    private static final class Clip implements RowChunkMap {
        private static final long serialVersionUID = 1L;
        private final double radius;

        Clip(double radius) {
            this.radius = radius;
        }

        @Override
        public DMatrixRMaj whitening() {
            return null;
        }

        @Override
        public void apply(double[] rows, int offset, int count, RowBlockMatrix source, int first) {
            int d = source.cols();
            double target = radius * safety(d);
            double[] row = null;
            for (int r = 0; r < count; r++) {
                int off = offset + r * d;
                if (!clipPlain(rows, off, d, target)) { // zero, tiny, huge or (whitened) non-finite: careful path
                    row = row == null ? new double[d] : row;
                    System.arraycopy(rows, off, row, 0, d);
                    scaleAndClipRow(row, 1.0, radius, target);
                    System.arraycopy(row, 0, rows, off, d);
                }
            }
        }
    }

    private static final class ScaleAndClip implements BlockMap {
        private static final long serialVersionUID = 1L;
        private final double scale;
        private final double radius;

        ScaleAndClip(double scale, double radius) {
            this.scale = scale;
            this.radius = radius;
        }

        @Override
        public RowBlockMatrix apply(RowBlockMatrix block, ComputeEngine engine) {
            // unscaled: the block itself when no row needs clipping (the same values, no copy; maps only read it)
            return scale == 1.0 ? clipOrShare(block, radius) : scaleAndClip(block, scale, radius);
        }
    }

    /**
     * Returns a new matrix whose row i is {@code ClipRow(scale * x_i, radius)}, computed in the original units of
     * {@code x_i} (see the class comment): finite for every finite input, true norm at most {@code radius}.
     *
     * @param scale a finite positive factor
     */
    static RowBlockMatrix scaleAndClip(RowBlockMatrix x, double scale, double radius) {
        int d = x.cols();
        RowBlockMatrix out = RowBlockMatrix.zeros(x.rows(), d);
        double[] row = new double[d];
        double target = radius * safety(d);
        int outRows = out.blockRows();
        for (int b = 0; b < x.blockCount(); b++) {
            double[] src = x.block(b);
            int count = x.blockRowCount(b);
            for (int r = 0; r < count; r++) {
                int i = x.blockStart(b) + r;
                int off = r * d;
                double[] dst = out.block(i / outRows);
                int dOff = (i % outRows) * d;
                // unit scale (the common case): the one clipping routine on the copied row, at every scale (the
                // same operations as scaleAndClipRow: a product by 1 is exact)
                if (scale == 1.0) {
                    System.arraycopy(src, off, dst, dOff, d);
                    L2Clip.clip(dst, dOff, d, target);
                    continue;
                }
                System.arraycopy(src, off, row, 0, d);
                scaleAndClipRow(row, scale, radius, target);
                System.arraycopy(row, 0, dst, dOff, d);
            }
        }
        return out;
    }

    /**
     * {@code ClipRow(x_i, radius)} for every row, for read-only use: x itself when no row would change (every row
     * has moderate entries and a computed norm within the clip target, so {@link #scaleAndClip} would copy it
     * verbatim), else {@code scaleAndClip(x, 1, radius)}. Saves the copy of the whole matrix in the common case.
     */
    static RowBlockMatrix clipOrShare(RowBlockMatrix x, double radius) {
        int d = x.cols();
        double target = radius * safety(d);
        for (int b = 0; b < x.blockCount(); b++) {
            double[] src = x.block(b);
            int count = x.blockRowCount(b);
            for (int r = 0; r < count; r++) {
                int off = r * d;
                double max = maxAbs(src, off, d);
                if (max == 0) {
                    continue; // a zero row is left as it is
                }
                if (!(max >= SAFE_LOW && max <= SAFE_HIGH) || plainNorm(src, off, d) > target) {
                    return scaleAndClip(x, 1.0, radius);
                }
            }
        }
        return x;
    }

    /**
     * In place: {@code row <- ClipRow(scale * row, radius)} with target {@code target = radius * safety(d)}.
     * When {@code scale * row} could overflow or underflow, the row is first reduced to its direction
     * {@code w = 2^-e row} (exact) and the decision is made on {@code scale * ||w|| * 2^e}; a clipped row is then
     * {@code w (target / ||w||)}, the same formula as {@link #clip} on a row of moderate entries.
     */
    static void scaleAndClipRow(double[] row, double scale, double radius, double target) {
        double max = maxAbs(row);
        if (max == 0) {
            return;
        }
        if (max >= SAFE_LOW && max <= SAFE_HIGH && max * scale >= SAFE_LOW && max * scale <= SAFE_HIGH) {
            for (int j = 0; j < row.length; j++) { // the plain path, bit-identical to the earlier code
                row[j] *= scale;
            }
            clip(row, radius, target);
            return;
        }
        int e = Math.getExponent(max);
        for (int j = 0; j < row.length; j++) {
            row[j] = Math.scalb(row[j], -e);
        }
        double nw = plainNorm(row); // in [1, 2 sqrt(d)): no overflow
        // nw * scale is a finite normal double for every scale in [2^-1000, 2^1000] (the callers' 1 and
        // 1/sqrt(lambda (1 - alpha))); the power of two is applied last, so the comparison with the target is exact
        // up to the one rounding of the product (+inf: certainly above the target; below the normal range: below
        // every target, which is at least a normal radius times safety)
        double scaledNorm = Math.scalb(nw * scale, e);
        if (scaledNorm > target) {
            L2Clip.ontoSphere(row, 0, row.length, target); // w (target / ||w||), tiny targets included
            return;
        }
        for (int j = 0; j < row.length; j++) { // the scaled row is bounded by about target: finite
            row[j] = Math.scalb(row[j], e) * scale;
        }
        clip(row, radius, target);
    }

    /**
     * Clips {@code row} (finite) in place: a row whose computed norm exceeds {@code target = radius * safety(d)}
     * is scaled to norm {@code target}, so its true norm is at most {@code radius}. Overflow-safe: a row whose
     * norm exceeds {@code Double.MAX_VALUE} is replaced by its direction times {@code target}.
     *
     * @return the factor applied (1 when unchanged; 0 when the norm overflowed)
     */
    static double clip(double[] row, double radius, double target) {
        return L2Clip.clip(row, 0, row.length, target); // the one clipping routine (issue 24)
    }

    /** {@link L2Clip#clipPlain}: {@link #clip} on a row in place on its plain path, faster; false if undecided. */
    static boolean clipPlain(double[] a, int off, int len, double target) {
        return L2Clip.clipPlain(a, off, len, target); // the one clipping routine (issue 24)
    }

    private static double plainNorm(double[] row) {
        return plainNorm(row, 0, row.length);
    }

    private static double plainNorm(double[] a, int off, int len) {
        double s = 0;
        for (int j = off; j < off + len; j++) {
            s += a[j] * a[j];
        }
        return Math.sqrt(s);
    }

    private static double maxAbs(double[] row) {
        return maxAbs(row, 0, row.length);
    }

    private static double maxAbs(double[] a, int off, int len) {
        double m = 0;
        for (int j = off; j < off + len; j++) {
            m = Math.max(m, Math.abs(a[j]));
        }
        return m;
    }
}
