package org.dpgauss.mean.anisotropic;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;

/**
 * Algorithm 2 of spec anisotropic-mean-estimation §4.2 (unknown diagonal covariance), with the concrete rules of
 * §4.11 and the explicit budget split of §5.2 [R].
 *
 * <p><b>Privacy.</b> {@code (epsilon*, delta*)}-DP under {@link NeighbouringRelation#REPLACE_ONE} with the row count
 * {@code N} public (§5.2 item 1, §9 A10: positional halves and groups are only stable under swaps, so they are taken
 * in a secret uniform order of the rows drawn first from the noise source, {@link org.dpgauss.rows.SecretPermutation},
 * and a record replaced by one that sorts elsewhere is such a swap in law; issue 24). The first half
 * {@code X^var} feeds the V-chain, the second half {@code X^mean} the Avg-chain; a swapped row lies in one half
 * (parallel composition; the Avg-chain's parameters are post-processing of the V-chain). V-chain, each replace-one
 * on the rows of V (one data row changes one V^(j)): FindKth {@code (e/4, d/4)}, TopVar {@code (e/4, d/4)},
 * VarianceSum_bot {@code (e/4, d/8)}, {@code k} singleton VarianceSums each {@code (epsilon_1, d/(8k))} with
 * {@code epsilon_1} = the better of basic ({@code (e/4)/k}) and advanced composition with slack {@code d/8}
 * ({@link Sparse#perInstanceEpsilon}); total {@code (e, d)}. Avg-chain: Avg_top and Avg_bot each
 * {@link RescaledAveraging#provable} at replace-one {@code (e/2, d/2)} (Thm 3.5 + group privacy), sequentially
 * composed on the same rows: {@code (e, d)}.
 *
 * <p><b>Rules.</b> {@code l} by {@link ChiSquareRule}; {@code m = floor(n/(2l))}, {@code n = floor(N/2)} (an odd
 * last row is dropped); {@code beta/6} per subroutine; {@code k} = the largest value (scanning up from 1, stopping at
 * the first failure) meeting the TopVar condition ({@link TopVar#meetsAccuracyCondition}) and the §4.6 condition of
 * the singleton VarianceSums at {@code beta/(6k)}; TopVar threshold {@link TopVar.Threshold#HIGH} by default (§9
 * A9); {@code lambda = sqrt(32 S)(1 + 2 sqrt(ln(n/beta')))} with {@code S = sum sqrt(Sigma^_ii)} (top) or
 * {@code S^_bot} (bottom). Feasibility (public quantities only) is checked by {@link #of}: {@code m >= 89 ln(6/beta)},
 * the §4.6 condition for FindKth and VarianceSum_bot, and Thm 3.3's {@code n >= 2 ln(1/(delta beta'))/epsilon} for
 * both Avg calls; otherwise "insufficient samples" (IAE).
 *
 * <p><b>Failure handling</b> (§9): FindKth FAIL or 0 → {@code I_top} empty; singleton FAIL or 0 → coordinate moved to
 * {@code I_bot}; VarianceSum_bot FAIL or 0 → {@link AnisotropicMeanResult#FAIL} (no fallback in the paper; 0 would
 * give {@code lambda = 0}); either Avg FAIL → FAIL. Both Avg calls run on every branch (a stand-in lambda when
 * VarianceSum_bot fails) and their results are discarded on FAIL, so a FAIL does not skip work; timing side
 * channels in general are outside the guarantee.
 *
 * <p><b>Release contract</b> ({@link PrivateMechanism}): releases {@code mean}; the guarantee is the composition, by
 * {@link PrivacyAccountant#composeSteps}, of the V-chain's steps (parallel with) the Avg-chain's steps. Build it
 * with {@link #of}; an "insufficient samples" error names the N that would suffice. Immutable.
 */
public final class UnknownCovarianceMean implements RowSourceMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "mean.anisotropic-unknown-covariance";

    private final int rows;
    private final int d;
    private final double epsilon;
    private final double delta;
    private final double beta;
    private final TopVar.Threshold threshold;
    private final int half;
    private final int ell;
    private final int m;
    private final int k;
    private final FindKthLargestVariance findKth;
    private final TopVar topVar;
    private final VarianceSum singleton;
    private final VarianceSum bottom;
    // a public guess of the diagonal covariance, used only for the accuracy statement (null: none)
    private final double[] assumedVariances;

    private UnknownCovarianceMean(UnknownCovarianceMean o, double[] assumedVariances) {
        this.rows = o.rows;
        this.d = o.d;
        this.epsilon = o.epsilon;
        this.delta = o.delta;
        this.beta = o.beta;
        this.threshold = o.threshold;
        this.half = o.half;
        this.ell = o.ell;
        this.m = o.m;
        this.k = o.k;
        this.findKth = o.findKth;
        this.topVar = o.topVar;
        this.singleton = o.singleton;
        this.bottom = o.bottom;
        this.assumedVariances = assumedVariances;
    }

    private UnknownCovarianceMean(int rows, int d, double epsilon, double delta, double beta,
            TopVar.Threshold threshold) {
        this.assumedVariances = null;
        this.rows = rows;
        this.d = d;
        this.epsilon = epsilon;
        this.delta = delta;
        this.beta = beta;
        this.threshold = threshold;
        this.half = rows / 2;
        this.ell = ChiSquareRule.groupHalfSize(d);
        this.m = half / (2 * ell);
        String why = shortfall(rows, d, epsilon, delta, beta);
        if (why != null) {
            long need = requiredRows(d, epsilon, delta, beta);
            throw new IllegalArgumentException("insufficient samples: N=" + rows + " rows, d=" + d + ", epsilon="
                    + epsilon + ", delta=" + delta + ", beta=" + beta + ": N >= " + need + " rows are needed ("
                    + why + ")");
        }
        this.findKth = FindKthLargestVariance.of(epsilon / 4, delta / 4);
        this.bottom = VarianceSum.of(epsilon / 4, delta / 8);
        int kk = 0;
        while (kk < d && feasible(kk + 1)) {
            kk++;
        }
        this.k = kk;
        this.topVar = k == 0 ? null : TopVar.of(k, epsilon / 4, delta / 4);
        this.singleton = k == 0 ? null
                : VarianceSum.of(Sparse.perInstanceEpsilon(k, epsilon / 4, delta / 8), delta / (8 * k));
    }

    private boolean feasible(int kk) {
        double b6 = beta / 6;
        double e1 = Sparse.perInstanceEpsilon(kk, epsilon / 4, delta / 8);
        if (!(e1 >= SubroutineParams.MIN_EPSILON)
                || !TopVar.of(kk, epsilon / 4, delta / 4).meetsAccuracyCondition(m, d, b6)) {
            return false;
        }
        return VarianceSum.of(e1, delta / (8 * kk)).histogram().meetsAccuracyCondition(m, b6 / kk);
    }

    /**
     * The first public condition of the class comment that N rows miss, in words with the public number that
     * would meet it, or null if all hold.
     */
    static String shortfall(long rows, int d, double epsilon, double delta, double beta) {
        int ell = ChiSquareRule.groupHalfSize(d);
        long half = rows / 2;
        long m = half / (2L * ell);
        double b6 = beta / 6;
        double mMin = 89 * Math.log(6 / beta);
        if (!(m >= mMin)) {
            return "m >= 89 ln(6/beta) = " + (long) Math.ceil(mMin) + " groups of 2l=" + 2 * ell
                    + " rows in each half, for V to be valid w.p. 1-beta/6 (§4.3); these N give m=" + m;
        }
        StableHistogram hKth = FindKthLargestVariance.of(epsilon / 4, delta / 4).histogram();
        StableHistogram hBot = VarianceSum.of(epsilon / 4, delta / 8).histogram();
        int mInt = (int) Math.min(m, Integer.MAX_VALUE);
        if (!hKth.meetsAccuracyCondition(mInt, b6) || !hBot.meetsAccuracyCondition(mInt, b6)) {
            long mNeed = Math.max(smallestGroups(hKth, b6), smallestGroups(hBot, b6));
            return "the §4.6 stable-histogram condition at epsilon*/4=" + epsilon / 4 + ", beta/6=" + b6
                    + " needs m >= " + mNeed + " groups; these N give m=" + m;
        }
        double avgMin = RescaledAveraging.provable(ShapeMatrix.identity(1), 1.0, ApproxDp.of(epsilon / 2, delta / 2))
                .minimumRowsForAccuracy(b6);
        if (!(half >= avgMin)) {
            return "X^mean needs n >= 2 ln(1/(delta beta'))/epsilon = " + (long) Math.ceil(avgMin) + " rows at"
                    + " Algorithm 1's internal parameters (Thm 3.3); these N give n=" + half;
        }
        return null;
    }

    /** The smallest m meeting a histogram's §4.6 condition at beta (doubling, then bisection; monotone there). */
    private static long smallestGroups(StableHistogram h, double beta) {
        long hi = 1;
        while (!h.meetsAccuracyCondition((int) hi, beta)) {
            if (hi >= Integer.MAX_VALUE / 2) {
                return Integer.MAX_VALUE;
            }
            hi *= 2;
        }
        long lo = hi / 2; // fails (or 0)
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (h.meetsAccuracyCondition((int) mid, beta)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * The smallest number of rows N the public feasibility conditions of {@link #of} accept (they are monotone in
     * N where it matters: doubling, then bisection).
     *
     * @param d the dimension
     * @param epsilon target epsilon*
     * @param delta target delta*
     * @param beta total failure probability
     * @return the N needed (a function of public parameters only)
     */
    public static long requiredRows(int d, double epsilon, double delta, double beta) {
        long hi = 2;
        while (shortfall(hi, d, epsilon, delta, beta) != null) {
            if (hi > (1L << 40)) {
                return hi;
            }
            hi *= 2;
        }
        long lo = hi / 2;
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (shortfall(mid, d, epsilon, delta, beta) == null) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * @param rows the public number of rows {@code N >= 2}
     * @param d the dimension, {@code >= 1}
     * @param target the (epsilon, delta) target, a typed pair (epsilon: target epsilon*, in {@code (0, 42)} (Algorithm 1 runs at {@code epsilon* / 84 < 1/2}))
     *        (delta: target delta*, in {@code (0, 1)})
     * @param beta total failure probability, in {@code (0, 1)}
     * @param threshold the TopVar threshold rule ({@link TopVar.Threshold#HIGH} is the sound default)
     * @return the estimator
     * @throws IllegalArgumentException for invalid parameters or insufficient samples (public check)
     */
    public static UnknownCovarianceMean of(int rows, int d, ApproxDp target, double beta,
            TopVar.Threshold threshold) {
        double epsilon = Objects.requireNonNull(target, "target (epsilon, delta)").epsilon();
        double delta = target.delta();
        Objects.requireNonNull(threshold, "threshold");
        if (rows < 2) {
            throw new IllegalArgumentException("N=" + rows + " must be >= 2: the data are split into two halves");
        }
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " must be >= 1");
        }
        if (!(epsilon > 0 && epsilon < 42)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + " must be in (0, 42): each Algorithm 1 call"
                    + " gets epsilon/2 and runs internally at epsilon/84, which Thm 3.5 needs below 1/2");
        }
        SubroutineParams.delta("delta", delta);
        SubroutineParams.beta(beta);
        return new UnknownCovarianceMean(rows, d, epsilon, delta, beta, threshold);
    }

    /** The sound default: {@link TopVar.Threshold#HIGH}. */
    public static UnknownCovarianceMean of(int rows, int d, ApproxDp target, double beta) {
        return of(rows, d, target, beta, TopVar.Threshold.HIGH);
    }

    /**
     * This estimator with a public guess of the data's (diagonal) covariance that feeds ONLY its accuracy statement
     * (the algorithm never uses it; it estimates the variances privately). Without a guess the accuracy is stated in
     * units of the data's own spread ({@link #SCALED_METRIC}), since the error scales with the unknown variances.
     *
     * @param variances the assumed per-coordinate variances (length d, finite, {@code > 0}); copied
     * @return the estimator with an accuracy statement
     */
    public UnknownCovarianceMean assumingVariances(double[] variances) {
        Objects.requireNonNull(variances, "variances");
        if (variances.length != d) {
            throw new IllegalArgumentException("the assumed variances have " + variances.length + " entries, d=" + d);
        }
        for (double v : variances) {
            if (!(v > 0) || !Double.isFinite(v)) {
                throw new IllegalArgumentException("every assumed variance must be finite and > 0, got " + v);
            }
        }
        return new UnknownCovarianceMean(this, variances.clone());
    }

    /** The probability at which the accuracy bound is stated. */
    public static final double ACCURACY_PROBABILITY = 0.95;

    /** The metric of the statement without assumed variances (its unit is the data's scale, not public). */
    public static final String SCALED_METRIC = "L2 distance to the mean of the rows, in units of sqrt(tr(Sigma)/d)"
            + " (the rows' root-mean-square standard deviation per coordinate)";

    /**
     * The a-priori accuracy. With assumed variances ({@link #assumingVariances}), in L2 distance to the mean of the
     * rows. Three independent parts: the second half's mean against all rows' mean ({@code N(0, Sigma/N)}), and
     * the two Algorithm 1 calls on the second half, each stated by the real {@link RescaledAveraging} with the
     * parameters Algorithm 2 would give it when its private variance estimates are right (expected value) or at
     * the largest value their Lemma 4.6 interval {@code (S/16, 4S]} allows (bound: variances times 4). The top set
     * is the coordinates the TopVar threshold would pick from the assumed variances (at most k); the bound takes
     * the worst of the top sets of the j largest variances, j = 0..k. Failure budget 5%: 1% for the half-sample
     * term, 2% for each call.
     *
     * <p>Without assumed variances, the same statement for {@code Sigma = I} in units of
     * {@code sqrt(tr(Sigma)/d)} ({@link #SCALED_METRIC}): every step of Algorithm 2 is equivariant under scaling the
     * data (the variance estimates, the filter radii and the noise scale with it), so for {@code Sigma = sigma^2 I}
     * the error divided by sigma has the law of the error at {@code Sigma = I}; with no top coordinates
     * ({@code k = 0}) only the trace matters; for an anisotropic diagonal Sigma of the same trace the top call's noise,
     * which grows with {@code sum_i Sigma_ii^(1/2) <= sqrt(d tr Sigma)}, is at most the isotropic one.
     * The number is public (a function of N, d, epsilon, delta, beta); its unit is the data's own spread.
     *
     * @return the statement, or empty where a call is likely to FAIL
     */
    public java.util.Optional<org.dpgauss.release.Accuracy> accuracy() {
        if (assumedVariances == null) {
            double[] ones = new double[d];
            java.util.Arrays.fill(ones, 1.0);
            return accuracy(ones).map(a -> org.dpgauss.release.Accuracy.of(SCALED_METRIC, a.expected(), a.bound(),
                    a.probability(), "the rows are Gaussian with a diagonal covariance Sigma (unknown: no public guess"
                            + " of the variances was given, so the error is stated in units of the data's own"
                            + " per-coordinate spread sqrt(tr(Sigma)/d), which is not public); exact for Sigma ="
                            + " sigma^2 I (and for any diagonal Sigma when k=0, as only the trace then matters), at most"
                            + " this for an anisotropic Sigma of the same trace; the private variance"
                            + " estimates fall in their stated intervals and both filters keep every row; each"
                            + " Algorithm 1 call runs at epsilon/84 internally, so its noise dominates the error"));
        }
        return accuracy(assumedVariances);
    }

    private java.util.Optional<org.dpgauss.release.Accuracy> accuracy(double[] v) {
        Integer[] order = new Integer[d];
        for (int i = 0; i < d; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(v[b], v[a]));
        int expectedTop = 0;
        if (k > 0) {
            double r = threshold.r(v[order[k - 1]]);
            while (expectedTop < k && v[order[expectedTop]] >= r) {
                expectedTop++;
            }
        }
        double[] mid = parts(v, order, expectedTop, 1.0);
        if (mid == null) {
            return java.util.Optional.empty();
        }
        double worst = 0;
        for (int j = 0; j <= k; j++) {
            double[] p = parts(v, order, j, 4.0);
            if (p == null) {
                return java.util.Optional.empty();
            }
            worst = Math.max(worst, p[1]);
        }
        double tr = 0;
        double[] hv = new double[d];
        for (int i = 0; i < d; i++) {
            hv[i] = v[i] / rows;
            tr += hv[i];
        }
        double expected = Math.sqrt(mid[0] * mid[0] + tr);
        double bound = worst + org.dpgauss.mean.GaussianNorms.bound(hv, 0.01);
        return java.util.Optional.of(org.dpgauss.release.Accuracy.of("L2 distance to the mean of the rows", expected,
                bound, ACCURACY_PROBABILITY, "the rows are Gaussian with the assumed (public guess of the) diagonal"
                        + " covariance, the private variance estimates fall in their stated intervals and both"
                        + " filters keep every row; each Algorithm 1 call runs at epsilon/84 internally, so its"
                        + " noise dominates the error"));
    }

    /**
     * {expected, bound} of the two Algorithm 1 calls together for the top set of the j largest assumed variances,
     * the variances scaled by {@code inflate}; null if a call makes no statement (likely FAIL).
     */
    private double[] parts(double[] v, Integer[] order, int j, double inflate) {
        double b6 = beta / 6;
        double logTerm = 1 + 2 * Math.sqrt(Math.log(half / b6));
        double e2 = 0;
        double b2 = 0;
        ApproxDp each = ApproxDp.of(epsilon / 2, delta / 2);
        if (j > 0) {
            double[] diag = new double[j];
            double sTop = 0;
            for (int t = 0; t < j; t++) {
                diag[t] = inflate * v[order[t]];
                sTop += Math.sqrt(diag[t]);
            }
            java.util.Optional<org.dpgauss.release.Accuracy> a = RescaledAveraging.provable(
                    ShapeMatrix.diagonal(diag), radius(sTop, logTerm), each).accuracy(half, 0.02);
            if (a.isEmpty()) {
                return null;
            }
            e2 += a.get().expected() * a.get().expected();
            b2 += a.get().bound() * a.get().bound();
        }
        if (j < d) {
            double sBot = 0;
            for (int t = j; t < d; t++) {
                sBot += inflate * v[order[t]];
            }
            java.util.Optional<org.dpgauss.release.Accuracy> a = RescaledAveraging.provable(
                    ShapeMatrix.identity(d - j), radius(sBot, logTerm), each).accuracy(half, 0.02);
            if (a.isEmpty()) {
                return null;
            }
            e2 += a.get().expected() * a.get().expected();
            b2 += a.get().bound() * a.get().bound();
        }
        return new double[] {Math.sqrt(e2), Math.sqrt(b2)};
    }

    /** @return {@code l}, half the group size */
    public int ell() {
        return ell;
    }

    /** @return the number of groups {@code m} */
    public int groups() {
        return m;
    }

    /** @return the planned number {@code k} of top coordinates (0: spherical Algorithm 1 on all coordinates) */
    public int k() {
        return k;
    }

    /**
     * Computes V (spec §4.2 (11)): {@code V_i^(j) = (1/(2l)) sum_r (X_i^(j,2r-1) - X_i^(j,2r))^2} over the rows
     * {@code 0..2lm-1} of x. An overflowing entry is clamped to {@code Double.MAX_VALUE} (a function of its row).
     */
    double[][] statistics(RowBlockMatrix x) {
        double[][] v = new double[m][];
        for (int j = 0; j < m; j++) {
            v[j] = GroupVariances.group(x, j * 2 * ell, ell, d);
        }
        return v;
    }

    /**
     * Runs Algorithm 2.
     *
     * @param x the data, {@code N x d}, finite
     * @param random the noise source ({@link RandomSource#secure()} for private releases)
     * @return the estimate under {@link #guarantee}, or {@link AnisotropicMeanResult#FAIL}
     */
    AnisotropicMeanResult release(RowBlockMatrix x, RandomSource random) {
        return release(x, CpuEngine.instance(), random);
    }

    /**
     * Runs Algorithm 2 with the given engine for the neighbour counts of the two Algorithm 1 calls.
     *
     * @param x the data, {@code N x d}, finite
     * @param engine the engine for {@link BasicFilter}'s neighbour counts
     * @param random the noise source ({@link RandomSource#secure()} for private releases)
     * @return the estimate under {@link #guarantee}, or {@link AnisotropicMeanResult#FAIL}
     */
    AnisotropicMeanResult release(RowBlockMatrix x, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(engine, "compute engine");
        Objects.requireNonNull(random, "random");
        if (x.rows() != rows || x.cols() != d) {
            throw new IllegalArgumentException("data is " + x.rows() + " x " + x.cols() + ", expected N x d = "
                    + rows + " x " + d + ": N is public and fixes the split");
        }
        for (int r = 0; r < 2 * half; r++) {
            for (double e : x.row(r)) {
                if (!Double.isFinite(e)) {
                    throw new IllegalArgumentException("row " + (r + 1) + " has a non-finite entry: reject"
                            + " non-finite data before any processing (spec §9)");
                }
            }
        }
        // one block: the engine's neighbour counts on the whole half, as before the passes existed
        return release(LocalRows.of(x, engine, org.dpgauss.rows.RowLayout.of(x.rows(), 1)), random);
    }

    /**
     * Algorithm 2 as row passes, on the rows in a secret order drawn first ({@link org.dpgauss.rows.SecretPermutation},
     * applied with {@link RowSource#select}: one shuffle on a cluster): V in one pass ({@link GroupVariances}), the V-chain on the caller's machine, then
     * each Algorithm 1 call on the second half's columns ({@link RescaledAveraging#release(RowSource, RandomSource)}:
     * a self-join for the neighbour counts and one pass of exact sums). Every noise value is drawn from
     * {@code random} in the order of the single-machine algorithm; V is computed group by group in pair order, the
     * counts are integers and the sums exact, so the release does not depend on the layout.
     *
     * @param x the N x d rows (finite)
     * @param random the noise source
     * @return the estimate, or {@link AnisotropicMeanResult#FAIL}
     */
    AnisotropicMeanResult release(RowSource x, RandomSource random) {
        Objects.requireNonNull(random, "random");
        if (x.rows() != rows || x.cols() != d) {
            throw new IllegalArgumentException("data is " + x.rows() + " x " + x.cols() + ", expected N x d = "
                    + rows + " x " + d + ": N is public and fixes the split");
        }
        // The secret row order first (issue 24 item 4, SecretPermutation): the halves and V's groups of 2l rows
        // are taken in it, not in the rows' own (data-dependent) order, so a record replaced by one that sorts
        // elsewhere is one changed row of the permuted tuple (in law), as the swap analysis of §9 A10 needs.
        RowSource permuted = org.dpgauss.rows.SecretPermutation.apply(x, random);
        try {
            return releaseInOrder(permuted, random);
        } finally {
            permuted.discard();
        }
    }

    /** Algorithm 2 on rows already in the secret order (package-private for the tests of the ordered algorithm). */
    AnisotropicMeanResult releaseInOrder(RowSource x, RandomSource random) {
        double b6 = beta / 6;
        double[][] v = GroupVariances.of(x, ell, m);
        // lines 8-11: top coordinates and their variances
        List<Integer> top = new ArrayList<>();
        List<Double> topVariance = new ArrayList<>();
        if (k > 0) {
            VarianceEstimate rHat = findKth.estimate(v, k, random);
            if (!rHat.isFail() && rHat.value() > 0 && rHat.value() < Double.POSITIVE_INFINITY) {
                // post-processing of FindKth's release, kept in (0, MAX] so that TopVar cannot refuse it
                double r = Math.max(Double.MIN_VALUE, Math.min(threshold.r(rHat.value()), Double.MAX_VALUE));
                for (int i : topVar.select(v, r, random)) {
                    VarianceEstimate s = singleton.estimate(v, new int[] {i}, random);
                    if (!s.isFail() && s.value() > 0 && s.value() < Double.POSITIVE_INFINITY) {
                        top.add(i);
                        topVariance.add(s.value());
                    }
                }
            }
        }
        boolean[] isTop = new boolean[d];
        top.forEach(i -> isTop[i] = true);
        int[] bot = new int[d - top.size()];
        for (int i = 0, c = 0; i < d; i++) {
            if (!isTop[i]) {
                bot[c++] = i;
            }
        }
        RowSource xMean = x.slice(half, 2L * half);
        double logTerm = 1 + 2 * Math.sqrt(Math.log(half / b6));
        double[] estimate = new double[d];
        // Every branch runs both Avg calls; a FAIL anywhere is only decided at the end (same work on both branches).
        boolean failed = false;
        if (!top.isEmpty()) {
            double[] diag = new double[top.size()];
            double sTop = 0;
            for (int t = 0; t < diag.length; t++) {
                diag[t] = topVariance.get(t);
                sTop += Math.sqrt(diag[t]);
            }
            int[] cols = top.stream().mapToInt(Integer::intValue).toArray();
            RescaledAveraging avg = RescaledAveraging.provable(ShapeMatrix.diagonal(diag),
                    radius(sTop, logTerm), ApproxDp.of(epsilon / 2, delta / 2));
            RowSource part = xMean.columns(cols);
            AnisotropicMeanResult r = avg.release(part, random);
            part.discard();
            if (r.isFail()) {
                failed = true;
            } else {
                scatter(r.estimate(), cols, estimate);
            }
        }
        if (bot.length > 0) {
            VarianceEstimate sBot = bottom.estimate(v, bot, random);
            boolean usable = !sBot.isFail() && sBot.value() > 0 && sBot.value() < Double.POSITIVE_INFINITY;
            // a stand-in S^_bot = 1 when VarianceSum_bot failed: the call runs and is discarded (FAIL below)
            RescaledAveraging avg = RescaledAveraging.provable(ShapeMatrix.identity(bot.length),
                    radius(usable ? sBot.value() : 1.0, logTerm), ApproxDp.of(epsilon / 2, delta / 2));
            RowSource part = xMean.columns(bot);
            AnisotropicMeanResult r = avg.release(part, random);
            part.discard();
            if (!usable || r.isFail()) {
                failed = true;
            } else {
                scatter(r.estimate(), bot, estimate);
            }
        }
        xMean.discard();
        return failed ? AnisotropicMeanResult.FAIL : AnisotropicMeanResult.success(estimate, guarantee());
    }

    /**
     * {@code lambda = sqrt(32 S)(1 + 2 sqrt(ln(n/beta')))}, computed so that it stays finite for any released
     * {@code S <= Double.MAX_VALUE} (post-processing of the variance releases; a huge S must not end the run).
     */
    static double radius(double s, double logTerm) {
        double root = Math.sqrt(32 * s);
        if (!Double.isFinite(root)) {
            root = Math.sqrt(32.0) * Math.sqrt(s);
        }
        return Math.min(root * logTerm, Double.MAX_VALUE);
    }

    private static void scatter(double[] part, int[] cols, double[] out) {
        for (int c = 0; c < cols.length; c++) {
            out[cols[c]] = part[c];
        }
    }

    /**
     * The guarantee, composed by the accountant ({@link PrivacyAccountant#composeSteps}) from the sub-steps' own
     * guarantees: the V-chain (FindKth, TopVar, VarianceSum_bot, the singleton VarianceSums) on the first half and
     * the Avg-chain (Avg_top, Avg_bot) on the second half, each composed sequentially; a replaced row lies in one
     * half (positional halves, N public), so the two chains compose in parallel (the larger of the two). The
     * statement is at most the target {@code (epsilon*, delta*)}.
     *
     * @return replace-one, N public; certified (the recipe's certification)
     */
    public PrivacyGuarantee guarantee() {
        NeighbouringRelation rel = NeighbouringRelation.REPLACE_ONE;
        List<Release> vChain = new ArrayList<>();
        vChain.add(Release.of("findKthLargestVariance", findKth.guarantee()));
        vChain.add(Release.of("varianceSumBottom", bottom.guarantee()));
        if (k > 0) {
            vChain.add(Release.of("topVar", topVar.guarantee()));
            // the k singleton VarianceSums at epsilon_1 each compose (basic or advanced with slack delta/8, the
            // better, Sparse.perInstanceEpsilon) to (epsilon/4, delta/8 + delta/8)
            vChain.add(Release.approxDp("varianceSumSingletons", rel, ApproxDp.of(epsilon / 4, delta / 4)));
        }
        PrivacyGuarantee v = PrivacyAccountant.composeSteps(rel, vChain, delta, true, "V-chain");
        List<Release> avgChain = new ArrayList<>();
        avgChain.add(Release.approxDp("avgTop", rel, ApproxDp.of(epsilon / 2, delta / 2)));
        avgChain.add(Release.approxDp("avgBottom", rel, ApproxDp.of(epsilon / 2, delta / 2)));
        PrivacyGuarantee a = PrivacyAccountant.composeSteps(rel, avgChain, delta, true, "Avg-chain");
        ApproxDp ve = v.approxDp().orElseThrow();
        ApproxDp ae = a.approxDp().orElseThrow();
        ApproxDp total = ApproxDp.of(Math.max(ve.epsilon(), ae.epsilon()), Math.max(ve.delta(), ae.delta()));
        return PrivacyGuarantee.approxDp(rel, total, true, "unknown diagonal covariance (Algorithm 2, spec"
                + " anisotropic-mean-estimation §4.2, budget split §5.2 [R]), N=" + rows + " public, l=" + ell + ", m="
                + m + ", k=" + k + ", TopVar threshold " + threshold + "; V-chain " + ve + " by " + v.conversion()
                + "; Avg-chain " + ae + " by " + a.conversion() + "; timing side channels are outside the"
                + " guarantee", "parallel composition of the V-chain (first half) and the Avg-chain (second half),"
                + " each composed by the accountant");
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    @Override
    public Statement state(PublicContext context) {
        if (context.rows() != rows || context.dimension() != d) {
            throw new IllegalArgumentException("the data are " + context.rows() + " x " + context.dimension()
                    + " but the estimator was made for N x d = " + rows + " x " + d + " (N is public and fixes the"
                    + " split)");
        }
        Statement.Builder b = Statement.builder(context, ID, guarantee())
                .description("private mean, unknown diagonal covariance (Algorithm 2); each of its two filtered"
                        + " averages runs at epsilon/84 internally (the provable calibration)")
                .parameters(PublicParameters.builder()
                        .put("n", rows)
                        .put("d", d)
                        .put("epsilon", epsilon)
                        .put("delta", delta)
                        .put("beta", beta)
                        .put("ell", ell)
                        .put("groups", m)
                        .put("k", k)
                        .put("topVarThreshold", threshold.name())
                        .put("averagingInternalEpsilon", RescaledAveraging.provable(ShapeMatrix.identity(1), 1.0,
                                ApproxDp.of(epsilon / 2, delta / 2)).internalEpsilon())
                        .putAll(assumedVariances == null ? PublicParameters.NONE : PublicParameters.builder()
                                .put("assumedVariances", assumedVariances).build())
                        .build())
                .failMeaning("a private step found too little stable structure (a variance estimate or one of"
                        + " the two filtered averages failed): the data may be too few, or too heavy-tailed or"
                        + " spread out for the private variance and filter steps; more rows or a larger epsilon make a"
                        + " PASS likelier (see the README, mean --method anisotropic)");
        accuracy().ifPresent(b::accuracy);
        return b.build();
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        AnisotropicMeanResult r = release(data.matrix(), context.engine(), context.random());
        return r.isFail() ? Outcome.fail() : Outcome.pass().vector("mean", r.estimate()).build();
    }

    /** The rows must be N x d (finite by the row source's contract): N is public and fixes the split. Public facts only; run by compute, after the charge (issue 24). */
    void validate(RowSource x, Statement stated) {
        if (x.rows() != rows || x.cols() != d) {
            throw new IllegalArgumentException("the data are " + x.rows() + " x " + x.cols() + " but the estimator"
                    + " was made for N x d = " + rows + " x " + d + " (N is public and fixes the split)");
        }
    }

    @Override
    public Outcome compute(RowSource x, Statement stated, ReleaseContext context) {
        validate(x, stated);
        AnisotropicMeanResult r = release(x, Objects.requireNonNull(context.random(), "random source"));
        return r.isFail() ? Outcome.fail() : Outcome.pass().vector("mean", r.estimate()).build();
    }
}
