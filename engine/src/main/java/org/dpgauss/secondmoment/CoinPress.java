package org.dpgauss.secondmoment;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * CoinPress iterative covariance estimation (Biswas, Dong, Kamath &amp; Ullman, NeurIPS 2020), applied to the
 * uncentered second moment (spec second-moment-estimation §8 item 4; the authors' {@code cov_est}, which does not
 * centre either). Given a prior bounding ellipsoid Sigma &lt;= u I and budgets rho_1..rho_t (sum rho):
 * <pre>
 *   tau = sqrt(d + 2 sqrt(d ln(1/b)) + 2 ln(1/b)),  b = 0.1          (Gaussian norm tail bound)
 *   eta = (2 sqrt(d/n) + d/n)/2
 *   A = I/sqrt(u)
 *   for i = 1..t:  w_j = clip_tau(A x_j);  Z = (1/n) sum_j w_j w_j^T + SymGauss(d, tau^2/(n sqrt(rho_i)))
 *                  Z = PSD projection of Z (negative eigenvalues set to 0)
 *                  if i &lt; t: A = (Z + eta I)^{-1/2} A
 *   return A^-1 Z A^-T            (A as used in the last step)
 * </pre>
 *
 * <p><b>Guarantee: rho-zCDP under replace-one neighbours</b> (n public), for every input and every prior u.
 * Step i releases the Gram of rows clipped to norm tau in the current whitened space; replacing one row changes
 * its upper-triangle entries by at most sqrt(2) tau^2/n in L2 (the argument of {@link AnalyzeGauss}), so
 * sigma_i = tau^2/(n sqrt(rho_i)) makes step i rho_i-zCDP; A is post-processing of earlier releases, and zCDP
 * composes adaptively, so the total is sum rho_i = rho. The prior u and the iteration count only affect accuracy.
 *
 * <p><b>Implementation notes.</b> (1) The whitening is kept as A = L^{-1} with L lower triangular:
 * L_0 = sqrt(u) I and L_{i+1} = chol(L_i (Z_i + eta I) L_i^T), which differs from (Z + eta I)^{-1/2} A by a
 * rotation of the whitened space. Euclidean clipping, the PSD projection and the orthogonally invariant noise
 * SymGauss are all equivariant under rotations, so the output distribution is exactly that of the symmetric
 * form, and the whitened rows are the engine's {@code whiten(X, L) = X L^-T}. (2) Privacy does not depend on the
 * whitening's accuracy: each whitened row is a function of its own data row and of public (released) values, the
 * computed rows are clipped with the safety margin of {@link RowBounds}, and the accounting of each step is that
 * of {@link AnalyzeGauss} (exact sensitivity, Gram rounding, grid rounding) with radius tau. (3) The public code
 * updates A = (Z + eta I)^{-1/2} A while whitening rows as x^T A, and returns A^-1 Z A^-1; that is consistent
 * only for t &lt;= 2 (A_0 is a multiple of I). This class uses the consistent form above, which coincides with
 * the public code for t &lt;= 2.
 *
 * <p><b>Defaults</b> (where neither the paper nor the spec fixes them): t = 4 iterations with the public code's
 * split [1/12, 1/12, 1/12, 3/4] rho (its splits for t = 2..5 are available through {@link #defaultSplit}); the
 * prior u must be given (with a public norm bound R, u = R^2 is always valid since ||Sigma|| &lt;= R^2). CoinPress
 * clips to a Gaussian radius in whitened space, so it assumes sub-Gaussian data: heavy tails and outliers are
 * clipped and bias the estimate downwards (the contrast the paper draws).
 *
 * <p>Rows are not clipped to the covering radius R (privacy comes from the whitened clipping); in the public-bound
 * mode ({@code clipToRadius = false}) rows longer than R are rejected as input errors. The output is positive
 * semidefinite. Immutable.
 */
public final class CoinPress implements SecondMomentMethod {

    /** Registered name. */
    public static final String NAME = "coinpress";

    /** One-line description for listings. */
    public static final String DESCRIPTION = "CoinPress (Biswas-Dong-Kamath-Ullman 2020): iterative private"
            + " preconditioning with Gaussian-radius clipping in whitened space, t=4, budget [1/12 x3, 3/4];"
            + " rho-zCDP (replace-one)";

    /** Extra option: the number of iterations t (default {@value #DEFAULT_ITERATIONS}, public code's split). */
    public static final String EXTRA_ITERATIONS = "iterations";

    /** Extra option: the prior scale u with Sigma &lt;= u I (default R^2). */
    public static final String EXTRA_PRIOR_SCALE = "prior-scale";

    /** Default number of iterations. */
    public static final int DEFAULT_ITERATIONS = 4;

    /** Default failure probability b of the Gaussian norm tail bound tau (the public code's 0.1). */
    public static final double DEFAULT_TAIL_PROBABILITY = 0.1;

    private final double priorScale;
    private final double rho;
    private final double[] fractions;
    private final double tailProbability;
    private final double delta;
    private final Double radius; // null: no public-bound check
    private final SymmetricNoise noiseOverride;

    private CoinPress(double priorScale, double rho, double[] fractions, double tailProbability, double delta,
            Double radius, SymmetricNoise noiseOverride) {
        this.priorScale = priorScale;
        this.rho = rho;
        this.fractions = fractions;
        this.tailProbability = tailProbability;
        this.delta = delta;
        this.radius = radius;
        this.noiseOverride = noiseOverride;
    }

    /**
     * CoinPress with {@value #DEFAULT_ITERATIONS} iterations and the default split.
     *
     * @param priorScale u with Sigma &lt;= u I assumed a priori, finite and &gt; 0
     * @param rho the total zCDP budget, finite and &gt; 0
     * @return the mechanism
     */
    public static CoinPress of(double priorScale, double rho) {
        return of(priorScale, rho, defaultSplit(DEFAULT_ITERATIONS));
    }

    /**
     * @param priorScale u with Sigma &lt;= u I assumed a priori, finite and &gt; 0
     * @param rho the total zCDP budget, finite and &gt; 0
     * @param fractions the share of rho spent by each iteration (1 to 50 of them), each &gt; 0, summing to 1
     *     within 1e-9; the last one sets the final accuracy
     * @return the mechanism ((epsilon, delta) stated at delta = 1e-6)
     */
    public static CoinPress of(double priorScale, double rho, double[] fractions) {
        AnalyzeGauss.checkRadius("prior scale u", priorScale);
        AnalyzeGauss.checkRho(rho);
        Objects.requireNonNull(fractions, "fractions");
        if (fractions.length < 1 || fractions.length > 50) {
            throw new IllegalArgumentException("iterations t=" + fractions.length + " is outside [1, 50]");
        }
        double sum = 0;
        for (int i = 0; i < fractions.length; i++) {
            if (!(fractions[i] > 0) || !Double.isFinite(fractions[i])) {
                throw new IllegalArgumentException("budget fraction " + (i + 1) + "=" + fractions[i]
                        + " is outside (0, 1]: every iteration must spend a positive share of rho");
            }
            sum += fractions[i];
        }
        if (Math.abs(sum - 1) > 1e-9) {
            throw new IllegalArgumentException("budget fractions sum to " + sum + ", not 1: the iterations must split"
                    + " exactly rho (zCDP composes by addition)");
        }
        return new CoinPress(priorScale, rho, fractions.clone(), DEFAULT_TAIL_PROBABILITY, 1e-6, null, null);
    }

    /**
     * From the shared parameters: rho, delta, R (the default prior u = R^2; in the public-bound mode rows longer
     * than R are rejected), and the extra options {@value #EXTRA_ITERATIONS} (integer in [1, 50]) and
     * {@value #EXTRA_PRIOR_SCALE} (u &gt; 0).
     *
     * @param params the shared parameters
     * @return the mechanism
     */
    public static CoinPress fromParams(SecondMomentParams params) {
        Objects.requireNonNull(params, "params");
        double t = params.extra(EXTRA_ITERATIONS, DEFAULT_ITERATIONS);
        if (t != Math.rint(t) || t < 1 || t > 50) {
            throw new IllegalArgumentException(EXTRA_ITERATIONS + "=" + t + " is not an integer in [1, 50]: CoinPress"
                    + " runs a whole number of preconditioning steps");
        }
        double u = params.extra(EXTRA_PRIOR_SCALE, params.radius() * params.radius());
        CoinPress c = of(u, params.rho(), defaultSplit((int) t));
        return new CoinPress(c.priorScale, c.rho, c.fractions, c.tailProbability, params.delta(),
                params.clipToRadius() ? null : params.radius(), null);
    }

    /**
     * The public code's budget split for t iterations: t = 1: [1]; t = 2: [1/4, 3/4]; t &gt;= 3: 3/4 on the last
     * step and 1/4 shared equally by the others (t = 3: [1/8, 1/8, 3/4], t = 4: [1/12 x 3, 3/4], t = 5:
     * [1/16 x 4, 3/4]).
     *
     * @param iterations t in [1, 50]
     * @return the fractions
     */
    public static double[] defaultSplit(int iterations) {
        if (iterations < 1 || iterations > 50) {
            throw new IllegalArgumentException("iterations t=" + iterations + " is outside [1, 50]");
        }
        double[] f = new double[iterations];
        if (iterations == 1) {
            f[0] = 1;
            return f;
        }
        Arrays.fill(f, 0.25 / (iterations - 1));
        f[iterations - 1] = 0.75;
        return f;
    }

    /**
     * @param b the failure probability of the Gaussian norm tail bound tau, in (0, 1)
     * @return a copy with that b
     */
    public CoinPress withTailProbability(double b) {
        if (!(b > 0 && b < 1)) {
            throw new IllegalArgumentException("tail probability b=" + b + " is outside (0, 1)");
        }
        return new CoinPress(priorScale, rho, fractions, b, delta, radius, noiseOverride);
    }

    /** TEST ONLY: the same mechanism with injected noise (guarantees are then uncertified). */
    CoinPress withNoise(SymmetricNoise noise) {
        return new CoinPress(priorScale, rho, fractions, tailProbability, delta, radius,
                Objects.requireNonNull(noise, "noise"));
    }

    @Override
    public String name() {
        return NAME;
    }

    public double priorScale() {
        return priorScale;
    }

    public double rho() {
        return rho;
    }

    public int iterations() {
        return fractions.length;
    }

    /** @return the budget fractions (a copy) */
    public double[] fractions() {
        return fractions.clone();
    }

    /** The clipping radius tau = sqrt(d + 2 sqrt(d ln(1/b)) + 2 ln(1/b)) in whitened space. */
    public double clipRadius(int d) {
        double l = Math.log(1 / tailProbability);
        return Math.sqrt(d + 2 * Math.sqrt(d * l) + 2 * l);
    }

    /**
     * The noise standard deviation of iteration i (0-based): tau^2/(n sqrt(rho_i)), raised by the tiny
     * floating-point and grid terms of the accounting ({@link AnalyzeGauss#calibratedSigma}).
     */
    public double sigma(int iteration, int n, int d) {
        double tau = clipRadius(d);
        return AnalyzeGauss.calibratedSigma(rho * fractions[iteration], tau * tau, n, d, accountingNoise());
    }

    @Override
    public SecondMomentEstimate estimate(RowBlockMatrix x, RandomSource random, ComputeEngine engine) {
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(engine, "engine");
        int n = RowBounds.checkData(x);
        int d = x.cols();
        if (radius != null) {
            RowBounds.checkBound(x, radius);
        }
        SymmetricNoise noise = AnalyzeGauss.noiseFor(noiseOverride, random);
        double tau = clipRadius(d);
        double tau2 = tau * tau;
        double[] sigma = new double[fractions.length];
        double accounted = 0;
        for (int i = 0; i < sigma.length; i++) {
            sigma[i] = sigma(i, n, d);
            AnalyzeGauss.checkGridRange(tau2, sigma[i], noise);
            accounted += AnalyzeGauss.accountedRho(tau2, n, d, sigma[i], noise);
        }
        double eta = 0.5 * (2 * Math.sqrt((double) d / n) + (double) d / n);
        DMatrixRMaj lower = CommonOps_DDRM.identity(d);
        CommonOps_DDRM.scale(Math.sqrt(priorScale), lower);
        DMatrixRMaj z = null;
        for (int i = 0; i < fractions.length; i++) {
            RowBlockMatrix w = engine.whiten(x, lower); // rows L^-1 x_j
            clipRows(w, tau);
            z = SpectralMetrics.psdProjection(noise.perturb(engine.weightedGram(w, null, null, n), sigma[i]), 0);
            if (i < fractions.length - 1) {
                DMatrixRMaj shifted = z.copy();
                for (int k = 0; k < d; k++) {
                    shifted.add(k, k, eta);
                }
                DMatrixRMaj next = SymmetricGaussianNoise.symmetricCopy(
                        engine.multiply(engine.multiply(lower, false, shifted, false), false, lower, true));
                CholeskyResult c = engine.cholesky(next);
                if (!c.isPositiveDefinite()) { // Z + eta I >= eta I: only floating-point breakdown gets here
                    throw new IllegalStateException("CoinPress: L (Z + eta I) L^T lost positive definiteness in"
                            + " floating point at iteration " + (i + 1) + " (" + c.verdict() + ")");
                }
                lower = c.lower();
            }
        }
        DMatrixRMaj out = engine.multiply(engine.multiply(lower, false, z, false), false, lower, true);

        boolean certified = noise.isSecure() && !random.isInsecure();
        PrivacyGuarantee g = AnalyzeGauss.replaceOneZcdp(rho, delta, certified, "CoinPress (Biswas et al. 2020), t="
                + fractions.length + " iterations, budget fractions " + Arrays.toString(fractions) + ", prior Sigma <= "
                + priorScale + " I; step i is rho_i-zCDP with L2 sensitivity sqrt(2) tau^2/n (tau=" + tau + ") plus"
                + " floating-point and grid slack, accounted rho=" + accounted + " <= " + rho);
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("iterations", fractions.length);
        p.put("budget_fractions", fractions.clone());
        p.put("prior_scale", priorScale);
        p.put("tau", tau);
        p.put("eta", eta);
        p.put("sigma_whitened", sigma);
        p.put("rho_accounted", accounted);
        return SecondMomentEstimate.pass(out, g, NAME, certified, p);
    }

    private SymmetricNoise accountingNoise() {
        return AnalyzeGauss.accountingNoise(noiseOverride);
    }

    /** Clips every row of w in place to norm tau (true norm at most tau, {@link RowBounds#clip}). */
    static void clipRows(RowBlockMatrix w, double tau) {
        int d = w.cols();
        double target = tau * RowBounds.safety(d);
        double[] row = new double[d];
        for (int b = 0; b < w.blockCount(); b++) {
            double[] blk = w.block(b);
            int count = w.blockRowCount(b);
            for (int r = 0; r < count; r++) {
                System.arraycopy(blk, r * d, row, 0, d);
                if (RowBounds.clip(row, tau, target) != 1.0) {
                    System.arraycopy(row, 0, blk, r * d, d);
                }
            }
        }
    }
}
