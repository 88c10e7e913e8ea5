package org.dpgauss.secondmoment;

import java.util.List;
import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.Norms;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.SymmetricEigen;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Private second-moment estimation by recursive preconditioning: Algorithm 1 (DPSME) around Algorithm 2
 * (RecDPSME) in its iterative form, inside the end-to-end pipeline of spec second-moment-estimation §2.4
 * (Mahpud &amp; Sheffet, NeurIPS 2025).
 *
 * <p><b>Pipeline</b> (§2.4). (1) Every row is bounded by the public covering radius {@code R}: rows longer than
 * {@code R} are clipped to {@code R} (or rejected, in the public-bound mode). (2) A lower bound {@code lambda} on
 * {@code lambda_min(Sigma)} is either public, or estimated by Algorithm 4 ({@link MinEigenvalueEstimator},
 * {@code (epsilon_lambda, delta_lambda)}-DP) and then {@code lambda = lambda~ / (1 + alpha)} (a conservative scale,
 * §2.4 step 4); Algorithm 4's FAIL is this method's FAIL. (3) Algorithm 1 runs on {@code X / sqrt(lambda)} with
 * radius {@code R / sqrt(lambda)}, so that {@code I <= Sigma' <= kappa I}; (4) its output is multiplied by
 * {@code lambda}.
 *
 * <p><b>Algorithm 1/2</b> (§2.2, §2.3). Rows are scaled by {@code sqrt(1/(1-alpha))} and clipped to
 * {@code R_0 = R sqrt(1/(1-alpha))}; {@code kappa_0 = R_0^2}. At level {@code t}: release
 * {@code Sigma~_t = Gram(X_t) + SymGauss(d, sigma_t)} ({@link SymmetricNoise}); if {@code kappa_t <= 640 m} stop;
 * otherwise take the eigenvectors {@code U_t} of {@code Sigma~_t} with eigenvalue {@code >= psi kappa_t},
 * {@code psi = 1/(10m)}, set {@code Pi_t = I - (1/2) U_t U_t^T}, map every row to
 * {@code ClipRow(sqrt(8/7) Pi_t x, sqrt(3/7) R_t)} (the clipping typo of the paper fixed, §2.3), accumulate
 * {@code M <- M sqrt(7/8) Pi_t^{-1}} with {@code Pi_t^{-1} = I + U_t U_t^T}, and continue with
 * {@code kappa_{t+1} = (3/7) kappa_t}. The result is {@code (1-alpha) M Sigma~_leaf M^T}. Exactly (§2.3):
 * {@code output = (1/n) sum_i s_i^2 x_i x_i^T + (1-alpha) M N_leaf M^T} with {@code s_i} the product of the clip
 * factors of row {@code i}, so the error is a downward clipping bias plus one whitened noise matrix.
 *
 * <p><b>Guarantee:</b> {@code rho}-zCDP under <b>replace-one</b> neighbours (datasets of equal, public size
 * {@code n} differing in one row), for every input (the clipping makes the row bound unconditional, §2.2 step 2).
 * The noise uses {@code T_sigma = L}, the actual number of levels ({@link NoiseScaling#LEVELS}, §3.2; the paper's
 * {@code T} is available as {@link NoiseScaling#PAPER_T}), and {@link LevelSchedule} verifies the exact accounting.
 * The {@code (epsilon, delta)}-DP statement uses the project's {@link org.dpgauss.privacy.ConversionPolicy}
 * (Canonne, Kamath &amp; Steinke 2020, Cor. 13), which is never worse than the corrected Bun–Steinke
 * {@code epsilon = rho + 2 sqrt(rho ln(1/delta))} (the paper's printed {@code sqrt(2 rho ln(1/delta))} is wrong,
 * §1.2). With a private {@code lambda}, the pipeline's two steps (Algorithm 4 at
 * {@code (epsilon_lambda, delta_lambda)}-DP and Algorithm 1 at rho-zCDP) are composed by
 * {@link PrivacyAccountant#composeSteps} at the release's delta.
 *
 * <p><b>Release contract.</b> It releases {@code secondMoment} (and, when asked, {@code psdProjection}). With a
 * public lambda bound the whole level schedule is public and stated before the data are read (public parameters
 * {@code levels}, {@code paperT}, {@code kappa0}, {@code cStop}, {@code noiseSigmaNormalised}, {@code accountedRho},
 * {@code gammaBound}, {@code eventECondition}, ...); with Algorithm 4 the schedule depends on the private
 * {@code lambda~} and is not stated. It FAILs when Algorithm 4 releases no usable bucket, or when the released
 * {@code lambda~} gives no valid schedule (a function of {@code lambda~} and public values: post-processing); see
 * {@link #FAIL_MEANING}. Rows are clipped in their original units, overflow-safely ({@link RowBounds}), so every
 * finite input gives finite rows of norm at most R.
 *
 * <p><b>Accuracy</b> (Thm 3.3, §4.1): when the data are {@code (m, alpha, beta)}-subsamplable and {@code n} meets
 * the §4.1 conditions, with probability {@code >= 1 - 2 xi},
 * {@code (1-gamma) Sigma_eff <= output <= (1+gamma) Sigma}; {@link LevelSchedule#leafAccuracy} gives gamma.
 */
public final class RecursiveSecondMoment implements SecondMomentMethod, RowSourceMechanism {

    /** Registered name. */
    public static final String NAME = "recursive";

    /** The mechanism's identifier in releases. */
    public static final String ID = SecondMomentRelease.id(NAME);

    /** One-line description for listings. */
    public static final String DESCRIPTION = "Algorithm 1 (recursive preconditioning, Mahpud-Sheffet 2025) in the"
            + " spec §2.4 pipeline; rho-zCDP (replace-one), plus (epsilon, delta)-DP Algorithm 4 if lambda_min is"
            + " estimated privately";

    /** What a FAIL can mean (public words). */
    public static final String FAIL_MEANING = "the private estimate of lambda_min (Algorithm 4) released no usable"
            + " bucket: the data may be too few for the histogram threshold, rank-deficient, or their groups'"
            + " smallest eigenvalues too spread; more rows, a larger --lambda-epsilon, a larger --lambda-group-size"
            + " or a public --min-eigenvalue make a PASS likelier";

    private static final double SQRT_8_7 = Math.sqrt(8.0 / 7.0);
    private static final double SQRT_7_8 = Math.sqrt(7.0 / 8.0);
    private static final double SQRT_3_7 = Math.sqrt(3.0 / 7.0);

    private final SecondMomentParams params;
    private final SymmetricNoise noiseOverride; // null: secure noise from the random source of each call

    private RecursiveSecondMoment(SecondMomentParams params, SymmetricNoise noiseOverride) {
        this.params = params;
        this.noiseOverride = noiseOverride;
    }

    /**
     * The package's noise seam: the same method drawing its noise from {@code noise} (uncertified unless that noise
     * is secure).
     */
    RecursiveSecondMoment(RecursiveSecondMoment base, SymmetricNoise noise) {
        this(base.params, Objects.requireNonNull(noise, "noise"));
    }

    /**
     * @param params the shared parameters; either a public min eigenvalue or Algorithm 4's budget must be set
     * @return the method
     */
    public static RecursiveSecondMoment fromParams(SecondMomentParams params) {
        Objects.requireNonNull(params, "params");
        if (params.minEigenvalue() == null && params.lambdaEpsilon() == null) {
            throw new IllegalArgumentException("method recursive needs a lower bound on lambda_min(Sigma) to"
                    + " normalise the data (spec §2.4): pass a public one (--min-eigenvalue L) or a budget to estimate"
                    + " it privately with Algorithm 4 (--lambda-epsilon e)");
        }
        Double lambda = params.minEigenvalue();
        ParameterChecks.radius("radius R", params.radius());
        double r2 = params.radius() * params.radius();
        if (lambda != null && lambda > r2) {
            throw new IllegalArgumentException("min eigenvalue=" + lambda + " exceeds R^2=" + r2
                    + ": no data with rows of norm <= R have lambda_min(Sigma) above R^2/d");
        }
        if (params.lambdaEpsilon() != null) {
            MinEigenvalueEstimator.of(1, params.alpha(), params.lambdaEpsilon(), params.lambdaDelta());
        }
        return new RecursiveSecondMoment(params, null);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @return the parameters */
    public SecondMomentParams params() {
        return params;
    }

    private SymmetricNoise accountingNoise() {
        return AnalyzeGauss.accountingNoise(noiseOverride);
    }

    /**
     * The public schedule for a lower bound {@code lambda} on lambda_min: Alg 1 runs on the data scaled by
     * {@code 1/sqrt(lambda (1 - alpha))} with radius {@code R_0 = R / sqrt(lambda (1 - alpha))}.
     *
     * @throws IllegalArgumentException if no valid schedule exists (kappa_0 out of range, the paper scaling with
     *     T &lt; 1, or a grid out of range)
     */
    private LevelSchedule schedule(double lambda, int n, int d) {
        double scale = 1.0 / Math.sqrt(lambda * (1 - params.alpha()));
        double r0 = params.radius() * scale;
        LevelSchedule s = LevelSchedule.of(r0 * r0, params.m(d), n, d, params.rho(), params.noiseScaling(),
                accountingNoise());
        checkGridRange(s, accountingNoise());
        return s;
    }

    private MinEigenvalueEstimator algorithm4(int d) {
        return params.minEigenvalue() != null ? null
                : MinEigenvalueEstimator.of(params.lambdaGroupSize(d), params.alpha(), params.lambdaEpsilon(),
                        params.lambdaDelta());
    }

    @Override
    public Statement state(PublicContext context) {
        int n = context.rows();
        int d = context.dimension();
        double delta = context.delta();
        MinEigenvalueEstimator alg4 = algorithm4(d);
        boolean certified = AnalyzeGauss.recipeCertified(noiseOverride);
        Zcdp zcdp = params.budget();
        StringBuilder notes = new StringBuilder()
                .append("Algorithm 1/2 (spec second-moment-estimation §2.2-2.4): Gaussian releases of the clipped")
                .append(" second moment at each level, noise scaling ").append(params.noiseScaling().id())
                .append(" (T_sigma=").append(params.noiseScaling() == NoiseScaling.PAPER_T ? "T" : "L")
                .append("), exact accounting <= rho; discrete Gaussian noise (CKS20)");
        PublicParameters.Builder p = SecondMomentRelease.parameters(context)
                .put("radius", params.radius())
                .put("radiusMode", params.clipToRadius() ? SecondMomentRelease.MODE_CLIP
                        : SecondMomentRelease.MODE_PUBLIC_BOUND)
                .put("rho", zcdp.rho())
                .put("m", params.m(d))
                .put("alpha", params.alpha())
                .put("noiseScaling", params.noiseScaling().id());
        PrivacyGuarantee guarantee;
        Release accounting;
        if (alg4 == null) {
            LevelSchedule s = schedule(params.minEigenvalue(), n, d); // public: validated before the data are read
            notes.append("; lambda_min bound public");
            guarantee = PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, zcdp, delta, certified,
                    notes.toString());
            accounting = Release.zcdp(ID, NeighbouringRelation.REPLACE_ONE, zcdp);
            p.put("minEigenvalueBound", params.minEigenvalue());
            scheduleParameters(p, s);
        } else {
            if (n < alg4.groupSize()) {
                throw new IllegalArgumentException("n=" + n + " rows is below Algorithm 4's group size "
                        + alg4.groupSize() + ": lambda_min cannot be estimated; pass --min-eigenvalue or a smaller"
                        + " --lambda-group-size");
            }
            if (!(params.lambdaDelta() < delta)) {
                throw new IllegalArgumentException("Algorithm 4's delta=" + params.lambdaDelta() + " is not below the"
                        + " release's delta=" + delta + ": the rest of delta converts the zCDP part");
            }
            notes.append("; plus Algorithm 4 (DP lambda_min, stable histogram) at (").append(params.lambdaEpsilon())
                    .append(", ").append(params.lambdaDelta()).append(")-DP");
            guarantee = PrivacyAccountant.composeSteps(NeighbouringRelation.REPLACE_ONE, List.of(
                    alg4.step(SecondMomentRelease.id("min-eigenvalue")),
                    Release.zcdp(SecondMomentRelease.id("recursion"), NeighbouringRelation.REPLACE_ONE, zcdp)),
                    delta, certified, notes.toString());
            accounting = Release.of(ID, guarantee);
            p.put("lambdaEpsilon", params.lambdaEpsilon())
                    .put("lambdaDelta", params.lambdaDelta())
                    .put("lambdaGroupSize", alg4.groupSize());
        }
        return Statement.builder(context, ID, guarantee)
                .description("private uncentred second moment (d x d), recursive preconditioning (Algorithm 1)")
                .parameters(p.build())
                .accounting(accounting)
                .failMeaning(alg4 == null ? "" : failMeaning(n, d))
                .accuracy(accuracy(n, d, SpectralAccuracy.PROBABILITY))
                .build();
    }

    /** Multiplies the planning lambda for Algorithm 4 mode: lambda_min(S) is assumed >= R^2/(PLANNING_CONDITION d). */
    static final double PLANNING_CONDITION = 1e4;

    /**
     * What a FAIL means, with the numbers of this n and d (public): Algorithm 4 releases a bucket only when a
     * bucket's noisy count of groups reaches the histogram threshold.
     *
     * @param n the number of rows
     * @param d the dimension
     * @return the words
     */
    public String failMeaning(int n, int d) {
        if (params.lambdaEpsilon() == null) {
            return "";
        }
        int k = params.lambdaGroupSize(d);
        org.dpgauss.mean.anisotropic.StableHistogram h = org.dpgauss.mean.anisotropic.StableHistogram.of(
                params.lambdaEpsilon(), params.lambdaDelta());
        double margin = h.noiseScale() * Math.log(10); // the noise falls below -margin with probability <= 0.05
        long oneBucket = (long) k * (long) Math.ceil(h.threshold() + margin);
        long twoBuckets = (long) k * (long) Math.ceil(2 * (h.threshold() + margin));
        return String.format(java.util.Locale.ROOT, "%s. At these settings Algorithm 4 forms floor(n/K) = %d groups"
                + " of K=%d rows and releases a bucket only if a bucket's noisy count reaches %.1f groups: a PASS with"
                + " probability 0.95 needs about n >= %d rows when every group's lambda_min falls in one bucket (ratio"
                + " 1/(1-alpha)), n >= %d when they spread over two%s", FAIL_MEANING, n / k, k, h.threshold(),
                oneBucket, twoBuckets, n < oneBucket ? "; n=" + n + " is below that, so a FAIL is expected" : "");
    }

    /**
     * The a-priori accuracy ({@link SpectralAccuracy#METRIC}) from the public schedule. Exactly (§2.3),
     * {@code S~ - S = -C + lambda (1-alpha) M N_leaf M^T} with {@code 0 <= C <= S} the loss of clipped rows,
     * {@code N_leaf} the leaf noise in normalised units and {@code M M^T}'s eigenvalues in
     * {@code [(7/8)^(L-1), 3.5^(L-1)]} (a direction gains 4 x 7/8 at each level that halves it, 7/8 otherwise).
     * <ul>
     *   <li>One level ({@code L = 1}, {@code R^2/(lambda (1-alpha)) <= 640 m}): nothing is clipped when every row has
     *       norm at most R, and the error is {@code lambda (1-alpha) N_leaf}, a public law: expected and bound are
     *       those of the noise norm, whatever the rows' distribution (it is Analyze Gauss with the paper's noise).</li>
     *   <li>Several levels: bound {@code lambda (1-alpha) 3.5^(L-1) ||N_leaf||} if no row is clipped; when n meets
     *       event E's condition (spec §4.1, failure probability shared over the levels) also
     *       {@code ||N_leaf|| ||S||_2 <= ||N_leaf|| R^2} (Cor 3.10: {@code lambda_min(Sigma_leaf) >= 1}, so
     *       {@code (1-alpha) M M^T <= S / lambda}), and the smaller is stated; below event E's n, clipping is
     *       likely and the bound adds its worst case {@code ||S||_2 <= R^2}. Expected:
     *       {@code lambda (1-alpha) f E||N_leaf||} with f the factor of the most amplified direction of near-isotropic
     *       Gaussian rows of scale {@code s = max(lambda, R^2 / gaussianRadiusFactor(d, n))} (exact for
     *       {@code S = s I}): a direction of normalised eigenvalue v (plus the level's typical noise norm) at or above
     *       the split threshold {@code psi kappa_t} is halved ({@code v <- 2v/7}, {@code f <- 3.5 f}), otherwise
     *       {@code v <- 8v/7}, {@code f <- 7f/8}.</li>
     * </ul>
     * Also in units of R^2 and relative to the public lambda bound. With Algorithm 4 the schedule depends on the
     * private estimate; the statement then takes the worst over the schedules of every lambda in
     * {@code [R^2/(1e4 d) (1-alpha)^2/(1+alpha), R^2/d]} (a planning assumption on the condition number, stated).
     *
     * @param n the number of rows
     * @param d the dimension
     * @param probability the bound's probability
     * @return the statement
     */
    public org.dpgauss.release.Accuracy accuracy(int n, int d, double probability) {
        double beta = 1 - probability;
        double alpha = params.alpha();
        double r2 = params.radius() * params.radius();
        double lo;
        double hi;
        if (params.minEigenvalue() != null) {
            lo = params.minEigenvalue();
            hi = lo;
        } else {
            lo = r2 / (PLANNING_CONDITION * d) * (1 - alpha) * (1 - alpha) / (1 + alpha);
            hi = Math.max(lo, r2 / d);
        }
        double expected = 0;
        double bound = 0;
        boolean allE = true;
        int maxLevels = 0;
        for (double lambda = lo; ; lambda *= 1.25) {
            double lam = Math.min(lambda, hi);
            LevelSchedule s;
            try {
                s = schedule(lam, n, d);
            } catch (IllegalArgumentException e) {
                if (lam >= hi) {
                    break;
                }
                continue;
            }
            int levels = s.levels();
            maxLevels = Math.max(maxLevels, levels);
            double leaf = s.sigma(levels - 1);
            double back = lam * (1 - alpha); // output = lambda (1-alpha) M Sigma~_leaf M^T
            double grid = d * SymmetricGaussianNoise.grid(leaf) / 2;
            double exp = back * isotropicAmplification(s, Math.max(lam, r2 / SpectralAccuracy.gaussianRadiusFactor(d,
                    n)) / back) * SpectralAccuracy.expectedNoiseNorm(leaf, d);
            double bnd;
            if (levels == 1) {
                bnd = back * SpectralAccuracy.noiseNormBound(leaf, d, beta);
            } else {
                double nu = s.leafAccuracy(beta) + grid; // ||N_leaf|| bound, failure beta/L of the shared beta
                double worst = back * Math.pow(3.5, levels - 1) * nu;
                boolean e = s.eventEConditionHolds(beta);
                allE &= e;
                bnd = e ? Math.min(worst, nu * r2) : worst + r2;
            }
            expected = Math.max(expected, exp);
            bound = Math.max(bound, bnd);
            if (lam >= hi) {
                break;
            }
        }
        long nE = allE ? n : rowsForEventE(d, beta, lo, hi);
        String lambdaWords = params.minEigenvalue() != null
                ? String.format(java.util.Locale.ROOT, "lambda_min(S) >= %.4g (the public bound)", lo)
                : String.format(java.util.Locale.ROOT, "Algorithm 4 PASSes with an estimate within its (1-alpha)^2"
                        + " .. (1+alpha) range and lambda_min(S) >= R^2/(%.0g d) (a planning assumption: the schedule"
                        + " depends on the private estimate)", PLANNING_CONDITION);
        String regime;
        if (maxLevels <= 1) {
            regime = "one level (R^2/(lambda (1-alpha)) <= 640 m): the error is the leaf noise alone, lambda (1-alpha)"
                    + " N_leaf, whatever the rows' distribution";
        } else if (allE) {
            regime = String.format(java.util.Locale.ROOT, "n meets event E's condition (the noise stays below the"
                    + " eigen-split threshold at every level, so ||S~ - S||_2 <= ||N_leaf|| ||S||_2: a relative error of"
                    + " at most the parameter gammaBound); no row is clipped (only rows with leverage x^T S^-1 x above"
                    + " m(1+alpha)=%.4g can be, Lemma 3.9; clipped rows bias S~ down); the expected value is for"
                    + " near-isotropic Gaussian rows of scale max(lambda, R^2/(d + 2 sqrt(2 d ln n) + 2 ln n)) (an"
                    + " anisotropic S amplifies fewer directions: smaller)", params.m(d) * (1 + alpha));
        } else {
            regime = String.format(java.util.Locale.ROOT, "n=%d is below the %s rows at which the noise stays below"
                    + " the eigen-split threshold at every level (event E, spec §4.1, L<=%d levels, m=%d): the recursion"
                    + " can then take noise directions into its split, amplify the leaf noise up to 3.5^(L-1) times and"
                    + " clip rows, so the bound adds the clipping's worst case R^2 and the expected value (for"
                    + " near-isotropic Gaussian rows) is only indicative (use analyze-gauss or coinpress, raise n or"
                    + " rho, or lower --m)", n, nE < 0 ? "more than 2^31" : Long.toString(nE), maxLevels,
                    params.m(d));
        }
        return SpectralAccuracy.withUnits(org.dpgauss.release.Accuracy.of(SpectralAccuracy.METRIC,
                SpectralAccuracy.finite(expected), SpectralAccuracy.finite(bound), probability,
                String.format(java.util.Locale.ROOT, "every row has norm <= R=%.4g (longer rows are %s, which biases S~"
                        + " down); %s; %s", params.radius(), params.clipToRadius() ? "clipped to R" : "clipped to R (declared within R)",
                        lambdaWords, regime)), params.radius(), params.minEigenvalue(), "the public lambda_min bound");
    }

    /**
     * The factor by which {@code M M^T} multiplies the leaf noise along the most amplified direction of
     * near-isotropic rows (see {@link #accuracy}): starting from the normalised eigenvalue {@code v0}, at each
     * non-leaf level the direction (with the level's typical noise norm on top) is halved when at or above
     * {@code psi kappa_t}.
     */
    static double isotropicAmplification(LevelSchedule s, double v0) {
        double v = v0;
        double f = 1;
        int d = s.d();
        for (int t = 0; t < s.levels() - 1; t++) {
            if (v + SpectralAccuracy.expectedNoiseNorm(s.sigma(t), d) >= s.psi() * s.kappa(t)) {
                v *= 2.0 / 7.0;
                f *= 3.5;
            } else {
                v *= 8.0 / 7.0;
                f *= 7.0 / 8.0;
            }
        }
        return f;
    }

    /**
     * The smallest n at which event E's sufficient condition (spec §4.1) holds for every schedule of a lambda bound in
     * {@code [lo, hi]}; -1 if none up to {@code Integer.MAX_VALUE}. Public: a function of d, rho, m, alpha, R and
     * the bound.
     *
     * @param d the dimension
     * @param beta the failure probability shared over the levels
     * @param lo the smallest lambda bound
     * @param hi the largest
     * @return the smallest n, or -1
     */
    long rowsForEventE(int d, double beta, double lo, double hi) {
        java.util.function.IntPredicate ok = n -> {
            for (double lambda = lo; ; lambda *= 1.25) {
                double lam = Math.min(lambda, hi);
                try {
                    if (!schedule(lam, n, d).eventEConditionHolds(beta)) {
                        return false;
                    }
                } catch (IllegalArgumentException e) {
                    // no schedule at this lambda: nothing to check
                }
                if (lam >= hi) {
                    return true;
                }
            }
        };
        if (!ok.test(Integer.MAX_VALUE)) {
            return -1;
        }
        int a = 0;
        int b = Integer.MAX_VALUE;
        while (b - a > 1) {
            int mid = a + (b - a) / 2;
            if (ok.test(mid)) {
                b = mid;
            } else {
                a = mid;
            }
        }
        return b;
    }

    /**
     * @param n the number of rows
     * @param d the dimension
     * @return the smallest n at which the accuracy statement is in its proven regime (event E's condition) at the
     *     default probability, or -1
     */
    public long rowsForProvenAccuracy(int n, int d) {
        double alpha = params.alpha();
        double r2 = params.radius() * params.radius();
        double lo = params.minEigenvalue() != null ? params.minEigenvalue()
                : r2 / (PLANNING_CONDITION * d) * (1 - alpha) * (1 - alpha) / (1 + alpha);
        double hi = params.minEigenvalue() != null ? lo : Math.max(lo, r2 / d);
        return rowsForEventE(d, 1 - SpectralAccuracy.PROBABILITY, lo, hi);
    }

    /** The public schedule's parameters (a public lambda bound only: then they depend on public values alone). */
    private void scheduleParameters(PublicParameters.Builder p, LevelSchedule s) {
        double[] sig = new double[s.levels()];
        for (int t = 0; t < sig.length; t++) {
            sig[t] = s.sigma(t);
        }
        p.put("levels", s.levels())
                .put("paperT", s.paperT())
                .put("kappa0", s.kappa0())
                .put("cStop", s.stop())
                .put("noiseSigmaNormalised", sig)
                .put("accountedRho", s.accountedRho())
                // §4.1 accuracy at this n (public: a function of n, d, rho, m, alpha, R and the lambda bound only)
                .put("xi", params.xi())
                .put("gammaBound", s.leafAccuracy(params.xi()))
                .put("eventECondition", s.eventEConditionHolds(params.xi()));
        if (s.levels() > 1) { // public: 2 sigma_t sqrt(d) / (psi kappa_t), the same at every level
            p.put("noiseOverSplitThreshold", s.noiseOverSplitThreshold());
        }
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return compute(LocalRows.of(data.matrix(), context.engine()), stated, context);
    }

    @Override
    public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
        DMatrixRMaj m = run(rows, context.random(), context.engine(), null);
        return m == null ? Outcome.fail() : SecondMomentRelease.outcome(m, params.psdProjection());
    }

    /**
     * The pipeline of §2.4 on finite rows (the computation behind {@link #compute}); null for FAIL. {@code trace}
     * (tests) may be null.
     */
    DMatrixRMaj run(RowBlockMatrix x, RandomSource random, ComputeEngine engine, Trace trace) {
        return run(LocalRows.of(x, engine), random, engine, trace);
    }

    private DMatrixRMaj run(RowSource x, RandomSource random, ComputeEngine engine, Trace trace) {
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(engine, "engine");
        int n = Math.toIntExact(x.rows());
        int d = x.cols();
        double alpha = params.alpha();
        double radius = params.radius();
        SymmetricNoise noise = AnalyzeGauss.noiseFor(noiseOverride, random);
        MinEigenvalueEstimator alg4 = algorithm4(d);
        double lambda;
        LevelSchedule schedule;
        if (alg4 != null) {
            // Alg 4 sees rows bounded by R (§2.4): a row map, then its random groups as a selection of the rows
            double released = alg4.estimate(x.map(RowBounds.scaleAndClipMap(1.0, radius)), random);
            LevelSchedule valid = null;
            if (!Double.isNaN(released)) {
                try {
                    valid = schedule(released / (1 + alpha), n, d); // §2.4 step 4 [proposal]: Sigma/lambda >= I
                } catch (IllegalArgumentException e) {
                    valid = null; // no valid schedule for the released lambda~: post-processing, FAIL
                }
            }
            if (valid == null) {
                failBranchWork(x, n, d, noise, engine);
                return null;
            }
            lambda = released / (1 + alpha);
            schedule = valid;
        } else {
            lambda = params.minEigenvalue();
            schedule = schedule(lambda, n, d);
        }
        double scale = 1.0 / Math.sqrt(lambda * (1 - alpha)); // §2.4 step 5 and Alg 1 step 3 in one scaling
        double r0 = radius * scale;
        RowSource x0 = x.map(RowBounds.scaleAndClipMap(scale, r0));
        DMatrixRMaj out = recursion(x0, schedule, noise, engine, trace).copy();
        CommonOps_DDRM.scale(lambda * (1 - alpha), out); // Alg 1 step 5 and §2.4 step 7
        return out;
    }

    /**
     * A FAIL of Algorithm 4 does the work of a PASS and discards it (release contract: mechanisms with a private
     * test do the same work on both branches where they can; docs/design/fail-branch-work.md): the recursion runs
     * at the public stand-in {@code lambda = R^2 / (1 + alpha)} (rows are clipped to R, so no eigenvalue of the
     * second moment exceeds {@code R^2}). The work of a PASS depends on its released {@code lambda~} (the number of
     * levels), so the two branches cost the same up to that public quantity, not exactly. Where the stand-in has no
     * valid schedule the FAIL returns at once (nothing to imitate). Nothing of this run leaves: its noise draws come
     * after the decision and its result and any exception are dropped.
     */
    private void failBranchWork(RowSource x, int n, int d, SymmetricNoise noise, ComputeEngine engine) {
        double radius = params.radius();
        double alpha = params.alpha();
        double standIn = radius * radius / (1 + alpha);
        try {
            LevelSchedule schedule = schedule(standIn, n, d);
            double scale = 1.0 / Math.sqrt(standIn * (1 - alpha));
            recursion(x.map(RowBounds.scaleAndClipMap(scale, radius * scale)), schedule, noise, engine, null);
        } catch (RuntimeException e) {
            // discarded: the release is a FAIL whatever happens here
        }
    }

    /** The secure grid release needs every Gram entry within 2^51 grid steps of 0 (public check). */
    private static void checkGridRange(LevelSchedule s, SymmetricNoise noise) {
        if (!(noise instanceof SymmetricGaussianNoise)) {
            return;
        }
        for (int t = 0; t < s.levels(); t++) {
            double g = SymmetricGaussianNoise.grid(s.sigma(t));
            if (s.kappa(t) > 0x1p51 * g) {
                throw new IllegalArgumentException("n=" + s.n() + " and rho=" + s.rho() + " make the noise sigma="
                        + s.sigma(t) + " at level " + t + " more than 2^31 times smaller than kappa_t=" + s.kappa(t)
                        + ": the released grid points would not be exact doubles; lower rho");
            }
        }
    }

    /**
     * Algorithm 2 in iterative form (§2.3 "Iterative equivalent") on rows already scaled and clipped to
     * {@code R_0}; returns {@code M Sigma~_leaf M^T} (Algorithm 1 multiplies by {@code 1 - alpha}).
     */
    static DMatrixRMaj recursion(RowSource x0, LevelSchedule schedule, SymmetricNoise noise,
            ComputeEngine engine, Trace trace) {
        int n = Math.toIntExact(x0.rows());
        int d = x0.cols();
        RowSource xt = x0;
        DMatrixRMaj mAcc = CommonOps_DDRM.identity(d);
        double[] s = trace == null ? null : filled(n, 1.0);
        if (trace != null) { // tests: rows in memory
            trace.input = ((LocalRows) x0).matrix().toArray();
        }
        DMatrixRMaj noisy = null;
        int levels = schedule.levels();
        for (int t = 0; t < levels; t++) {
            double kappa = schedule.kappa(t);
            DMatrixRMaj gram = xt.gram(n);
            noisy = noise.perturb(gram, schedule.sigma(t));
            Trace.Level lv = null;
            if (trace != null) {
                lv = new Trace.Level();
                lv.kappa = kappa;
                lv.radius = schedule.radius(t);
                lv.sigma = schedule.sigma(t);
                lv.gram = gram;
                lv.noisy = noisy.copy();
                trace.levels.add(lv);
            }
            if (t == levels - 1) {
                break; // leaf: kappa_t <= C_stop
            }
            DMatrixRMaj u = topSubspace(engine.symmetricEigen(noisy), schedule.psi() * kappa);
            double[] clip = trace == null ? null : new double[n];
            if (trace == null) {
                xt = xt.map(new ShrinkAndClip(u, SQRT_3_7 * schedule.radius(t)));
            } else {
                xt = LocalRows.of(shrinkAndClip(((LocalRows) xt).matrix(), u, SQRT_3_7 * schedule.radius(t), clip, lv,
                        engine),
                        engine, xt.layout());
            }
            // M <- M sqrt(7/8) (I + U U^T)
            DMatrixRMaj inv = CommonOps_DDRM.identity(d);
            if (u.numCols > 0) {
                CommonOps_DDRM.multAddTransB(u, u, inv);
            }
            DMatrixRMaj next = new DMatrixRMaj(d, d);
            CommonOps_DDRM.mult(SQRT_7_8, mAcc, inv, next);
            mAcc = next;
            if (trace != null) {
                lv.subspace = u;
                DMatrixRMaj pi = CommonOps_DDRM.identity(d);
                if (u.numCols > 0) {
                    CommonOps_DDRM.multAddTransB(-0.5, u, u, pi);
                }
                lv.pi = pi;
                lv.clipFactors = clip;
                for (int i = 0; i < n; i++) {
                    s[i] *= clip[i];
                }
            }
        }
        DMatrixRMaj tmp = new DMatrixRMaj(d, d);
        CommonOps_DDRM.mult(mAcc, noisy, tmp);
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(tmp, mAcc, out);
        out = symmetrised(out);
        if (trace != null) {
            trace.unwhitening = mAcc;
            trace.recursionOutput = out.copy();
            trace.productClipFactors = s;
        }
        return out;
    }

    /** The eigenvectors with eigenvalue {@code >= threshold} (inclusive, §7.2), as the columns of a d x k matrix. */
    static DMatrixRMaj topSubspace(SymmetricEigen eig, double threshold) {
        int d = eig.dimension();
        int first = d;
        while (first > 0 && eig.value(first - 1) >= threshold) { // ascending eigenvalues
            first--;
        }
        int k = d - first;
        DMatrixRMaj v = eig.vectors();
        DMatrixRMaj u = new DMatrixRMaj(d, k);
        for (int c = 0; c < k; c++) {
            for (int i = 0; i < d; i++) {
                u.set(i, c, v.get(i, first + c));
            }
        }
        return u;
    }

    /** {@link #shrinkAndClip} as a row map, for a released U and a public r. */
    private static final class ShrinkAndClip implements BlockMap {
        private static final long serialVersionUID = 1L;
        private final DMatrixRMaj u;
        private final double r;

        ShrinkAndClip(DMatrixRMaj u, double r) {
            this.u = u.copy();
            this.r = r;
        }

        @Override
        public RowBlockMatrix apply(RowBlockMatrix block, ComputeEngine engine) {
            return shrinkAndClip(block, u, r, new double[block.rows()], null, engine);
        }
    }

    /**
     * Rows {@code x -> ClipRow(sqrt(8/7) (x - (1/2) U U^T x), r)}, i.e. {@code sqrt(8/7) Pi x} clipped to norm
     * {@code r}; {@code clip} receives the factors. The linear map is one engine product {@code X M} with the
     * symmetric {@code M = sqrt(8/7) (I - U U^T / 2)}; the clipping (which bounds every row's true norm by r whatever
     * the rounding of the product, {@link RowBounds#clip}) is then applied in place.
     */
    private static RowBlockMatrix shrinkAndClip(RowBlockMatrix x, DMatrixRMaj u, double r, double[] clip,
            Trace.Level lv, ComputeEngine engine) {
        int n = x.rows();
        int d = x.cols();
        DMatrixRMaj map = CommonOps_DDRM.identity(d);
        if (u.numCols > 0) {
            CommonOps_DDRM.multAddTransB(-0.5, u, u, map);
        }
        CommonOps_DDRM.scale(SQRT_8_7, map);
        RowBlockMatrix out = engine.multiplyRows(x, map);
        if (lv != null) {
            lv.transformedGramBeforeClip = engine.weightedGram(out, null, null, n);
        }
        double[] row = new double[d];
        double target = r * RowBounds.safety(d);
        double maxNorm = 0;
        for (int b = 0; b < out.blockCount(); b++) {
            double[] blk = out.block(b);
            int start = out.blockStart(b);
            for (int i = 0; i < out.blockRowCount(b); i++) {
                System.arraycopy(blk, i * d, row, 0, d);
                clip[start + i] = RowBounds.clip(row, r, target);
                if (clip[start + i] != 1.0) {
                    System.arraycopy(row, 0, blk, i * d, d);
                }
                if (lv != null) {
                    maxNorm = Math.max(maxNorm, Norms.euclidean(row));
                }
            }
        }
        if (lv != null) {
            lv.maxNormAfterClip = maxNorm;
        }
        return out;
    }

    private static DMatrixRMaj symmetrised(DMatrixRMaj a) {
        int d = a.numRows;
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                double v = 0.5 * (a.get(i, j) + a.get(j, i));
                out.set(i, j, v);
                out.set(j, i, v);
            }
        }
        return out;
    }

    private static double[] filled(int n, double v) {
        double[] a = new double[n];
        java.util.Arrays.fill(a, v);
        return a;
    }
}
