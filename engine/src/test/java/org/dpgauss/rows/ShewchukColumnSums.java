package org.dpgauss.rows;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * The Shewchuk-partials implementation that {@link ExactColumnSums} replaced, kept as a test reference: its
 * results are the same, bit for bit, wherever no partial overflows. Each column keeps non-overlapping partials whose
 * exact sum is the exact sum of its inputs (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
 * Geometric Predicates", 1997; the {@code msum} of Python's {@code math.fsum}), and {@link #rounded()} rounds that
 * exact sum once. A NaN or infinite input, or an intermediate sum that overflows, leaves a non-finite partial, and
 * then {@link #exact()} and {@link #rounded()} throw NumberFormatException from {@code new BigDecimal(double)}.
 * Public for the bench module's {@code ExactSumBench}, whose baseline it is (through the engine's test-jar).
 */
public final class ShewchukColumnSums implements Serializable {

    private static final long serialVersionUID = 1L;

    private final double[][] partials;
    private final int[] sizes;

    private ShewchukColumnSums(int d) {
        partials = new double[d][4];
        sizes = new int[d];
    }

    /**
     * @param d the number of columns
     * @return empty sums
     */
    public static ShewchukColumnSums zeros(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " columns is outside [1, 2^31)");
        }
        return new ShewchukColumnSums(d);
    }

    /** @return the number of columns */
    public int columns() {
        return sizes.length;
    }

    /**
     * Adds one row.
     *
     * @param row d finite values
     */
    public void add(double[] row) {
        for (int j = 0; j < sizes.length; j++) {
            add(j, row[j]);
        }
    }

    /**
     * Adds {@code row[off .. off+d)}.
     *
     * @param data row-major values
     * @param off the offset of the row
     */
    public void add(double[] data, int off) {
        for (int j = 0; j < sizes.length; j++) {
            add(j, data[off + j]);
        }
    }

    /**
     * Adds every partial of {@code other} (exact: the sums become the sums of both inputs).
     *
     * @param other sums of the same number of columns
     */
    public void addAll(ShewchukColumnSums other) {
        if (other.sizes.length != sizes.length) {
            throw new IllegalArgumentException("column sums of " + other.sizes.length + " columns cannot be added to "
                    + sizes.length);
        }
        for (int j = 0; j < sizes.length; j++) {
            for (int k = 0; k < other.sizes[j]; k++) {
                add(j, other.partials[j][k]);
            }
        }
    }

    private void add(int col, double x) {
        double[] p = partials[col];
        int i = 0;
        int size = sizes[col];
        for (int k = 0; k < size; k++) {
            double y = p[k];
            if (Math.abs(x) < Math.abs(y)) {
                double t = x;
                x = y;
                y = t;
            }
            double hi = x + y;
            double lo = y - (hi - x); // exact error of hi (Fast2Sum with |x| >= |y|)
            if (lo != 0.0) {
                p[i++] = lo;
            }
            x = hi;
        }
        if (i == p.length) {
            p = Arrays.copyOf(p, 2 * p.length);
            partials[col] = p;
        }
        p[i++] = x;
        sizes[col] = i;
    }

    /** @return each column's exact sum, unrounded (for a caller that rounds it to a grid of its own) */
    public BigDecimal[] exact() {
        BigDecimal[] out = new BigDecimal[sizes.length];
        for (int j = 0; j < sizes.length; j++) {
            BigDecimal s = BigDecimal.ZERO;
            for (int k = 0; k < sizes[j]; k++) {
                s = s.add(new BigDecimal(partials[j][k]));
            }
            out[j] = s;
        }
        return out;
    }

    /** @return each column's exact sum rounded once to the nearest double */
    public double[] rounded() {
        BigDecimal[] e = exact();
        double[] out = new double[e.length];
        for (int j = 0; j < e.length; j++) {
            out[j] = e[j].doubleValue(); // correctly rounded (round half to even)
        }
        return out;
    }
}
