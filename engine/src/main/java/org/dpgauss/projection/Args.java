package org.dpgauss.projection;

/** Argument checks with messages that name the parameter, its value, the allowed range and why. */
final class Args {

    private Args() {
    }

    static void epsilon(String name, double epsilon) {
        if (!(epsilon >= 0) || !Double.isFinite(epsilon)) {
            throw new IllegalArgumentException(name + "=" + epsilon
                    + " is outside [0, inf): a privacy loss is a finite non-negative number");
        }
    }

    static void delta(String name, double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException(name + "=" + delta + " is outside (0, 1): delta = 0 would need an "
                    + "infinite ridge (p* = 0) and delta >= 1 is no guarantee (spec ndis §6.1, §11.2)");
        }
    }

    static void rank(int r) {
        if (r < 1) {
            throw new IllegalArgumentException("r=" + r + " is outside [1, 2^31): the projection needs at least one "
                    + "column");
        }
    }

    static void dimension(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " is outside [1, 2^31): the rows need at least one column");
        }
    }

    static void positive(String name, double value, String why) {
        if (!(value > 0) || !Double.isFinite(value)) {
            throw new IllegalArgumentException(name + "=" + value + " is outside (0, inf): " + why);
        }
    }
}
