package org.dpgauss.cpu;

import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.CounterBasedGenerator;
import org.ejml.data.DMatrixRMaj;

/**
 * Argument checks shared by the CPU primitives and the GPU engine, so both backends reject the same
 * inputs with the same message before any work; messages name the argument and what was expected.
 */
public final class Checks {

    private Checks() {
    }

    public static void square(DMatrixRMaj a, String name) {
        if (a == null) {
            throw new IllegalArgumentException(name + " is null");
        }
        if (a.numRows != a.numCols || a.numRows == 0) {
            throw new IllegalArgumentException(name + " must be a non-empty square matrix, got "
                    + a.numRows + " x " + a.numCols);
        }
    }

    public static void finite(DMatrixRMaj a, String name) {
        double[] v = a.data;
        int len = a.getNumElements();
        // x * 0 is (signed) zero for finite x and NaN for an infinity or NaN: four independent sums of it scan without
        // a branch per entry (a third of the time at d = 100); only a matrix that fails is scanned again for the cell
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int k4 = len & ~3;
        for (int k = 0; k < k4; k += 4) {
            s0 += v[k] * 0.0;
            s1 += v[k + 1] * 0.0;
            s2 += v[k + 2] * 0.0;
            s3 += v[k + 3] * 0.0;
        }
        for (int k = k4; k < len; k++) {
            s0 += v[k] * 0.0;
        }
        if (s0 + s1 + s2 + s3 == 0.0) {
            return;
        }
        for (int k = 0; k < len; k++) {
            if (!Double.isFinite(v[k])) {
                throw new IllegalArgumentException(name + " has a non-finite entry " + v[k] + " at ("
                        + (k / a.numCols) + ", " + (k % a.numCols) + ")");
            }
        }
    }

    public static void lowerFactor(DMatrixRMaj l, int d, String name) {
        square(l, name);
        if (l.numRows != d) {
            throw new IllegalArgumentException(name + " is " + l.numRows + " x " + l.numCols
                    + " but the data have " + d + " columns");
        }
        for (int j = 0; j < d; j++) {
            double p = l.unsafe_get(j, j);
            if (!(p != 0.0) || !Double.isFinite(p)) {
                throw new IllegalArgumentException(name + " has diagonal entry " + p + " at " + j
                        + ": not a non-singular triangular factor");
            }
        }
    }

    /** Arguments of {@code X B}: a non-empty data matrix, and B finite with {@code x.cols()} rows. */
    public static void rowProduct(RowBlockMatrix x, DMatrixRMaj b) {
        notEmpty(x, "data matrix");
        if (b == null || b.numRows != x.cols() || b.numCols < 1) {
            throw new IllegalArgumentException("right factor must be " + x.cols() + " x m (m >= 1) for a data matrix"
                    + " with " + x.cols() + " columns, got " + (b == null ? "null" : b.numRows + " x " + b.numCols));
        }
        finite(b, "right factor");
    }

    public static void notEmpty(RowBlockMatrix x, String name) {
        if (x == null) {
            throw new IllegalArgumentException(name + " is null");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException(name + " has no rows");
        }
    }

    public static int[] rowsOrAll(int[] rows, int n, String name) {
        if (rows == null) {
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            return all;
        }
        for (int i : rows) {
            if (i < 0 || i >= n) {
                throw new IllegalArgumentException(name + " contains row " + i + " outside [0, " + n + ")");
            }
        }
        return rows;
    }

    /**
     * The arguments of a weighted Gram {@code (1/m) sum_{i in S} w_i y_i y_i^T}.
     *
     * @return the row subset S as indices: {@code rows}, or all rows when it is null
     */
    public static int[] weightedGram(RowBlockMatrix y, int[] rows, double[] weights, double divisor) {
        if (y == null) {
            throw new IllegalArgumentException("data matrix is null");
        }
        divisor(divisor);
        weights(weights, y.rows());
        return rowsOrAll(rows, y.rows(), "row subset");
    }

    /** The divisor m of a weighted Gram / peeling step: finite and > 0. */
    public static void divisor(double divisor) {
        if (!(divisor > 0) || !Double.isFinite(divisor)) {
            throw new IllegalArgumentException("divisor m=" + divisor + " must be finite and > 0");
        }
    }

    /** Row weights w_i: null (all ones), or one finite, non-negative weight per row. */
    public static void weights(double[] weights, int n) {
        if (weights == null) {
            return;
        }
        if (weights.length != n) {
            throw new IllegalArgumentException("weights has " + weights.length + " entries, expected one per row ("
                    + n + ")");
        }
        for (int i = 0; i < n; i++) {
            if (!(weights[i] >= 0) || !Double.isFinite(weights[i])) {
                throw new IllegalArgumentException("weight w_" + i + "=" + weights[i] + " must be finite and >= 0");
            }
        }
    }

    /** The peeling threshold lambda: finite and > 0. */
    public static void threshold(double lambda) {
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException("threshold lambda=" + lambda + " must be finite and > 0");
        }
    }

    /**
     * A fresh, modifiable copy of a peeling start set: all n rows when {@code start} is null, otherwise
     * {@code start} itself, which must have one entry per row.
     */
    public static boolean[] startSet(boolean[] start, int n) {
        boolean[] s = new boolean[n];
        if (start == null) {
            java.util.Arrays.fill(s, true);
        } else {
            if (start.length != n) {
                throw new IllegalArgumentException("start set has " + start.length + " entries, expected " + n);
            }
            System.arraycopy(start, 0, s, 0, n);
        }
        return s;
    }

    /**
     * Symmetric up to rounding: every {@code |a(i,j) - a(j,i)| <= 1e-10 max|a|} (callers then symmetrise from the
     * lower triangle). Expects {@link #square} and {@link #finite} to have passed.
     */
    public static void symmetric(DMatrixRMaj a, String name) {
        int d = a.numRows;
        double scale = 0;
        for (int k = 0; k < d * d; k++) {
            scale = Math.max(scale, Math.abs(a.data[k]));
        }
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                double diff = Math.abs(a.unsafe_get(i, j) - a.unsafe_get(j, i));
                if (diff > 1e-10 * scale) {
                    throw new IllegalArgumentException(name + " is not symmetric: |a(" + i + "," + j + ") - a(" + j
                            + "," + i + ")| = " + diff);
                }
            }
        }
    }

    /** Data and reference set non-empty with the same columns, and 1 &lt;= keep &lt;= |R|. */
    public static void referenceDistances(RowBlockMatrix x, RowBlockMatrix reference, int keep) {
        notEmpty(x, "data matrix");
        notEmpty(reference, "reference set");
        int d = x.cols();
        if (reference.cols() != d) {
            throw new IllegalArgumentException("reference set has " + reference.cols() + " columns, data have " + d);
        }
        int m = reference.rows();
        if (keep < 1 || keep > m) {
            throw new IllegalArgumentException("keep=" + keep + " must be in [1, |R|=" + m + "]");
        }
    }

    /** A neighbour radius: finite and >= 0. */
    public static void radius(double radius) {
        if (!(radius >= 0) || !Double.isFinite(radius)) {
            throw new IllegalArgumentException("radius=" + radius + " must be finite and >= 0");
        }
    }

    /**
     * A Gaussian projection of non-empty data to r >= 1 columns from counter {@code firstIndex >= 0} of a
     * generator, with the n r counters it uses not overflowing.
     */
    public static void projection(RowBlockMatrix data, int r, CounterBasedGenerator generator, long firstIndex) {
        notEmpty(data, "data matrix");
        if (r < 1) {
            throw new IllegalArgumentException("projection dimension r=" + r + " must be >= 1");
        }
        if (generator == null) {
            throw new IllegalArgumentException("generator is null");
        }
        if (firstIndex < 0) {
            throw new IllegalArgumentException("firstIndex=" + firstIndex + " must be >= 0");
        }
        long n = data.rows();
        if (n * r > Long.MAX_VALUE - firstIndex) {
            throw new IllegalArgumentException("n*r=" + (n * r) + " random numbers overflow the counter");
        }
    }
}
