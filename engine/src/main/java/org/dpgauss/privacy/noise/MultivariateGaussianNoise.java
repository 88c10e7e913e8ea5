package org.dpgauss.privacy.noise;

import java.util.Objects;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Correlated Gaussian noise {@code N(0, A A^T)}, as {@code A z} with {@code z} a vector of independent secure
 * draws ({@link SecureGaussianSampler} with {@code sigma = 1}: exact discrete Gaussians with parameter
 * {@code 2^20} on the grid {@code 2^-20}).
 *
 * <p><b>Floating-point caveat.</b> The draws {@code z} are exact, but {@code A z} and its addition to a query are
 * floating-point operations, so the released vector is <em>not</em> an exact grid point and Mironov-style
 * attacks are not excluded by construction. The hardened pattern for a correlated Gaussian mechanism
 * {@code f(x) + A z} with invertible {@code A} is to release in whitened coordinates:
 * {@code w = g (round(A^{-1} f(x) / g) + Z)} with {@link SecureGaussianSampler#sampleIndex} (an exact grid point,
 * with sensitivity {@code sup ||A^{-1}(f(x) - f(x'))||_2 + g sqrt(d)}), then publish {@code A w}, which is
 * post-processing and costs no privacy. This class serves simulation, auditing and mechanisms whose analysis
 * already treats {@code A z} as given.
 *
 * <p>Immutable apart from the random source; not thread-safe unless the source is.
 */
public final class MultivariateGaussianNoise {

    private final DMatrixRMaj factor; // d x m
    private final SecureGaussianSampler sampler;

    private MultivariateGaussianNoise(DMatrixRMaj factor, SecureGaussianSampler sampler) {
        this.factor = factor;
        this.sampler = sampler;
    }

    /**
     * Noise {@code A z} with covariance {@code A A^T}, drawing from {@link RandomSource#secure()}.
     *
     * @param a the {@code d x m} factor, finite entries, copied
     * @return the noise generator
     */
    public static MultivariateGaussianNoise of(DMatrixRMaj a) {
        return of(a, RandomSource.secure());
    }

    /**
     * @param a the {@code d x m} factor, finite entries, copied
     * @param random the random source (tests may pass {@link RandomSource#insecureSeeded})
     * @return the noise generator
     */
    public static MultivariateGaussianNoise of(DMatrixRMaj a, RandomSource random) {
        Objects.requireNonNull(a, "a");
        if (a.numRows < 1 || a.numCols < 1) {
            throw new IllegalArgumentException("factor A is " + a.numRows + "x" + a.numCols
                    + ": it needs at least one row and one column");
        }
        checkFinite("factor A", a);
        return new MultivariateGaussianNoise(a.copy(), SecureGaussianSampler.using(random));
    }

    /**
     * Noise with covariance {@code cov}: the factor is the lower Cholesky factor when {@code cov} is positive
     * definite, otherwise {@code V sqrt(Lambda)} from the symmetric eigendecomposition when it is positive
     * semidefinite (eigenvalues {@code >= -1e-12 * d * max|lambda|} are clamped to 0).
     *
     * @param cov a symmetric positive semidefinite {@code d x d} matrix, finite entries
     * @param random the random source
     * @return the noise generator
     * @throws IllegalArgumentException if {@code cov} is not square, not symmetric (relative {@code 1e-12}),
     *         not finite, or has a clearly negative eigenvalue (naming it)
     */
    public static MultivariateGaussianNoise ofCovariance(DMatrixRMaj cov, RandomSource random) {
        Objects.requireNonNull(cov, "cov");
        int d = cov.numRows;
        if (d < 1 || cov.numCols != d) {
            throw new IllegalArgumentException("covariance is " + cov.numRows + "x" + cov.numCols
                    + ": it must be square and non-empty");
        }
        checkFinite("covariance", cov);
        double max = 0;
        for (int i = 0; i < d * d; i++) {
            max = Math.max(max, Math.abs(cov.data[i]));
        }
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                if (Math.abs(cov.get(i, j) - cov.get(j, i)) > 1e-12 * max) {
                    // entries and eigenvalues are not printed: the covariance can be computed from private data
                    // (the NDIS mechanisms' A A^T; issue 24, item 2)
                    throw new IllegalArgumentException("covariance is not symmetric: entries (" + i + "," + j
                            + ") and (" + j + "," + i + ") differ beyond 1e-12 max|entry|");
                }
            }
        }
        CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(d, true);
        DMatrixRMaj work = cov.copy();
        if (chol.decompose(work)) {
            DMatrixRMaj l = chol.getT(null);
            boolean ok = true;
            for (int i = 0; i < d && ok; i++) {
                ok = l.get(i, i) > 0 && Double.isFinite(l.get(i, i));
            }
            if (ok) {
                return of(l, random);
            }
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, true, true);
        if (!eig.decompose(cov.copy())) {
            throw new IllegalArgumentException("covariance: the eigendecomposition failed to converge");
        }
        double tolerance = 1e-12 * d * max;
        DMatrixRMaj a = new DMatrixRMaj(d, d);
        for (int k = 0; k < d; k++) {
            double lambda = eig.getEigenvalue(k).getReal();
            if (lambda < -tolerance) {
                throw new IllegalArgumentException("covariance is not positive semidefinite: it has an eigenvalue"
                        + " below -1e-12 * d * max|entry|; a covariance cannot give negative variance to any"
                        + " direction");
            }
            double s = Math.sqrt(Math.max(0, lambda));
            DMatrixRMaj v = eig.getEigenVector(k);
            for (int i = 0; i < d; i++) {
                a.set(i, k, s * v.get(i));
            }
        }
        return of(a, random);
    }

    /**
     * @param cov the covariance, see {@link #ofCovariance(DMatrixRMaj, RandomSource)}
     * @return the generator drawing from {@link RandomSource#secure()}
     */
    public static MultivariateGaussianNoise ofCovariance(DMatrixRMaj cov) {
        return ofCovariance(cov, RandomSource.secure());
    }

    /** @return the dimension {@code d} of the noise */
    public int dimension() {
        return factor.numRows;
    }

    /** @return a copy of the factor {@code A} */
    public DMatrixRMaj factor() {
        return factor.copy();
    }

    /** @return one draw of {@code A z} */
    public double[] sample() {
        int d = factor.numRows;
        int m = factor.numCols;
        double[] z = new double[m];
        sampler.sample(z, 1.0);
        double[] out = new double[d];
        for (int i = 0; i < d; i++) {
            double s = 0;
            int row = i * m;
            for (int k = 0; k < m; k++) {
                s += factor.data[row + k] * z[k];
            }
            out[i] = s;
        }
        return out;
    }

    private static void checkFinite(String name, DMatrixRMaj m) {
        for (int i = 0; i < m.numRows; i++) {
            for (int j = 0; j < m.numCols; j++) {
                double v = m.get(i, j);
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException(name + " entry (" + i + "," + j + ")=" + v
                            + " is not finite");
                }
            }
        }
    }
}
