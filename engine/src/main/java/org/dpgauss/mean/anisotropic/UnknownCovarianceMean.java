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

/**
 * Algorithm 2 of spec anisotropic-mean-estimation §4.2 (unknown diagonal covariance), with the concrete rules of
 * §4.11 and the explicit budget split of §5.2 [R].
 *
 * <p><b>Privacy.</b> {@code (epsilon*, delta*)}-DP under {@link NeighbouringRelation#REPLACE_ONE} with the row count
 * {@code N} public (§5.2 item 1, §9 A10: positional halves and groups are only stable under swaps). The first half
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
 * give {@code lambda = 0}); either Avg FAIL → FAIL. Immutable.
 */
public final class UnknownCovarianceMean {

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

    private UnknownCovarianceMean(int rows, int d, double epsilon, double delta, double beta,
            TopVar.Threshold threshold) {
        this.rows = rows;
        this.d = d;
        this.epsilon = epsilon;
        this.delta = delta;
        this.beta = beta;
        this.threshold = threshold;
        this.half = rows / 2;
        this.ell = ChiSquareRule.groupHalfSize(d);
        this.m = half / (2 * ell);
        double b6 = beta / 6;
        if (!(m >= 89 * Math.log(6 / beta))) {
            throw insufficient("m=" + m + " groups of 2l=" + 2 * ell + " rows, need m >= 89 ln(6/beta)="
                    + 89 * Math.log(6 / beta) + " for V to be valid w.p. 1-beta/6 (§4.3)");
        }
        this.findKth = FindKthLargestVariance.of(epsilon / 4, delta / 4);
        this.bottom = VarianceSum.of(epsilon / 4, delta / 8);
        if (!findKth.histogram().meetsAccuracyCondition(m, b6) || !bottom.histogram().meetsAccuracyCondition(m, b6)) {
            throw insufficient("m=" + m + " groups fail the §4.6 stable-histogram condition at epsilon*/4="
                    + epsilon / 4 + ", beta/6=" + b6);
        }
        double avgMin = RescaledAveraging.provable(ShapeMatrix.identity(1), 1.0, epsilon / 2, delta / 2)
                .minimumRowsForAccuracy(b6);
        if (!(half >= avgMin)) {
            throw insufficient("n=" + half + " rows in X^mean, need n >= 2 ln(1/(delta beta'))/epsilon=" + avgMin
                    + " at Algorithm 1's internal parameters (Thm 3.3)");
        }
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

    private IllegalArgumentException insufficient(String why) {
        return new IllegalArgumentException("insufficient samples: N=" + rows + ", d=" + d + ", epsilon=" + epsilon
                + ", delta=" + delta + ", beta=" + beta + ": " + why);
    }

    /**
     * @param rows the public number of rows {@code N >= 2}
     * @param d the dimension, {@code >= 1}
     * @param epsilon target epsilon*, in {@code (0, 42)} (Algorithm 1 runs at {@code epsilon* / 84 < 1/2})
     * @param delta target delta*, in {@code (0, 1)}
     * @param beta total failure probability, in {@code (0, 1)}
     * @param threshold the TopVar threshold rule ({@link TopVar.Threshold#HIGH} is the sound default)
     * @return the estimator
     * @throws IllegalArgumentException for invalid parameters or insufficient samples (public check)
     */
    public static UnknownCovarianceMean of(int rows, int d, double epsilon, double delta, double beta,
            TopVar.Threshold threshold) {
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
    public static UnknownCovarianceMean of(int rows, int d, double epsilon, double delta, double beta) {
        return of(rows, d, epsilon, delta, beta, TopVar.Threshold.HIGH);
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
        double[][] v = new double[m][d];
        double[] a = new double[d];
        double[] b = new double[d];
        for (int j = 0; j < m; j++) {
            for (int r = 0; r < ell; r++) {
                x.copyRow(j * 2 * ell + 2 * r, a, 0);
                x.copyRow(j * 2 * ell + 2 * r + 1, b, 0);
                for (int i = 0; i < d; i++) {
                    double diff = a[i] - b[i];
                    v[j][i] += diff * diff;
                }
            }
            for (int i = 0; i < d; i++) {
                v[j][i] = Math.min(v[j][i] / (2 * ell), Double.MAX_VALUE);
            }
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
    public AnisotropicMeanResult release(RowBlockMatrix x, RandomSource random) {
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
    public AnisotropicMeanResult release(RowBlockMatrix x, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(engine, "compute engine");
        Objects.requireNonNull(random, "random");
        if (x.rows() != rows || x.cols() != d) {
            throw new IllegalArgumentException("data is " + x.rows() + " x " + x.cols() + ", expected N x d = "
                    + rows + " x " + d + ": N is public and fixes the split");
        }
        for (int r = 0; r < 2 * half; r++) {
            for (double e : x.row(r)) {
                if (!Double.isFinite(e)) {
                    throw new IllegalArgumentException("row " + r + " has a non-finite entry " + e
                            + ": reject non-finite data before any processing (spec §9)");
                }
            }
        }
        double b6 = beta / 6;
        double[][] v = statistics(x);
        // lines 8-11: top coordinates and their variances
        List<Integer> top = new ArrayList<>();
        List<Double> topVariance = new ArrayList<>();
        if (k > 0) {
            VarianceEstimate rHat = findKth.estimate(v, k, random);
            if (!rHat.isFail() && rHat.value() > 0 && rHat.value() < Double.POSITIVE_INFINITY) {
                double r = Math.min(threshold.r(rHat.value()), Double.MAX_VALUE);
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
        int[] meanRows = new int[half];
        for (int r = 0; r < half; r++) {
            meanRows[r] = half + r;
        }
        RowBlockMatrix xMean = x.selectRows(meanRows);
        double logTerm = 1 + 2 * Math.sqrt(Math.log(half / b6));
        double[] estimate = new double[d];
        if (!top.isEmpty()) {
            double[] diag = new double[top.size()];
            double sTop = 0;
            for (int t = 0; t < diag.length; t++) {
                diag[t] = topVariance.get(t);
                sTop += Math.sqrt(diag[t]);
            }
            int[] cols = top.stream().mapToInt(Integer::intValue).toArray();
            RescaledAveraging avg = RescaledAveraging.provable(ShapeMatrix.diagonal(diag),
                    Math.sqrt(32 * sTop) * logTerm, epsilon / 2, delta / 2);
            AnisotropicMeanResult r = avg.release(columns(xMean, cols), engine, random);
            if (r.isFail()) {
                return AnisotropicMeanResult.FAIL;
            }
            scatter(r.estimate(), cols, estimate);
        }
        if (bot.length > 0) {
            VarianceEstimate sBot = bottom.estimate(v, bot, random);
            if (sBot.isFail() || !(sBot.value() > 0 && sBot.value() < Double.POSITIVE_INFINITY)) {
                return AnisotropicMeanResult.FAIL;
            }
            RescaledAveraging avg = RescaledAveraging.provable(ShapeMatrix.identity(bot.length),
                    Math.sqrt(32 * sBot.value()) * logTerm, epsilon / 2, delta / 2);
            AnisotropicMeanResult r = avg.release(columns(xMean, bot), engine, random);
            if (r.isFail()) {
                return AnisotropicMeanResult.FAIL;
            }
            scatter(r.estimate(), bot, estimate);
        }
        return AnisotropicMeanResult.success(estimate, guarantee(random));
    }

    private static RowBlockMatrix columns(RowBlockMatrix x, int[] cols) {
        RowBlockMatrix out = RowBlockMatrix.zeros(x.rows(), cols.length);
        double[] row = new double[x.cols()];
        double[] sub = new double[cols.length];
        for (int r = 0; r < x.rows(); r++) {
            x.copyRow(r, row, 0);
            for (int c = 0; c < cols.length; c++) {
                sub[c] = row[cols[c]];
            }
            out.setRow(r, sub);
        }
        return out;
    }

    private static void scatter(double[] part, int[] cols, double[] out) {
        for (int c = 0; c < cols.length; c++) {
            out[cols[c]] = part[c];
        }
    }

    /**
     * @param random the source that will draw the noise
     * @return {@code (epsilon*, delta*)}-DP, replace-one with N public; certified unless the source is insecure
     */
    public PrivacyGuarantee guarantee(RandomSource random) {
        return PrivacyGuarantee.approxDp(NeighbouringRelation.REPLACE_ONE, ApproxDp.of(epsilon, delta),
                !random.isInsecure(), "unknown diagonal covariance (Algorithm 2, spec anisotropic-mean-estimation"
                        + " §4.2, budget split §5.2 [R]), N=" + rows + " public, l=" + ell + ", m=" + m + ", k=" + k
                        + ", TopVar threshold " + threshold + (random.isInsecure()
                                ? "; INSECURE seeded random source" : ""));
    }
}
