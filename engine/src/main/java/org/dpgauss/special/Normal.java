package org.dpgauss.special;

import org.apache.commons.numbers.gamma.Erfc;
import org.apache.commons.numbers.gamma.Erfcx;
import org.apache.commons.numbers.gamma.InverseErfc;

/**
 * The standard normal distribution with tail-accurate CDF, survival and log forms (spec ndis §4.2 item 4,
 * §11.3): every function is computed from {@code erfc} or the scaled {@code erfcx} of the side that is small,
 * never as one minus the other side, so relative accuracy holds down to the smallest representable values.
 */
public final class Normal {

    private static final double SQRT2 = Math.sqrt(2);
    private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

    private Normal() {
    }

    /** @return the density phi(x) */
    public static double pdf(double x) {
        return Math.exp(-0.5 * x * x - LOG_SQRT_2PI);
    }

    /** @return log phi(x) */
    public static double logPdf(double x) {
        return -0.5 * x * x - LOG_SQRT_2PI;
    }

    /** @return Phi(x) = P[Z &lt;= x], relatively accurate for x very negative */
    public static double cdf(double x) {
        return 0.5 * Erfc.value(-x / SQRT2);
    }

    /** @return 1 - Phi(x) = P[Z > x], relatively accurate for x very positive */
    public static double sf(double x) {
        return 0.5 * Erfc.value(x / SQRT2);
    }

    /**
     * log Phi(x), finite for every finite x: for x &lt; 0 it is {@code log(erfcx(-x/sqrt2)/2) - x^2/2}, which does
     * not underflow; for x >= 0 it is {@code log1p(-sf(x))}.
     */
    public static double logCdf(double x) {
        if (Double.isNaN(x)) {
            return Double.NaN;
        }
        if (x < 0) {
            return Math.log(0.5 * Erfcx.value(-x / SQRT2)) - 0.5 * x * x;
        }
        return Math.log1p(-sf(x));
    }

    /** log(1 - Phi(x)) = log Phi(-x). */
    public static double logSf(double x) {
        return logCdf(-x);
    }

    /** Phi^{-1}(p) for p in [0, 1]; relatively accurate for small p. */
    public static double quantile(double p) {
        checkProbability(p);
        double x = -SQRT2 * InverseErfc.value(2 * p);
        return Double.isInfinite(x) && p > 0 && p < 0.5 ? deepLowerQuantile(p) : x;
    }

    /** The x with 1 - Phi(x) = q, for q in [0, 1]; relatively accurate for small q (no 1 - q). */
    public static double inverseSf(double q) {
        checkProbability(q);
        double x = SQRT2 * InverseErfc.value(2 * q);
        return Double.isInfinite(x) && q > 0 && q < 0.5 ? -deepLowerQuantile(q) : x;
    }

    /**
     * Phi^{-1}(p) for p below the range of {@code InverseErfc}: Newton on log Phi from the asymptotic start
     * {@code -sqrt(L - log(L) - log(2 pi))}, L = -2 log p (Mills' ratio); converges in a few steps.
     */
    private static double deepLowerQuantile(double p) {
        double logP = Math.log(p);
        double l = -2 * logP;
        double x = -Math.sqrt(l - Math.log(l) - Math.log(2 * Math.PI));
        for (int i = 0; i < 50; i++) {
            double lc = logCdf(x);
            double step = (lc - logP) / Math.exp(logPdf(x) - lc);
            x -= step;
            if (Math.abs(step) <= 1e-15 * Math.abs(x)) {
                break;
            }
        }
        return x;
    }

    /** Phi(b) - Phi(a) for a &lt;= b, without cancellation when both are in the same tail. */
    public static double probabilityBetween(double a, double b) {
        if (!(a <= b)) {
            throw new IllegalArgumentException("a=" + a + " must be <= b=" + b);
        }
        if (a >= 0) {
            return sf(a) - sf(b);
        }
        if (b <= 0) {
            return cdf(b) - cdf(a);
        }
        return 1 - cdf(a) - sf(b);
    }

    private static void checkProbability(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("probability " + p + " is outside [0, 1]");
        }
    }
}
