package org.dpgauss.privacy.noise;

/**
 * The power-of-two grid on which the secure samplers release noise, and the sensitivity accounting for
 * rounding a continuous query onto it.
 *
 * <p><b>Choice of grid.</b> For a noise scale {@code s} (Gaussian sigma or Laplace scale) the grid spacing is
 * {@code g = 2^(floor(log2 s) - }{@value #GRID_BITS}{@code )}, so that {@code s / g} lies in
 * {@code [2^20, 2^21)}. The integer noise parameter is {@code ceil(s / g)}: rounding up only adds noise, and
 * changes the scale by a relative {@code < 2^-20}. With about a million grid points per standard deviation
 * the discrete distribution is statistically indistinguishable from the continuous one at any feasible sample
 * size (the largest probability mass of one point is {@code < 4e-7}), and the rounding inflation below is
 * negligible, while every integer stays within exact 64-bit arithmetic. A power of two makes the scaling
 * {@code g * k} exact in binary floating point (for {@code |k| < 2^53}).
 *
 * <p><b>Rounding a query.</b> A mechanism that adds grid noise must first round its query {@code f} to the
 * grid, so that the output {@code g * (round(f/g) + Z)} is an exact grid point whose set of possible values
 * does not depend on the data (this is what defeats Mironov's attack). Rounding each coordinate moves it by at
 * most {@code g/2}, so for neighbours {@code x, x'} the rounded query satisfies
 * {@code ||round(f(x)) - round(f(x'))||_2 <= ||f(x) - f(x')||_2 + g sqrt(d)} (triangle inequality, both
 * roundings can go opposite ways: the inflation is {@code g sqrt(d)}, not {@code g sqrt(d) / 2}); in L1 it is
 * {@code g d}. Deterministic rounding plus this inflation was chosen over randomized rounding because it
 * keeps the mechanism a plain discrete Gaussian (whose zCDP is exact, CKS20 Thm. 14) and costs at most a
 * relative {@code sqrt(d) 2^-20 sigma / Delta} of sensitivity, below {@code 1e-3} for {@code d <= 10^4} and
 * {@code sigma / Delta <= 10}.
 */
public final class NoiseGrid {

    /** {@code log2(scale / g)} rounded down: about a million grid points per unit of scale. */
    public static final int GRID_BITS = 20;
    /** Smallest accepted noise scale: keeps the grid spacing a normal double. */
    public static final double MIN_SCALE = 0x1p-1000;
    /** Largest accepted noise scale: keeps every grid point within 2^53 spacings finite. */
    public static final double MAX_SCALE = 0x1p+960;

    private NoiseGrid() {
    }

    /**
     * The grid spacing for a noise scale.
     *
     * @param name the parameter's name for error messages (e.g. "sigma")
     * @param scale the noise scale, in {@code [2^-1000, 2^960]}
     * @return {@code g = 2^(floor(log2 scale) - 20)}
     * @throws IllegalArgumentException if the scale is out of range, NaN or infinite
     */
    public static double spacing(String name, double scale) {
        checkScale(name, scale);
        return Math.scalb(1.0, Math.getExponent(scale) - GRID_BITS);
    }

    /**
     * The integer noise parameter {@code ceil(scale / g)} for a given power-of-two grid spacing {@code g}.
     *
     * @param name the parameter's name for error messages
     * @param scale the noise scale, in {@code [2^-1000, 2^960]}
     * @param grid a power of two with {@code scale / grid} in {@code [1, 2^30]}
     * @return {@code ceil(scale / grid)}, the exact integer parameter (never below {@code scale / grid})
     * @throws IllegalArgumentException if the arguments are out of range
     */
    public static long integerScale(String name, double scale, double grid) {
        checkScale(name, scale);
        checkGrid(grid);
        double ratio = scale / grid; // exact: grid is a power of two and both are normal
        if (!(ratio >= 1 && ratio <= 0x1p30)) {
            throw new IllegalArgumentException(name + "=" + scale + " is " + ratio + " grid spacings of g=" + grid
                    + ": the ratio must be in [1, 2^30] for exact sampling (use spacing(" + name + ") for the grid)");
        }
        return (long) Math.ceil(ratio);
    }

    /**
     * The exact grid index {@code round(value / g)} of a query value (round half to even).
     *
     * @param value the query value, finite
     * @param grid the spacing, a power of two
     * @return the index
     * @throws IllegalArgumentException if the value is not finite or more than 2^52 spacings from 0; the message
     *     names neither the value nor anything computed from it (it is the private query)
     */
    public static long index(double value, double grid) {
        checkGrid(grid);
        if (!Double.isFinite(value)) {
            // the value is the private query: never in the message (issue 24, item 2)
            throw new IllegalArgumentException("a query value is not finite: it cannot be released (bound the"
                    + " query by a public rule, such as clipping, before noising it)");
        }
        double k = Math.rint(value / grid);
        if (Math.abs(k) > 0x1p52) {
            // neither the value, nor k, nor g (which with k gives the value) is printed: the query is private
            throw new IllegalArgumentException("a query value is more than 2^52 grid spacings from 0: the released"
                    + " grid point would not be exact; bound the query by a public rule (a public centre and radius)"
                    + " checked before the data are read");
        }
        return (long) k;
    }

    /**
     * The L2 sensitivity added by rounding a {@code d}-dimensional query to the grid: {@code g sqrt(d)}, rounded
     * up (see the class comment).
     *
     * @param grid the spacing
     * @param dimension {@code d >= 1}
     * @return an upper bound on {@code g sqrt(d)}
     */
    public static double l2RoundingInflation(double grid, int dimension) {
        checkGrid(grid);
        checkDimension(dimension);
        return Math.nextUp(Math.nextUp(Math.sqrt(dimension)) * grid);
    }

    /**
     * The L1 sensitivity added by rounding a {@code d}-dimensional query to the grid: {@code g d}.
     *
     * @param grid the spacing
     * @param dimension {@code d >= 1}
     * @return {@code g d} (exact)
     */
    public static double l1RoundingInflation(double grid, int dimension) {
        checkGrid(grid);
        checkDimension(dimension);
        return grid * dimension;
    }

    static void checkScale(String name, double scale) {
        if (Double.isNaN(scale)) {
            throw new IllegalArgumentException(name + "=NaN is not a number: a noise scale must be a finite value in"
                    + " (0, inf)");
        }
        if (scale <= 0) {
            throw new IllegalArgumentException(name + "=" + scale + " is outside (0, inf): "
                    + (scale == 0 ? "without noise there is no privacy guarantee"
                            : "a noise scale cannot be negative"));
        }
        if (Double.isInfinite(scale)) {
            throw new IllegalArgumentException(name + "=" + scale + " is outside (0, inf): infinite noise is not a"
                    + " mechanism");
        }
        if (scale < MIN_SCALE || scale > MAX_SCALE) {
            throw new IllegalArgumentException(name + "=" + scale + " is outside [2^-1000, 2^960]: the noise grid"
                    + " spacing " + name + " * 2^-20 must stay a normal double and grid points must stay finite");
        }
    }

    private static void checkGrid(double grid) {
        if (!(grid > 0) || Double.isInfinite(grid) || grid != Math.scalb(1.0, Math.getExponent(grid))
                || grid < Double.MIN_NORMAL) {
            throw new IllegalArgumentException("grid=" + grid + " is not a normal power of two: the grid spacing must"
                    + " be 2^k so that grid points are exact doubles");
        }
    }

    private static void checkDimension(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension=" + dimension + " is outside [1, inf): a query has at"
                    + " least one coordinate");
        }
    }
}
