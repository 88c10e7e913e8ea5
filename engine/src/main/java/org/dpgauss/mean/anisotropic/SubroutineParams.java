package org.dpgauss.mean.anisotropic;

/**
 * Argument checks shared by the subroutines of Algorithm 2 (spec anisotropic-mean-estimation §4.4–§4.8). Every
 * message names the parameter, its value, the allowed range and why.
 */
final class SubroutineParams {

    /** Smallest accepted epsilon: keeps every integer noise scale below 2^30 grid steps (exact sampling). */
    static final double MIN_EPSILON = 0x1p-26;
    /** Largest accepted epsilon: keeps a count times the grid resolution far inside a long. */
    static final double MAX_EPSILON = 0x1p16;

    private SubroutineParams() {
    }

    static double epsilon(String name, double epsilon) {
        if (!(epsilon >= MIN_EPSILON && epsilon <= MAX_EPSILON)) {
            throw new IllegalArgumentException(name + "=" + epsilon + " must be in [2^-26, 2^16]: the privacy"
                    + " parameter must be positive and finite, and within this range the discrete Laplace noise is"
                    + " sampled exactly on a power-of-two grid");
        }
        return epsilon;
    }

    static double delta(String name, double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException(name + "=" + delta + " must be in (0, 1): the stability threshold"
                    + " and the composition slack need a failure probability strictly between 0 and 1");
        }
        return delta;
    }

    static double beta(double beta) {
        if (!(beta > 0 && beta < 1)) {
            throw new IllegalArgumentException("beta=" + beta + " must be in (0, 1): it is a failure probability");
        }
        return beta;
    }

    /**
     * Checks the statistics {@code V} of spec §4.2 (11): {@code m >= 1} rows (groups) of equal width
     * {@code d >= 1}, every entry finite and non-negative (each is a mean of squares).
     *
     * @return {@code d}
     */
    static int varianceRows(double[][] v) {
        if (v == null || v.length == 0) {
            throw new IllegalArgumentException("V has " + (v == null ? "null" : "0") + " rows: it needs m >= 1"
                    + " groups (one row V^(j) per group) to release anything");
        }
        int d = v[0] == null ? 0 : v[0].length;
        if (d == 0) {
            throw new IllegalArgumentException("V row 0 has width 0: it needs d >= 1 coordinates");
        }
        for (int j = 0; j < v.length; j++) {
            if (v[j] == null || v[j].length != d) {
                throw new IllegalArgumentException("V row " + j + " has width " + (v[j] == null ? "null"
                        : v[j].length) + ", expected d=" + d + ": V must be an m x d matrix");
            }
            for (int i = 0; i < d; i++) {
                double x = v[j][i];
                if (!(x >= 0 && x < Double.POSITIVE_INFINITY)) {
                    throw new IllegalArgumentException("V[" + j + "][" + i + "]=" + x + " must be finite and >= 0:"
                            + " V entries are means of squared differences (spec §4.2 (11)); reject non-finite data"
                            + " before computing V (spec §9)");
                }
            }
        }
        return d;
    }
}
