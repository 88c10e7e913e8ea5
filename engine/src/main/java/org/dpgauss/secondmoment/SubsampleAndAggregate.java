package org.dpgauss.secondmoment;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Algorithm 3 of Mahpud &amp; Sheffet (NeurIPS 2025), the subsample-and-aggregate baseline for the second-moment
 * matrix (spec second-moment-estimation §2.7, Thm 3.1 = A.6 in §1.7), built on Ashtiani &amp; Liaw 2022 and
 * Nissim, Raskhodnikova &amp; Smith 2007:
 * <ol>
 *   <li>shuffle; split into T = floor(n/m) groups of m rows (the n - mT leftover rows are dropped);</li>
 *   <li>Sigma_t = (1/m) sum_{x in group t} x x^T;</li>
 *   <li>q_t = (1/T) #{t' : Dist(Sigma_t, Sigma_t') &lt;= 2 alpha/(1 - alpha)} (t' = t included);</li>
 *   <li>Q = mean of q_t; Q~ = Q + TLap(2/T, epsilon, delta); FAIL if
 *       Q~ &lt; 0.8 + (2/(T epsilon)) ln(1 + (e^epsilon - 1)/(2 delta));</li>
 *   <li>w_t = min(1, 10 max(0, q_t - 0.6)); Sigma^ = sum w_t Sigma_t / sum w_t;</li>
 *   <li>G: d x d i.i.d. N(0,1) (not symmetric); eta = alpha/(48 C_abs (sqrt(d) + sqrt(ln(4/xi))));
 *       release Sigma^{1/2} (I + eta G)(I + eta G)^T Sigma^{1/2}.</li>
 * </ol>
 * Dist(A, B) = max_j max(|mu_j - 1|, |1/mu_j - 1|) over the generalized eigenvalues of B v = mu A v, +inf when
 * A or B is singular (spec §2.1). Since only the test Dist &lt;= tau is needed, it is evaluated as the
 * equivalent pair of Loewner tests B - A/(1+tau) &gt; 0 and (1+tau)A - B &gt; 0 (two Cholesky factorizations;
 * for tau &gt; 0 the interval [1/(1+tau), 1+tau] is exactly where max(|mu-1|, |1/mu-1|) &lt;= tau), which is
 * an order of magnitude cheaper than the generalized eigenproblem ({@link SpectralMetrics#dist} gives the value).
 *
 * <p><b>Guarantee: (2 epsilon, 4 e^epsilon delta)-DP under replace-one neighbours</b> (Lemma A.5), <b>only if
 * n satisfies the sample-size condition of Thm A.6</b> ({@link #minimumRowsForPrivacy}), which comes from the
 * masking mechanism of Ashtiani &amp; Liaw 2022 (Lemma 3.6): the masking noise eta is set by the accuracy target
 * alpha, not by epsilon, and hides one row only when the groups are numerous enough. With the paper's constants
 * the condition needs n/m of order 1e9 at d = 100 (spec §4.1), so it is unreachable at practical sizes. By
 * default {@link #state} refuses (throws, before any data are read: n is public) when the condition fails;
 * {@link Builder#allowUncertified(boolean)} runs it anyway for comparisons, and the statement is then uncertified.
 * The lemma's proof is a basic composition of the truncated Laplace test ({@code (epsilon, delta)}-DP) and the
 * masking of Ashtiani &amp; Liaw (Lemma 3.6, the rest of the lemma's delta); the statement composes these two steps
 * through {@link PrivacyAccountant#composeSteps}.
 *
 * <p><b>Accuracy</b> (Thm A.6): if X is (m, alpha, beta)-subsamplable with beta &lt;= xi m/(2n) (the paper's
 * "m &gt;= 2 beta n/xi") and the n-condition holds, then with probability at least 1 - xi the output satisfies
 * dist(Sigma, Sigma~) &lt;= 2 alpha, and FAIL has probability at most xi. beta enters only this hypothesis, so it
 * is not a parameter.
 *
 * <p>Choices where the paper is silent (spec §7.1 item 11): leftover rows are dropped; C_abs = 2 by default
 * (for a d x d Gaussian G, ||G|| &lt;= 2(sqrt(d) + sqrt(ln(4/xi))) with probability at least 1 - xi/2); eta uses xi
 * (Lemma A.4) rather than the beta printed in line 19. The truncated Laplace draw and G are floating-point
 * samples (G from the exact discrete Gaussian sampler with sigma = 1 on the grid 2^-20); the release is not
 * hardened against floating-point attacks (Mironov 2012).
 *
 * <p>Under the release contract it releases {@code secondMoment} (a FAIL releases nothing else; see
 * {@link #FAIL_MEANING}) with public parameters {@code n}, {@code d}, {@code groupSize}, {@code groups},
 * {@code droppedRows}, {@code alpha}, {@code xi}, {@code stepEpsilon}, {@code stepDelta}, {@code cAbs},
 * {@code maskScale}, {@code failThreshold}, {@code rowsRequiredForPrivacy} and {@code privacyConditionHolds} (all
 * functions of the public n, d and the parameters). Data whose group second moments overflow (entries beyond about
 * 1e154) are treated as singular groups (Dist = +inf), so no infinity reaches the aggregate. Immutable.
 */
public final class SubsampleAndAggregate implements SecondMomentMethod, RowSourceMechanism {

    /** Registered name. */
    public static final String NAME = "subsample-aggregate";

    /** The mechanism's identifier in releases. */
    public static final String ID = SecondMomentRelease.id(NAME);

    /** One-line description for listings. */
    public static final String DESCRIPTION = "Algorithm 3 (subsample-and-aggregate baseline, Mahpud-Sheffet Thm A.6):"
            + " (2 eps, 4 e^eps delta)-DP (replace-one) only when n meets Thm A.6's sample size; refuses otherwise"
            + " unless uncertified runs are allowed";

    /** What a FAIL can mean (public words). */
    public static final String FAIL_MEANING = "the private agreement test failed: the groups' second moments did not"
            + " agree closely enough, so the data may be too few per group, heavy-tailed or not subsamplable at this"
            + " group size and alpha; larger groups, more rows or a larger epsilon make a PASS likelier";

    /** Extra option: the group size m (default: the shared m, {@link SecondMomentParams#m(int)}). */
    public static final String EXTRA_GROUP_SIZE = "group-size";

    /** Extra option: the absolute constant C_abs of the masking scale (default 2). */
    public static final String EXTRA_C_ABS = "c-abs";

    /** Extra option: 1 runs even where n is below Thm A.6's sample size (result labelled not DP-certified). */
    public static final String EXTRA_UNCERTIFIED = "uncertified";

    /** Default absolute constant of the Gaussian-matrix tail bound in eta (spec §2.7 proposal). */
    public static final double DEFAULT_C_ABS = 2.0;

    private final Integer m; // null: SecondMomentParams.DEFAULT_M_PER_DIMENSION * d
    private final double alpha;
    private final double xi;
    private final double epsilon;
    private final double delta;
    private final double cAbs;
    private final boolean allowUncertified;
    private final boolean psd;

    private SubsampleAndAggregate(Integer m, double alpha, double xi, double epsilon, double delta, double cAbs,
            boolean allowUncertified, boolean psd) {
        this.m = m;
        this.alpha = alpha;
        this.xi = xi;
        this.epsilon = epsilon;
        this.delta = delta;
        this.cAbs = cAbs;
        this.allowUncertified = allowUncertified;
        this.psd = psd;
    }

    /**
     * @return a builder: {@code groupSize} and a budget ({@link Builder#stepBudget} or {@link Builder#totalBudget})
     *     are required; alpha 1/2, xi 0.1, C_abs 2 and refusing uncertified sizes by default
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * From the shared parameters, at the privacy level rho-zCDP implies: epsilon_total = the conversion of rho at
     * the shared delta by the project's policy ({@link SecondMomentParams#equivalentEpsilon}), run with
     * epsilon = epsilon_total/2 and delta_alg = delta/(4 e^epsilon) so that the final (2 epsilon, 4 e^epsilon
     * delta_alg) equals (epsilon_total, delta). Also alpha, xi, the PSD projection, and the extra options
     * {@value #EXTRA_GROUP_SIZE} (default: the shared m), {@value #EXTRA_C_ABS} and {@value #EXTRA_UNCERTIFIED}
     * (0 or 1). R is not used: Algorithm 3 needs no norm bound.
     *
     * @param params the shared parameters
     * @return the mechanism
     */
    public static SubsampleAndAggregate fromParams(SecondMomentParams params) {
        Objects.requireNonNull(params, "params");
        Integer m = params.explicitM();
        if (params.extras().containsKey(EXTRA_GROUP_SIZE)) {
            m = ParameterChecks.wholeExtra(EXTRA_GROUP_SIZE, params.extra(EXTRA_GROUP_SIZE, 0), Integer.MAX_VALUE,
                    "[1, n]", "it counts the rows of each group");
        }
        boolean unc = params.extraFlag(EXTRA_UNCERTIFIED, "refuse where Thm A.6's sample size fails",
                "run anyway, labelled not DP-certified");
        Builder b = builder().alpha(params.alpha()).xi(params.xi())
                .totalBudget(ApproxDp.of(params.equivalentEpsilon(), params.delta()))
                .cAbs(params.extra(EXTRA_C_ABS, DEFAULT_C_ABS)).allowUncertified(unc)
                .psdProjection(params.psdProjection());
        b.groupSize = m;
        return b.build();
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * @param d the dimension
     * @return the group size m (the explicit value, or {@link SecondMomentParams#DEFAULT_M_PER_DIMENSION} d)
     */
    public int m(int d) {
        return m != null ? m : Math.max(1, SecondMomentParams.DEFAULT_M_PER_DIMENSION * d);
    }

    public double alpha() {
        return alpha;
    }

    public double xi() {
        return xi;
    }

    /** @return the epsilon of each of the two steps (half the final epsilon) */
    public double epsilon() {
        return epsilon;
    }

    /** @return the delta of Algorithm 3's truncated Laplace test */
    public double delta() {
        return delta;
    }

    public double cAbs() {
        return cAbs;
    }

    public boolean allowsUncertified() {
        return allowUncertified;
    }

    /** The final guarantee's parameters: (2 epsilon, 4 e^epsilon delta). */
    public ApproxDp finalGuarantee() {
        return ApproxDp.of(2 * epsilon, 4 * Math.exp(epsilon) * delta);
    }

    /**
     * The masking scale eta = alpha / (48 C_abs (sqrt(d) + sqrt(ln(4/xi)))) (spec §2.7 line 10).
     *
     * @param d the dimension, &gt;= 1
     * @return eta
     */
    public double maskScale(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " must be >= 1");
        }
        return alpha / (48 * cAbs * (Math.sqrt(d) + Math.sqrt(Math.log(4 / xi))));
    }

    /**
     * The sample size Thm A.6 needs for privacy (spec §1.7):
     * n &gt;= 800 m max{ sqrt(2d(d + 1/eta^2)/eps), 8d sqrt(ln(2/delta))/eps, 8 ln(2/delta)/eps,
     * 12 sqrt(d ln(2/delta))/(eps eta), ln(1 + (e^eps - 1)/(2 delta))/(80 eps) }.
     *
     * @param d the dimension
     * @return the smallest n (as a double; it may exceed the int range)
     */
    public double minimumRowsForPrivacy(int d) {
        double eta = maskScale(d);
        double l = Math.log(2 / delta);
        double t1 = Math.sqrt(2.0 * d * (d + 1 / (eta * eta)) / epsilon);
        double t2 = 8.0 * d * Math.sqrt(l) / epsilon;
        double t3 = 8.0 * l / epsilon;
        double t4 = 12.0 * Math.sqrt(d * l) / (epsilon * eta);
        double t5 = Math.log1p(Math.expm1(epsilon) / (2 * delta)) / (80 * epsilon);
        return 800.0 * m(d) * Math.max(Math.max(Math.max(t1, t2), Math.max(t3, t4)), t5);
    }

    /** @return whether n rows of dimension d satisfy {@link #minimumRowsForPrivacy} */
    public boolean privacyConditionHolds(int n, int d) {
        return n >= minimumRowsForPrivacy(d);
    }

    /** The threshold 0.8 + (2/(T eps)) ln(1 + (e^eps - 1)/(2 delta)) of step 6 for T groups. */
    public double failThreshold(int groups) {
        return 0.8 + truncation(groups);
    }

    /** The truncated Laplace support half-width A = (Delta/eps) ln(1 + (e^eps - 1)/(2 delta)), Delta = 2/T. */
    double truncation(int groups) {
        return (2.0 / (groups * epsilon)) * Math.log1p(Math.expm1(epsilon) / (2 * delta));
    }

    @Override
    public Statement state(PublicContext context) {
        int n = context.rows();
        int d = context.dimension();
        int m = m(d);
        if (m > n) {
            throw new IllegalArgumentException("m=" + m + " exceeds n=" + n + ": Algorithm 3 needs at least one group"
                    + " of m rows");
        }
        boolean conditionHolds = privacyConditionHolds(n, d);
        if (!conditionHolds && !allowUncertified) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "n=%d is below the %.3g rows Thm A.6 needs"
                    + " for privacy at d=%d, m=%d, epsilon=%s, delta=%s (masking eta=%.3g): Algorithm 3 is not DP"
                    + " here; allow uncertified runs (extra option %s=1) to compare anyway", n,
                    minimumRowsForPrivacy(d), d, m, epsilon, delta, maskScale(d), EXTRA_UNCERTIFIED));
        }
        int groups = n / m;
        StringBuilder notes = new StringBuilder("Algorithm 3 (subsample-and-aggregate, Lemma A.5): truncated Laplace"
                + " test at (eps, delta) composed with the masking of Ashtiani-Liaw Lemma 3.6; the truncated Laplace"
                + " (by inversion) and the mask S (I + eta G)(I + eta G)^T S (G exact discrete Gaussian, S from the"
                + " data) are computed in floating point: floating-point arithmetic is not covered"
                + " (docs/design/floating-point-scope.md)");
        if (!conditionHolds) {
            notes.append(String.format(Locale.ROOT, "; NOT DP-certified: n=%d is below the %.3g rows Thm A.6 needs"
                    + " for privacy", n, minimumRowsForPrivacy(d)));
        }
        ApproxDp total = finalGuarantee();
        double maskDelta = total.delta() - delta;
        PrivacyGuarantee g = PrivacyAccountant.composeSteps(NeighbouringRelation.REPLACE_ONE, List.of(
                Release.approxDp(SecondMomentRelease.id("agreement-test"), NeighbouringRelation.REPLACE_ONE,
                        ApproxDp.of(epsilon, delta)),
                Release.approxDp(SecondMomentRelease.id("masking"), NeighbouringRelation.REPLACE_ONE,
                        ApproxDp.of(epsilon, maskDelta))),
                Math.min(Math.nextDown(1.0), Math.max(total.delta(), delta + maskDelta)), conditionHolds,
                notes.toString());
        return Statement.builder(context, ID, g)
                .description("private uncentred second moment (d x d), subsample-and-aggregate (Algorithm 3)")
                .parameters(SecondMomentRelease.parameters(context)
                        .put("groupSize", m)
                        .put("groups", groups)
                        .put("droppedRows", n - groups * m)
                        .put("alpha", alpha)
                        .put("xi", xi)
                        .put("stepEpsilon", epsilon)
                        .put("stepDelta", delta)
                        .put("cAbs", cAbs)
                        .put("maskScale", maskScale(d))
                        .put("failThreshold", failThreshold(groups))
                        .put("rowsRequiredForPrivacy", minimumRowsForPrivacy(d))
                        .put("privacyConditionHolds", conditionHolds)
                        .build())
                .accounting(Release.of(ID, g))
                .failMeaning(failMeaning(n, d))
                .accuracy(accuracy(n, d))
                .build();
    }

    /**
     * What a FAIL means, with the numbers of this n and d: even when every group agrees (mean score 1), the noisy
     * mean score passes the threshold {@code 0.8 + A} only if {@code A < 0.2}, i.e. with more than
     * {@code 10 ln(1 + (e^eps - 1)/(2 delta)) / eps} groups.
     *
     * @param n the number of rows
     * @param d the dimension
     * @return the words
     */
    public String failMeaning(int n, int d) {
        int m = m(d);
        long groupsNeeded = (long) Math.floor(10 * Math.log1p(Math.expm1(epsilon) / (2 * delta)) / epsilon) + 1;
        return String.format(java.util.Locale.ROOT, "%s. The test passes only if the noisy mean agreement score"
                + " reaches 0.8 plus the noise's truncation %.3g (%d groups of m=%d rows here): even when every group"
                + " agrees that needs more than %d groups, i.e. n >= %d rows at this m and epsilon%s", FAIL_MEANING,
                truncation(Math.max(1, n / m)), n / m, m, groupsNeeded - 1, groupsNeeded * m,
                n / m < groupsNeeded ? "; n=" + n + " is below that, so a FAIL is certain" : "")
                + (m < d ? "; groups of m=" + m + " < d=" + d + " rows are singular and never agree: use m >= d" : "");
    }

    /**
     * The a-priori accuracy ({@link SpectralAccuracy#RELATIVE_METRIC}) of a PASS, at Thm A.6's probability {@code 1 - xi}:
     * {@code dist(S, S~) <= 2 alpha} puts every generalized eigenvalue of {@code (S~, S)} in
     * {@code [1/(1+2 alpha), 1 + 2 alpha]}, so {@code -2 alpha S <= S~ - S <= 2 alpha S} and the relative spectral error
     * is at most {@code 2 alpha}. Expected: the masking alone, {@code ||(I + eta G)(I + eta G)^T - I|| ~
     * 2 sqrt(2d) eta + 4 d eta^2} (the Gaussian matrix has {@code E||G|| <= 2 sqrt(d)}), which is what remains when
     * every group agrees (the weighted average is then the second moment of the {@code m floor(n/m)} kept rows).
     *
     * @param n the number of rows
     * @param d the dimension
     * @return the statement
     */
    public org.dpgauss.release.Accuracy accuracy(int n, int d) {
        double eta = maskScale(d);
        double expected = 2 * Math.sqrt(2.0 * d) * eta + 4.0 * d * eta * eta;
        int m = m(d);
        String cond = privacyConditionHolds(n, d) ? "n meets Thm A.6's sample size"
                : String.format(java.util.Locale.ROOT, "Thm A.6's sample size (%.3g rows) is NOT met, so neither its"
                        + " privacy nor this accuracy is proven (uncertified run)", minimumRowsForPrivacy(d));
        return org.dpgauss.release.Accuracy.of(SpectralAccuracy.RELATIVE_METRIC, expected, 2 * alpha, 1 - xi,
                String.format(java.util.Locale.ROOT, "the release PASSes (a FAIL releases nothing; FAIL has"
                        + " probability <= xi under these assumptions); the rows are (m, alpha, beta)-subsamplable with"
                        + " m=%d, alpha=%.4g and beta <= xi m/(2n) = %.3g (random groups of m rows have second moments"
                        + " within a factor 1 +- alpha of S); %s; the expected value is the masking alone (groups that"
                        + " agree; the %d leftover rows are dropped)", m, alpha, xi * m / (2.0 * n), cond, n % m));
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        DMatrixRMaj m = matrix(data.matrix(), context.random(), context.engine());
        return m == null ? Outcome.fail() : SecondMomentRelease.outcome(m, psd);
    }

    /** Algorithm 3 on finite rows (n &gt;= m, checked in {@link #state}); null for FAIL. */
    DMatrixRMaj matrix(RowBlockMatrix x, RandomSource random, ComputeEngine engine) {
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(engine, "engine");
        return aggregate(groupSecondMoments(x, x.rows() / m(x.cols()), random, engine), x.cols(), random, engine);
    }

    /** The rows' dimension and number must be the public ones the statement was made for. Public facts only; run by compute, after the charge (issue 24). */
    void validate(RowSource rows, Statement stated) {
        if (rows.rows() != stated.context().rows() || rows.cols() != stated.context().dimension()) {
            throw new IllegalArgumentException("the data are " + rows.rows() + " x " + rows.cols() + " but the"
                    + " release was stated for " + stated.context().rows() + " x " + stated.context().dimension());
        }
    }

    /**
     * Algorithm 3 as one row pass: the driver draws the random partition (the Fisher-Yates permutation of the
     * single-machine algorithm, from the same random source in the same order), the group second moments come from
     * {@link RowSource#groupGrams} (one shuffle that moves each row to its group), and the
     * agreement scores, the test and the masking run on the caller's machine as in memory.
     */
    @Override
    public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
        validate(rows, stated);
        RandomSource random = Objects.requireNonNull(context.random(), "random");
        int n = (int) rows.rows();
        int d = rows.cols();
        int m = m(d);
        int[] perm = partition(n, random);
        DMatrixRMaj[] sigma = rows.groupGrams(java.util.Arrays.copyOf(perm, (n / m) * m), m);
        DMatrixRMaj out = aggregate(sigma, d, random, context.engine());
        return out == null ? Outcome.fail() : SecondMomentRelease.outcome(out, psd);
    }

    /** Steps 3-8 from the groups' second moments; null for FAIL. */
    private DMatrixRMaj aggregate(DMatrixRMaj[] sigma, int d, RandomSource random, ComputeEngine engine) {
        int groups = sigma.length;
        double[] q = agreementScores(sigma, 2 * alpha / (1 - alpha), engine);
        double bigQ = 0;
        for (double v : q) {
            bigQ += v;
        }
        bigQ /= groups;
        double noisyQ = bigQ + truncatedLaplace(2.0 / groups, epsilon, truncation(groups), random);
        boolean pass = noisyQ >= failThreshold(groups);
        // Steps 7-11 run on both branches and a FAIL discards their result (release contract: mechanisms with a
        // private test do the same work on both branches where they can; docs/design/fail-branch-work.md).
        // On a FAIL the weights may all be zero: the mask then runs on the zero matrix, the same operations.
        DMatrixRMaj hat = new DMatrixRMaj(d, d);
        double wSum = 0;
        for (int t = 0; t < groups; t++) {
            double w = Math.min(1, 10 * Math.max(0, q[t] - 0.6));
            if (w > 0) {
                CommonOps_DDRM.addEquals(hat, w, sigma[t]);
                wSum += w;
            }
        }
        if (wSum > 0) {
            CommonOps_DDRM.scale(1 / wSum, hat);
        }
        DMatrixRMaj masked = mask(hat, maskScale(d), random, engine);
        // wSum > 0 always holds after step 6 (then Q >= 0.8, spec §2.7 step 8); never release a zero division
        return pass && wSum > 0 ? masked : null;
    }

    /** Steps 1-2: a uniformly random partition (Fisher-Yates) and the groups' second moments. */
    static DMatrixRMaj[] groupSecondMoments(RowBlockMatrix x, int groups, RandomSource random, ComputeEngine engine) {
        int n = x.rows();
        int[] perm = partition(n, random);
        int m = n / groups;
        DMatrixRMaj[] out = new DMatrixRMaj[groups];
        for (int t = 0; t < groups; t++) {
            int[] rows = new int[m];
            System.arraycopy(perm, t * m, rows, 0, m);
            out[t] = engine.weightedGram(x, rows, null, m);
        }
        return out;
    }

    /** Step 1: a uniformly random permutation of the positions {@code 0..n-1} (Fisher-Yates, n - 1 draws). */
    static int[] partition(int n, RandomSource random) {
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
        return perm;
    }

    /** Step 3: q_t = (1/T) #{t' : Dist(Sigma_t, Sigma_t') &lt;= tau}, using the symmetry of Dist. */
    static double[] agreementScores(DMatrixRMaj[] sigma, double tau, ComputeEngine engine) {
        int groups = sigma.length;
        int[] count = new int[groups];
        for (int t = 0; t < groups; t++) {
            for (int u = t; u < groups; u++) {
                if (withinDist(sigma[t], sigma[u], tau, engine)) {
                    count[t]++;
                    if (u != t) {
                        count[u]++;
                    }
                }
            }
        }
        double[] q = new double[groups];
        for (int t = 0; t < groups; t++) {
            q[t] = count[t] / (double) groups;
        }
        return q;
    }

    /**
     * Whether Dist(A, B) &lt;= tau, as the Loewner tests A/(1+tau) &lt; B &lt; (1+tau) A (both strict, so a
     * singular A or B, where Dist is +inf, fails).
     */
    static boolean withinDist(DMatrixRMaj a, DMatrixRMaj b, double tau, ComputeEngine engine) {
        if (!allFinite(a) || !allFinite(b)) {
            return false; // an overflowed group second moment is treated as singular: Dist = +inf
        }
        int d = a.numRows;
        DMatrixRMaj lower = new DMatrixRMaj(d, d);
        DMatrixRMaj upper = new DMatrixRMaj(d, d);
        double s = 1 + tau;
        for (int i = 0; i < d * d; i++) {
            lower.data[i] = b.data[i] - a.data[i] / s;
            upper.data[i] = s * a.data[i] - b.data[i];
        }
        return engine.cholesky(lower).isPositiveDefinite() && engine.cholesky(upper).isPositiveDefinite();
    }

    /** Steps 9-11: Sigma^{1/2} (I + eta G)(I + eta G)^T Sigma^{1/2} with G i.i.d. N(0, 1), d x d. */
    static DMatrixRMaj mask(DMatrixRMaj hat, double eta, RandomSource random, ComputeEngine engine) {
        int d = hat.numRows;
        DMatrixRMaj root = SpectralMetrics.psdSqrt(hat);
        double[] g = new double[d * d];
        SecureGaussianSampler.using(random).sample(g, 1.0);
        DMatrixRMaj f = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                f.set(i, j, (i == j ? 1.0 : 0.0) + eta * g[i * d + j]);
            }
        }
        DMatrixRMaj rf = engine.multiply(root, false, f, false); // S (I + eta G)
        return SymmetricGaussianNoise.symmetricCopy(engine.multiply(rf, false, rf, true)); // S(I+eG)(I+eG)^T S
    }

    /**
     * The truncated Laplace TLap(Delta, eps, delta) of spec §2.7: density proportional to exp(-|z|/b) on [-A, A],
     * b = Delta/eps, by inversion of |z| and a fair sign.
     */
    static double truncatedLaplace(double sensitivity, double epsilon, double halfWidth, RandomSource random) {
        double b = sensitivity / epsilon;
        double u = random.nextDouble();
        double mag = -b * Math.log1p(-u * -Math.expm1(-halfWidth / b));
        mag = Math.min(mag, halfWidth);
        return (random.nextLong() & 1L) == 0 ? mag : -mag;
    }

    private static boolean allFinite(DMatrixRMaj a) {
        for (double v : a.data) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        return true;
    }

    /** Builds a {@link SubsampleAndAggregate} from named parameters (nothing can be swapped silently). */
    public static final class Builder {
        private Integer groupSize;
        private double alpha = 0.5;
        private double xi = 0.1;
        private ApproxDp step;
        private ApproxDp total;
        private double cAbs = DEFAULT_C_ABS;
        private boolean allowUncertified;
        private boolean psd;

        private Builder() {
        }

        /** @param m the group size (subsamplability parameter), &gt;= 1 (default: d) @return this builder */
        public Builder groupSize(int m) {
            this.groupSize = m;
            return this;
        }

        /** @param a the subsampling accuracy, in (0, 1/2] (default 1/2) @return this builder */
        public Builder alpha(double a) {
            this.alpha = a;
            return this;
        }

        /** @param x the failure probability, in (0, 1) (default 0.1) @return this builder */
        public Builder xi(double x) {
            this.xi = x;
            return this;
        }

        /**
         * @param b each step's {@code (epsilon, delta)}: epsilon in (0, 50], 4 e^epsilon delta &lt; 1; the final
         *     guarantee is {@code (2 epsilon, 4 e^epsilon delta)}
         * @return this builder
         */
        public Builder stepBudget(ApproxDp b) {
            this.step = Objects.requireNonNull(b, "stepBudget");
            this.total = null;
            return this;
        }

        /**
         * @param b the final {@code (epsilon, delta)}: run with epsilon/2 and delta/(4 e^(epsilon/2))
         * @return this builder
         */
        public Builder totalBudget(ApproxDp b) {
            this.total = Objects.requireNonNull(b, "totalBudget");
            this.step = null;
            return this;
        }

        /** @param c the absolute constant C_abs of eta, finite and &gt; 0 (default 2) @return this builder */
        public Builder cAbs(double c) {
            this.cAbs = c;
            return this;
        }

        /**
         * @param allow true to run even where n is below {@link #minimumRowsForPrivacy} (the statement is then not
         *     certified; for comparisons and ablations only)
         * @return this builder
         */
        public Builder allowUncertified(boolean allow) {
            this.allowUncertified = allow;
            return this;
        }

        /** @param v also release the PSD projection (post-processing) @return this builder */
        public Builder psdProjection(boolean v) {
            this.psd = v;
            return this;
        }

        /** @return the mechanism, validated */
        public SubsampleAndAggregate build() {
            if (step == null && total == null) {
                throw new IllegalStateException("a budget is required: stepBudget(ApproxDp) or totalBudget(ApproxDp)");
            }
            double epsilon = step != null ? step.epsilon() : total.epsilon() / 2;
            double delta = step != null ? step.delta() : total.delta() / (4 * Math.exp(epsilon));
            if (groupSize != null && groupSize < 1) {
                throw new IllegalArgumentException("m=" + groupSize + " is outside [1, n]: the group size must be"
                        + " positive");
            }
            if (!(alpha > 0 && alpha <= 0.5)) {
                throw new IllegalArgumentException("alpha=" + alpha + " is outside (0, 0.5]: the analysis of"
                        + " Algorithm 3 (Thm A.6) assumes a subsampling accuracy alpha <= 1/2");
            }
            if (!(xi > 0 && xi < 1)) {
                throw new IllegalArgumentException("xi=" + xi + " is outside (0, 1): it is a failure probability");
            }
            if (!(epsilon > 0 && epsilon <= 50)) {
                throw new IllegalArgumentException("epsilon=" + epsilon + " is outside (0, 50]: Algorithm 3 is"
                        + " (2 epsilon, 4 e^epsilon delta)-DP and e^epsilon must stay representable with delta");
            }
            if (!(delta > 0 && delta < 1) || !(4 * Math.exp(epsilon) * delta < 1)) {
                throw new IllegalArgumentException("delta=" + delta + " must be in (0, 1) with 4 e^epsilon delta < 1"
                        + " (here " + 4 * Math.exp(epsilon) * delta + "): the final guarantee's delta is"
                        + " 4 e^epsilon delta");
            }
            if (!(cAbs > 0) || !Double.isFinite(cAbs)) {
                throw new IllegalArgumentException("C_abs=" + cAbs + " is outside (0, inf): it scales the masking"
                        + " noise");
            }
            return new SubsampleAndAggregate(groupSize, alpha, xi, epsilon, delta, cAbs, allowUncertified, psd);
        }
    }
}
