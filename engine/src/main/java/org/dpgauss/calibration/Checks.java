package org.dpgauss.calibration;

/**
 * Argument validation shared by the calibration classes. Every message names the parameter, its value, the
 * allowed range and why the value is refused (spec ndis §11.2, §11.4).
 */
final class Checks {

    private Checks() {
    }

    /** epsilon finite-or-+infinity and {@code >= 0}; +infinity is allowed where a curve has a limit there. */
    static void epsilonNonNegative(String name, double epsilon, boolean allowInfinity) {
        if (Double.isNaN(epsilon)) {
            throw new IllegalArgumentException(name + "=NaN is not a number: a privacy loss must lie in [0, "
                    + (allowInfinity ? "inf]" : "inf)"));
        }
        if (epsilon < 0) {
            throw new IllegalArgumentException(name + "=" + epsilon + " is outside [0, inf): a privacy loss bound"
                    + " cannot be negative");
        }
        if (!allowInfinity && Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException(name + "=" + epsilon + " is outside [0, inf): an infinite privacy"
                    + " loss gives no guarantee to calibrate for");
        }
    }

    /** delta strictly inside (0, 1) (spec §11.2: delta = 0 is infeasible, delta >= 1 is no guarantee). */
    static void deltaOpen(String name, double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException(name + "=" + delta + " is outside (0, 1): "
                    + (Double.isNaN(delta) ? "not a number"
                            : delta <= 0 ? "delta = 0 needs infinite noise (spec ndis §11.2), a negative delta is"
                                    + " meaningless"
                                    : "delta >= 1 is no privacy guarantee at all"));
        }
    }

    /** A value that must be finite and {@code > 0} (a sensitivity, a standard deviation, a row-norm bound). */
    static void positiveFinite(String name, double value, String why) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " is outside (0, inf): " + why);
        }
    }

    /** A value that must be finite-or-+infinity and {@code >= 0}. */
    static void nonNegative(String name, double value, String why) {
        if (!(value >= 0)) {
            throw new IllegalArgumentException(name + "=" + value + " is outside [0, inf]: " + why);
        }
    }

    /** Number of projection columns r >= 1 (spec §6.1). */
    static void columns(int r) {
        if (r < 1) {
            throw new IllegalArgumentException("r=" + r + " is outside [1, 2^31-1]: the number of random"
                    + " projection columns must be at least 1");
        }
    }
}
