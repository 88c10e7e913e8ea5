package org.dpgauss.secondmoment;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
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
 * <p>With {@code clipToRadius = false} (public-bound mode) the user declares that rows are within R; rows longer than
 * R are still clipped to R, as in clip mode (issue 24, item 5: the domain is enforced by construction, never by an
 * error that one neighbour triggers; {@code dpgauss validate --row-bound R} reports such rows, non-privately).
 * The (epsilon, delta) statement uses the project's {@link org.dpgauss.privacy.ConversionPolicy} (CKS20).
 *
 * <p>Under the release contract it releases {@code secondMoment} (the raw noisy matrix; it may be indefinite) with
 * the public parameters {@code n}, {@code d}, {@code radius}, {@code radiusMode}, {@code sensitivity}, {@code rho},
 * {@code noiseSigma} and {@code accountedRho}; no diagnostics (e.g. how many rows were clipped) are released. It
 * never FAILs. Build it with {@link #of(double, Zcdp)} or {@link #builder()}. Immutable.
 */
public final class AnalyzeGauss implements SecondMomentMethod, RowSourceMechanism {

    /** Which replace-one L2 sensitivity of the clipped second moment calibrates the noise. */
    public enum Sensitivity {
        /** Delta = sqrt(2) R^2/n, the exact replace-one sensitivity (default). */
        TIGHT,
        /** Delta = 4 R^2/n, the paper's accounting for Algorithm 2 (conservative, noisier). */
        PAPER
    }

    /** Registered name. */
    public static final String NAME = "analyze-gauss";

    /** The mechanism's identifier in releases. */
    public static final String ID = SecondMomentRelease.id(NAME);

    /** One-line description for listings. */
    public static final String DESCRIPTION = "Analyze Gauss (Dwork-Talwar-Thakurta-Zhang 2014): one Gaussian"
            + " release of the second moment of rows clipped to R, sigma = R^2/(n sqrt(rho)); rho-zCDP (replace-one)";

    /** Extra option (SecondMomentParams): 1 selects {@link Sensitivity#PAPER}. */
    public static final String EXTRA_PAPER_SENSITIVITY = "paper-sensitivity";

    private static final double U = 0x1p-53;

    private final double radius;
    private final Zcdp budget;
    private final Sensitivity sensitivity;
    private final boolean clipToRadius;
    private final boolean psd;
    private final SymmetricNoise noiseOverride; // null: secure noise from each call's random source
    private final Double normLowerBound; // null: the accuracy statement has no relative form

    private AnalyzeGauss(double radius, Zcdp budget, Sensitivity sensitivity, boolean clipToRadius, boolean psd,
            SymmetricNoise noiseOverride, Double normLowerBound) {
        this.normLowerBound = normLowerBound;
        this.radius = radius;
        this.budget = budget;
        this.sensitivity = sensitivity;
        this.clipToRadius = clipToRadius;
        this.psd = psd;
        this.noiseOverride = noiseOverride;
    }

    /**
     * The package's noise seam: the same mechanism drawing its noise from {@code noise} (a statement made with a
     * noise that is not {@link SymmetricNoise#isSecure() secure} is uncertified).
     */
    AnalyzeGauss(AnalyzeGauss base, SymmetricNoise noise) {
        this(base.radius, base.budget, base.sensitivity, base.clipToRadius, base.psd,
                Objects.requireNonNull(noise, "noise"), base.normLowerBound);
    }

    /**
     * The mechanism with the tight sensitivity, clipping rows to R.
     *
     * @param radius the public clipping radius R, finite and &gt; 0
     * @param budget the zCDP budget, rho finite and &gt; 0
     * @return the mechanism
     */
    public static AnalyzeGauss of(double radius, Zcdp budget) {
        return builder().radius(radius).budget(budget).build();
    }

    /** @return a builder: {@code radius} and {@code budget} are required */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * From the shared parameters: R, rho, clip or public-bound mode, the PSD projection, and the extra option
     * {@value #EXTRA_PAPER_SENSITIVITY} (0 or 1).
     *
     * @param params the shared parameters
     * @return the mechanism
     */
    public static AnalyzeGauss fromParams(SecondMomentParams params) {
        Objects.requireNonNull(params, "params");
        boolean paper = params.extraFlag(EXTRA_PAPER_SENSITIVITY, "tight sqrt(2) R^2/n", "the paper's 4 R^2/n");
        Builder b = builder().radius(params.radius()).budget(params.budget())
                .sensitivity(paper ? Sensitivity.PAPER : Sensitivity.TIGHT).clipToRadius(params.clipToRadius())
                .psdProjection(params.psdProjection());
        if (params.minEigenvalue() != null) { // lambda_min(S) >= L implies ||S||_2 >= L: only the statement uses it
            b.normLowerBound(params.minEigenvalue());
        }
        return b.build();
    }

    @Override
    public String name() {
        return NAME;
    }

    public double radius() {
        return radius;
    }

    /** @return the zCDP budget */
    public Zcdp budget() {
        return budget;
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
        ParameterChecks.rows(n);
        double r2 = radius * radius;
        return sensitivity == Sensitivity.TIGHT ? replaceOneSensitivity(r2, n) : 4.0 * r2 / n;
    }

    /**
     * The exact replace-one L2 sensitivity sqrt(2) r2/n of the upper-triangle entries of a Gram of rows of squared
     * norm at most r2 (spec second-moment-estimation §3.2; tight for x = R e1, x' = R e2): the one formula that
     * both the statement and the accounting ({@link #idealPlusFp}) use.
     */
    private static double replaceOneSensitivity(double r2, int n) {
        return Math.sqrt(2.0) * r2 / n;
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
        ParameterChecks.rows(n);
        double r2 = radius * radius;
        return sensitivity == Sensitivity.TIGHT ? calibratedSigma(budget.rho(), r2, n, d, accountingNoise())
                : 4 * r2 / (n * Math.sqrt(2 * budget.rho()));
    }

    /** @return the zCDP rho accounted for n rows of dimension d (at most {@code budget().rho()}) */
    public double accountedRho(int n, int d) {
        return accountedRho(radius * radius, n, d, sigma(n, d), accountingNoise());
    }

    @Override
    public Statement state(PublicContext context) {
        int n = context.rows();
        int d = context.dimension();
        double sigma = sigma(n, d);
        double r2 = radius * radius;
        checkGridRange(r2, sigma, accountingNoise());
        double acc = accountedRho(r2, n, d, sigma, accountingNoise());
        PrivacyGuarantee g = PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, budget, context.delta(),
                recipeCertified(noiseOverride), "Analyze Gauss (one Gaussian release of the second moment of rows"
                        + (clipToRadius ? " clipped to R" : " of norm at most R") + "); L2 sensitivity "
                        + (sensitivity == Sensitivity.TIGHT ? "sqrt(2) R^2/n" : "4 R^2/n (paper)")
                        + " plus floating-point and grid slack; discrete Gaussian noise (CKS20)");
        return Statement.builder(context, ID, g)
                .description("private uncentred second moment (d x d), Analyze Gauss")
                .parameters(SecondMomentRelease.parameters(context)
                        .put("radius", radius)
                        .put("radiusMode", clipToRadius ? SecondMomentRelease.MODE_CLIP
                                : SecondMomentRelease.MODE_PUBLIC_BOUND)
                        .put("sensitivity", sensitivity == Sensitivity.TIGHT ? "tight" : "paper")
                        .put("rho", budget.rho())
                        .put("noiseSigma", sigma)
                        .put("accountedRho", acc)
                        .build())
                .accounting(Release.zcdp(ID, NeighbouringRelation.REPLACE_ONE, budget))
                .accuracy(accuracy(n, d, SpectralAccuracy.PROBABILITY))
                .build();
    }

    /**
     * The a-priori accuracy ({@link SpectralAccuracy#METRIC}): when every row has norm at most R nothing is clipped
     * and {@code S~ - S} is the noise matrix alone, whose law is public: expected {@code E||N||_2}, bound
     * {@code ||N||_2}'s {@code probability} bound ({@link SpectralAccuracy}). No assumption on the data's shape. Also
     * in units of R^2 and, with a public lower bound on {@code ||S||_2} ({@link Builder#normLowerBound}), relative to
     * it.
     *
     * @param n the number of rows
     * @param d the dimension
     * @param probability the bound's probability
     * @return the statement
     */
    public org.dpgauss.release.Accuracy accuracy(int n, int d, double probability) {
        double sigma = sigma(n, d);
        double expected = SpectralAccuracy.expectedNoiseNorm(sigma, d);
        double bound = SpectralAccuracy.noiseNormBound(sigma, d, 1 - probability);
        return SpectralAccuracy.withUnits(org.dpgauss.release.Accuracy.of(SpectralAccuracy.METRIC,
                SpectralAccuracy.finite(expected), SpectralAccuracy.finite(bound), probability,
                String.format(java.util.Locale.ROOT, "every row has norm <= R=%.4g (longer rows are %s, which biases"
                        + " S~ down by their excess); the error is then the noise matrix alone (sigma=%.4g per entry,"
                        + " norm about 2 sigma sqrt(d)), whatever the rows' distribution", radius,
                        clipToRadius ? "clipped to R" : "clipped to R (declared within R)", sigma)), radius, normLowerBound,
                "the public lower bound");
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return compute(LocalRows.of(data.matrix(), context.engine()), stated, context);
    }

    @Override
    public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
        return SecondMomentRelease.outcome(matrix(rows, context.random()), psd);
    }

    /** The private matrix (the computation behind {@link #compute}); x is finite (a {@link Dataset}'s rows). */
    DMatrixRMaj matrix(RowBlockMatrix x, RandomSource random, ComputeEngine engine) {
        return matrix(LocalRows.of(x, engine), random);
    }

    private DMatrixRMaj matrix(RowSource x, RandomSource random) {
        int n = Math.toIntExact(x.rows());
        int d = x.cols();
        SymmetricNoise noise = noiseFor(noiseOverride, random);
        double sigma = sigma(n, d);
        // the Gram of the rows clipped to R, clipped chunk by chunk on their way in (no clipped copy of the data)
        return noise.perturb(x.gram(RowBounds.clipMap(radius), n), sigma);
    }

    /** Whether a statement with this noise seam is certified by the recipe: only with the secure sampler. */
    static boolean recipeCertified(SymmetricNoise noiseOverride) {
        return noiseOverride == null || noiseOverride.isSecure();
    }

    /** The noise a release draws: the injected noise when there is one, else secure noise from random. */
    static SymmetricNoise noiseFor(SymmetricNoise noiseOverride, RandomSource random) {
        return noiseOverride != null ? noiseOverride : SymmetricNoise.secure(random);
    }

    /** The noise whose {@link SymmetricNoise#roundingInflation} the accounting uses; it draws nothing. */
    private SymmetricNoise accountingNoise() {
        return accountingNoise(noiseOverride);
    }

    /** The injected noise when there is one, else {@link #ACCOUNTING}. */
    static SymmetricNoise accountingNoise(SymmetricNoise noiseOverride) {
        return noiseOverride != null ? noiseOverride : ACCOUNTING;
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
        double ideal = Math.nextUp(replaceOneSensitivity(r2, n) * (1 + 4 * U));
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

    /** Builds an {@link AnalyzeGauss} from named parameters (nothing can be swapped silently). */
    public static final class Builder {
        private Double radius;
        private Zcdp budget;
        private Sensitivity sensitivity = Sensitivity.TIGHT;
        private boolean clipToRadius = true;
        private boolean psd;
        private Double normLowerBound;

        private Builder() {
        }

        /**
         * @param s a public lower bound on {@code ||S||_2} (a public lambda_min bound is one); used only by the
         *     accuracy statement, which is then also given relative to it (default: absolute and in units of R^2 only)
         * @return this builder
         */
        public Builder normLowerBound(double s) {
            this.normLowerBound = ParameterChecks.normLowerBound(s);
            return this;
        }

        /** @param r the public clipping (or covering) radius R &gt; 0 @return this builder */
        public Builder radius(double r) {
            this.radius = r;
            return this;
        }

        /** @param b the zCDP budget, rho &gt; 0 @return this builder */
        public Builder budget(Zcdp b) {
            this.budget = Objects.requireNonNull(b, "budget");
            return this;
        }

        /** @param s which sensitivity calibrates the noise (default {@link Sensitivity#TIGHT}) @return this */
        public Builder sensitivity(Sensitivity s) {
            this.sensitivity = Objects.requireNonNull(s, "sensitivity");
            return this;
        }

        /** @param v true (default): clip rows to R; false: reject rows longer than R @return this builder */
        public Builder clipToRadius(boolean v) {
            this.clipToRadius = v;
            return this;
        }

        /** @param v also release the PSD projection {@code psdProjection} (post-processing) @return this */
        public Builder psdProjection(boolean v) {
            this.psd = v;
            return this;
        }

        /** @return the mechanism, validated */
        public AnalyzeGauss build() {
            if (radius == null) {
                throw new IllegalStateException("radius(R) is required: the public clipping radius");
            }
            if (budget == null) {
                throw new IllegalStateException("budget(Zcdp.of(rho)) is required: the zCDP budget");
            }
            ParameterChecks.radius("radius R", radius);
            return new AnalyzeGauss(radius, ParameterChecks.budget(budget), sensitivity, clipToRadius, psd, null, normLowerBound);
        }
    }
}
