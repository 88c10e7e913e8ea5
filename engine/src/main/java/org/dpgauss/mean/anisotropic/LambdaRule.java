package org.dpgauss.mean.anisotropic;

import java.util.Objects;
import org.dpgauss.engine.CpuEngine;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * The radius {@code lambda} of Algorithm 1 (spec anisotropic-mean-estimation §3.2):
 * <pre>
 *   lambda*(beta) = sqrt(2 tr A) + 2 sqrt(2 ||A||_2 log(n / beta)),   A = M^{-1/4} Sigma M^{-1/4},
 * </pre>
 * under which every pair of n subgaussian points with covariance proxy Sigma passes the predicate with
 * probability at least {@code 1 - beta} (Lemma 3.2), so the filter keeps every point.
 *
 * <p>Privacy (Thm 3.5) holds for ANY lambda; this rule only affects accuracy. Sigma, n and beta must be public
 * (spec §3.2: "M, lambda must not depend on the private data except through DP outputs"; n is public in the
 * replace-one model). Stateless.
 */
public final class LambdaRule {

    private LambdaRule() {
    }

    /**
     * {@code lambda*} from the trace and operator norm of {@code A = M^{-1/4} Sigma M^{-1/4}}.
     *
     * @param traceA {@code tr A}, finite and {@code > 0}
     * @param normA {@code ||A||_2}, finite, in {@code (0, tr A]}
     * @param n the (public) number of rows, {@code >= 1}
     * @param beta the accuracy failure probability, in {@code (0, 1)}
     * @return {@code sqrt(2 tr A) + 2 sqrt(2 ||A||_2 log(n/beta))}
     */
    public static double lambdaStar(double traceA, double normA, int n, double beta) {
        if (!(traceA > 0) || !Double.isFinite(traceA)) {
            throw new IllegalArgumentException("tr(A)=" + traceA + " is outside (0, inf): A = M^(-1/4) Sigma M^(-1/4)"
                    + " of a non-degenerate covariance proxy has positive finite trace");
        }
        if (!(normA > 0) || !(normA <= traceA * (1 + 1e-12))) {
            throw new IllegalArgumentException("||A||_2=" + normA + " is outside (0, tr A = " + traceA + "]: the"
                    + " largest eigenvalue of a PSD matrix is positive and at most its trace");
        }
        checkRows(n);
        checkBeta(beta);
        return Math.sqrt(2 * traceA) + 2 * Math.sqrt(2 * normA * Math.log(n / beta));
    }

    /**
     * Known covariance, main estimator {@code M = Sigma} (spec §3.2):
     * {@code lambda = sqrt(2 tr Sigma^{1/2}) + 2 sqrt(2 ||Sigma||_2^{1/2} log(n/beta))}.
     *
     * @param sigma the known covariance proxy as the shape matrix that will also be M
     * @param n the public number of rows
     * @param beta the accuracy failure probability, in {@code (0, 1)}
     * @return lambda
     */
    public static double knownCovariance(ShapeMatrix sigma, int n, double beta) {
        Objects.requireNonNull(sigma, "Sigma");
        return lambdaStar(sigma.tracePower(0.5), sigma.normPower(0.5), n, beta);
    }

    /**
     * Folklore estimator {@code M = I} (spec §3.2, baseline B1 of §10):
     * {@code lambda = sqrt(2 tr Sigma) + 2 sqrt(2 ||Sigma||_2 log(n/beta))}; public upper bounds on
     * {@code tr Sigma} and {@code ||Sigma||_2} may be passed instead.
     *
     * @param traceSigma {@code tr Sigma} (or a public upper bound)
     * @param normSigma {@code ||Sigma||_2} (or a public upper bound, at most traceSigma)
     * @param n the public number of rows
     * @param beta the accuracy failure probability, in {@code (0, 1)}
     * @return lambda
     */
    public static double folklore(double traceSigma, double normSigma, int n, double beta) {
        return lambdaStar(traceSigma, normSigma, n, beta);
    }

    /**
     * The general rule for any public PD M and covariance proxy Sigma: forms {@code A = M^{-1/4} Sigma M^{-1/4}}
     * and its largest eigenvalue. For a diagonal M this gives {@code tr A = sum_i Sigma_ii / M_ii^{1/2}} for any
     * Sigma (spec §3.2).
     *
     * @param sigma the covariance proxy, symmetric PSD d x d (validated as in {@link ShapeMatrix#of}, but only PSD
     *        is needed: it is passed through {@code tr} and the top eigenvalue)
     * @param m the shape matrix of the estimator
     * @param n the public number of rows
     * @param beta the accuracy failure probability, in {@code (0, 1)}
     * @return lambda
     */
    public static double general(DMatrixRMaj sigma, ShapeMatrix m, int n, double beta) {
        Objects.requireNonNull(sigma, "Sigma");
        Objects.requireNonNull(m, "M");
        int d = m.dimension();
        if (sigma.numRows != d || sigma.numCols != d) {
            throw new IllegalArgumentException("Sigma is " + sigma.numRows + " x " + sigma.numCols + " but M is " + d
                    + " x " + d + ": they must have the same dimension");
        }
        DMatrixRMaj w = m.matrixPower(-0.25);
        DMatrixRMaj tmp = new DMatrixRMaj(d, d);
        DMatrixRMaj a = new DMatrixRMaj(d, d);
        CommonOps_DDRM.mult(w, sigma, tmp);
        CommonOps_DDRM.mult(tmp, w, a);
        for (int i = 0; i < d; i++) {
            for (int j = i + 1; j < d; j++) {
                double s = 0.5 * (a.get(i, j) + a.get(j, i));
                a.set(i, j, s);
                a.set(j, i, s);
            }
        }
        double[] values = CpuEngine.instance().symmetricEigen(a).values();
        return lambdaStar(CommonOps_DDRM.trace(a), values[d - 1], n, beta);
    }

    static void checkRows(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " is outside [1, inf): the estimator needs rows");
        }
    }

    static void checkBeta(double beta) {
        if (!(beta > 0 && beta < 1)) {
            throw new IllegalArgumentException("beta=" + beta + " is outside (0, 1): it is the probability that some"
                    + " pair of points fails the predicate (spec §3.2, Lemma 3.2)");
        }
    }
}
