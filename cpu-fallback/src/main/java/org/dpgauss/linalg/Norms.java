package org.dpgauss.linalg;

/**
 * The Euclidean norm of a row, overflow- and underflow-safe: {@code +inf} only when the true norm exceeds
 * {@code Double.MAX_VALUE}, never NaN for finite entries. When the largest entry lies in {@code [2^-400, 2^400]}
 * the result is bit-identical to the plain {@code sqrt(sum x_j^2)}; otherwise the entries are first scaled by the
 * power of two {@code 2^-e} of the largest one (exact), so nothing overflows or underflows in the squares.
 */
public final class Norms {

    /** Entries with magnitudes in [SAFE_LOW, SAFE_HIGH] square and sum without overflow or underflow. */
    private static final double SAFE_HIGH = 0x1p400;
    private static final double SAFE_LOW = 0x1p-400;

    private Norms() {
    }

    /**
     * @param v a vector of finite entries
     * @return its Euclidean norm
     */
    public static double euclidean(double[] v) {
        return euclidean(v, v.length);
    }

    /**
     * @param v a vector of finite entries
     * @param k how many leading entries make the vector, {@code 0 <= k <= v.length}
     * @return the Euclidean norm of {@code v[0..k)}
     */
    public static double euclidean(double[] v, int k) {
        double max = 0;
        for (int j = 0; j < k; j++) {
            max = Math.max(max, Math.abs(v[j]));
        }
        if (max >= SAFE_LOW && max <= SAFE_HIGH) {
            double s = 0;
            for (int j = 0; j < k; j++) {
                s += v[j] * v[j];
            }
            return Math.sqrt(s);
        }
        if (max == 0 || Double.isInfinite(max)) {
            return max;
        }
        int e = Math.getExponent(max);
        double s = 0;
        for (int j = 0; j < k; j++) {
            double w = Math.scalb(v[j], -e);
            s += w * w;
        }
        return Math.scalb(Math.sqrt(s), e);
    }
}
