package org.dpgauss.mean.anisotropic;

import java.util.Objects;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.SymmetricEigen;
import org.ejml.data.DMatrixRMaj;

/**
 * The public positive-definite matrix {@code M} of Algorithm 1 (spec anisotropic-mean-estimation §3.1–§3.2),
 * stored by its eigendecomposition {@code M = U diag(m) U^T} so that every fractional power
 * {@code M^p = U diag(m^p) U^T} is available: the predicate uses {@code M^{-1/4}}, the noise {@code M^{1/4}}
 * (covariance proportional to {@code M^{1/2}}).
 *
 * <p>Three forms: {@link #identity(int)} (the folklore estimator, {@code M = I}), {@link #diagonal(double[])}
 * (no eigendecomposition, O(d) per row) and {@link #of(DMatrixRMaj)} (dense, e.g. a known covariance
 * {@code Sigma}). Spec §9 A2: M must be symmetric (relative {@code 1e-12}) and positive definite; a singular M
 * (Remark 1, projection onto range(M)) is not supported here and is rejected. Immutable.
 */
public final class ShapeMatrix implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /** Relative symmetry tolerance of spec §9 A2. */
    static final double SYMMETRY_TOLERANCE = 1e-12;

    private final int d;
    private final double[] eigenvalues;   // m_i > 0 (diagonal entries for a diagonal M)
    private final DMatrixRMaj vectors;    // U (columns), or null when M is diagonal in the standard basis
    private final boolean identity;

    private ShapeMatrix(double[] eigenvalues, DMatrixRMaj vectors, boolean identity) {
        this.d = eigenvalues.length;
        this.eigenvalues = eigenvalues;
        this.vectors = vectors;
        this.identity = identity;
    }

    /**
     * @param d the dimension, {@code >= 1}
     * @return {@code M = I_d} (the folklore estimator, spec §3.2)
     */
    public static ShapeMatrix identity(int d) {
        checkDimension(d);
        double[] ones = new double[d];
        java.util.Arrays.fill(ones, 1.0);
        return new ShapeMatrix(ones, null, true);
    }

    /**
     * @param entries the diagonal of M, every entry finite and {@code > 0}; copied
     * @return {@code M = diag(entries)}
     * @throws IllegalArgumentException naming the first entry that is not finite and positive
     */
    public static ShapeMatrix diagonal(double[] entries) {
        Objects.requireNonNull(entries, "diagonal of M");
        checkDimension(entries.length);
        for (int i = 0; i < entries.length; i++) {
            if (!(entries[i] > 0) || !Double.isFinite(entries[i])) {
                throw new IllegalArgumentException("M[" + i + "][" + i + "]=" + entries[i] + " is outside (0, inf):"
                        + " M must be positive definite for its powers M^(-1/4) and M^(1/4) (spec §9 A2)");
            }
        }
        return new ShapeMatrix(entries.clone(), null, false);
    }

    /**
     * A dense symmetric positive-definite M, e.g. the known covariance proxy {@code Sigma} (spec §3.2).
     *
     * @param m a square matrix, finite, symmetric within a relative {@code 1e-12}; copied
     * @return M by its eigendecomposition
     * @throws IllegalArgumentException if M is not square, not finite, not symmetric or not positive definite
     */
    public static ShapeMatrix of(DMatrixRMaj m) {
        Objects.requireNonNull(m, "M");
        if (m.numRows != m.numCols) {
            throw new IllegalArgumentException("M is " + m.numRows + " x " + m.numCols + ": it must be square");
        }
        checkDimension(m.numRows);
        int d = m.numRows;
        double maxAbs = 0;
        for (int i = 0; i < d * d; i++) {
            double v = m.data[i];
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("M[" + (i / d) + "][" + (i % d) + "]=" + v + " is not finite");
            }
            maxAbs = Math.max(maxAbs, Math.abs(v));
        }
        for (int i = 0; i < d; i++) {
            for (int j = i + 1; j < d; j++) {
                double a = m.get(i, j);
                double b = m.get(j, i);
                if (Math.abs(a - b) > SYMMETRY_TOLERANCE * maxAbs) {
                    throw new IllegalArgumentException("M[" + i + "][" + j + "]=" + a + " differs from M[" + j + "]["
                            + i + "]=" + b + " by more than the relative tolerance 1e-12: M must be symmetric for"
                            + " its fractional powers to be defined (spec §9 A2)");
                }
            }
        }
        DMatrixRMaj sym = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                sym.set(i, j, 0.5 * (m.get(i, j) + m.get(j, i)));
            }
        }
        SymmetricEigen eig = CpuEngine.instance().symmetricEigen(sym);
        double[] values = eig.values();
        if (!(values[0] > 0)) {
            throw new IllegalArgumentException("M has smallest eigenvalue " + values[0] + ", outside (0, inf): M must"
                    + " be positive definite (spec §9 A2; for a singular M project the data onto range(M) first,"
                    + " Remark 1 of spec §3.2)");
        }
        return new ShapeMatrix(values, eig.vectors(), false);
    }

    /** @return the dimension d */
    public int dimension() {
        return d;
    }

    /** @return true for {@code M = I} (the folklore estimator) */
    public boolean isIdentity() {
        return identity;
    }

    /** @return true when M is diagonal in the standard basis (identity included) */
    public boolean isDiagonal() {
        return vectors == null;
    }

    /** @return the eigenvalues of M (for a diagonal M: its diagonal, in coordinate order), a copy */
    public double[] eigenvalues() {
        return eigenvalues.clone();
    }

    /**
     * @param p the power
     * @return {@code tr(M^p) = sum_i m_i^p}
     */
    public double tracePower(double p) {
        double s = 0;
        for (double m : eigenvalues) {
            s += Math.pow(m, p);
        }
        return s;
    }

    /**
     * @param p the power
     * @return {@code ||M^p||_2 = max_i m_i^p}
     */
    public double normPower(double p) {
        double s = 0;
        for (double m : eigenvalues) {
            s = Math.max(s, Math.pow(m, p));
        }
        return s;
    }

    /**
     * {@code out = M^p v}.
     *
     * @param p the power
     * @param v a vector of length d (not modified)
     * @param out the result, length d, may not alias v when M is dense
     */
    public void applyPower(double p, double[] v, double[] out) {
        if (identity) {
            System.arraycopy(v, 0, out, 0, d);
            return;
        }
        if (vectors == null) {
            for (int i = 0; i < d; i++) {
                out[i] = Math.pow(eigenvalues[i], p) * v[i];
            }
            return;
        }
        double[] coef = new double[d];
        for (int k = 0; k < d; k++) {          // coef = diag(m^p) U^T v
            double s = 0;
            for (int i = 0; i < d; i++) {
                s += vectors.get(i, k) * v[i];
            }
            coef[k] = Math.pow(eigenvalues[k], p) * s;
        }
        for (int i = 0; i < d; i++) {          // out = U coef
            double s = 0;
            for (int k = 0; k < d; k++) {
                s += vectors.get(i, k) * coef[k];
            }
            out[i] = s;
        }
    }

    /**
     * @param p the power
     * @return the dense matrix {@code M^p}
     */
    public DMatrixRMaj matrixPower(double p) {
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        double[] e = new double[d];
        double[] col = new double[d];
        for (int j = 0; j < d; j++) {
            java.util.Arrays.fill(e, 0);
            e[j] = 1;
            applyPower(p, e, col);
            for (int i = 0; i < d; i++) {
                out.set(i, j, col[i]);
            }
        }
        return out;
    }

    private static void checkDimension(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("dimension d=" + d + " is outside [1, inf): M needs a coordinate");
        }
    }

    @Override
    public String toString() {
        return identity ? "M = I_" + d : (vectors == null ? "M = diag(" + d + ")" : "M dense " + d + "x" + d);
    }
}
