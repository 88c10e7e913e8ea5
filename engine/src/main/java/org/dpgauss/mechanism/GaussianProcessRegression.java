package org.dpgauss.mechanism;

import java.util.Objects;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.LoewnerComparableBound.Variant;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * Private Gaussian-process regression at one public query point (spec ndis §6.7, Def. 8, Prop. 8): release
 * {@code N(mu*, Sigma* + sigma*)} with {@code mu* = k*^T A^{-1} y}, {@code Sigma* = k** - k*^T A^{-1} k*},
 * {@code A = K + sigma_n^2 I}.
 *
 * <p><b>Guarantee.</b> {@code (epsilon, delta)}-DP under <b>add/remove</b> neighbours for records {@code (x, y)}
 * with {@code |y| <= B}, a kernel with {@code k(x, x) <= l^2} for all x, and datasets of at most the public size n
 * (spec §11.2). Sensitivities (sigma a variance, m = 1): {@code Delta = l B sqrt(n) / (sigma_n sqrt(sigma))},
 * {@code rhoInf = nu = log((sigma + l^2)/sigma)}. Calibration: {@link NdisGaussianMechanism}; with m = 1 the exact
 * hard covariance term of the default bound is Lemma 4 with r = 1, whose monotonicity is Prop. 4.
 *
 * <p>Cost: a Cholesky factorisation of the n x n matrix A (n^3/3 flops, n^2 doubles): intended for n up to a few
 * thousand (spec §10). Immutable.
 */
public final class GaussianProcessRegression {

    /** A positive-definite kernel with a public bound on its diagonal. */
    public interface Kernel {
        /** @return k(a, b) */
        double value(double[] a, double[] b);

        /** @return {@code l^2 >= sup_x k(x, x)} */
        double diagonalBound();

        /** @return a short description */
        String describe();
    }

    /**
     * The RBF kernel {@code k(a, b) = s^2 exp(-||a - b||^2 / (2 h^2))}, diagonal bound {@code s^2}.
     *
     * @param variance the signal variance {@code s^2 > 0}
     * @param lengthscale {@code h > 0}
     * @return the kernel
     */
    public static Kernel rbf(double variance, double lengthscale) {
        positive("variance", variance, "the RBF signal variance k(x,x) must be positive");
        positive("lengthscale", lengthscale, "the RBF lengthscale must be positive");
        return new Kernel() {
            @Override
            public double value(double[] a, double[] b) {
                double s = 0;
                for (int i = 0; i < a.length; i++) {
                    double t = a[i] - b[i];
                    s += t * t;
                }
                return variance * Math.exp(-s / (2 * lengthscale * lengthscale));
            }

            @Override
            public double diagonalBound() {
                return variance;
            }

            @Override
            public String describe() {
                return "rbf(variance=" + variance + ", lengthscale=" + lengthscale + ")";
            }
        };
    }

    private final Kernel kernel;
    private final double noiseVariance;
    private final double labelBound;
    private final int maxRows;
    private final double[] query;
    private final NdisGaussianMechanism mechanism;

    private GaussianProcessRegression(Kernel kernel, double noiseVariance, double labelBound, int maxRows,
            double[] query, NdisGaussianMechanism mechanism) {
        this.kernel = kernel;
        this.noiseVariance = noiseVariance;
        this.labelBound = labelBound;
        this.maxRows = maxRows;
        this.query = query;
        this.mechanism = mechanism;
    }

    /**
     * @param kernel the kernel (its diagonal bound is the public {@code l^2})
     * @param noiseVariance the GP noise variance {@code sigma_n^2 > 0}
     * @param labelBound the public bound B on {@code |y|}, {@code > 0}
     * @param maxRows the public maximum dataset size n, {@code >= 1}
     * @param query the public query point x*
     * @param epsilon finite, {@code >= 0}
     * @param delta in {@code (0, 1)}
     * @param variant the bound ({@link NdisGaussianMechanism#DEFAULT_VARIANT} unless reproducing the paper)
     * @return the calibrated mechanism
     */
    public static GaussianProcessRegression of(Kernel kernel, double noiseVariance, double labelBound, int maxRows,
            double[] query, double epsilon, double delta, Variant variant) {
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(query, "query");
        positive("noiseVariance", noiseVariance, "the GP noise variance sigma_n^2 keeps A = K + sigma_n^2 I invertible"
                + " and bounds the sensitivity");
        positive("labelBound", labelBound, "the public bound B on |y| must be positive");
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows=" + maxRows + " is outside [1, inf): the public maximum "
                    + "dataset size n enters the sensitivity (spec ndis §6.7, §11.2)");
        }
        double l2 = kernel.diagonalBound();
        positive("kernel.diagonalBound()", l2, "the bound l^2 on k(x,x) must be positive");
        SensitivityFunction f = sensitivity(Math.sqrt(l2), labelBound, maxRows, Math.sqrt(noiseVariance));
        return new GaussianProcessRegression(kernel, noiseVariance, labelBound, maxRows, query.clone(),
                NdisGaussianMechanism.calibrate(epsilon, delta, 1, f, variant));
    }

    /** The sensitivity function of Prop. 8 (spec §6.7). */
    public static SensitivityFunction sensitivity(double l, double b, int n, double sigmaN) {
        return sigma -> {
            double rho = Math.log1p(l * l / sigma);
            return new NdisSensitivity(l * b * Math.sqrt(n) / (sigmaN * Math.sqrt(sigma)), rho, rho);
        };
    }

    /** @return the calibrated Gaussian mechanism */
    public NdisGaussianMechanism mechanism() {
        return mechanism;
    }

    /** @return the guarantee of a release with this randomness */
    public PrivacyGuarantee guarantee(RandomSource random) {
        return mechanism.guarantee(random);
    }

    /**
     * The GP posterior at the query point, {@code {mu*, Sigma*}} (non-private).
     *
     * @param x inputs, n x p (n may be 0)
     * @param y labels
     * @return {@code {mu*, Sigma*}}
     */
    public double[] posterior(double[][] x, double[] y) {
        check(x, y);
        int n = x.length;
        double kss = kernel.value(query, query);
        if (n == 0) {
            return new double[] {0, kss};
        }
        DMatrixRMaj a = new DMatrixRMaj(n, n);
        DMatrixRMaj ks = new DMatrixRMaj(n, 1);
        for (int i = 0; i < n; i++) {
            ks.set(i, kernel.value(query, x[i]));
            for (int j = 0; j <= i; j++) {
                double v = kernel.value(x[i], x[j]);
                a.set(i, j, v);
                a.set(j, i, v);
            }
            a.add(i, i, noiseVariance);
        }
        LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_DDRM.chol(n);
        if (!solver.setA(a)) {
            throw new ArithmeticException("K + sigma_n^2 I is not positive definite: is the kernel PD?");
        }
        DMatrixRMaj rhs = new DMatrixRMaj(n, 2);
        for (int i = 0; i < n; i++) {
            rhs.set(i, 0, y[i]);
            rhs.set(i, 1, ks.get(i));
        }
        DMatrixRMaj sol = new DMatrixRMaj(n, 2);
        solver.solve(rhs, sol);
        double mu = 0;
        double q = 0;
        for (int i = 0; i < n; i++) {
            mu += ks.get(i) * sol.get(i, 0);
            q += ks.get(i) * sol.get(i, 1);
        }
        return new double[] {mu, Math.max(0, kss - q)};
    }

    /** The output distribution {@code N(mu*, Sigma* + sigma*)} (for audits). */
    public Gaussian outputDistribution(double[][] x, double[] y) {
        double[] p = posterior(x, y);
        return mechanism.outputDistribution(new double[] {p[0]}, new DMatrixRMaj(1, 1, true, p[1]));
    }

    /**
     * Releases one private prediction at the query point.
     *
     * @param x inputs, n x p with {@code n <= maxRows}
     * @param y labels with {@code |y| <= B}
     * @param random the noise source
     * @return the release (one value)
     */
    public GaussianRelease release(double[][] x, double[] y, RandomSource random) {
        double[] p = posterior(x, y);
        double[] v = mechanism.release(new double[] {p[0]}, new DMatrixRMaj(1, 1, true, p[1]), random);
        return new GaussianRelease(v, mechanism.variance(), mechanism.guarantee(random));
    }

    private void check(double[][] x, double[] y) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(y, "y");
        if (x.length != y.length) {
            throw new IllegalArgumentException("x has " + x.length + " rows but y has " + y.length + " labels");
        }
        if (x.length > maxRows) {
            throw new IllegalArgumentException("the data have " + x.length + " rows, above the public maximum n="
                    + maxRows + " the sensitivity was computed for (spec ndis §6.7, §11.2)");
        }
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != query.length) {
                throw new IllegalArgumentException("row " + i + " (0-based) has " + x[i].length
                        + " inputs, the query point has " + query.length);
            }
            for (double v : x[i]) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("row " + i + " (0-based) has a non-finite input " + v);
                }
            }
            if (!(kernel.value(x[i], x[i]) <= kernel.diagonalBound())) {
                throw new IllegalArgumentException("row " + i + " (0-based) has k(x,x) = " + kernel.value(x[i], x[i])
                        + " above the kernel's stated bound l^2=" + kernel.diagonalBound() + " (spec ndis §6.7)");
            }
            if (!(Math.abs(y[i]) <= labelBound)) {
                throw new IllegalArgumentException("row " + i + " (0-based) has label " + y[i] + ", |y| above the "
                        + "public bound B=" + labelBound + " (spec ndis §6.7)");
            }
        }
    }

    private static void positive(String name, double v, String why) {
        if (!(v > 0) || !Double.isFinite(v)) {
            throw new IllegalArgumentException(name + "=" + v + " is outside (0, inf): " + why);
        }
    }
}
