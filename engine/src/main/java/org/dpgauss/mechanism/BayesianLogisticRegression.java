package org.dpgauss.mechanism;

import java.util.Objects;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.LoewnerComparableBound.Variant;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * Private Bayesian logistic regression (spec ndis §6.6, Def. 7, Prop. 7): release
 * {@code theta ~ N(theta^, Sigma + sigma* I_d)} with {@code theta^ = argmin L(theta; D)},
 * {@code L = sum_i ln(1 + exp(-y_i x_i^T theta)) + (lambda/2)||theta||^2}, and the Böhning covariance
 * {@code Sigma = (lambda I + (1/4) sum_i x_i x_i^T)^{-1}}.
 *
 * <p><b>Guarantee.</b> {@code (epsilon, delta)}-DP under <b>add/remove</b> neighbours for records
 * {@code (x, y)} with {@code ||x||_2 <= l} and {@code y in {-1, +1}}, for datasets of at most the public size n
 * (spec §11.2: the actual size is not revealed). Sensitivities (sigma a variance):
 * {@code Delta = (l/lambda)/sqrt(sigma + 1/(lambda + n l^2/4))}, {@code rhoInf = log((sigma + 1/lambda)/(sigma +
 * 1/(lambda + n l^2/4)))}, {@code nu = d rhoInf}. Calibration: {@link NdisGaussianMechanism}.
 *
 * <p>theta^ is computed by damped Newton iterations until {@code ||grad L|| < 1e-10} (spec §6.6: the theory
 * assumes the exact minimiser); failure to get there is an {@link ArithmeticException}. Immutable.
 */
public final class BayesianLogisticRegression {

    /** Gradient-norm target of the minimiser (spec §6.6). */
    public static final double GRADIENT_TOLERANCE = 1e-10;
    private static final int MAX_ITERATIONS = 200;

    private final double lambda;
    private final double rowBound;
    private final int maxRows;
    private final int dimension;
    private final NdisGaussianMechanism mechanism;

    private BayesianLogisticRegression(double lambda, double rowBound, int maxRows, int dimension,
            NdisGaussianMechanism mechanism) {
        this.lambda = lambda;
        this.rowBound = rowBound;
        this.maxRows = maxRows;
        this.dimension = dimension;
        this.mechanism = mechanism;
    }

    /**
     * @param dimension the feature dimension d, {@code >= 1}
     * @param lambda the public regulariser, finite and {@code > 0}
     * @param rowBound the public bound l on {@code ||x||_2}, finite and {@code > 0}
     * @param maxRows the public maximum dataset size n, {@code >= 1}
     * @param epsilon finite, {@code >= 0}
     * @param delta in {@code (0, 1)}
     * @param variant the bound ({@link NdisGaussianMechanism#DEFAULT_VARIANT} unless reproducing the paper)
     * @return the calibrated mechanism
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static BayesianLogisticRegression of(int dimension, double lambda, double rowBound, int maxRows,
            double epsilon, double delta, Variant variant) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension=" + dimension + " is outside [1, inf): at least one feature");
        }
        positive("lambda", lambda, "the regulariser makes L strongly convex and bounds the sensitivity l/lambda");
        positive("rowBound", rowBound, "the public bound l on ||x|| must be a positive norm");
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows=" + maxRows + " is outside [1, inf): the public maximum "
                    + "dataset size n enters the sensitivity (spec ndis §6.6, §11.2)");
        }
        SensitivityFunction f = sensitivity(dimension, lambda, rowBound, maxRows);
        return new BayesianLogisticRegression(lambda, rowBound, maxRows, dimension,
                NdisGaussianMechanism.calibrate(epsilon, delta, dimension, f, variant));
    }

    /** The sensitivity function of Prop. 7 (spec §6.6). */
    public static SensitivityFunction sensitivity(int d, double lambda, double l, int n) {
        double top = 1 / (lambda + n * l * l / 4);
        double gap = (n * l * l / 4) / (lambda * (lambda + n * l * l / 4)); // 1/lambda - top, without cancellation
        return sigma -> {
            double low = sigma + top;
            double rho = Math.log1p(gap / low);
            return new NdisSensitivity((l / lambda) / Math.sqrt(low), rho, d * rho);
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
     * The output distribution {@code N(theta^, Sigma + sigma* I)} on a dataset (for audits).
     *
     * @param x the features, n x d, {@code ||x_i|| <= l}
     * @param y the labels, {@code +-1}
     * @return the distribution
     */
    public Gaussian outputDistribution(double[][] x, double[] y) {
        check(x, y);
        return mechanism.outputDistribution(fit(x, y, lambda, dimension), bohningCovariance(x, lambda, dimension));
    }

    /**
     * Releases one private posterior sample.
     *
     * @param x the features, n x d with {@code n <= maxRows} and {@code ||x_i|| <= l}
     * @param y the labels in {@code {-1, +1}}
     * @param random the noise source
     * @return the release
     */
    public GaussianRelease release(double[][] x, double[] y, RandomSource random) {
        check(x, y);
        double[] theta = fit(x, y, lambda, dimension);
        double[] v = mechanism.release(theta, bohningCovariance(x, lambda, dimension), random);
        return new GaussianRelease(v, mechanism.variance(), mechanism.guarantee(random));
    }

    /**
     * The minimiser of L by damped Newton (Armijo backtracking), to {@code ||grad|| < 1e-10}.
     *
     * @param x features (n may be 0)
     * @param y labels
     * @param lambda regulariser {@code > 0}
     * @return theta^
     * @throws ArithmeticException if the gradient tolerance is not reached
     */
    public static double[] fit(double[][] x, double[] y, double lambda) {
        int d = x.length == 0 ? 0 : x[0].length;
        if (d == 0) {
            throw new IllegalArgumentException("fit needs the dimension: use fit(x, y, lambda, d) for empty data");
        }
        return fit(x, y, lambda, d);
    }

    /** As {@link #fit(double[][], double[], double)} with an explicit dimension (empty data gives 0). */
    public static double[] fit(double[][] x, double[] y, double lambda, int d) {
        double[] theta = new double[d];
        double[] grad = new double[d];
        DMatrixRMaj h = new DMatrixRMaj(d, d);
        double gnorm = 0;
        for (int it = 0; it < MAX_ITERATIONS; it++) {
            gnorm = gradientAndHessian(x, y, lambda, theta, grad, h);
            if (gnorm < GRADIENT_TOLERANCE) {
                return theta;
            }
            LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_DDRM.chol(d);
            if (!solver.setA(h)) {
                throw new ArithmeticException("the Hessian of the BLR objective is not positive definite");
            }
            DMatrixRMaj step = new DMatrixRMaj(d, 1);
            solver.solve(new DMatrixRMaj(d, 1, true, grad), step);
            double f0 = objective(x, y, lambda, theta);
            double slope = 0;
            for (int j = 0; j < d; j++) {
                slope += grad[j] * step.get(j);
            }
            double t = 1;
            double[] next = new double[d];
            for (int k = 0; k < 60; k++) {
                for (int j = 0; j < d; j++) {
                    next[j] = theta[j] - t * step.get(j);
                }
                // near the optimum the decrease is below the rounding of L: take the full (quadratically
                // convergent) Newton step instead of comparing rounded objective values
                if (slope < 1e-10 * (1 + Math.abs(f0))
                        || objective(x, y, lambda, next) <= f0 - 1e-4 * t * slope) {
                    break;
                }
                t *= 0.5;
            }
            theta = next;
        }
        gnorm = gradientAndHessian(x, y, lambda, theta, grad, h);
        if (gnorm < GRADIENT_TOLERANCE) {
            return theta;
        }
        throw new ArithmeticException("Newton's method reached gradient norm " + gnorm + " after " + MAX_ITERATIONS
                + " iterations, not the " + GRADIENT_TOLERANCE + " the exact-minimiser assumption needs (spec §6.6)");
    }

    /** {@code (lambda I + (1/4) sum x_i x_i^T)^{-1}} (spec §6.6). */
    public static DMatrixRMaj bohningCovariance(double[][] x, double lambda, int d) {
        DMatrixRMaj p = CommonOps_DDRM.identity(d);
        CommonOps_DDRM.scale(lambda, p);
        for (double[] row : x) {
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    p.add(a, b, 0.25 * row[a] * row[b]);
                }
            }
        }
        DMatrixRMaj inv = new DMatrixRMaj(d, d);
        if (!CommonOps_DDRM.invertSPD(p, inv)) {
            throw new ArithmeticException("the Böhning precision matrix is not positive definite");
        }
        // symmetrise against rounding
        for (int a = 0; a < d; a++) {
            for (int b = a + 1; b < d; b++) {
                double v = 0.5 * (inv.get(a, b) + inv.get(b, a));
                inv.set(a, b, v);
                inv.set(b, a, v);
            }
        }
        return inv;
    }

    static double objective(double[][] x, double[] y, double lambda, double[] theta) {
        double f = 0;
        for (int i = 0; i < x.length; i++) {
            f += softplus(-y[i] * dot(x[i], theta));
        }
        return f + 0.5 * lambda * dot(theta, theta);
    }

    private static double gradientAndHessian(double[][] x, double[] y, double lambda, double[] theta, double[] grad,
            DMatrixRMaj h) {
        int d = theta.length;
        for (int j = 0; j < d; j++) {
            grad[j] = lambda * theta[j];
        }
        h.zero();
        for (int a = 0; a < d; a++) {
            h.set(a, a, lambda);
        }
        for (int i = 0; i < x.length; i++) {
            double m = y[i] * dot(x[i], theta);
            double s = sigmoid(-m); // d/dm ln(1+e^-m) = -s
            double w = s * (1 - s);
            for (int a = 0; a < d; a++) {
                grad[a] -= y[i] * s * x[i][a];
                for (int b = 0; b < d; b++) {
                    h.add(a, b, w * x[i][a] * x[i][b]);
                }
            }
        }
        return Math.sqrt(dot(grad, grad));
    }

    private void check(double[][] x, double[] y) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(y, "y");
        if (x.length != y.length) {
            throw new IllegalArgumentException("x has " + x.length + " rows but y has " + y.length + " labels");
        }
        if (x.length > maxRows) {
            throw new IllegalArgumentException("the data have " + x.length + " rows, above the public maximum n="
                    + maxRows + " the sensitivity was computed for (spec ndis §6.6, §11.2)");
        }
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != dimension) {
                throw new IllegalArgumentException("row " + i + " (0-based) has " + x[i].length
                        + " features, expected d=" + dimension);
            }
            double ss = 0;
            for (double v : x[i]) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("row " + i + " (0-based) has a non-finite feature " + v);
                }
                ss += v * v;
            }
            if (ss > rowBound * rowBound) {
                throw new IllegalArgumentException("row " + i + " (0-based) has ||x|| = " + Math.sqrt(ss)
                        + " > the public bound l=" + rowBound + " (spec ndis §6.6); rescale the features or raise l");
            }
            if (y[i] != 1 && y[i] != -1) {
                throw new IllegalArgumentException("row " + i + " (0-based) has label " + y[i]
                        + ": labels must be -1 or +1");
            }
        }
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static double softplus(double t) {
        return t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t));
    }

    static double sigmoid(double t) {
        if (t >= 0) {
            return 1 / (1 + Math.exp(-t));
        }
        double e = Math.exp(t);
        return e / (1 + e);
    }

    private static void positive(String name, double v, String why) {
        if (!(v > 0) || !Double.isFinite(v)) {
            throw new IllegalArgumentException(name + "=" + v + " is outside (0, inf): " + why);
        }
    }
}
