package org.dpgauss.secondmoment;

import java.util.LinkedHashMap;
import java.util.Map;
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
 * <p><b>Floating point.</b> As in {@link LevelSchedule}: rows are clipped with the safety margin of
 * {@link RowBounds} (true norm at most R), the accounted sensitivity adds the Gram's rounding error
 * {@code 2 gamma_{n+1} R^2} and the release grid's rounding {@link SymmetricNoise#roundingInflation}, and the
 * noise is the exact discrete Gaussian of {@link SymmetricGaussianNoise}; sigma is calibrated so that the accounted
 * rho never exceeds the budget ({@link #accountedRho}).
 *
 * <p>With {@code clipToRadius = false} (public-bound mode) rows longer than R are rejected instead of clipped.
 * The output is the raw noisy matrix (it may be indefinite); no diagnostics (e.g. how many rows were clipped) are
 * released. Immutable.
 */
public final class AnalyzeGauss implements SecondMomentMethod {

    /** Which replace-one L2 sensitivity of the clipped second moment calibrates the noise. */
    public enum Sensitivity {
        /** Delta = sqrt(2) R^2/n, the exact replace-one sensitivity (default). */
        TIGHT,
        /** Delta = 4 R^2/n, the paper's accounting for Algorithm 2 (conservative, noisier). */
        PAPER
    }

    /** Registered name. */
    public static final String NAME = "analyze-gauss";

    /** One-line description for listings. */
    public static final String DESCRIPTION = "Analyze Gauss (Dwork-Talwar-Thakurta-Zhang 2014): one Gaussian"
            + " release of the second moment of rows clipped to R, sigma = R^2/(n sqrt(rho)); rho-zCDP (replace-one)";

    /** Extra option (SecondMomentParams): 1 selects {@link Sensitivity#PAPER}. */
    public static final String EXTRA_PAPER_SENSITIVITY = "paper-sensitivity";

    private static final double U = 0x1p-53;

    private final double radius;
    private final double rho;
    private final double delta;
    private final Sensitivity sensitivity;
    private final boolean clipToRadius;
    private final SymmetricNoise noiseOverride; // null: secure noise from each call's random source

    private AnalyzeGauss(double radius, double rho, double delta, Sensitivity sensitivity, boolean clipToRadius,
            SymmetricNoise noiseOverride) {
        this.radius = radius;
        this.rho = rho;
        this.delta = delta;
        this.sensitivity = sensitivity;
        this.clipToRadius = clipToRadius;
        this.noiseOverride = noiseOverride;
    }

    /**
     * The mechanism with the tight sensitivity, clipping rows to R, stating (epsilon, delta) at delta = 1e-6.
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
     * @return the mechanism (clipping rows to R; (epsilon, delta) stated at delta = 1e-6)
     */
    public static AnalyzeGauss of(double radius, double rho, Sensitivity sensitivity) {
        checkRadius("radius R", radius);
        checkRho(rho);
        return new AnalyzeGauss(radius, rho, 1e-6, Objects.requireNonNull(sensitivity, "sensitivity"), true, null);
    }

    /**
     * From the shared parameters: R, rho, delta (for the stated (epsilon, delta)), clip or public-bound mode, and
     * the extra option {@value #EXTRA_PAPER_SENSITIVITY} (0 or 1).
     *
     * @param params the shared parameters
     * @return the mechanism
     */
    public static AnalyzeGauss fromParams(SecondMomentParams params) {
        Objects.requireNonNull(params, "params");
        boolean paper = params.extraFlag(EXTRA_PAPER_SENSITIVITY, "tight sqrt(2) R^2/n", "the paper's 4 R^2/n");
        AnalyzeGauss a = of(params.radius(), params.rho(), paper ? Sensitivity.PAPER : Sensitivity.TIGHT);
        return new AnalyzeGauss(a.radius, a.rho, params.delta(), a.sensitivity, params.clipToRadius(), null);
    }

    /** TEST ONLY: the same mechanism with injected noise (guarantees are then uncertified). */
    AnalyzeGauss withNoise(SymmetricNoise noise) {
        return new AnalyzeGauss(radius, rho, delta, sensitivity, clipToRadius, Objects.requireNonNull(noise, "noise"));
    }

    @Override
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
     * The ideal replace-one L2 sensitivity of the upper-triangle entries of the clipped second moment (before the
     * floating-point and grid terms of the accounting).
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
     * The noise standard deviation: R^2/(n sqrt(rho)) ({@link Sensitivity#TIGHT}, raised by the tiny
     * floating-point and grid terms of the accounting, relative 1e-6 or less at practical sizes) or
     * 4 R^2/(n sqrt(2 rho)) ({@link Sensitivity#PAPER}).
     *
     * @param n the number of rows
     * @param d the dimension
     * @return sigma
     */
    public double sigma(int n, int d) {
        checkRows(n);
        double r2 = radius * radius;
        return sensitivity == Sensitivity.TIGHT ? calibratedSigma(rho, r2, n, d, accountingNoise())
                : 4 * r2 / (n * Math.sqrt(2 * rho));
    }

    /** @return the zCDP rho accounted for n rows of dimension d (at most {@link #rho()}) */
    public double accountedRho(int n, int d) {
        return accountedRho(radius * radius, n, d, sigma(n, d), accountingNoise());
    }

    @Override
    public SecondMomentEstimate estimate(RowBlockMatrix x, RandomSource random, ComputeEngine engine) {
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(engine, "engine");
        int n = RowBounds.checkData(x);
        int d = x.cols();
        if (!clipToRadius) {
            RowBounds.checkBound(x, radius);
        }
        SymmetricNoise noise = noiseFor(noiseOverride, random);
        double sigma = sigma(n, d);
        double r2 = radius * radius;
        double acc = accountedRho(r2, n, d, sigma, noise);
        checkGridRange(r2, sigma, noise);
        RowBlockMatrix clipped = RowBounds.scaleAndClip(x, 1.0, radius, null);
        DMatrixRMaj out = noise.perturb(engine.weightedGram(clipped, null, null, n), sigma);

        boolean certified = noise.isSecure() && !random.isInsecure();
        PrivacyGuarantee g = replaceOneZcdp(rho, delta, certified, "Analyze Gauss (one Gaussian release of the"
                + " second moment of rows clipped to R=" + radius + "); L2 sensitivity "
                + (sensitivity == Sensitivity.TIGHT ? "sqrt(2) R^2/n" : "4 R^2/n (paper)")
                + " plus floating-point and grid slack, accounted rho=" + acc + " <= " + rho);
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("radius", radius);
        p.put("radius_mode", clipToRadius ? "clip" : "public-bound");
        p.put("sensitivity", sensitivity == Sensitivity.TIGHT ? "tight sqrt(2) R^2/n" : "paper 4 R^2/n");
        p.put("sigma", sigma);
        p.put("rho_accounted", acc);
        return SecondMomentEstimate.pass(out, g, NAME, certified, p);
    }

    /** The noise a release draws: the injected test noise when there is one, else secure noise from random. */
    static SymmetricNoise noiseFor(SymmetricNoise noiseOverride, RandomSource random) {
        return noiseOverride != null ? noiseOverride : SymmetricNoise.secure(random);
    }

    /** The noise whose {@link SymmetricNoise#roundingInflation} the accounting uses; it draws nothing. */
    private SymmetricNoise accountingNoise() {
        return accountingNoise(noiseOverride);
    }

    /** The injected test noise when there is one, else {@link #ACCOUNTING}. */
    static SymmetricNoise accountingNoise(SymmetricNoise noiseOverride) {
        return noiseOverride != null ? noiseOverride : ACCOUNTING;
    }

    /**
     * The replace-one rho-zCDP guarantee of a Gaussian release (the shared form of Analyze Gauss and CoinPress),
     * stating (epsilon, delta) by the tight CKS20 conversion {@link Zcdp#toApproxDpTight}.
     *
     * @param notes what was released and accounted; the conversion and, when not certified, the insecure-randomness
     *     warning are appended
     */
    static PrivacyGuarantee replaceOneZcdp(double rho, double delta, boolean certified, String notes) {
        Zcdp z = Zcdp.of(rho);
        return PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, z, z.toApproxDpTight(delta), certified,
                notes + "; (epsilon, delta) by the tight CKS20 conversion"
                        + (certified ? "" : "; INSECURE randomness: not private"));
    }

    /** Only its roundingInflation (a function of sigma and d) is used: the source is never drawn from. */
    static final SymmetricNoise ACCOUNTING = SymmetricNoise.secure(RandomSource.insecureSeeded(0));

    /**
     * The smallest sigma (up to the fixed-point iteration of {@link LevelSchedule}) whose accounted rho is at most
     * {@code rho} for one Gaussian release of a Gram of n rows of norm at most sqrt(r2).
     */
    static double calibratedSigma(double rho, double r2, int n, int d, SymmetricNoise noise) {
        double base = idealPlusFp(r2, n);
        double s = Zcdp.sigmaFor(rho, base);
        for (int i = 0; i < 4; i++) { // the grid grows with sigma: iterate to a fixed point
            s = Zcdp.sigmaFor(rho, Math.nextUp(base + noise.roundingInflation(d, s)));
        }
        return s;
    }

    /**
     * The accounted rho of one release: (Delta')^2/(2 sigma^2) with Delta' = sqrt(2) r2/n (exact replace-one
     * sensitivity) + 2 gamma_{n+1} r2 (the computed Gram's rounding, Higham §3.1, as in {@link LevelSchedule}) +
     * the grid rounding of the noise.
     */
    static double accountedRho(double r2, int n, int d, double sigma, SymmetricNoise noise) {
        double delta = Math.nextUp(idealPlusFp(r2, n) + noise.roundingInflation(d, sigma));
        return Zcdp.gaussianMechanism(delta, sigma).rho();
    }

    private static double idealPlusFp(double r2, int n) {
        double gamma = (n + 1.0) * U / (1 - (n + 1.0) * U);
        double ideal = Math.nextUp(Math.sqrt(2.0) * r2 / n * (1 + 4 * U));
        double fp = Math.nextUp(2 * gamma * r2 * (1 + 4 * U));
        return Math.nextUp(ideal + fp);
    }

    /** The secure grid release needs every Gram entry (at most r2) within 2^51 grid steps of 0 (public check). */
    static void checkGridRange(double r2, double sigma, SymmetricNoise noise) {
        if (noise instanceof SymmetricGaussianNoise && r2 > 0x1p51 * SymmetricGaussianNoise.grid(sigma)) {
            throw new IllegalArgumentException("the noise sigma=" + sigma + " is more than 2^31 times smaller than"
                    + " the squared clipping radius " + r2 + ": the released grid points would not be exact doubles;"
                    + " lower rho");
        }
    }

    static void checkRadius(String name, double r) {
        if (!(r > 0) || !Double.isFinite(r)) {
            throw new IllegalArgumentException(name + "=" + r + " is outside (0, inf): it must be a finite positive"
                    + " number");
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
