package org.dpgauss.ndis;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.SymmetricEigen;
import org.ejml.data.DMatrixRMaj;

/**
 * The NDIS coefficients of Lemma 1 for an ordered pair X = N(mu1, S1), Y = N(mu2, S2) with positive definite
 * covariances (spec ndis §2): {@code delta_{X,Y}(eps) = E_Z[(1 - exp(g_eps(Z)))_+]},
 * {@code g_eps(z) = c(eps) + b^T z + (1/2) sum_i a_i z_i^2}.
 *
 * <p>Computed as in spec §2.1 (Cholesky whitening by Y): {@code L = chol(S2)}, {@code m = L^{-1}(mu1 - mu2)},
 * {@code R = L^{-1} S1 L^{-T}} (two triangular solves, symmetrised), {@code R = U diag(tau) U^T}
 * (symmetric EVD, ascending), {@code a = 1 - tau}, {@code b_i = -sqrt(tau_i) (U^T m)_i},
 * {@code c(eps) = eps + (1/2) sum log tau_i - (1/2)||m||^2}. No square roots of matrices, no inverses; log det
 * from the eigenvalues. Every matrix step runs through a {@link ComputeEngine}.
 */
public final class NdisCoefficients {

    private final double[] tau;
    private final double[] a;
    private final double[] b;
    private final double halfLogDetRatio;
    private final double mahalanobisSquared;

    private NdisCoefficients(double[] tau, double[] b, double mahalanobisSquared) {
        this.tau = tau;
        this.b = b;
        this.a = new double[tau.length];
        double s = 0;
        for (int i = 0; i < tau.length; i++) {
            a[i] = 1 - tau[i];
            s += Math.log(tau[i]);
        }
        this.halfLogDetRatio = 0.5 * s;
        this.mahalanobisSquared = mahalanobisSquared;
    }

    /**
     * Coefficients for the ordered pair (x, y) (spec §2.1).
     *
     * @throws IllegalArgumentException when the dimensions differ or a covariance is not positive definite (use
     *                                  {@link HockeyStickDivergence}, which handles singular covariances, §11.4)
     */
    public static NdisCoefficients compute(ComputeEngine engine, Gaussian x, Gaussian y) {
        Objects.requireNonNull(engine, "engine");
        checkSameDimension(x, y);
        CholeskyResult chol = engine.cholesky(y.covarianceView());
        if (!chol.isPositiveDefinite()) {
            throw new IllegalArgumentException("covariance of y is not positive definite (Cholesky verdict "
                    + chol.verdict() + " at pivot " + chol.failedPivot() + " = " + chol.pivotValue()
                    + "); Lemma 1 needs S2 > 0 (spec ndis §2, §11.4)");
        }
        return fromCholesky(engine, chol.lower(), x, y);
    }

    /** As {@link #compute} with the Cholesky factor of y's covariance already known. */
    static NdisCoefficients fromCholesky(ComputeEngine engine, DMatrixRMaj lower, Gaussian x, Gaussian y) {
        int d = x.dimension();
        double[] mu1 = x.meanView();
        double[] mu2 = y.meanView();
        DMatrixRMaj diff = new DMatrixRMaj(d, 1);
        for (int i = 0; i < d; i++) {
            diff.data[i] = mu1[i] - mu2[i];
        }
        DMatrixRMaj m = engine.solveLower(lower, diff);
        // R = L^{-1} S1 L^{-T} = L^{-1} (L^{-1} S1)^T since S1 is symmetric
        DMatrixRMaj half = engine.solveLower(lower, x.covarianceView());
        DMatrixRMaj halfT = new DMatrixRMaj(d, d);
        org.ejml.dense.row.CommonOps_DDRM.transpose(half, halfT);
        DMatrixRMaj r = engine.solveLower(lower, halfT);
        return fromInvariantPair(engine, m.data, r);
    }

    /**
     * Coefficients of the invariant pair {@code (m, R)} of spec §2.2: {@code delta_eps(m, R) =
     * delta_{N(m,R), N(0,I)}(eps)}. R is symmetrised before the eigendecomposition.
     *
     * @throws IllegalArgumentException when R is not positive definite
     */
    public static NdisCoefficients fromInvariantPair(ComputeEngine engine, double[] m, DMatrixRMaj r) {
        int d = m.length;
        if (r.numRows != d || r.numCols != d) {
            throw new IllegalArgumentException("R is " + r.numRows + " x " + r.numCols + " but m has length " + d);
        }
        DMatrixRMaj sym = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                sym.unsafe_set(i, j, 0.5 * (r.unsafe_get(i, j) + r.unsafe_get(j, i)));
            }
        }
        SymmetricEigen eig = engine.symmetricEigen(sym);
        double[] tau = eig.values();
        DMatrixRMaj u = eig.vectors();
        double[] b = new double[d];
        double m2 = 0;
        for (int i = 0; i < d; i++) {
            m2 += m[i] * m[i];
        }
        for (int k = 0; k < d; k++) {
            if (!(tau[k] > 0)) {
                throw new IllegalArgumentException("R has eigenvalue tau[" + k + "] = " + tau[k]
                        + "; Lemma 1 needs R positive definite (spec ndis §2)");
            }
            double s = 0;
            for (int i = 0; i < d; i++) {
                s += u.unsafe_get(i, k) * m[i];
            }
            b[k] = -Math.sqrt(tau[k]) * s;
        }
        return new NdisCoefficients(tau, b, m2);
    }

    /**
     * Coefficients for a diagonal R = diag(tau) and mean m in the same coordinates (U = I): {@code b_i =
     * -sqrt(tau_i) m_i}. Used by the analytic bounds and tests.
     */
    public static NdisCoefficients diagonal(double[] tau, double[] m) {
        if (tau.length != m.length) {
            throw new IllegalArgumentException("tau has length " + tau.length + " but m has length " + m.length);
        }
        double[] t = tau.clone();
        double[] b = new double[t.length];
        double m2 = 0;
        for (int i = 0; i < t.length; i++) {
            if (!(t[i] > 0) || !Double.isFinite(t[i])) {
                throw new IllegalArgumentException("tau[" + i + "] = " + t[i] + " must be finite and > 0");
            }
            if (!Double.isFinite(m[i])) {
                throw new IllegalArgumentException("m[" + i + "] = " + m[i] + " must be finite");
            }
            b[i] = -Math.sqrt(t[i]) * m[i];
            m2 += m[i] * m[i];
        }
        return new NdisCoefficients(t, b, m2);
    }

    static void checkSameDimension(Gaussian x, Gaussian y) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(y, "y");
        if (x.dimension() != y.dimension()) {
            throw new IllegalArgumentException("x has dimension " + x.dimension() + " but y has dimension "
                    + y.dimension() + "; the two Gaussians must live on the same space");
        }
    }

    public int dimension() {
        return tau.length;
    }

    /** Generalized eigenvalues of the pencil (S1, S2), ascending (a copy). */
    public double[] tau() {
        return tau.clone();
    }

    /** {@code a_i = 1 - tau_i} (a copy). */
    public double[] a() {
        return a.clone();
    }

    /** {@code b = -diag(sqrt(tau)) U^T m} (a copy). */
    public double[] b() {
        return b.clone();
    }

    /** {@code c(eps) = eps + (1/2) log(det S1 / det S2) - (1/2) ||m||^2}. */
    public double c(double epsilon) {
        return epsilon + halfLogDetRatio - 0.5 * mahalanobisSquared;
    }

    /** {@code (1/2) log(det S1 / det S2) = (1/2) sum_i log tau_i}. */
    public double halfLogDetRatio() {
        return halfLogDetRatio;
    }

    /** {@code ||m||^2 = (mu1-mu2)^T S2^{-1} (mu1-mu2)}, the squared Mahalanobis distance under Y's covariance. */
    public double mahalanobisSquared() {
        return mahalanobisSquared;
    }

    double[] tauView() {
        return tau;
    }

    double[] aView() {
        return a;
    }

    double[] bView() {
        return b;
    }
}
