package org.dpgauss.secondmoment;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.ejml.data.DMatrixRMaj;

/**
 * "Analyze Gauss" (Dwork, Talwar, Thakurta &amp; Zhang, STOC 2014), the one-shot Gaussian mechanism on the
 * clipped second moment, in its zCDP form (spec second-moment-estimation §8 item 2):
 * <pre>
 *   Sigma~ = (1/n) sum_i clip_R(x_i) clip_R(x_i)^T + SymGauss(d, sigma),   clip_R(x) = x min(1, R/||x||)
 * </pre>
 * with SymGauss the real symmetric Gaussian matrix of spec §2.1 (d(d+1)/2 independent entries of variance
 * sigma^2, diagonal included). It is Algorithm 2 with a single level.
 *
 * <p><b>Guarantee: rho-zCDP under replace-one neighbours</b> (n public), for every input: rows are clipped to
 * the public radius R inside the mechanism, so no assumption on the data is needed.
 *
 * <p><b>Sensitivity used.</b> The released quantity is the vector of the d(d+1)/2 upper-triangle entries
 * (diagonal included) of the clipped second moment. Replacing x by x' (both of norm at most R) changes it by
 * D = (x x^T - x' x'^T)/n, whose upper-triangle vector has squared L2 norm
 * (||D||_F^2 + sum_i D_ii^2)/2 &lt;= ||D||_F^2 = (||x||^4 + ||x'||^4 - 2 (x.x')^2)/n^2 &lt;= 2 R^4/n^2.
 * So {@link Sensitivity#TIGHT} uses Delta = sqrt(2) R^2/n, attained by x = R e1, x' = R e2 (spec §3.2), and
 * sigma = Delta/sqrt(2 rho) = R^2/(n sqrt(rho)). {@link Sensitivity#PAPER} uses the paper's (conservative)
 * accounting Delta = 4R^2/n, i.e. sigma = 4R^2/(n sqrt(2 rho)), for parity with Algorithm 2 (spec §8 item 2);
 * it is also rho-zCDP (in fact rho/8-zCDP), only noisier.
 *
 * <p><b>Accuracy.</b> The error is additive: ||N|| is about 2 sigma sqrt(d) (spec §3.3), so the relative
 * spectral error ||Sigma^-1/2 Sigma~ Sigma^-1/2 - I|| is at most about 2 sigma sqrt(d)/lambda_min(Sigma); the
 * method fails in relative terms when lambda_min(Sigma) is far below R^2 sqrt(d)/(n sqrt(rho)).
 *
 * <p>The output is the raw noisy matrix (it may be indefinite); no diagnostics (e.g. how many rows were
 * clipped) are released. Immutable.
 */
public final class AnalyzeGauss {

    /** Which replace-one L2 sensitivity of the clipped second moment calibrates the noise. */
    public enum Sensitivity {
        /** Delta = sqrt(2) R^2/n, the exact replace-one sensitivity (default). */
        TIGHT,
        /** Delta = 4 R^2/n, the paper's accounting for Algorithm 2 (conservative, noisier). */
        PAPER
    }

    /** Method name used on the command line and in reports. */
    public static final String NAME = "analyze-gauss";

    private final double radius;
    private final double rho;
    private final Sensitivity sensitivity;

    private AnalyzeGauss(double radius, double rho, Sensitivity sensitivity) {
        this.radius = radius;
        this.rho = rho;
        this.sensitivity = sensitivity;
    }

    /**
     * The mechanism with the tight sensitivity.
     *
     * @param radius the public clipping radius R, finite and &gt; 0
     * @param rho the zCDP budget, finite and &gt; 0
     * @return the mechanism
     */
    public static AnalyzeGauss of(double radius, double rho) {
        return of(radius, rho, Sensitivity.TIGHT);
    }

    /**
     * @param radius the public clipping radius R, finite and &gt; 0
     * @param rho the zCDP budget, finite and &gt; 0
     * @param sensitivity which sensitivity calibrates the noise
     * @return the mechanism
     */
    public static AnalyzeGauss of(double radius, double rho, Sensitivity sensitivity) {
        checkRadius("radius R", radius);
        checkRho(rho);
        return new AnalyzeGauss(radius, rho, Objects.requireNonNull(sensitivity, "sensitivity"));
    }

    public String name() {
        return NAME;
    }

    public double radius() {
        return radius;
    }

    public double rho() {
        return rho;
    }

    public Sensitivity sensitivity() {
        return sensitivity;
    }

    /**
     * The replace-one L2 sensitivity of the upper-triangle entries of the clipped second moment, as used.
     *
     * @param n the number of rows, &gt;= 1
     * @return sqrt(2) R^2/n ({@link Sensitivity#TIGHT}) or 4 R^2/n ({@link Sensitivity#PAPER})
     */
    public double l2Sensitivity(int n) {
        checkRows(n);
        double r2 = radius * radius;
        return (sensitivity == Sensitivity.TIGHT ? Math.sqrt(2) : 4.0) * r2 / n;
    }

    /**
     * @param n the number of rows
     * @return the noise standard deviation {@code Delta / sqrt(2 rho)} (nudged up so that rho is never exceeded)
     */
    public double sigma(int n) {
        return Zcdp.sigmaFor(rho, l2Sensitivity(n));
    }

    /**
     * Releases the noisy clipped second moment.
     *
     * @param x the n x d data, finite
     * @param random the noise source ({@link RandomSource#secure()} for a private release)
     * @param engine the compute engine
     * @return the d x d estimate (symmetric, possibly indefinite)
     */
    public DMatrixRMaj release(RowBlockMatrix x, RandomSource random, ComputeEngine engine) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(engine, "engine");
        int n = x.rows();
        checkRows(n);
        DMatrixRMaj s = clippedSecondMoment(x, radius, engine);
        AnalyzeGaussTempNoise.addSymGauss(s, sigma(n), random);
        return s;
    }

    /**
     * @param insecure whether the noise came from an insecure (seeded) source
     * @return rho-zCDP under replace-one, certified unless the source was insecure
     */
    public PrivacyGuarantee guarantee(boolean insecure) {
        return PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, Zcdp.of(rho), null, !insecure,
                "Analyze Gauss (one-shot Gaussian mechanism on the second moment of rows clipped to R=" + radius
                        + "); L2 sensitivity " + (sensitivity == Sensitivity.TIGHT ? "sqrt(2) R^2/n" : "4 R^2/n")
                        + (insecure ? "; INSECURE seeded noise: not a private release" : ""));
    }

    /**
     * {@code (1/n) sum_i c_i^2 x_i x_i^T} with {@code c_i = min(1, R/||x_i||)}: the second moment of the rows
     * clipped to radius R (rows of norm at most R, and zero rows, are unchanged).
     *
     * @throws IllegalArgumentException if a value is not finite (naming the row)
     */
    static DMatrixRMaj clippedSecondMoment(RowBlockMatrix x, double radius, ComputeEngine engine) {
        double[] sq = squaredRowNorms(x);
        double r2 = radius * radius;
        double[] w = new double[sq.length];
        for (int i = 0; i < sq.length; i++) {
            w[i] = sq[i] <= r2 ? 1.0 : r2 / sq[i];
        }
        return engine.weightedGram(x, null, w, x.rows());
    }

    /** Squared Euclidean row norms, rejecting non-finite values. */
    static double[] squaredRowNorms(RowBlockMatrix x) {
        int d = x.cols();
        double[] out = new double[x.rows()];
        for (int b = 0; b < x.blockCount(); b++) {
            double[] blk = x.block(b);
            int start = x.blockStart(b);
            int count = x.blockRowCount(b);
            for (int r = 0; r < count; r++) {
                double s = 0;
                int off = r * d;
                for (int j = 0; j < d; j++) {
                    double v = blk[off + j];
                    s += v * v;
                }
                if (!Double.isFinite(s)) {
                    throw new IllegalArgumentException("row " + (start + r) + " of the data has a non-finite value"
                            + " (or a norm that overflows): rows must be finite");
                }
                out[start + r] = s;
            }
        }
        return out;
    }

    static void checkRadius(String name, double r) {
        if (!(r > 0) || !Double.isFinite(r)) {
            throw new IllegalArgumentException(name + "=" + r + " is outside (0, inf): the clipping radius must be"
                    + " a finite positive number");
        }
    }

    static void checkRho(double rho) {
        if (!(rho > 0) || !Double.isFinite(rho)) {
            throw new IllegalArgumentException("rho=" + rho + " is outside (0, inf): the zCDP budget must be finite"
                    + " and positive");
        }
    }

    static void checkRows(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " rows: the data must have at least one row");
        }
    }
}
