package org.dpgauss.cpu;

import org.dpgauss.linalg.RowBlockMatrix;

/**
 * A basis in which no row of a LargestGoodSubset set swamps the others (spec unbounded-gaussian-sampling §3.3;
 * issue 24, item 3). The norms {@code y_i^T A^{-1} y_i} and whether A is singular do not change under any
 * invertible change of basis {@code y -> T y} applied to every row, but in floating point the Gram of a set in
 * which one row holds nearly all of a coordinate's total has lost the other rows: one row at 1e10 among rows of
 * size 1 makes the Gram numerically rank one although in exact arithmetic it is non-singular.
 *
 * <p>{@link CertifiedViolators} removes such a row whenever its share exceeds lambda/m (its norm then exceeds
 * lambda whatever A is), which is always the case at the sizes the stability lemmas assume (lambda/m below
 * 1/(16k)). When lambda is a large fraction of m (small, uncertified sizes, or the top thresholds of the ladder
 * there) a row holding most of a coordinate's total can legitimately stay (its norm is at most m). When a set is
 * swamped (in some coordinate its four largest entries hold all but {@link #SWAMP} of the sum of squares),
 * {@link #deflate} returns its rows in a rotated basis: each row holding more than {@link #SHARE} of a
 * coordinate's total (over the rows not yet handled, in the coordinates not yet owned), one at a time,
 * is reflected (Householder) onto a coordinate of its own and its remaining coordinates are set to exact zeros;
 * every other row is reflected with it. The Gram of the rotated rows then holds the dominant rows only in their
 * own leading coordinates and the other rows, unswamped, in the trailing ones; the Cholesky factor takes the
 * dominant directions first, so the trailing pivots are those of the other rows projected off the dominant
 * directions - exactly the rank question "do the rows span R^d" - and the per-column singularity test of
 * {@link org.dpgauss.linalg.CholeskyResult} no longer depends on how large a dominant row is. A row whose
 * reflected remainder is at rounding level of its own norm ({@code 16 d 2^-52}: a copy of a dominant row, at any
 * scale) lies in the span of the dominant rows and its remainder is set to zero. Finally every column is scaled by
 * a power of two so that its largest entry is below 1 (exact; the norms and the per-column test are unchanged), so
 * rows up to the largest finite double never overflow the Gram.
 *
 * <p>The basis depends only on the rows of the set, so the decision for a set never depends on a row outside it.
 */
public final class DominantRows {

    /**
     * A set is swamped when in some coordinate its {@code Columns.TOP} = 4 largest entries hold more than
     * {@code 1 - SWAMP} of the sum of squares: the other rows then keep fewer than three of their digits in the
     * Gram's diagonal entry. Only then is the basis rotated.
     */
    public static final double SWAMP = 1e-3;

    /** In a swamped set, a row holding more than this share of a coordinate's total gets a coordinate of its own. */
    public static final double SHARE = 0.2;

    private DominantRows() {
    }

    /**
     * @param y      the rows
     * @param active the set
     * @return whether the set is swamped: in some coordinate its 4 largest entries hold more than
     *     {@code 1 - SWAMP} of the sum of squares
     */
    public static boolean isDominated(RowBlockMatrix y, int[] active) {
        if (active.length == 0) {
            return false;
        }
        return CertifiedViolators.columns(y, active).swamped(SWAMP);
    }

    /**
     * The rows of the set in a basis where no row is dominant (see the class comment), or null when the set is not
     * swamped in the original basis (then it is used as it is).
     *
     * @param y      the rows
     * @param active the set (row t of the result is row {@code active[t]} of y, rotated and column-scaled)
     * @return the rotated rows, or null
     */
    public static RowBlockMatrix deflate(RowBlockMatrix y, int[] active) {
        return deflate(y, active, active.length == 0 ? null : CertifiedViolators.columns(y, active));
    }

    /**
     * {@link #deflate(RowBlockMatrix, int[])} with the set's columns already computed.
     *
     * @param y       the rows
     * @param active  the set
     * @param columns the columns of exactly that set (null for an empty set)
     * @return the rotated rows, or null
     */
    public static RowBlockMatrix deflate(RowBlockMatrix y, int[] active, CertifiedViolators.Columns columns) {
        if (columns == null || !columns.swamped(SWAMP)) {
            return null;
        }
        int n = active.length;
        int d = y.cols();
        double[][] z = new double[n][d];
        for (int t = 0; t < n; t++) {
            y.copyRow(active[t], z[t], 0);
        }
        boolean[] owned = new boolean[n];
        double garbage = 16.0 * d * Math.ulp(1.0);
        for (int offset = 0; offset < d; offset++) {
            // the column (among offset..d-1, over the rows not yet owned) whose largest entry has the largest share
            int bestRow = -1;
            double bestShare = SHARE;
            for (int j = offset; j < d; j++) {
                double max = 0;
                int arg = -1;
                for (int t = 0; t < n; t++) {
                    if (!owned[t] && Math.abs(z[t][j]) > max) {
                        max = Math.abs(z[t][j]);
                        arg = t;
                    }
                }
                if (arg < 0) {
                    continue;
                }
                double sq = 0;
                for (int t = 0; t < n; t++) {
                    if (!owned[t]) {
                        double v = z[t][j] / max;
                        sq += v * v;
                    }
                }
                double share = 1.0 / sq; // the largest entry's share of the column's total
                if (share > bestShare) {
                    bestShare = share;
                    bestRow = arg;
                }
            }
            if (bestRow < 0) {
                break;
            }
            reflect(z, owned, bestRow, offset, d, garbage);
        }
        // power-of-two column scaling: exact, leaves the norms and the per-column test unchanged, and keeps the
        // Gram finite
        for (int j = 0; j < d; j++) {
            double max = 0;
            for (int t = 0; t < n; t++) {
                max = Math.max(max, Math.abs(z[t][j]));
            }
            if (max > 0) {
                int e = Math.getExponent(max) + 1;
                for (int t = 0; t < n; t++) {
                    z[t][j] = Math.scalb(z[t][j], -e);
                }
            }
        }
        return RowBlockMatrix.of(z);
    }

    /**
     * Householder reflection of coordinates offset..d-1 taking row p's part there onto coordinate offset, applied to
     * every row not yet owned; row p then owns coordinate offset (its remaining entries exact zeros).
     */
    private static void reflect(double[][] z, boolean[] owned, int p, int offset, int d, double garbage) {
        int len = d - offset;
        double s = 0;
        for (int j = 0; j < len; j++) {
            s = Math.max(s, Math.abs(z[p][offset + j]));
        }
        double[] u = new double[len];
        double nn = 0;
        for (int j = 0; j < len; j++) {
            u[j] = z[p][offset + j] / s;
            nn += u[j] * u[j];
        }
        double norm = Math.sqrt(nn);
        double alpha = u[0] >= 0 ? -norm : norm; // H w = alpha e_0, w = row p's part / s
        u[0] -= alpha;
        double uu = 0;
        for (double v : u) {
            uu += v * v;
        }
        for (int t = 0; t < z.length; t++) {
            if (owned[t] || t == p) {
                continue;
            }
            double[] x = z[t];
            double xs = 0;
            for (int j = 0; j < len; j++) {
                xs = Math.max(xs, Math.abs(x[offset + j]));
            }
            if (xs == 0) {
                continue;
            }
            double dot = 0;
            double before = 0;
            for (int j = 0; j < len; j++) {
                double v = x[offset + j] / xs;
                dot += u[j] * v;
                before += v * v;
            }
            double f = 2 * dot / uu;
            double rest = 0;
            for (int j = 0; j < len; j++) {
                double v = x[offset + j] / xs - f * u[j];
                if (j > 0) {
                    rest += v * v;
                }
                x[offset + j] = v * xs;
            }
            if (rest <= garbage * garbage * before) {
                // in the span of the owned rows up to rounding (e.g. a copy of row p): no direction of its own
                for (int j = 1; j < len; j++) {
                    x[offset + j] = 0;
                }
            }
        }
        z[p][offset] = alpha * s;
        for (int j = 1; j < len; j++) {
            z[p][offset + j] = 0;
        }
        owned[p] = true;
    }
}
