package org.dpgauss.secondmoment;

import java.util.Arrays;
import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The primitives and error metrics of spec second-moment-estimation §2.1 and §4.3 on small {@code d x d}
 * matrices (EJML, CPU): {@code SecondMoment}, {@code GenEig}, {@code Dist}, {@code PsdSqrt}, the PSD projection,
 * the spectral norm and the relative spectral error {@code ||S^-1/2 S~ S^-1/2 - I||_2}. Nothing here is private:
 * these are for post-processing (PSD projection), baselines and evaluation against the non-private matrix.
 */
public final class SpectralMetrics {

    private SpectralMetrics() {
    }

    /**
     * {@code SecondMoment(X) = (1/n) sum_i x_i x_i^T} (spec §2.1), through the engine's weighted Gram.
     *
     * @param x the rows, {@code n >= 1}
     * @param engine the compute engine
     * @return the {@code d x d} uncentred second-moment matrix
     */
    public static DMatrixRMaj secondMoment(RowBlockMatrix x, ComputeEngine engine) {
        Objects.requireNonNull(x, "x");
        if (x.rows() < 1) {
            throw new IllegalArgumentException("x has no rows: the second moment needs n >= 1");
        }
        return engine.weightedGram(x, null, null, x.rows());
    }

    /**
     * The spectral norm {@code ||A||_2} (largest singular value).
     *
     * @param a any finite matrix
     * @return the norm
     */
    public static double spectralNorm(DMatrixRMaj a) {
        Objects.requireNonNull(a, "a");
        return NormOps_DDRM.normP2(a);
    }

    /**
     * Eigenvalues of a symmetric matrix (its upper triangle is read), ascending.
     *
     * @param s symmetric {@code d x d}
     * @return the eigenvalues
     */
    public static double[] eigenvalues(DMatrixRMaj s) {
        DMatrixRMaj sym = SymmetricGaussianNoise.symmetricCopy(s);
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(sym.numRows, false, true);
        if (!eig.decompose(sym)) {
            throw new ArithmeticException("symmetric eigendecomposition did not converge");
        }
        double[] v = new double[sym.numRows];
        for (int k = 0; k < v.length; k++) {
            v[k] = eig.getEigenvalue(k).getReal();
        }
        Arrays.sort(v);
        return v;
    }

    /**
     * {@code GenEig(B, A)} (spec §2.1): the generalised eigenvalues {@code mu} of {@code B v = mu A v}, ascending,
     * computed as the eigenvalues of {@code L^-1 B L^-T} with {@code A = L L^T}.
     *
     * @param b symmetric {@code d x d}
     * @param a symmetric positive definite {@code d x d}
     * @return the generalised eigenvalues, ascending
     * @throws ArithmeticException if {@code a} is not (numerically) positive definite
     */
    public static double[] generalizedEigenvalues(DMatrixRMaj b, DMatrixRMaj a) {
        return eigenvalues(whiten(b, a));
    }

    /**
     * The relative spectral error {@code ||S^-1/2 S~ S^-1/2 - I||_2 = max_j |mu_j - 1|} with
     * {@code mu = GenEig(S~, S)} (spec §4.3); the headline metric.
     *
     * @param truth {@code S}, symmetric positive definite (the non-private second moment)
     * @param estimate {@code S~}, symmetric
     * @return the error
     */
    public static double relativeSpectralError(DMatrixRMaj truth, DMatrixRMaj estimate) {
        double[] mu = generalizedEigenvalues(estimate, truth);
        return Math.max(Math.abs(mu[0] - 1), Math.abs(mu[mu.length - 1] - 1));
    }

    /**
     * The Mahalanobis-Frobenius error {@code ||S^-1/2 S~ S^-1/2 - I||_F} (the CoinPress metric, spec §4.3).
     *
     * @param truth {@code S}, symmetric positive definite
     * @param estimate {@code S~}, symmetric
     * @return the error
     */
    public static double mahalanobisFrobeniusError(DMatrixRMaj truth, DMatrixRMaj estimate) {
        double s = 0;
        for (double m : generalizedEigenvalues(estimate, truth)) {
            s += (m - 1) * (m - 1);
        }
        return Math.sqrt(s);
    }

    /**
     * {@code Dist(A, B)} (spec §2.1, Lemma A.2): {@code +inf} if either matrix is not positive definite, otherwise
     * {@code max_j max(|mu_j - 1|, |1/mu_j - 1|)} with {@code mu = GenEig(B, A)}.
     *
     * @param a symmetric {@code d x d}
     * @param b symmetric {@code d x d}
     * @return the distance, possibly {@code +inf}
     */
    public static double dist(DMatrixRMaj a, DMatrixRMaj b) {
        if (!isPositiveDefinite(a) || !isPositiveDefinite(b)) {
            return Double.POSITIVE_INFINITY;
        }
        double[] mu;
        try {
            mu = generalizedEigenvalues(b, a);
        } catch (ArithmeticException e) {
            return Double.POSITIVE_INFINITY;
        }
        double worst = 0;
        for (double m : mu) {
            if (!(m > 0)) {
                return Double.POSITIVE_INFINITY;
            }
            worst = Math.max(worst, Math.max(Math.abs(m - 1), Math.abs(1 / m - 1)));
        }
        return worst;
    }

    /**
     * The Euclidean projection onto the PSD cone: {@code V diag(max(lambda_j, floor)) V^T}. Post-processing of a
     * private matrix, so it costs no privacy.
     *
     * @param s symmetric {@code d x d} (upper triangle read)
     * @param floor the eigenvalue floor, finite and {@code >= 0} ({@code 0}: the PSD projection)
     * @return the projected symmetric matrix
     */
    public static DMatrixRMaj psdProjection(DMatrixRMaj s, double floor) {
        if (!(floor >= 0) || Double.isInfinite(floor)) {
            throw new IllegalArgumentException("floor=" + floor + " is outside [0, inf): an eigenvalue floor of a PSD"
                    + " projection must be finite and non-negative");
        }
        return spectralFunction(s, lambda -> Math.max(lambda, floor));
    }

    /**
     * {@code PsdSqrt(S) = V diag(sqrt(max(lambda_j, 0))) V^T} (spec §2.1).
     *
     * @param s symmetric {@code d x d}
     * @return the PSD square root of its PSD part
     */
    public static DMatrixRMaj psdSqrt(DMatrixRMaj s) {
        return spectralFunction(s, lambda -> Math.sqrt(Math.max(lambda, 0)));
    }

    /**
     * @param s symmetric {@code d x d}
     * @return whether a Cholesky factorisation succeeds with a positive, finite diagonal
     */
    public static boolean isPositiveDefinite(DMatrixRMaj s) {
        return cholesky(s) != null;
    }

    /** {@code L^-1 B L^-T} with {@code A = L L^T}, symmetrised. */
    static DMatrixRMaj whiten(DMatrixRMaj b, DMatrixRMaj a) {
        DMatrixRMaj bs = SymmetricGaussianNoise.symmetricCopy(b);
        DMatrixRMaj l = cholesky(a);
        if (l == null) {
            throw new ArithmeticException("the reference matrix is not positive definite: GenEig and the relative"
                    + " spectral error need a positive definite reference");
        }
        if (bs.numRows != l.numRows) {
            throw new IllegalArgumentException("matrices are " + bs.numRows + "x" + bs.numRows + " and " + l.numRows
                    + "x" + l.numRows + ": they must have the same dimension");
        }
        DMatrixRMaj t = bs.copy();
        solveLowerInPlace(l, t); // L^-1 B
        CommonOps_DDRM.transpose(t);
        solveLowerInPlace(l, t); // L^-1 (L^-1 B)^T = L^-1 B L^-T
        return SymmetricGaussianNoise.symmetricCopy(symmetrise(t));
    }

    private static DMatrixRMaj symmetrise(DMatrixRMaj t) {
        int d = t.numRows;
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                out.set(i, j, 0.5 * (t.get(i, j) + t.get(j, i)));
            }
        }
        return out;
    }

    /** Forward substitution {@code B <- L^-1 B}, column by column. */
    private static void solveLowerInPlace(DMatrixRMaj l, DMatrixRMaj b) {
        int d = l.numRows;
        for (int c = 0; c < b.numCols; c++) {
            for (int i = 0; i < d; i++) {
                double s = b.get(i, c);
                for (int k = 0; k < i; k++) {
                    s -= l.get(i, k) * b.get(k, c);
                }
                b.set(i, c, s / l.get(i, i));
            }
        }
    }

    /** The lower Cholesky factor, or null if the matrix is not numerically positive definite. */
    static DMatrixRMaj cholesky(DMatrixRMaj s) {
        DMatrixRMaj sym = SymmetricGaussianNoise.symmetricCopy(s);
        CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(sym.numRows, true);
        if (!chol.decompose(sym)) {
            return null;
        }
        DMatrixRMaj l = chol.getT(null);
        for (int i = 0; i < l.numRows; i++) {
            double v = l.get(i, i);
            if (!(v > 0) || !Double.isFinite(v)) {
                return null;
            }
        }
        return l;
    }

    /**
     * {@code V diag(f(lambda_j)) V^T} for symmetric {@code s} (upper triangle read).
     *
     * @param s symmetric {@code d x d}
     * @param f the function applied to each eigenvalue
     * @return the symmetric result
     */
    static DMatrixRMaj spectralMap(DMatrixRMaj s, java.util.function.DoubleUnaryOperator f) {
        return spectralFunction(s, f);
    }

    private static DMatrixRMaj spectralFunction(DMatrixRMaj s, java.util.function.DoubleUnaryOperator f) {
        DMatrixRMaj sym = SymmetricGaussianNoise.symmetricCopy(s);
        int d = sym.numRows;
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, true, true);
        if (!eig.decompose(sym.copy())) {
            throw new ArithmeticException("symmetric eigendecomposition did not converge");
        }
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        double[] o = out.data;
        for (int k = 0; k < d; k++) {
            double w = f.applyAsDouble(eig.getEigenvalue(k).getReal());
            DMatrixRMaj vk = eig.getEigenVector(k);
            double nv = NormOps_DDRM.normF(vk);
            w /= nv * nv; // EJML's vectors are orthogonal; normalise them to be safe
            double[] v = vk.data; // a d x 1 vector: entry i at index i
            for (int i = 0; i < d; i++) { // the rank-one sums on the raw arrays, in the same order
                double vi = w * v[i];
                int row = i * d;
                for (int j = 0; j < d; j++) {
                    o[row + j] += vi * v[j];
                }
            }
        }
        return SymmetricGaussianNoise.symmetricCopy(symmetrise(out));
    }
}
