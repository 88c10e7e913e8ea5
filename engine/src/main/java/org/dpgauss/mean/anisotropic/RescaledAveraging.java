package org.dpgauss.mean.anisotropic;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.noise.DiscreteLaplace;
import org.dpgauss.privacy.noise.NoiseGrid;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.mean.GaussianNorms;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;

/**
 * Private re-scaled averaging {@code Avg_{M,lambda,epsilon,delta}}, Algorithm 1 of spec
 * anisotropic-mean-estimation §3 (Dagan, Jordan, Yang, Zakynthinou, Zhivotovskiy): a dimension-free private mean
 * for subgaussian data with a known (or bounded) covariance proxy, with no clipping, range or centre.
 * <ol>
 *   <li>map the rows to {@code y = M^{-1/4} x} and run {@link BasicFilter} with the predicate
 *       {@code ||y - y'||_2 <= lambda} (neighbour counts by {@link ComputeEngine#neighbourCounts}); C = kept rows;</li>
 *   <li>noisy count {@code n^ = |C| - log(1/delta)/epsilon + Lap(1/epsilon)}; if {@code |C| = 0} or
 *       {@code n^ <= 0} return {@link AnisotropicMeanResult#FAIL} (the only failure exit, §3.1 step 5, §9);</li>
 *   <li>release the whitened mean {@code ybar = mean(M^{-1/4} C)} with Gaussian noise of L2 sensitivity
 *       {@code 2 lambda / n^} and publish {@code M^{1/4} (ybar + noise)}: noise covariance proportional to
 *       {@code M^{1/2}} (§3.1 [D], step 6–7).</li>
 * </ol>
 * Choices of M: {@link ShapeMatrix#of} with {@code M = Sigma} (known covariance, main estimator),
 * {@link ShapeMatrix#identity} (folklore), {@link ShapeMatrix#diagonal}; lambda by {@link LambdaRule} (§3.2).
 *
 * <p><b>Guarantee</b> ({@link Calibration#PROVABLE}, the default): {@code (epsilon*, delta*)}-DP under
 * <b>replace-one</b> neighbours with n public ({@link NeighbouringRelation#REPLACE_ONE}, spec §5.2 item 1), or under
 * add/remove if that relation is requested. Thm 3.5: for internal {@code epsilon, delta in (0, 1/2)} Algorithm 1 is
 * {@code (21 epsilon, e^10 delta)}-DP (add/remove); group privacy of size 2 gives replace-one
 * {@code (42 epsilon, (1 + e^{21 epsilon}) e^10 delta)}. So the internal values are
 * {@code epsilon = epsilon* / 42}, {@code delta = delta* / (e^10 (1 + e^{epsilon* / 2}))} for replace-one
 * ({@code epsilon* / 21}, {@code delta* e^-10} for add/remove), rounded down. {@link Calibration#NOMINAL_UNCERTIFIED}
 * passes the target through and its statement is marked uncertified. (A seeded, insecure random source withdraws
 * the certification too; {@link org.dpgauss.release.Releases} decides that, not this class.)
 *
 * <p><b>Noise on a grid</b> (so that the sampler's floating-point behaviour cannot leak, Mironov 2012):
 * <ul>
 *   <li>Count: the Laplace draw is {@code g_L Z}, {@code Z} discrete Laplace with integer scale
 *       {@code t = ceil(b/g_L)}, {@code b = 1/epsilon}, {@code g_L = NoiseGrid.spacing(b) <= 1}; {@code |C|} is an
 *       exact grid point (integer sensitivity {@code 1/g_L}), so this is {@code 1/(g_L t) <= epsilon}-DP (geometric
 *       mechanism). The shift {@code log(1/delta)/epsilon} becomes {@code g_L K}, {@code K = ceil(t ln(1/delta)) + 1},
 *       which keeps Lemma 3.4's event {@code n^ >= |C|} at probability
 *       {@code e^{-K/t}/(1 + e^{-1/t}) <= delta e^{-1/t}/(1 + e^{-1/t}) < delta/2}, as the proof needs. The test
 *       {@code n^ <= 0} is an exact integer comparison.</li>
 *   <li>Mean: the whitened mean is summed exactly ({@link org.dpgauss.rows.ExactColumnSums}) and rounded to the power-of-two grid
 *       {@code g}; the release is {@code g (round(ybar/g) + Z)}, {@code Z_j} independent discrete Gaussians
 *       ({@link SecureGaussianSampler}). Its sensitivity on friendly neighbours is
 *       {@code Delta' = 2 lambda (1 + 1e-9) / n^ + g sqrt(d)}: the factor {@code 1 + 1e-9} covers the predicate's
 *       floating-point evaluation (the engine recomputes pairs within a relative {@code 1e-9} of the radius
 *       directly, spec §8), {@code g sqrt(d)} the grid rounding ({@link NoiseGrid}). The standard deviation is
 *       {@code max(Delta' sqrt(2 ln(1.25/delta))/epsilon, Delta'/sqrt(2 rho))} with
 *       {@code rho = ConversionPolicy.rhoFor(epsilon, delta)} (CKS20 Cor. 13): the second term makes the discrete mechanism
 *       {@code (epsilon, delta)}-DP via zCDP (CKS20 Thm. 14 and Bun–Steinke), which the proof of Thm 3.5 needs
 *       for fixed {@code n^}; the first is the paper's classical calibration (§3.1 step 6), kept so that the noise
 *       is never below the paper's. They differ by well under 1% in the provable regime.</li>
 * </ul>
 *
 * <p><b>Accuracy</b> (Thm 3.3): for {@code n >= 2 log(1/(delta beta))/epsilon} (internal values) and
 * {@code lambda >= lambda*(beta)}, with probability at least {@code 1 - 3.5 beta} the result is not FAIL and
 * {@code ||mu^ - mu|| <= sqrt(tr Sigma/n) + sqrt(2||Sigma|| log(1/beta)/n)
 * + 4 sqrt(2 log(1.25/delta)) lambda/(epsilon n) (sqrt(tr M^{1/2}) + sqrt(2 ||M^{1/2}|| log(1/beta)))}. The
 * privacy part of the error scales as {@code lambda sqrt(tr M^{1/2})}: for {@code M = Sigma} about
 * {@code tr Sigma^{1/2}}, for {@code M = I} about {@code sqrt(d tr Sigma)} (spec §10).
 *
 * <p><b>Release contract</b> ({@link PrivateMechanism}): releases {@code mean}; a FAIL (step 5) releases nothing.
 * The work after step 5 (exact sums, noise draws) runs on both branches and is discarded on FAIL, so the running
 * time does not depend on the outcome through a skipped step; timing side channels in general are outside the
 * guarantee. Data are validated finite by {@link Dataset}; a whitened coordinate beyond {@code 2^500/sqrt(d)} is
 * clamped to it (a fixed function of its row, so privacy is unaffected; only absurdly scaled data meet it), so that
 * neither the exact sums nor the neighbour counts can overflow.
 *
 * <p>Immutable; thread safety is that of the random source and engine passed to {@link #compute}.
 */
public final class RescaledAveraging implements org.dpgauss.rows.RowSourceMechanism {

    /** Relative slack on lambda for the floating-point predicate (see class comment). */
    static final double PREDICATE_SLACK = 1e-9;

    /** Inputs to the exact column sums stay at most 2^900, so no partial overflows for fewer than 2^100 terms. */
    static final double MAX_ABS = 0x1p900;
    /** Largest nominal epsilon: keeps the count's grid index {@code |C| / g_L} within a long. */
    static final double MAX_NOMINAL_EPSILON = 1024;

    /** Identifier of the generic estimator in releases (the factories of the known-covariance methods rename it). */
    public static final String ID = "mean.rescaled-averaging";

    private final String id;
    private final ShapeMatrix shape;
    private final double lambda;
    private final ApproxDp target;
    private final NeighbouringRelation relation;
    private final Calibration calibration;
    private final double epsilon;   // internal, passed to Algorithm 1
    private final double delta;     // internal
    // count noise
    private final double countGrid;
    private final long countScale;
    private final long countShift;
    // the beta at which lambda was chosen by LambdaRule (NaN: lambda given by the caller)
    private final double lambdaBeta;

    private RescaledAveraging(String id, ShapeMatrix shape, double lambda, ApproxDp target,
            NeighbouringRelation relation, Calibration calibration, double epsilon, double delta) {
        this(id, shape, lambda, target, relation, calibration, epsilon, delta, Double.NaN);
    }

    private RescaledAveraging(String id, ShapeMatrix shape, double lambda, ApproxDp target,
            NeighbouringRelation relation, Calibration calibration, double epsilon, double delta,
            double lambdaBeta) {
        this.lambdaBeta = lambdaBeta;
        this.id = id;
        this.shape = shape;
        this.lambda = lambda;
        this.target = target;
        this.relation = relation;
        this.calibration = calibration;
        this.epsilon = epsilon;
        this.delta = delta;
        double b = 1.0 / epsilon;
        this.countGrid = NoiseGrid.spacing("count Laplace scale 1/epsilon", b);
        this.countScale = NoiseGrid.integerScale("count Laplace scale 1/epsilon", b, countGrid);
        // K = ceil(t ln(1/delta)) + 1: the +1 also absorbs the rounding of t * ln(1/delta) (< 1e-6 in absolute).
        this.countShift = (long) Math.ceil(countScale * Math.log(1.0 / delta)) + 1;
    }

    /**
     * The provable estimator under replace-one neighbours (the default everywhere).
     *
     * @param shape M
     * @param lambda the predicate radius (public), see {@link LambdaRule}
     * @param target the target (epsilon*, delta*): epsilon*, in {@code (0, 21)}
     *        (delta: the target delta*, in {@code (0, 1)})
     * @return the estimator
     */
    public static RescaledAveraging provable(ShapeMatrix shape, double lambda, ApproxDp target) {
        return of(shape, lambda, target, NeighbouringRelation.REPLACE_ONE, Calibration.PROVABLE);
    }

    /**
     * @param shape M, positive definite
     * @param lambda the predicate radius, finite and {@code > 0} (public; any value is private, §3.3)
     * @param target the target (epsilon*, delta*): epsilon*: PROVABLE needs internal {@code epsilon* / 42} (replace-one) or
     *        {@code epsilon* / 21} (add/remove) in {@code (2^-21, 1/2)}; NOMINAL needs {@code (2^-21, 1024]}
     *        (delta: the target delta*, in {@code (0, 1)})
     * @param relation the neighbouring relation the target is stated under
     * @param calibration PROVABLE (default) or NOMINAL_UNCERTIFIED
     * @return the estimator
     * @throws IllegalArgumentException naming the parameter, value, allowed range and reason
     */
    public static RescaledAveraging of(ShapeMatrix shape, double lambda, ApproxDp target,
            NeighbouringRelation relation, Calibration calibration) {
        double epsilon = Objects.requireNonNull(target, "target (epsilon, delta)").epsilon();
        double delta = target.delta();
        Objects.requireNonNull(shape, "M");
        Objects.requireNonNull(relation, "neighbouring relation");
        Objects.requireNonNull(calibration, "calibration");
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException("lambda=" + lambda + " is outside (0, inf): it is the radius of the"
                    + " friendliness predicate ||M^(-1/4)(x - y)|| <= lambda (spec §3.1)");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta=" + delta + " is outside (0, 1): Algorithm 1 is approximate DP"
                    + " only (pure DP needs n = Omega(d log R / epsilon), Thm 1.1)");
        }
        double eps;
        double del;
        if (calibration == Calibration.PROVABLE) {
            boolean swap = relation == NeighbouringRelation.REPLACE_ONE;
            double factor = swap ? 42 : 21;
            if (!(epsilon > 0 && epsilon < factor / 2) || !Double.isFinite(epsilon)) {
                throw new IllegalArgumentException("epsilon=" + epsilon + " is outside (0, " + (factor / 2) + "): the"
                        + " provable calibration runs Algorithm 1 at epsilon/" + (int) factor + " (" + relation.id()
                        + ", Thm 3.5), which must be below 1/2; use Calibration.NOMINAL_UNCERTIFIED for an"
                        + " uncertified run");
            }
            eps = Math.nextDown(epsilon / factor);
            double denom = swap ? Math.exp(10) * (1 + Math.exp(epsilon / 2)) : Math.exp(10);
            del = Math.nextDown(Math.nextDown(delta / Math.nextUp(denom)));
        } else {
            if (!(epsilon > 0 && epsilon <= MAX_NOMINAL_EPSILON)) {
                throw new IllegalArgumentException("epsilon=" + epsilon + " is outside (0, " + MAX_NOMINAL_EPSILON
                        + "]: larger values put the count's noise grid below 2^-31 and overflow its integer index");
            }
            eps = epsilon;
            del = delta;
        }
        if (!(1.0 / eps < 0x1p21)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + " gives internal epsilon " + eps + ", below"
                    + " 2^-21: the count's Laplace scale 1/epsilon would need a grid coarser than 1, so |C| would no"
                    + " longer be a grid point (allowed: internal epsilon in (2^-21, 1/2)); epsilon > "
                    + String.format(java.util.Locale.ROOT, "%.4g", epsilon / eps * 0x1p-21) + " is needed");
        }
        return new RescaledAveraging(ID, shape, lambda, ApproxDp.of(epsilon, delta), relation, calibration, eps,
                del);
    }

    /** This estimator under another release identifier (e.g. {@code mean.anisotropic}). */
    RescaledAveraging named(String newId) {
        return new RescaledAveraging(newId, shape, lambda, target, relation, calibration, epsilon, delta,
                lambdaBeta);
    }

    /** This estimator, remembering that lambda is {@code lambda*(beta)} of {@link LambdaRule} (for its accuracy). */
    RescaledAveraging lambdaChosenAt(double beta) {
        LambdaRule.checkBeta(beta);
        return new RescaledAveraging(id, shape, lambda, target, relation, calibration, epsilon, delta, beta);
    }

    /**
     * Known covariance, main estimator {@code M = Sigma}, lambda by {@link LambdaRule#knownCovariance}; provable,
     * replace-one.
     */
    public static RescaledAveraging knownCovariance(ShapeMatrix sigma, int n, double beta, ApproxDp target) {
        return provable(sigma, LambdaRule.knownCovariance(sigma, n, beta), target).named("mean.anisotropic")
                .lambdaChosenAt(beta);
    }

    /**
     * Folklore estimator {@code M = I}, lambda by {@link LambdaRule#folklore}; provable, replace-one.
     */
    public static RescaledAveraging folklore(int d, double traceSigma, double normSigma, int n, double beta,
            ApproxDp target) {
        return provable(ShapeMatrix.identity(d), LambdaRule.folklore(traceSigma, normSigma, n, beta), target)
                .named("mean.folklore").lambdaChosenAt(beta);
    }

    /** @return M */
    public ShapeMatrix shape() {
        return shape;
    }

    /** @return lambda */
    public double lambda() {
        return lambda;
    }

    /** @return the epsilon passed to Algorithm 1 */
    public double internalEpsilon() {
        return epsilon;
    }

    /** @return the delta passed to Algorithm 1 */
    public double internalDelta() {
        return delta;
    }

    /** @return the calibration mode */
    public Calibration calibration() {
        return calibration;
    }

    /**
     * The guarantee of one release: the target {@code (epsilon*, delta*)} under the chosen relation, certified for
     * the PROVABLE calibration (the recipe's certification; the random source is judged by
     * {@link org.dpgauss.release.Releases}). Thm 3.5 covers the whole of Algorithm 1 (filter, noisy count and
     * noisy mean together), so it is one step, not a composition of its parts.
     *
     * @return the guarantee
     */
    public PrivacyGuarantee guarantee() {
        boolean provable = calibration == Calibration.PROVABLE;
        String notes = "private re-scaled averaging (Algorithm 1, spec anisotropic-mean-estimation §3) with "
                + shape + ", lambda=" + lambda + "; internal (epsilon, delta)=(" + epsilon + ", " + delta + "); "
                + (provable
                        ? "Thm 3.5 (21 eps, e^10 delta) add/remove"
                                + (relation == NeighbouringRelation.REPLACE_ONE ? ", group privacy 2 for replace-one"
                                        + " with n public" : "")
                        : "NOMINAL calibration: target passed through, NO proof (uncertified)")
                + "; discrete Laplace/Gaussian noise on power-of-two grids (CKS20); timing side channels are"
                + " outside the guarantee";
        return PrivacyGuarantee.approxDp(relation, target, provable, notes);
    }

    /** What a FAIL of Algorithm 1 can mean, in public words. */
    static final String FAIL_MEANING = "the private filter kept too few rows (its noisy count of rows with many"
            + " close neighbours was not positive): the data may be too few, or too spread out for the public"
            + " covariance proxy and lambda; more rows, a larger epsilon or a proxy that matches the data make a PASS"
            + " likelier (see the README, mean --method anisotropic)";

    @Override
    public NeighbouringRelation relation() {
        return relation;
    }

    @Override
    public Statement state(PublicContext context) {
        if (context.dimension() != shape.dimension()) {
            throw new IllegalArgumentException("M is " + shape.dimension() + " x " + shape.dimension()
                    + " but the data have " + context.dimension() + " columns");
        }
        PublicParameters.Builder p = PublicParameters.builder();
        if (relation == NeighbouringRelation.REPLACE_ONE) {
            p.put("n", context.rows());
        }
        p.put("d", shape.dimension())
                .put("epsilon", target.epsilon())
                .put("delta", target.delta())
                .put("lambda", lambda)
                .put("internalEpsilon", epsilon)
                .put("internalDelta", delta)
                .put("epsilonDivisor", target.epsilon() / epsilon)
                .put("calibration", calibration.name());
        Statement.Builder b = Statement.builder(context, id, guarantee())
                .description("private mean, re-scaled averaging (Algorithm 1) with " + shape + ", its noise calibrated"
                        + " for the internal epsilon " + String.format(java.util.Locale.ROOT, "%.4g", epsilon)
                        + (calibration == Calibration.PROVABLE ? String.format(java.util.Locale.ROOT,
                                " (the target epsilon / %.0f: the provable calibration)", target.epsilon() / epsilon)
                                : ""))
                .failMeaning(FAIL_MEANING);
        if (relation == NeighbouringRelation.REPLACE_ONE) {
            int n = context.rows();
            if (n >= minimumRowsForStatement()) {
                // per whitened coordinate, at the expected noisy count n - g_L K (the noise is M^(1/4) times this)
                p.put("noiseSigmaWhitened", effectiveSigma(n - countGrid * countShift, shape.dimension()));
            }
            accuracy(n).ifPresent(b::accuracy);
        }
        return b.parameters(p.build()).build();
    }


    /** The probability at which releases state their error bound (when lambda's own beta leaves room for it). */
    public static final double ACCURACY_PROBABILITY = 0.95;
    /** The share of the failure probability given to the noisy count's lower tail. */
    static final double COUNT_BETA = 0.01;

    /**
     * The noisy count's lower limit {@code n^_low} for n kept rows: {@code P(n^ < n^_low) <= COUNT_BETA}. The count
     * is {@code g_L (n/g_L + Z - K)} with Z discrete Laplace of integer scale t, and
     * {@code P(Z <= -j) = e^{-j/t}/(1 + e^{-1/t}) <= COUNT_BETA} for {@code j = ceil(t ln(1/COUNT_BETA))}.
     */
    double lowCount(int n) {
        return lowCount(n, COUNT_BETA);
    }

    private double lowCount(int n, double betaCount) {
        long j = (long) Math.ceil(countScale * Math.log(1 / betaCount));
        return countGrid * (Math.round(n / countGrid) - countShift - j);
    }

    /**
     * The smallest n at which {@link #accuracy(int)} is stated: the noisy count's lower limit is at least 1 row, so
     * that the release is not FAIL except with probability {@code COUNT_BETA} when the filter keeps every row.
     * About {@code (ln(1/delta) + ln(1/COUNT_BETA)) / epsilon} at the internal (epsilon, delta): with the provable
     * calibration 42 times more rows than the target epsilon suggests.
     *
     * @return the smallest such n (a public function of the parameters)
     */
    public long minimumRowsForStatement() {
        long j = (long) Math.ceil(countScale * Math.log(1 / COUNT_BETA));
        return (long) Math.ceil(countGrid * (countShift + j + 1));
    }

    /** The standard deviation per whitened coordinate at noisy count nHat, with the grid's ceiling. */
    private double effectiveSigma(double nHat, int d) {
        double g = meanGrid(nHat);
        return g * NoiseGrid.integerScale("whitened-mean sigma", meanSigma(nHat, d), g);
    }

    /**
     * The a-priori accuracy of a release on n rows (replace-one, n public), in L2 distance to the mean of the rows.
     * When the filter keeps every row (every pair within lambda in whitened distance, which a Gaussian sample with
     * covariance at most the proxy meets with probability {@code >= 1 - beta} when lambda is {@code lambda*(beta)},
     * Lemma 3.2) the error is exactly the released noise {@code M^{1/4} z}, {@code z ~ N(0, s^2 I)} with s set by the
     * noisy count {@code n^} (about {@code n - ln(1/delta)/epsilon}, internal values), plus the grid rounding. The
     * expected value is at {@code n^ = n - g_L K}; the bound at {@code n^_low} ({@link #lowCount}), with the
     * Laurent–Massart tail of {@code ||M^{1/4} z||} ({@link GaussianNorms}). Failure budget: lambda's beta, 1% for
     * the count, the rest for the noise (5% in all when lambda's beta is at most 3%). Not stated (empty) below
     * {@link #minimumRowsForStatement()}, where the release is likely to FAIL.
     *
     * @param n the public number of rows
     * @return the statement, or empty below the minimum n
     */
    public java.util.Optional<Accuracy> accuracy(int n) {
        double betaLambda = Double.isNaN(lambdaBeta) ? 0 : lambdaBeta;
        return accuracy(n, Math.max(1 - ACCURACY_PROBABILITY, betaLambda + 2 * COUNT_BETA));
    }

    /**
     * {@link #accuracy(int)} at a chosen total failure probability (for callers that compose statements).
     *
     * @param n the public number of rows
     * @param failure the total failure probability, larger than lambda's beta, below 1
     * @return the statement, or empty below the minimum n
     */
    public java.util.Optional<Accuracy> accuracy(int n, double failure) {
        LambdaRule.checkRows(n);
        double betaLambda = Double.isNaN(lambdaBeta) ? 0 : lambdaBeta;
        if (!(failure > betaLambda && failure < 1)) {
            throw new IllegalArgumentException("failure=" + failure + " must be in (beta=" + betaLambda + ", 1)");
        }
        if (n < minimumRowsForStatement()) {
            return java.util.Optional.empty();
        }
        int d = shape.dimension();
        double betaCount = Math.min(COUNT_BETA, (failure - betaLambda) / 2);
        double betaNoise = failure - betaLambda - betaCount;
        double[] m = shape.eigenvalues();
        double[] halfPowers = new double[d];
        double maxQuarter = 0;
        for (int i = 0; i < d; i++) {
            halfPowers[i] = Math.sqrt(m[i]);
            maxQuarter = Math.max(maxQuarter, Math.sqrt(halfPowers[i]));
        }
        double nMid = n - countGrid * countShift;
        double nLow = lowCount(n, betaCount);
        if (!(nLow > 0)) {
            return java.util.Optional.empty();
        }
        double sMid = effectiveSigma(nMid, d);
        double sLow = effectiveSigma(nLow, d);
        double rounding = maxQuarter * meanGrid(nLow) * Math.sqrt(d) / 2;
        double expected = GaussianNorms.expected(GaussianNorms.scaled(sMid * sMid, halfPowers));
        double bound = GaussianNorms.bound(GaussianNorms.scaled(sLow * sLow, halfPowers), betaNoise) + rounding;
        String calib = calibration == Calibration.PROVABLE
                ? String.format(java.util.Locale.ROOT, "the noise is calibrated for the internal epsilon %.4g ="
                        + " epsilon/%.0f (the provable calibration), so it is about %.0f times the noise of a"
                        + " one-step mechanism at epsilon; ", epsilon, target.epsilon() / epsilon,
                        target.epsilon() / epsilon)
                : "";
        String rows = Double.isNaN(lambdaBeta)
                ? "every pair of rows lies within lambda=" + String.format(java.util.Locale.ROOT, "%.4g", lambda)
                        + " in the whitened distance ||M^(-1/4)(x - y)||, so that the filter keeps every row"
                : "the rows are Gaussian (or subgaussian) with covariance at most the public proxy used for lambda,"
                        + " so that the filter keeps every row except with probability beta=" + lambdaBeta;
        return java.util.Optional.of(Accuracy.of("L2 distance to the mean of the rows", expected, bound,
                1 - failure, calib + rows + "; the noisy count is about n - "
                        + String.format(java.util.Locale.ROOT, "%.0f", countGrid * countShift) + " rows"));
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        AnisotropicMeanResult r = release(data.matrix(), context.engine(), context.random());
        return r.isFail() ? Outcome.fail() : Outcome.pass().vector("mean", r.estimate()).build();
    }

    /** The rows must have M's dimension (finite by the row source's contract). Public facts only; run by compute, after the charge (issue 24). */
    void validate(org.dpgauss.rows.RowSource rows, Statement stated) {
        if (rows.cols() != shape.dimension()) {
            throw new IllegalArgumentException("data have " + rows.cols() + " columns but M is " + shape.dimension()
                    + " x " + shape.dimension());
        }
    }

    /**
     * Algorithm 1 as row passes: the rows mapped to {@code M^{-1/4} x} block by block, the neighbour counts as a
     * self-join over the blocks ({@link org.dpgauss.rows.RowSource#neighbourCounts}), the Bernoulli draws on the
     * caller's machine in row order, then one pass of exact sums over the kept rows (the dropped rows' positions
     * travel with it). Integer counts and exact sums: the release does not depend on the layout.
     */
    @Override
    public Outcome compute(org.dpgauss.rows.RowSource rows, Statement stated, ReleaseContext context) {
        validate(rows, stated);
        AnisotropicMeanResult r = release(rows, Objects.requireNonNull(context.random(), "random source"));
        return r.isFail() ? Outcome.fail() : Outcome.pass().vector("mean", r.estimate()).build();
    }

    /**
     * Algorithm 1 on rows of M's dimension, as the passes of {@link #compute(org.dpgauss.rows.RowSource, Statement,
     * ReleaseContext)} (also the two calls of {@link UnknownCovarianceMean}).
     */
    AnisotropicMeanResult release(org.dpgauss.rows.RowSource rows, RandomSource random) {
        ShapeMatrix m = shape;
        int d = rows.cols();
        org.dpgauss.rows.RowSource y = rows.map((b, e) -> whiten(b, m));
        int[] counts = y.neighbourCounts(lambda);
        boolean[] keep = BasicFilter.sample(counts, random);
        int kept = 0;
        int dropped = 0;
        for (boolean k : keep) {
            kept += k ? 1 : 0;
            dropped += k ? 0 : 1;
        }
        long[] out = new long[dropped];
        for (int i = 0, t = 0; i < keep.length; i++) {
            if (!keep[i]) {
                out[t++] = i;
            }
        }
        org.dpgauss.rows.RowLayout layout = y.layout();
        org.dpgauss.rows.ExactColumnSums sums = y.reduce((b, block, e) -> {
            long start = layout.blockStart(b);
            int r = java.util.Arrays.binarySearch(out, start);
            r = r >= 0 ? r : -r - 1;
            org.dpgauss.rows.ExactColumnSums s = org.dpgauss.rows.ExactColumnSums.zeros(d);
            double[] row = new double[d];
            for (int i = 0; i < block.rows(); i++) {
                if (r < out.length && out[r] == start + i) {
                    r++;
                    continue;
                }
                block.copyRow(i, row, 0);
                s.add(row);
            }
            return s;
        }, (acc, p) -> {
            if (acc == null) {
                return p;
            }
            acc.addAll(p);
            return acc;
        });
        return release(kept, sums.exact(), random);
    }

    /**
     * The error bound of Thm 3.3 (spec §3.4) at this estimator's internal {@code (epsilon, delta)}, M and lambda:
     * <pre>
     *   sqrt(tr Sigma / n) + sqrt(2 ||Sigma||_2 log(1/beta) / n)
     *     + (4 sqrt(2 log(1.25/delta)) lambda / (epsilon n)) (sqrt(tr M^{1/2}) + sqrt(2 ||M^{1/2}||_2 log(1/beta)))
     * </pre>
     * It holds with probability at least {@code 1 - 3.5 beta} when {@code n >= 2 log(1/(delta beta))/epsilon} and
     * {@code lambda >= lambda*(beta)}. (The released noise can exceed the paper's by the zCDP term of the class
     * comment, well under 1% in the provable regime; the bound is typically about 4 times the error, spec §7.)
     *
     * @param traceSigma {@code tr Sigma}
     * @param normSigma {@code ||Sigma||_2}
     * @param n the number of rows
     * @param beta the failure probability, in {@code (0, 1)}
     * @return the bound
     */
    public double accuracyBound(double traceSigma, double normSigma, int n, double beta) {
        LambdaRule.checkRows(n);
        LambdaRule.checkBeta(beta);
        double logB = Math.log(1 / beta);
        double sampling = Math.sqrt(traceSigma / n) + Math.sqrt(2 * normSigma * logB / n);
        double privacy = 4 * Math.sqrt(2 * Math.log(1.25 / delta)) * lambda / (epsilon * n)
                * (Math.sqrt(shape.tracePower(0.5)) + Math.sqrt(2 * shape.normPower(0.5) * logB));
        return sampling + privacy;
    }

    /**
     * @param beta the failure probability, in {@code (0, 1)}
     * @return {@code 2 log(1/(delta beta)) / epsilon} at the internal values: Thm 3.3's sample-size condition
     */
    public double minimumRowsForAccuracy(double beta) {
        LambdaRule.checkBeta(beta);
        return 2 * Math.log(1 / (delta * beta)) / epsilon;
    }

    /** Releases with the CPU engine (package-private: releases go through {@link #compute}). */
    AnisotropicMeanResult release(RowBlockMatrix x, RandomSource random) {
        return release(x, CpuEngine.instance(), random);
    }

    /**
     * Runs Algorithm 1 on the rows of x.
     *
     * @param x the data (n x d), finite; n is public
     * @param engine the engine for the neighbour counts
     * @param random the noise source ({@link RandomSource#secure()} for private releases)
     * @return the estimate, or {@link AnisotropicMeanResult#FAIL}
     * @throws IllegalArgumentException if x is empty, has the wrong width, or has a non-finite entry (checked
     *         before any noise is drawn, spec §9); {@link #compute} never meets these (Dataset and state check them)
     */
    AnisotropicMeanResult release(RowBlockMatrix x, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(engine, "compute engine");
        Objects.requireNonNull(random, "random source");
        RowBlockMatrix y = whiten(x);
        int n = y.rows();
        // Steps 1-3: BasicFilter on y = M^{-1/4} x with radius lambda.
        boolean[] keep = BasicFilter.run(y, lambda, engine, random);
        int kept = 0;
        for (boolean k : keep) {
            kept += k ? 1 : 0;
        }
        int d = y.cols();
        org.dpgauss.rows.ExactColumnSums sums = org.dpgauss.rows.ExactColumnSums.zeros(d);
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            if (keep[i]) {
                y.copyRow(i, row, 0);
                sums.add(row);
            }
        }
        return release(kept, sums.exact(), random);
    }

    /** Steps 4-7 from the kept count and the exact sums of the kept whitened rows. */
    private AnisotropicMeanResult release(int kept, BigDecimal[] exactSums, RandomSource random) {
        int d = exactSums.length;
        // Step 4: noisy count (drawn also when |C| = 0, as in the pseudocode).
        long countIndex = noisyCountIndex(kept, random);
        // Step 5: the only failure exit. Steps 6-7 run on both branches (with a stand-in count on FAIL) and their
        // result is discarded on FAIL, so the outcome does not change the work done.
        boolean fail = kept == 0 || countIndex <= 0;
        double nHat = countGrid * (fail ? 1 : countIndex); // <= |X| whenever the true n^ < |X| (monotone rounding)
        // Steps 6-7 in whitened coordinates, exact mean rounded to the grid.
        double g = meanGrid(nHat);
        double sigma = meanSigma(nHat, d);
        SecureGaussianSampler sampler = SecureGaussianSampler.using(random);
        BigDecimal divisor = new BigDecimal(g).multiply(BigDecimal.valueOf(Math.max(kept, 1)));
        double[] w = new double[d];
        for (int j = 0; j < d; j++) {
            BigInteger index = exactSums[j].divide(divisor, 0, RoundingMode.HALF_EVEN).toBigIntegerExact();
            BigInteger released = index.add(BigInteger.valueOf(sampler.sampleIndex(sigma, g)));
            w[j] = new BigDecimal(released).multiply(new BigDecimal(g)).doubleValue();
        }
        if (fail) {
            return AnisotropicMeanResult.FAIL;
        }
        double[] estimate = new double[d];
        shape.applyPower(0.25, w, estimate);
        return AnisotropicMeanResult.success(estimate, guarantee());
    }

    /**
     * The count release {@code |C|/g_L + Z - K} in units of {@code g_L} (so {@code n^ = g_L * index}).
     * Package-private for the Lemma 3.4 test.
     */
    long noisyCountIndex(int kept, RandomSource random) {
        long z = DiscreteLaplace.withScale(countScale).sample(random);
        long exact = Math.round(kept / countGrid); // exact: countGrid is a power of two <= 1, kept < 2^31
        return exact + z - countShift;
    }

    /** @return the count's grid spacing {@code g_L} */
    double countGrid() {
        return countGrid;
    }

    /** The grid of the whitened release for a noisy count {@code n^}: from the ideal sensitivity. */
    double meanGrid(double nHat) {
        return NoiseGrid.spacing("whitened-mean sigma", sigmaFor(idealSensitivity(nHat)));
    }

    /**
     * The standard deviation per whitened coordinate for a noisy count {@code n^} (before the grid's
     * {@code ceil}), with the grid-rounding inflation included. Package-private for tests (spec §6 U5).
     */
    double meanSigma(double nHat, int d) {
        double sens = Math.nextUp(idealSensitivity(nHat) + NoiseGrid.l2RoundingInflation(meanGrid(nHat), d));
        return sigmaFor(sens);
    }

    private double idealSensitivity(double nHat) {
        return Math.nextUp(2.0 * Math.nextUp(lambda * (1 + PREDICATE_SLACK)) / nHat);
    }

    private double sigmaFor(double sensitivity) {
        double classical = Math.nextUp(sensitivity * Math.sqrt(2 * Math.log(1.25 / delta)) / epsilon);
        double viaZcdp = Zcdp.sigmaFor(ConversionPolicy.rhoFor(epsilon, delta).rho(), sensitivity);
        return Math.max(classical, viaZcdp);
    }

    /**
     * The largest magnitude a whitened coordinate is given: {@code 2^500 / sqrt(d)} (at most the exact summation's
     * {@code 2^900}), so that no squared distance, norm or Gram entry of the neighbour counts can overflow (a centred
     * row then has squared norm at most {@code 4 d (2^500)^2 / d = 2^1002}); an overflow would make every pair's
     * predicate false and one absurd row would decide the count for all the others.
     */
    static double maxWhitened(int d) {
        return Math.min(MAX_ABS, Math.scalb(1.0, 500) / Math.ceil(Math.sqrt(d)));
    }

    private RowBlockMatrix whiten(RowBlockMatrix x) {
        if (x == null || x.rows() == 0) {
            throw new IllegalArgumentException("data have no rows: the estimator needs n >= 1");
        }
        int d = shape.dimension();
        if (x.cols() != d) {
            throw new IllegalArgumentException("data have " + x.cols() + " columns but M is " + d + " x " + d);
        }
        return whiten(x, shape);
    }

    /** {@code y = M^{-1/4} x} row by row, clamped to {@link #maxWhitened} (a fixed function of the row). */
    private static RowBlockMatrix whiten(RowBlockMatrix x, ShapeMatrix shape) {
        int d = shape.dimension();
        int n = x.rows();
        RowBlockMatrix y = RowBlockMatrix.zeros(n, d, x.blockRows());
        double bound = maxWhitened(d);
        double[] row = new double[d];
        double[] out = new double[d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, row, 0);
            for (int j = 0; j < d; j++) {
                if (!Double.isFinite(row[j])) {
                    throw new IllegalArgumentException("data row " + (i + 1) + ", column " + (j + 1) + " is not"
                            + " finite: entries must be finite (a NaN distance would silently drop the row, spec §9)");
                }
            }
            shape.applyPower(-0.25, row, out);
            for (int j = 0; j < d; j++) {
                // clamp: a fixed function of the row (only absurd scales meet it), see maxWhitened
                out[j] = Double.isNaN(out[j]) ? 0.0 : Math.max(-bound, Math.min(bound, out[j]));
            }
            y.setRow(i, out);
        }
        return y;
    }
}
