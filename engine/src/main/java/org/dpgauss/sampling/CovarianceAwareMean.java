package org.dpgauss.sampling;

import org.dpgauss.privacy.ApproxDp;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.sampling.stable.StableCov;
import org.dpgauss.sampling.stable.StableRows;
import org.dpgauss.sampling.stable.StableCovResult;
import org.dpgauss.sampling.stable.StableMean;
import org.dpgauss.sampling.stable.StableMeanResult;

/**
 * The covariance-aware private mean estimator of Brown, Hopkins &amp; Smith (BHS23; Algorithm 1 of the arXiv text,
 * spec unbounded-gaussian-sampling §3.8): StableCov and StableMean on the <em>same</em> n rows, PTR on the larger
 * score, then {@code mu~ = mu^ + c W g}, {@code g ~ N(0, I_m)}, i.e. {@code mu~ ~ N(mu^, c^2 Sigma^)} with
 * {@code c^2 = 720 e^2 lambda0 ln(12/delta)/(eps^2 n^2)}.
 *
 * <p><b>Guarantee:</b> {@code (epsilon, delta)}-DP under <b>replace-one</b> neighbours (public n), for
 * {@code epsilon <= 1}, {@code delta <= epsilon/10}. Budget as in BHS23 Lemma 15 / spec §5: PTR
 * {@code (eps/3, delta/6)}, reference set {@code delta/6}, release {@code (2eps/3, 2delta/3)}, with k raised to
 * {@code ceil(T_PTR)} (spec §2.3).
 *
 * <p><b>Certified sizes [IMPL, derived here because spec §3.8 gives none].</b> n is certified when, with
 * {@code m = floor(n/2)}, {@code gamma = 8 e^2 lambda0/m}, {@code tau = (1 + 2 gamma) gamma}, {@code t = ln(6/delta)}:
 * <ol>
 *   <li>{@code m >= 16 e^2 lambda0 k} and {@code n >= 32 e^2 k} (the stability facts S1-S3 of spec §5);</li>
 *   <li>{@code n >= M} (R is an M-subset of [n]);</li>
 *   <li>mean term: the Gaussian mechanism curve {@code delta_GM(eps/3; Delta) <= delta/6} with the Mahalanobis
 *       shift {@code Delta = sqrt((1 + 2 gamma) 38 e^2 lambda0)/(n c)} (S2, measured in {@code c^2 Sigma^});</li>
 *   <li>covariance term: {@code (tau + sqrt(gamma tau t) + gamma t)/(1 - gamma) <= eps/3}. The privacy loss of
 *       {@code N(0, Sigma1)} against {@code N(0, Sigma2)} is {@code (1/2) sum_j [ln rho_j - u_j^2 (1 - 1/rho_j)]},
 *       {@code u ~ N(0, I)}, with {@code rho_j} the eigenvalues of {@code Sigma1^{-1/2} Sigma2 Sigma1^{-1/2}};
 *       S1 gives {@code rho_j in [1 - gamma, 1/(1 - gamma)]} and {@code sum |rho_j - 1| <= tau}, and the
 *       Laurent-Massart bound on {@code sum a_j (u_j^2 - 1)} bounds the loss by the left side except with
 *       probability {@code e^-t = delta/6}.</li>
 * </ol>
 * The two terms combine by the weak triangle inequality (spec §5, Lemma B.13):
 * {@code delta/6 + e^{eps/3} delta/6 <= 2 delta/3}. Condition 1 dominates in practice. Below the certified n,
 * {@link #of} throws {@link InsufficientSampleSizeException} with the n needed, unless the caller asks for an
 * uncertified run.
 *
 * <p>Randomness: first a secret uniform order of the rows ({@link org.dpgauss.rows.SecretPermutation}: StableCov
 * pairs rows i and i + n/2 of that order, never of the rows' own order, so replace-one covers a record replaced by
 * one that sorts elsewhere; issue 24); R and the PTR coin as in {@link UnboundedGaussianSampler}; {@code g} from
 * {@link SecureGaussianSampler} at {@code sigma = 1} over a ChaCha20 keystream keyed from the source (exact
 * discrete Gaussians on the grid {@code 2^-20}).
 *
 * <p><b>Release contract</b> ({@link PrivateMechanism}): releases {@code mean}; the budget split composes through the
 * accountant. StableCov, StableMean, the PTR test and the noisy mean run on every input and the mean is discarded on
 * FAIL, so the work done does not depend on the test's outcome; timing side channels in general are outside the
 * guarantee. Immutable.
 */
public final class CovarianceAwareMean implements org.dpgauss.rows.RowSourceMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "mean.bhs";

    private final int n;
    private final int d;
    private final double epsilon;
    private final double delta;
    private final double lambda0;
    private final PtrMechanism ptr;
    private final int k;
    private final int referenceSize;
    private final boolean recipeHolds;
    private final double alpha;
    private final boolean lambda0FromAlpha;

    private CovarianceAwareMean(int n, int d, double epsilon, double delta, double lambda0, PtrMechanism ptr,
            boolean recipeHolds, double alpha, boolean lambda0FromAlpha) {
        this.alpha = alpha;
        this.lambda0FromAlpha = lambda0FromAlpha;
        this.n = n;
        this.d = d;
        this.epsilon = epsilon;
        this.delta = delta;
        this.lambda0 = lambda0;
        this.ptr = ptr;
        this.k = SamplerParameters.k(ptr, epsilon, delta);
        this.referenceSize = SamplerParameters.referenceSize(k, n, delta);
        this.recipeHolds = recipeHolds;
    }

    /**
     * @param n rows (public)
     * @param d dimension
     * @param target the (epsilon, delta) target, a typed pair (epsilon: in {@code (0, 1]})
     *        (delta: in {@code (0, epsilon/10]})
     * @param alpha sets {@code lambda0 = 4d + 8 sqrt(d ln(3n/alpha)) + 8 ln(3n/alpha)} (the outlier threshold of
     *        spec §2.1; a utility choice, privacy holds for any {@code lambda0 >= 1})
     * @param lambda0OrNaN an explicit outlier threshold {@code >= 1}, or NaN for the alpha rule
     * @param ptr the PTR rule
     * @param allowUncertified run below the certified n (labelled uncertified) instead of throwing
     * @return the estimator
     * @throws InsufficientSampleSizeException if n is below the certified n and {@code allowUncertified} is false
     */
    public static CovarianceAwareMean of(int n, int d, ApproxDp target, double alpha,
            double lambda0OrNaN, PtrMechanism ptr, boolean allowUncertified) {
        double epsilon = Objects.requireNonNull(target, "target (epsilon, delta)").epsilon();
        double delta = target.delta();
        SamplerParameters.validate(n, d, epsilon, delta, alpha, ptr);
        if (!Double.isNaN(lambda0OrNaN) && !(lambda0OrNaN >= 1 && Double.isFinite(lambda0OrNaN))) {
            throw new IllegalArgumentException("lambda0=" + lambda0OrNaN + " is outside [1, inf): the outlier "
                    + "threshold of BHS23 is a squared Mahalanobis radius >= 1 (spec §3.8)");
        }
        double lambda0 = lambda0(n, d, alpha, lambda0OrNaN);
        int k = SamplerParameters.k(ptr, epsilon, delta);
        int m = SamplerParameters.referenceSize(k, n, delta);
        if (n < m) {
            // spec §9: refuse before touching the data, and say which n is needed (even --uncertified cannot run)
            long need = ptr.isDifferentiallyPrivate() ? requiredRows(d, epsilon, delta, alpha, lambda0OrNaN, ptr) : m;
            throw new InsufficientSampleSizeException("n=" + n + " is below M=" + m + ": the reference set R is an "
                    + "M-subset of the n rows (spec §3.8 line 4), M = 6k + ceil(18 ln(16n/delta)) with k=" + k
                    + (ptr.isDifferentiallyPrivate() ? "; the certified size is n >= " + SamplerParameters.sci(need)
                            + " (n >= M runs with --uncertified)"
                            : "; no n is certified with the PTR rule " + ptr.id()), need);
        }
        boolean holds = certifiable(n, d, epsilon, delta, alpha, lambda0OrNaN, ptr);
        if (!holds && !allowUncertified) {
            long need = requiredRows(d, epsilon, delta, alpha, lambda0OrNaN, ptr);
            throw new InsufficientSampleSizeException(String.format(Locale.ROOT,
                    "n=%d is below the %s rows the covariance-aware mean estimator needs to be certified for d=%d, "
                            + "eps=%s, delta=%s, lambda0=%.4g (floor(n/2) >= 16 e^2 lambda0 k with k=%d, and "
                            + "the release conditions in the README section of mean --method bhs); pass "
                            + "--uncertified to run anyway (output labelled uncertified)",
                    n, SamplerParameters.sci(need), d, epsilon, delta, lambda0, k, need), need);
        }
        return new CovarianceAwareMean(n, d, epsilon, delta, lambda0, ptr, holds, alpha, Double.isNaN(lambda0OrNaN));
    }

    private static double lambda0(long n, int d, double alpha, double lambda0OrNaN) {
        return Double.isNaN(lambda0OrNaN) ? SamplerParameters.lambda0(n, d, alpha) : lambda0OrNaN;
    }

    /** Conditions 1-4 of the class comment at n. */
    static boolean certifiable(long n, int d, double epsilon, double delta, double alpha, double lambda0OrNaN,
            PtrMechanism ptr) {
        if (!ptr.isDifferentiallyPrivate()) {
            return false;
        }
        double lambda0 = lambda0(n, d, alpha, lambda0OrNaN);
        int k = SamplerParameters.k(ptr, epsilon, delta);
        long m = n / 2;
        if (m < 16 * SamplerParameters.E2 * lambda0 * k || n < 32 * SamplerParameters.E2 * k
                || n < SamplerParameters.referenceSize(k, n, delta)) {
            return false;
        }
        double gamma = 8 * SamplerParameters.E2 * lambda0 / m;
        double tau = (1 + 2 * gamma) * gamma;
        double t = Math.log(6 / delta);
        double covarianceLoss = (tau + Math.sqrt(gamma * tau * t) + gamma * t) / (1 - gamma);
        if (covarianceLoss > epsilon / 3) {
            return false;
        }
        return GaussianMechanismCurve.delta(epsilon / 3, meanShift(n, epsilon, delta, lambda0, gamma)) <= delta / 6;
    }

    /** Delta = ||mu^ - mu^'||_{c^2 Sigma^} <= sqrt((1+2 gamma) 38 e^2 lambda0)/(n c) (S2 of spec §5). */
    static double meanShift(long n, double epsilon, double delta, double lambda0, double gamma) {
        double c = Math.sqrt(noiseScaleSquared(n, epsilon, delta, lambda0));
        return Math.sqrt((1 + 2 * gamma) * 38 * SamplerParameters.E2 * lambda0) / (n * c);
    }

    /** c^2 = 720 e^2 lambda0 ln(12/delta)/(eps^2 n^2) (spec §3.8 line 1). */
    static double noiseScaleSquared(long n, double epsilon, double delta, double lambda0) {
        return 720 * SamplerParameters.E2 * lambda0 * Math.log(12 / delta) / (epsilon * epsilon * (double) n * n);
    }

    /**
     * The smallest certified n (the conditions are monotone in n: lambda0 and M grow like log n, m like n):
     * doubling, then bisection.
     *
     * @param d dimension
     * @param epsilon eps
     * @param delta delta
     * @param alpha alpha (lambda0 rule)
     * @param lambda0OrNaN explicit lambda0 or NaN
     * @param ptr must be {@link PtrMechanism#SOUND}
     * @return the smallest certified n
     */
    public static long requiredRows(int d, double epsilon, double delta, double alpha, double lambda0OrNaN,
            PtrMechanism ptr) {
        if (!ptr.isDifferentiallyPrivate()) {
            throw new IllegalArgumentException("no n is certified with the PTR rule " + ptr.id()
                    + ": it is not differentially private (spec §3.6)");
        }
        return SamplerParameters.smallestRows(n -> certifiable(n, d, epsilon, delta, alpha, lambda0OrNaN, ptr),
                "no certified n below 2^50 for d=" + d);
    }

    /** @return the outlier threshold used */
    public double lambda0() {
        return lambda0;
    }

    /** @return k */
    public int k() {
        return k;
    }

    /** @return M */
    public int referenceSize() {
        return referenceSize;
    }

    /** @return the noise scale c of {@code N(mu^, c^2 Sigma^)} */
    public double noiseScale() {
        return Math.sqrt(noiseScaleSquared(n, epsilon, delta, lambda0));
    }

    /**
     * @return the guarantee of a release: the recipe's certification (certified only at a certified n with the sound
     *         PTR; the random source is judged by {@link org.dpgauss.release.Releases}), composed by the accountant
     */
    public PrivacyGuarantee guarantee() {
        List<String> why = new ArrayList<>();
        if (!ptr.isDifferentiallyPrivate()) {
            why.add("PTR rule bhs23-as-published is NOT differentially private (spec §3.6)");
        } else if (!recipeHolds) {
            why.add("n below the certified size (run with --uncertified)");
        }
        String notes = why.isEmpty() ? "BHS23 covariance-aware mean, stability facts S1-S3 with k raised per spec "
                + "§2.3 (floating-point arithmetic is not covered)" : "UNCERTIFIED: " + String.join("; ", why)
                + "; floating-point arithmetic is not covered (docs/design/floating-point-scope.md)";
        return PtrSteps.guarantee(epsilon, delta, why.isEmpty(), notes);
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    @Override
    public Statement state(PublicContext context) {
        UnboundedGaussianSampler.checkShape(context, n, d);
        Statement.Builder b = Statement.builder(context, ID, guarantee())
                .description("private mean, covariance-aware (BHS23)")
                .parameters(publicParameters())
                .failMeaning(UnboundedGaussianSampler.FAIL_MEANING.replace("dpgauss sample", "mean --method bhs"));
        accuracy().ifPresent(b::accuracy);
        return b.build();
    }

    /**
     * The a-priori accuracy in Mahalanobis distance to the true mean w.r.t. the true covariance (the metric this
     * estimator is designed for: its noise {@code N(0, c^2 Sigma^)} follows the data's shape). For i.i.d. Gaussian
     * rows, on the event that no row is an outlier (both stability scores 0, so every weight is uniform and the PTR
     * test passes; probability at least 1 - alpha with lambda0 from the alpha rule), the squared error is
     * {@code (1/n + c^2 chi2_m / m) chi2_d} exactly ({@link MahalanobisAccuracy#covarianceAwareMean}): expected
     * about {@code sqrt(d (1/n + c^2))}.
     *
     * @return the statement (empty only for alpha &gt;= 0.9)
     */
    public java.util.Optional<org.dpgauss.release.Accuracy> accuracy() {
        return MahalanobisAccuracy.covarianceAwareMean(n, d, noiseScale(), alpha, "the rows are i.i.d. Gaussian"
                + " (any mean, full-rank covariance) "
                + (lambda0FromAlpha ? "so that no row is an outlier for lambda0 except with probability alpha="
                        + alpha : "and no row is an outlier for the given lambda0 (probability at least 1 - "
                        + alpha + " assumed)")
                + " (FAIL included); the noise scale c=" + String.format(Locale.ROOT, "%.4g", noiseScale())
                + " per unit of the data's own spread dominates unless n is large");
    }

    /**
     * The same a-priori accuracy in the mean family's common metric, L2 distance to the mean of the rows, for data
     * whose covariance has the given (public, assumed) eigenvalues: on the event of uniform weights the error is the
     * noise {@code c W g}, distributed as {@code c sqrt(chi2_m / m) N(0, Sigma)} (see {@link #accuracy()}), so the
     * expected value is {@code c E||N(0, Sigma)||} and the bound {@code c sqrt(q_m(0.99)/m)} times the
     * Laurent–Massart bound of {@code ||N(0, Sigma)||} at the rest of the failure budget. For the planner, which
     * compares the mean family in one metric.
     *
     * @param covarianceEigenvalues the assumed covariance's eigenvalues (or its diagonal: the L2 norm of
     *        {@code N(0, Sigma)} depends on the eigenvalues only, and a diagonal proxy is diagonal), all {@code >= 0}
     * @return the statement (empty only for alpha &gt;= 0.9)
     */
    public java.util.Optional<org.dpgauss.release.Accuracy> accuracyInL2(double[] covarianceEigenvalues) {
        if (covarianceEigenvalues.length != d) {
            throw new IllegalArgumentException(covarianceEigenvalues.length + " eigenvalues given, d=" + d);
        }
        if (!(alpha < 0.9)) {
            return java.util.Optional.empty();
        }
        double level = alpha < 0.45 ? MahalanobisAccuracy.LEVEL : 0.99;
        long m = n / 2;
        double qm = org.apache.commons.statistics.distribution.ChiSquaredDistribution.of(m)
                .inverseCumulativeProbability(0.99);
        double c = noiseScale();
        double[] w = org.dpgauss.mean.GaussianNorms.scaled(c * c, covarianceEigenvalues);
        double expected = org.dpgauss.mean.GaussianNorms.expected(w);
        double bound = Math.sqrt(qm / m) * org.dpgauss.mean.GaussianNorms.bound(w, (1 - level) - 0.01);
        return java.util.Optional.of(org.dpgauss.release.Accuracy.of("L2 distance to the mean of the rows", expected,
                bound, level - alpha, "the rows are i.i.d. Gaussian with a covariance of the assumed eigenvalues and"
                        + " no row is an outlier for lambda0 (probability at least 1 - alpha=" + alpha + ", FAIL"
                        + " included)"));
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return estimate(data.matrix(), context.engine(), context.random())
                .map(v -> Outcome.pass().vector("mean", v).build()).orElse(Outcome.fail());
    }

    /** The rows must be the n x d the parameters were computed for (finite by the row source's contract). Public facts only; run by compute, after the charge (issue 24). */
    void validate(org.dpgauss.rows.RowSource rows, Statement stated) {
        UnboundedGaussianSampler.checkShape(rows, n, d);
    }

    /**
     * The estimator as row passes ({@link org.dpgauss.rows.RowSourceMechanism}: rows held by a cluster), with the
     * same noise draws in the same order as {@link #estimate}: the secret row order
     * ({@link org.dpgauss.rows.SecretPermutation}), R, the PTR coin, then g. StableCov runs on the paired rows
     * ({@link org.dpgauss.rows.RowSource#pairs}, in the secret order, not the rows' id order) as {@link StableRows}
     * passes; on one block the release has the bits of {@link #compute(Dataset, Statement, ReleaseContext)}.
     */
    @Override
    public Outcome compute(org.dpgauss.rows.RowSource rows, Statement stated, ReleaseContext context) {
        validate(rows, stated);
        ComputeEngine engine = Objects.requireNonNull(context.engine(), "engine");
        RandomSource random = Objects.requireNonNull(context.random(), "random");
        // the secret row order first (issue 24 item 4): the pairs follow it, not the id order
        org.dpgauss.rows.RowSource permuted = org.dpgauss.rows.SecretPermutation.apply(rows, random);
        org.dpgauss.rows.RowSource x = permuted.map((b, e) -> UnboundedGaussianSampler.bounded(b));
        int[] reference = UnboundedGaussianSampler.uniformSubset(n, referenceSize, random);
        org.dpgauss.rows.RowSource y = x.pairs();
        try {
            StableRows.Cov cov = StableRows.stableCov(y, lambda0, k, engine);
            StableRows.Mean mean = StableRows.stableMean(x, cov.sigmaHat(), reference, lambda0, k, engine);
            boolean passed = ptr.test(Math.max(cov.score(), mean.score()), epsilon / 3, delta / 6, random);
            double[] g = new double[(int) cov.m()];
            SecureGaussianSampler.using(RandomSource.chaCha20KeyedFrom(random)).sample(g, 1.0);
            double[] wg = cov.combine(g);
            double[] muHat = mean.weightedMean();
            double c = noiseScale();
            double[] out = new double[d];
            boolean finite = true;
            for (int j = 0; j < d; j++) {
                out[j] = muHat[j] + c * wg[j];
                finite &= Double.isFinite(out[j]);
            }
            return passed && finite ? Outcome.pass().vector("mean", out).build() : Outcome.fail();
        } finally {
            y.discard();
            permuted.discard();
        }
    }

    /**
     * Runs the estimator. StableMean and the noisy mean are computed on both branches of the PTR test (the mean is
     * discarded on FAIL).
     *
     * @param x the data, {@code n x d}, finite entries
     * @param engine the compute engine
     * @param random the randomness
     * @return the private mean, or empty on FAIL (nothing else); package-private: releases go through
     *         {@link #compute}
     */
    Optional<double[]> estimate(RowBlockMatrix data, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(random, "random");
        UnboundedGaussianSampler.checkData(data, n, d);
        // the secret row order first (issue 24 item 4, org.dpgauss.rows.SecretPermutation): StableCov pairs rows
        // i and i + n/2 of it, so the pairs do not depend on the rows' own (data-dependent) order
        RowBlockMatrix x = UnboundedGaussianSampler.bounded( // clamped to a huge public bound (no overflow)
                org.dpgauss.rows.SecretPermutation.apply(data, random));
        int[] reference = UnboundedGaussianSampler.uniformSubset(n, referenceSize, random);
        StableCovResult cov = StableCov.of(lambda0, k).apply(x, engine);
        double epsPtr = epsilon / 3;
        double deltaPtr = delta / 6;
        // no early return when Score1 alone decides a FAIL: StableMean runs on both branches (finding 7)
        StableMeanResult mean = StableMean.of(lambda0, k).apply(x, cov.sigmaHat(), reference, engine);
        boolean passed = ptr.test(Math.max(cov.score(), mean.score()), epsPtr, deltaPtr, random);
        double[] g = new double[cov.m()];
        SecureGaussianSampler.using(RandomSource.chaCha20KeyedFrom(random)).sample(g, 1.0);
        double[] wg = cov.combine(g); // W g ~ N(0, Sigma^)
        double[] muHat = mean.weightedMean(x);
        double c = noiseScale();
        double[] out = new double[d];
        boolean finite = true;
        for (int j = 0; j < d; j++) {
            out[j] = muHat[j] + c * wg[j];
            finite &= Double.isFinite(out[j]); // non-finite is impossible in exact arithmetic (spec §9)
        }
        return passed && finite ? Optional.of(out) : Optional.empty();
    }

    /** @return the public parameters of a release (camelCase) */
    public PublicParameters publicParameters() {
        return PublicParameters.builder()
                .put("n", n)
                .put("d", d)
                .put("epsilon", epsilon)
                .put("delta", delta)
                .put("ptr", ptr.id())
                .put("lambda0", lambda0)
                .put("k", k)
                .put("referenceSize", referenceSize)
                .put("noiseScale", noiseScale())
                .put("certifiedSize", recipeHolds)
                .build();
    }
}
