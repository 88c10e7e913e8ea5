package org.dpgauss.linalg;

/**
 * The one L2 clipping routine of the project: {@code v -> v min(1, target / ||v||_2)}, correct for every finite
 * input from the smallest subnormal to {@code Double.MAX_VALUE} and for every admitted radius (issue 24, item 1).
 * Every mechanism that clips a row or a vector (the clipped means, the second-moment methods, the projections,
 * BLR, and their row passes on a cluster) calls it, so there is one place where a clip can go wrong.
 *
 * <p><b>No squared radius.</b> The decision compares the computed <i>norm</i> with the target, never a squared norm
 * with {@code target * target} (which overflows above about 1e154 and underflows below about 1e-154 and then clips
 * nothing, or everything). The norm itself is computed as in {@link Norms#euclidean}: plainly, {@code sqrt(sum
 * v_j^2)} in index order, when the largest |entry| lies in {@code [2^-400, 2^400]} (bit-identical to the earlier
 * code of every caller there), and otherwise from the direction {@code w = 2^-e v} ({@code 2^e} the power of two of
 * the largest entry, an exact scaling), so nothing overflows or underflows.
 *
 * <p><b>What a clipped row is.</b> A row whose computed norm exceeds the target becomes {@code v (target / norm)}
 * (plain path) or {@code w (target / ||w||)} (scaled path); its true norm is at most {@code target (1 + (d + 2)
 * u)}, {@code u = 2^-53} (Higham, <i>Accuracy and Stability of Numerical Algorithms</i>, §3.1 and §4.2: a sum of
 * d squares, a square root, a division and a product). Callers that need a true norm at most R pass
 * {@code target = R (1 - 4 (d + 2) u)} ({@link #safeTarget}); callers that account the slack pass R. A row within
 * the target is returned unchanged (bit for bit), so rows inside the ball are never perturbed.
 *
 * <p><b>Radii.</b> {@link #checkRadius} admits a radius that is a normal double at most {@link #MAX_RADIUS}
 * ({@code 2^1000}), so that {@code 2R} and {@code R (1 + small)} are finite and the sensitivity of a release
 * ({@code 2R/n}, {@code R^2/n}, ...) can be checked by the mechanism before the data are read.
 */
public final class L2Clip {

    /** The unit roundoff {@code 2^-53}. */
    public static final double U = 0x1p-53;

    /** Largest admitted radius: {@code 2^1000}, so that {@code 4R} and {@code R (1 + 2^-40)} stay finite. */
    public static final double MAX_RADIUS = 0x1p1000;

    /** Smallest admitted radius: the smallest normal double. */
    public static final double MIN_RADIUS = Double.MIN_NORMAL;

    /** Entries with magnitudes in [SAFE_LOW, SAFE_HIGH] square and sum without overflow or underflow. */
    private static final double SAFE_HIGH = 0x1p400;
    private static final double SAFE_LOW = 0x1p-400;

    private L2Clip() {
    }

    /**
     * A public clipping radius: finite, a normal double and at most {@link #MAX_RADIUS}. A mechanism calls it in
     * its factory, before any data are read, and checks its own sensitivity (a function of the radius and the
     * public n) in its statement.
     *
     * @param name the parameter's name for the message
     * @param radius the radius
     * @return the radius
     * @throws IllegalArgumentException if it is not in {@code [2^-1022, 2^1000]}
     */
    public static double checkRadius(String name, double radius) {
        if (!(radius >= MIN_RADIUS && radius <= MAX_RADIUS)) {
            throw new IllegalArgumentException(name + "=" + radius + " is outside [2^-1022, 2^1000]: a clipping radius"
                    + " must be a finite, normal, positive double whose multiples (the sensitivity) stay finite;"
                    + " rescale the data and the radius by a public factor");
        }
        return radius;
    }

    /**
     * @param radius a radius R
     * @param d the row length
     * @return {@code R (1 - 4 (d + 2) u)}: a target whose clipped rows have a true norm at most R
     */
    public static double safeTarget(double radius, int d) {
        return radius * (1 - 4.0 * (d + 2) * U);
    }

    /**
     * The Euclidean norm of {@code v[off, off + len)} compared with a limit, for any finite entries and limit.
     *
     * @param v the entries (finite)
     * @param off the first entry
     * @param len the number of entries
     * @param limit the limit, {@code >= 0}
     * @return whether the computed norm exceeds the limit
     */
    public static boolean exceeds(double[] v, int off, int len, double limit) {
        return norm(v, off, len) > limit;
    }

    /**
     * In place: {@code v[off, off + len) <- v min(1, target / ||v||)}, for finite entries and a finite positive
     * target (class comment).
     *
     * @param v the entries (finite)
     * @param off the first entry
     * @param len the number of entries
     * @param target the target norm, finite and {@code > 0}
     * @return the factor applied: 1 when the row is unchanged, else {@code target / norm} (0 when the norm
     *         overflowed a double)
     */
    public static double clip(double[] v, int off, int len, double target) {
        double max = maxAbs(v, off, len);
        if (max >= SAFE_LOW && max <= SAFE_HIGH) {
            double s = 0;
            for (int j = off; j < off + len; j++) {
                s += v[j] * v[j];
            }
            double norm = Math.sqrt(s);
            if (norm <= target) {
                return 1.0;
            }
            return scaleTo(v, off, len, norm, target);
        }
        if (max == 0 || !(max < Double.POSITIVE_INFINITY)) {
            return 1.0; // a zero row is inside every ball; a non-finite row is the caller's error
        }
        int e = Math.getExponent(max);
        double s = 0;
        for (int j = off; j < off + len; j++) {
            double w = Math.scalb(v[j], -e);
            s += w * w;
        }
        double nw = Math.sqrt(s); // in [1, 2 sqrt(len)): no overflow
        double norm = Math.scalb(nw, e); // +inf above MAX_VALUE, a rounded subnormal below MIN_NORMAL
        if (norm <= target) {
            return 1.0; // a subnormal norm is below every admitted (normal) target
        }
        for (int j = off; j < off + len; j++) {
            v[j] = Math.scalb(v[j], -e);
        }
        scaleTo(v, off, len, nw, target);
        return target / norm;
    }

    /**
     * {@code v <- v (target / norm)}: a product by {@code c = target / norm} when c is a normal double with room
     * to spare (the earlier code of every caller, bit for bit), else {@code (v_j / norm) target}, so that a tiny
     * target against a moderate norm (c below the normal range, e.g. {@code 1e-300 / 1e100}) does not round the row
     * to zero.
     *
     * @return {@code target / norm}
     */
    private static double scaleTo(double[] v, int off, int len, double norm, double target) {
        double c = target / norm;
        if (c >= 0x1p-960) {
            for (int j = off; j < off + len; j++) {
                v[j] *= c;
            }
        } else {
            for (int j = off; j < off + len; j++) {
                v[j] = v[j] / norm * target;
            }
        }
        return c;
    }

    /**
     * In place: {@code v[off, off + len) <- v (target / ||v||)}, the row scaled onto the sphere of radius target
     * whatever its norm (a caller that has already decided to clip, e.g. from a scaled norm), with the same
     * arithmetic as {@link #clip(double[], int, int, double)}.
     *
     * @param v the entries (finite, not all zero)
     * @param off the first entry
     * @param len the number of entries
     * @param target the target norm, finite and {@code > 0}
     */
    public static void ontoSphere(double[] v, int off, int len, double target) {
        double max = maxAbs(v, off, len);
        if (max >= SAFE_LOW && max <= SAFE_HIGH) {
            double s = 0;
            for (int j = off; j < off + len; j++) {
                s += v[j] * v[j];
            }
            scaleTo(v, off, len, Math.sqrt(s), target);
            return;
        }
        if (max == 0 || !(max < Double.POSITIVE_INFINITY)) {
            return;
        }
        int e = Math.getExponent(max);
        double s = 0;
        for (int j = off; j < off + len; j++) {
            v[j] = Math.scalb(v[j], -e);
            s += v[j] * v[j];
        }
        scaleTo(v, off, len, Math.sqrt(s), target);
    }

    /**
     * {@link #clip(double[], int, int, double)} on a whole array.
     *
     * @param v the entries (finite)
     * @param target the target norm
     * @return the factor applied
     */
    public static double clip(double[] v, double target) {
        return clip(v, 0, v.length, target);
    }

    /**
     * {@code out <- clip(x[off, off + d) - centre, target)}, for finite x and centre even where a difference
     * {@code x_j - c_j} overflows (then the direction is taken from {@code x/4 - c/4}, which does not, and the row,
     * whose norm exceeds every admitted target, is clipped onto the sphere).
     *
     * @param x the rows
     * @param off the first entry of the row
     * @param centre the centre (length d)
     * @param out the clipped difference (length at least d)
     * @param target the target norm, finite and {@code > 0}
     * @return the factor applied (as {@link #clip(double[], int, int, double)})
     */
    public static double clipDifference(double[] x, int off, double[] centre, double[] out, double target) {
        int d = centre.length;
        boolean overflow = false;
        for (int j = 0; j < d; j++) {
            double t = x[off + j] - centre[j];
            out[j] = t;
            overflow |= Double.isInfinite(t);
        }
        if (overflow) {
            for (int j = 0; j < d; j++) {
                out[j] = x[off + j] * 0.25 - centre[j] * 0.25;
            }
            // its norm is at least MAX_VALUE / 4 > MAX_RADIUS >= target: clip always scales
        }
        return clip(out, 0, d, target);
    }

    /**
     * {@link #clip(double[], int, int, double)} on {@code a[off, off + len)} in place for a row on its plain path,
     * bit for bit, faster. Returns false, the row untouched, when the row is not finite (the sum is then NaN or
     * infinite) or its largest |entry| lies outside the plain range {@code [2^-400, 2^400]}: the caller then takes
     * {@link #clip(double[], int, int, double)} (or its own careful path).
     *
     * <p>One pass with four independent sums of squares (the sequential sum is a chain of dependent additions, four
     * times slower) and the largest |entry| beside them decides most rows: every order of adding d non-negative
     * rounded squares lies within a relative {@code gamma_d = d U / (1 - d U)} of the exact sum (Higham, <i>Accuracy
     * and Stability of Numerical Algorithms</i>, 2nd ed., §4.2), so a four-way sum below {@code target^2 (1 - 4 (d +
     * 2) U)} puts the sequential sum below {@code target^2} too and the row is kept, as {@code clip} would keep it.
     * That shortcut is taken only where {@code target^2} is a finite normal double; every other decision compares
     * the sequential norm with the target itself.
     *
     * @param a the entries
     * @param off the first entry
     * @param len the number of entries
     * @param target the target norm, finite and {@code > 0}
     * @return whether the row was decided (and clipped in place if needed)
     */
    public static boolean clipPlain(double[] a, int off, int len, double target) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        double m0 = 0;
        double m1 = 0;
        int j = off;
        int end = off + len;
        for (; j + 3 < end; j += 4) { // max is exact in any order
            double x = a[j];
            double y = a[j + 1];
            double z = a[j + 2];
            double w = a[j + 3];
            s0 += x * x;
            s1 += y * y;
            s2 += z * z;
            s3 += w * w;
            double ax = Math.abs(x);
            double ay = Math.abs(y);
            double az = Math.abs(z);
            double aw = Math.abs(w);
            m0 = ax > m0 ? ax : m0;
            m1 = ay > m1 ? ay : m1;
            m0 = az > m0 ? az : m0;
            m1 = aw > m1 ? aw : m1;
        }
        for (; j < end; j++) {
            double x = a[j];
            s0 += x * x;
            double ax = Math.abs(x);
            m0 = ax > m0 ? ax : m0;
        }
        double fast = (s0 + s1) + (s2 + s3);
        double max = Math.max(m0, m1);
        if (!Double.isFinite(fast) || max < SAFE_LOW || max > SAFE_HIGH) {
            return false; // a NaN or infinite entry makes every order of the sum NaN or infinite
        }
        // the four-way sum decides only where target^2 is a finite normal double (target in about [1e-154,
        // 1e154]); elsewhere the sequential norm below decides, compared with the target itself, never squared
        double target2 = target * target;
        if (target2 >= Double.MIN_NORMAL && target2 < Double.POSITIVE_INFINITY
                && fast < target2 * (1 - 4.0 * (len + 2) * U)) {
            return true; // kept: the sequential norm is below the target as well
        }
        double s = 0; // the sequential sum of clip (plainNorm)
        for (int k = off; k < end; k++) {
            s += a[k] * a[k];
        }
        double norm = Math.sqrt(s);
        if (norm > target) {
            scaleTo(a, off, len, norm, target);
        }
        return true;
    }

    /** The Euclidean norm of {@code v[off, off + len)}, as the clip decision computes it ({@link Norms}). */
    static double norm(double[] v, int off, int len) {
        double max = maxAbs(v, off, len);
        if (max >= SAFE_LOW && max <= SAFE_HIGH) {
            double s = 0;
            for (int j = off; j < off + len; j++) {
                s += v[j] * v[j];
            }
            return Math.sqrt(s);
        }
        if (max == 0 || !(max < Double.POSITIVE_INFINITY)) {
            return max;
        }
        int e = Math.getExponent(max);
        double s = 0;
        for (int j = off; j < off + len; j++) {
            double w = Math.scalb(v[j], -e);
            s += w * w;
        }
        return Math.scalb(Math.sqrt(s), e);
    }

    private static double maxAbs(double[] a, int off, int len) {
        double m = 0;
        for (int j = off; j < off + len; j++) {
            m = Math.max(m, Math.abs(a[j]));
        }
        return m;
    }
}
