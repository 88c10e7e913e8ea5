package org.dpgauss.ndis;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * A multivariate normal distribution {@code N(mean, covariance)} on R^d (spec ndis §0, §2). Immutable; the
 * accessors return defensive copies.
 *
 * <p>Validation in the factories: dimensions match, every entry is finite, the covariance is square and
 * symmetric within a relative tolerance ({@link #SYMMETRY_TOLERANCE} times the largest |entry|); the stored
 * covariance is the exact symmetrisation {@code (S + S^T)/2}. Positive semidefiniteness is checked where it is
 * used ({@link HockeyStickDivergence}), because a singular covariance is legitimate (spec §11.4).
 */
public final class Gaussian {

    /** Relative tolerance on {@code |S_ij - S_ji|}, relative to {@code max |S_kl|}. */
    public static final double SYMMETRY_TOLERANCE = 1e-10;

    private final double[] mean;
    private final DMatrixRMaj covariance;

    private Gaussian(double[] mean, DMatrixRMaj covariance) {
        this.mean = mean;
        this.covariance = covariance;
    }

    /**
     * @param mean       the mean, length d >= 1, finite
     * @param covariance the d x d covariance (rows), finite and symmetric
     * @return the distribution
     * @throws IllegalArgumentException naming the parameter, value and allowed range when invalid
     */
    public static Gaussian of(double[] mean, double[][] covariance) {
        Objects.requireNonNull(covariance, "covariance");
        int d = covariance.length;
        DMatrixRMaj c = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            if (covariance[i] == null || covariance[i].length != d) {
                throw new IllegalArgumentException("covariance must be square: row " + i + " has length "
                        + (covariance[i] == null ? "null" : covariance[i].length) + ", expected " + d
                        + " (the number of rows)");
            }
            for (int j = 0; j < d; j++) {
                c.unsafe_set(i, j, covariance[i][j] + 0.0);
            }
        }
        return build(mean, c);
    }

    /** As {@link #of(double[], double[][])} with the covariance as an EJML matrix (copied). */
    public static Gaussian of(double[] mean, DMatrixRMaj covariance) {
        Objects.requireNonNull(covariance, "covariance");
        if (covariance.numRows != covariance.numCols) {
            throw new IllegalArgumentException("covariance must be square, got " + covariance.numRows + " x "
                    + covariance.numCols);
        }
        return build(mean, covariance.copy());
    }

    /** The standard normal N(0, I_d). */
    public static Gaussian standard(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension = " + dimension + " must be >= 1");
        }
        DMatrixRMaj c = new DMatrixRMaj(dimension, dimension);
        for (int i = 0; i < dimension; i++) {
            c.unsafe_set(i, i, 1);
        }
        return new Gaussian(new double[dimension], c);
    }

    private static Gaussian build(double[] mean, DMatrixRMaj c) {
        Objects.requireNonNull(mean, "mean");
        int d = mean.length;
        if (d < 1) {
            throw new IllegalArgumentException("mean has length 0; the dimension must be >= 1");
        }
        if (c.numRows != d) {
            throw new IllegalArgumentException("covariance is " + c.numRows + " x " + c.numCols
                    + " but mean has length " + d + "; they must have the same dimension");
        }
        for (int i = 0; i < d; i++) {
            if (!Double.isFinite(mean[i])) {
                throw new IllegalArgumentException("mean[" + i + "] = " + mean[i] + " must be finite");
            }
        }
        double maxAbs = 0;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double v = c.unsafe_get(i, j);
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("covariance[" + i + "][" + j + "] = " + v + " must be finite");
                }
                maxAbs = Math.max(maxAbs, Math.abs(v));
            }
        }
        double tol = SYMMETRY_TOLERANCE * maxAbs;
        for (int i = 0; i < d; i++) {
            c.unsafe_set(i, i, c.unsafe_get(i, i) + 0.0);
            if (c.unsafe_get(i, i) < 0) {
                throw new IllegalArgumentException("covariance[" + i + "][" + i + "] = " + c.unsafe_get(i, i)
                        + " must be >= 0 (a variance)");
            }
            for (int j = i + 1; j < d; j++) {
                double a = c.unsafe_get(i, j);
                double b = c.unsafe_get(j, i);
                if (Math.abs(a - b) > tol) {
                    throw new IllegalArgumentException("covariance must be symmetric: [" + i + "][" + j + "] = " + a
                            + " but [" + j + "][" + i + "] = " + b + " (allowed difference " + tol
                            + " = " + SYMMETRY_TOLERANCE + " * max|entry|)");
                }
                double s = 0.5 * (a + b) + 0.0;
                c.unsafe_set(i, j, s);
                c.unsafe_set(j, i, s);
            }
        }
        double[] m = mean.clone();
        for (int i = 0; i < d; i++) {
            m[i] += 0.0; // normalise -0.0 so that equality tests see one zero
        }
        return new Gaussian(m, c);
    }

    public int dimension() {
        return mean.length;
    }

    /** @return a copy of the mean */
    public double[] mean() {
        return mean.clone();
    }

    /** @return a copy of the (symmetrised) covariance */
    public DMatrixRMaj covariance() {
        return covariance.copy();
    }

    /** @return a copy of the covariance as rows */
    public double[][] covarianceArray() {
        int d = mean.length;
        double[][] out = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                out[i][j] = covariance.unsafe_get(i, j);
            }
        }
        return out;
    }

    /** Shared read-only access for this package (no copy). */
    double[] meanView() {
        return mean;
    }

    DMatrixRMaj covarianceView() {
        return covariance;
    }

    /** Exact equality of the covariances (bitwise after symmetrisation). */
    boolean sameCovariance(Gaussian other) {
        return Arrays.equals(covariance.data, other.covariance.data);
    }

    boolean sameMean(Gaussian other) {
        return Arrays.equals(mean, other.mean);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gaussian g && sameMean(g) && sameCovariance(g);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(mean) + Arrays.hashCode(covariance.data);
    }

    @Override
    public String toString() {
        return "Gaussian[d=" + mean.length + "]";
    }
}
