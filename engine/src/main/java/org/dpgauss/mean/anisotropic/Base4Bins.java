package org.dpgauss.mean.anisotropic;

/**
 * The base-4 bins of Algorithms 5 and 7 (spec anisotropic-mean-estimation §4.4): {@code B_b = [4^b, 4^{b+1})} for
 * integer {@code b}, and {@code B_{-inf} = {0}}. The index is computed EXACTLY from the binary exponent
 * ({@code 4^b <= x < 4^{b+1}} iff {@code b = floor(e/2)} where {@code 2^e <= x < 2^{e+1}}), so no logarithm and no
 * floating-point correction (§4.4 [R]) is needed. Static utility.
 */
public final class Base4Bins {

    /** The bin {@code B_{-inf} = {0}} (sorts below every finite bin, so ties resolve to it first). */
    public static final long ZERO_BIN = Long.MIN_VALUE;
    /** The bin of {@code +infinity} (a sum that overflowed): {@code 4^512 = 2^1024} is not a finite double. */
    public static final long OVERFLOW_BIN = 512;

    private Base4Bins() {
    }

    /**
     * @param x a value {@code >= 0} (not NaN); {@code +infinity} maps to {@link #OVERFLOW_BIN}
     * @return the bin {@code b} with {@code 4^b <= x < 4^{b+1}}, or {@link #ZERO_BIN} for 0
     */
    public static long index(double x) {
        if (!(x >= 0)) {
            throw new IllegalArgumentException("x=" + x + " must be >= 0 (not NaN): bins cover [0, infinity)");
        }
        if (x == 0) {
            return ZERO_BIN;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return OVERFLOW_BIN;
        }
        int e = x < Double.MIN_NORMAL ? Math.getExponent(x * 0x1p64) - 64 : Math.getExponent(x);
        return Math.floorDiv(e, 2);
    }

    /**
     * @param bin a bin index as returned by {@link #index(double)}
     * @return its lower edge {@code 4^b} (0 for {@link #ZERO_BIN}, {@code +infinity} for {@link #OVERFLOW_BIN})
     */
    public static double lowerEdge(long bin) {
        if (bin == ZERO_BIN) {
            return 0.0;
        }
        if (bin >= OVERFLOW_BIN) {
            return Double.POSITIVE_INFINITY;
        }
        if (bin < -537) {
            throw new IllegalArgumentException("bin=" + bin + " must be ZERO_BIN or in [-537, 512]: 4^b below"
                    + " 2^-1074 is not a double, so no value maps there");
        }
        return Math.scalb(1.0, (int) (2 * bin));
    }
}
