package org.dpgauss.secondmoment;

import java.util.Arrays;
import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.SymmetricEigen;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
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
 * form; the clipped Gram is computed as L^-1 (sum_j c_j^2 x_j x_j^T) L^-T from the Mahalanobis norms, without
 * materialising the whitened data. (2) The public code updates A = (Z + eta I)^{-1/2} A while whitening rows as
 * x^T A, and returns A^-1 Z A^-1; that is consistent only for t &lt;= 2 (A_0 is a multiple of I). This class
 * uses the consistent form above, which coincides with the public code for t &lt;= 2.
 *
 * <p><b>Defaults</b> (where neither the paper nor the spec fixes them): t = 4 iterations with the public code's
 * split [1/12, 1/12, 1/12, 3/4] rho (its splits for t = 2..5 are available through {@link #defaultSplit}); the
 * prior u must be given (with a public norm bound R, u = R^2 is always valid since ||Sigma|| &lt;= R^2). CoinPress
 * clips to a Gaussian radius in whitened space, so it assumes sub-Gaussian data: heavy tails and outliers are
 * clipped and bias the estimate downwards (the contrast the paper draws).
 *
 * <p>The output is positive semidefinite. Immutable.
 */
public final class CoinPress {

    /** Method name used on the command line and in reports. */
    public static final String NAME = "coinpress";

    /** Default number of iterations. */
    public static final int DEFAULT_ITERATIONS = 4;

    /** Default failure probability b of the Gaussian norm tail bound tau (the public code's 0.1). */
    public static final double DEFAULT_TAIL_PROBABILITY = 0.1;

    private final double priorScale;
    private final double rho;
    private final double[] fractions;
    private final double tailProbability;

    private CoinPress(double priorScale, double rho, double[] fractions, double tailProbability) {
        this.priorScale = priorScale;
        this.rho = rho;
        this.fractions = fractions;
        this.tailProbability = tailProbability;
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
     * @return the mechanism
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
        return new CoinPress(priorScale, rho, fractions.clone(), DEFAULT_TAIL_PROBABILITY);
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
        return new CoinPress(priorScale, rho, fractions, b);
    }

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

    /** The noise standard deviation of iteration i (0-based): tau^2/(n sqrt(rho_i)). */
    public double sigma(int iteration, int n, int d) {
        double tau = clipRadius(d);
        return Zcdp.sigmaFor(rho * fractions[iteration], Math.sqrt(2) * tau * tau / n);
    }

    /**
     * Runs CoinPress.
     *
     * @param x the n x d data, finite
     * @param random the noise source
     * @param engine the compute engine
     * @return the d x d estimate (positive semidefinite)
     */
    public DMatrixRMaj release(RowBlockMatrix x, RandomSource random, ComputeEngine engine) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(engine, "engine");
        int n = x.rows();
        int d = x.cols();
        AnalyzeGauss.checkRows(n);
        AnalyzeGauss.squaredRowNorms(x); // rejects non-finite rows before any noise is drawn
        double tau2 = clipRadius(d) * clipRadius(d);
        double eta = 0.5 * (2 * Math.sqrt((double) d / n) + (double) d / n);
        DMatrixRMaj lower = CommonOps_DDRM.identity(d);
        CommonOps_DDRM.scale(Math.sqrt(priorScale), lower);
        DMatrixRMaj z = null;
        for (int i = 0; i < fractions.length; i++) {
            double[] norms = engine.mahalanobisNorms(x, lower, null); // ||L^-1 x_j||^2
            double[] w = new double[n];
            for (int j = 0; j < n; j++) {
                w[j] = norms[j] <= tau2 ? 1.0 : tau2 / norms[j];
            }
            DMatrixRMaj gram = engine.weightedGram(x, null, w, n);
            z = whiten(gram, lower, engine);
            AnalyzeGaussTempNoise.addSymGauss(z, sigma(i, n, d), random);
            z = psdProjection(z, engine);
            if (i < fractions.length - 1) {
                DMatrixRMaj shifted = z.copy();
                for (int k = 0; k < d; k++) {
                    shifted.add(k, k, eta);
                }
                DMatrixRMaj next = engine.multiply(engine.multiply(lower, false, shifted, false), false, lower, true);
                SubsampleAndAggregate.symmetrize(next);
                CholeskyResult c = engine.cholesky(next);
                if (!c.isPositiveDefinite()) {
                    throw new IllegalStateException("CoinPress: L (Z + eta I) L^T lost positive definiteness in"
                            + " floating point at iteration " + (i + 1) + " (" + c.verdict() + ")");
                }
                lower = c.lower();
            }
        }
        DMatrixRMaj out = engine.multiply(engine.multiply(lower, false, z, false), false, lower, true);
        SubsampleAndAggregate.symmetrize(out);
        return out;
    }

    /**
     * @param insecure whether the noise came from an insecure (seeded) source
     * @return rho-zCDP under replace-one, certified unless the source was insecure
     */
    public PrivacyGuarantee guarantee(boolean insecure) {
        return PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, Zcdp.of(rho), null, !insecure,
                "CoinPress (Biswas et al. 2020), t=" + fractions.length + " iterations, budget fractions "
                        + Arrays.toString(fractions) + ", prior Sigma <= " + priorScale + " I; each step rho_i-zCDP"
                        + " with L2 sensitivity sqrt(2) tau^2/n" + (insecure ? "; INSECURE seeded noise: not a"
                        + " private release" : ""));
    }

    /** L^-1 G L^-T for symmetric G. */
    static DMatrixRMaj whiten(DMatrixRMaj g, DMatrixRMaj lower, ComputeEngine engine) {
        DMatrixRMaj y = engine.solveLower(lower, g);
        DMatrixRMaj yt = new DMatrixRMaj(y.numCols, y.numRows);
        CommonOps_DDRM.transpose(y, yt);
        DMatrixRMaj out = engine.solveLower(lower, yt);
        SubsampleAndAggregate.symmetrize(out);
        return out;
    }

    /** V diag(max(lambda, 0)) V^T. */
    static DMatrixRMaj psdProjection(DMatrixRMaj z, ComputeEngine engine) {
        SymmetricEigen eig = engine.symmetricEigen(z);
        int d = z.numRows;
        DMatrixRMaj v = eig.vectors();
        DMatrixRMaj vs = v.copy();
        for (int k = 0; k < d; k++) {
            double l = Math.max(eig.value(k), 0);
            for (int i = 0; i < d; i++) {
                vs.set(i, k, v.get(i, k) * l);
            }
        }
        DMatrixRMaj out = engine.multiply(vs, false, v, true);
        SubsampleAndAggregate.symmetrize(out);
        return out;
    }
}
