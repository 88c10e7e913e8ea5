package org.dpgauss.cpu;

import org.dpgauss.linalg.RowBlockMatrix;

/**
 * The rows of a LargestGoodSubset round (spec unbounded-gaussian-sampling §3.3) that leave whatever A is, found
 * without forming A: for {@code A = (1/m) sum_{l in S} y_l y_l^T} and any direction x, Cauchy-Schwarz gives
 * {@code y_i^T A^{-1} y_i >= m (y_i . x)^2 / sum_{l in S} (y_l . x)^2}; with x = e_j,
 *
 * <pre>  y_i^T A^{-1} y_i  >=  m y_ij^2 / sum_{l in S} y_lj^2    (every j; +infinity when A is singular)</pre>
 *
 * so a row whose square in some coordinate is more than lambda/m of that coordinate's total over S is a
 * violator of S (and of every subset of S): removing it first is one of the removal orders of §3.3, which all
 * give the same largest good set (union closure), and the answer is unchanged in exact arithmetic.
 *
 * <p><b>Why (issue 24, item 3).</b> Such a row dominates its coordinates of the Gram: one row at 1e10 among rows
 * of size 1 swamps every entry of A, so the Gram of S in floating point has lost the other rows and its
 * factorization calls S singular (the convention of §3.3 then removes every row, Score = k, PTR FAILs) although
 * in exact arithmetic A_S is non-singular and only the outlier leaves. After these rows leave, every remaining
 * row holds at most lambda/m of every coordinate's total, so it moves each diagonal entry of A by at most a
 * factor {@code 1/(1 - lambda/m)} and the singularity test ({@link org.dpgauss.linalg.CholeskyResult}:
 * relative to each column's own diagonal entry, i.e. on the equilibrated Gram) by no more: one row, at any
 * scale, cannot turn a non-singular set singular or the other way round, and the test of a set never depends on
 * a row outside it.
 *
 * <p>Overflow-free at every finite scale (1e300 rows included): each coordinate is divided by its largest
 * magnitude over S before it is squared. The comparison keeps a relative margin {@link #MARGIN} above the
 * rounding of the sums, so a row is only removed here when it is a violator in exact arithmetic; rows inside
 * the margin hold about lambda/m of a coordinate, far from dominating it, and are left to the Mahalanobis test.
 */
public final class CertifiedViolators {

    /** Relative margin of the comparison (covers the rounding of an n-term sum for n up to ~1e9). */
    public static final double MARGIN = 1e-6;

    private CertifiedViolators() {
    }

    /**
     * The per-coordinate scales and scaled totals of a set: {@code max[j] = max_{i in S} |y_ij|} and
     * {@code squares[j] = sum_{i in S} (y_ij / max[j])^2} (0 where max[j] = 0).
     */
    public static final class Columns implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        /** How many of the largest magnitudes per coordinate {@link #columns} keeps (DominantRows' swamp test). */
        public static final int TOP = 4;
        private final double[] max;
        private final double[] squares;
        /** The TOP largest magnitudes per coordinate, descending ({@code top[j * TOP + t]}); null if not kept. */
        private final double[] top;

        Columns(double[] max, double[] squares) {
            this(max, squares, null);
        }

        Columns(double[] max, double[] squares, double[] top) {
            this.max = max;
            this.squares = squares;
            this.top = top;
        }

        /**
         * @param swamp a fraction, e.g. 1e-3
         * @return whether in some coordinate the {@link #TOP} largest entries hold more than {@code 1 - swamp} of
         *     the sum of squares (the other rows are then swamped in the Gram); false if the top entries were not kept
         */
        public boolean swamped(double swamp) {
            if (top == null) {
                return false;
            }
            for (int j = 0; j < max.length; j++) {
                if (max[j] > 0) {
                    double t = 0;
                    for (int u = 0; u < TOP; u++) {
                        double v = top[j * TOP + u] / max[j];
                        t += v * v;
                    }
                    if (t > (1 - swamp) * squares[j]) {
                        return true;
                    }
                }
            }
            return false;
        }

        /**
         * @param max     per-coordinate largest magnitude over the set
         * @param squares per-coordinate sum of squares of the entries divided by max
         * @return the columns (arrays not copied)
         */
        public static Columns of(double[] max, double[] squares) {
            if (max.length != squares.length) {
                throw new IllegalArgumentException("max and squares differ in length");
            }
            return new Columns(max, squares);
        }

        /**
         * @param lambda  the threshold
         * @param divisor m, the divisor of the Gram
         * @return whether some row of the set can be a certified violator (false: none is, no row pass needed)
         */
        public boolean anyPossible(double lambda, double divisor) {
            for (int j = 0; j < max.length; j++) {
                // the largest entry of column j has (y/max)^2 = 1
                if (max[j] > 0 && divisor > lambda * squares[j] * (1 + MARGIN)) {
                    return true;
                }
            }
            return false;
        }

        /** @return the largest share of a coordinate's total held by one row: {@code max_j 1 / squares[j]} */
        public double largestShare() {
            double best = 0;
            for (int j = 0; j < max.length; j++) {
                if (max[j] > 0) {
                    best = Math.max(best, 1.0 / squares[j]);
                }
            }
            return best;
        }

        /**
         * @param row     holds a row of the set at {@code off .. off + d}
         * @param off     offset of the row in {@code row}
         * @param lambda  the threshold
         * @param divisor m, the divisor of the Gram
         * @return whether {@code m y_ij^2 > lambda sum_S y_lj^2 (1 + MARGIN)} for some j
         */
        public boolean isViolator(double[] row, int off, double lambda, double divisor) {
            for (int j = 0; j < max.length; j++) {
                double c = max[j];
                if (c > 0) {
                    double v = row[off + j] / c;
                    if (divisor * (v * v) > lambda * squares[j] * (1 + MARGIN)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** Per-coordinate largest magnitude over the active rows of a block-row matrix (StableRows' scales). */
    public static double[] columnMax(RowBlockMatrix y, int[] active) {
        int d = y.cols();
        double[] max = new double[d];
        double[] r = new double[d];
        for (int i : active) {
            y.copyRow(i, r, 0);
            for (int j = 0; j < d; j++) {
                max[j] = Math.max(max[j], Math.abs(r[j]));
            }
        }
        return max;
    }

    /** Per-coordinate {@code sum (y_ij / max[j])^2} over the active rows (0 where max[j] = 0). */
    public static double[] scaledSquares(RowBlockMatrix y, int[] active, double[] max) {
        int d = y.cols();
        double[] sq = new double[d];
        double[] r = new double[d];
        for (int i : active) {
            y.copyRow(i, r, 0);
            for (int j = 0; j < d; j++) {
                // divide (not multiply by inv): exact for power-of-two scales and never overflows
                double v = max[j] > 0 ? r[j] / max[j] : 0.0;
                sq[j] += v * v;
            }
        }
        return sq;
    }

    /**
     * The columns of the active rows in one pass: per coordinate the running largest magnitude and the sum of
     * squares in its units, rescaled whenever a larger magnitude arrives (LAPACK's dlassq), so nothing overflows.
     */
    public static Columns columns(RowBlockMatrix y, int[] active) {
        int d = y.cols();
        int k = Columns.TOP;
        double[] max = new double[d];
        double[] sq = new double[d];
        double[] top = new double[d * k];
        double[] inv = new double[d]; // 1 / max[j]: a multiplication per entry instead of a division
        double[] r = new double[d];
        for (int i : active) {
            y.copyRow(i, r, 0);
            for (int j = 0; j < d; j++) {
                double a = Math.abs(r[j]);
                if (a > max[j]) {
                    double t = max[j] / a;
                    sq[j] = 1 + sq[j] * t * t;
                    max[j] = a;
                    inv[j] = a >= Double.MIN_NORMAL ? 1.0 / a : 0.0; // 1/a overflows for a subnormal a
                } else if (a > 0) {
                    double t = inv[j] != 0 ? a * inv[j] : a / max[j];
                    sq[j] += t * t;
                }
                if (a > top[j * k + k - 1]) {
                    insertTop(top, j * k, a);
                }
            }
        }
        return new Columns(max, sq, top);
    }

    /** Inserts a into the descending list top[at .. at + TOP) if it is among the TOP largest. */
    public static void insertTop(double[] top, int at, double a) {
        int k = Columns.TOP;
        if (a <= top[at + k - 1]) {
            return;
        }
        int p = at + k - 1;
        while (p > at && top[p - 1] < a) {
            top[p] = top[p - 1];
            p--;
        }
        top[p] = a;
    }

    /** The TOP largest magnitudes per coordinate over the active rows, descending ({@code [j * TOP + t]}). */
    public static double[] columnTop(RowBlockMatrix y, int[] active) {
        int d = y.cols();
        double[] top = new double[d * Columns.TOP];
        double[] r = new double[d];
        for (int i : active) {
            y.copyRow(i, r, 0);
            for (int j = 0; j < d; j++) {
                insertTop(top, j * Columns.TOP, Math.abs(r[j]));
            }
        }
        return top;
    }

    /**
     * Removes from {@code s} the certified violators of the set {@code active} at lambda, repeating on the
     * smaller set until none is left (each pass can make another row dominant).
     *
     * @param y       the rows
     * @param s       membership, updated in place (every index of active must be set)
     * @param active  the members of s, increasing
     * @param lambda  the threshold, > 0
     * @param divisor m, the divisor of the Gram (not |S|)
     * @return the number of rows removed
     */
    public static int remove(RowBlockMatrix y, boolean[] s, int[] active, double lambda, double divisor) {
        return removeAll(y, s, active, lambda, divisor).removed();
    }

    /** What {@link #removeAll} did: the rows removed and the columns of the set that remains. */
    public static final class Outcome {
        private final int removed;
        private final Columns columns;

        Outcome(int removed, Columns columns) {
            this.removed = removed;
            this.columns = columns;
        }

        /** @return the number of rows removed */
        public int removed() {
            return removed;
        }

        /** @return the columns of the remaining set (null when it is empty) */
        public Columns columns() {
            return columns;
        }
    }

    /**
     * {@link #remove}, also returning the columns of the set that remains (so a caller can tell whether a row
     * dominates it, {@link DominantRows}, without another pass).
     *
     * @param y       the rows
     * @param s       membership, updated in place
     * @param active  the members of s, increasing
     * @param lambda  the threshold, > 0
     * @param divisor m, the divisor of the Gram
     * @return the outcome
     */
    public static Outcome removeAll(RowBlockMatrix y, boolean[] s, int[] active, double lambda, double divisor) {
        int removed = 0;
        int[] cur = active;
        double[] r = new double[y.cols()];
        while (cur.length > 0) {
            Columns c = columns(y, cur);
            if (!c.anyPossible(lambda, divisor)) {
                return new Outcome(removed, c);
            }
            int kept = 0;
            int[] next = new int[cur.length];
            for (int i : cur) {
                y.copyRow(i, r, 0);
                if (c.isViolator(r, 0, lambda, divisor)) {
                    s[i] = false;
                    removed++;
                } else {
                    next[kept++] = i;
                }
            }
            if (kept == cur.length) {
                return new Outcome(removed, c);
            }
            cur = java.util.Arrays.copyOf(next, kept);
        }
        return new Outcome(removed, null);
    }
}
