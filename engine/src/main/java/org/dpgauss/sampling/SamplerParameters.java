package org.dpgauss.sampling;

import org.dpgauss.privacy.ApproxDp;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongPredicate;

/**
 * All public parameters of the unbounded Gaussian sampler (spec unbounded-gaussian-sampling §2, Algorithm 2 of the
 * arXiv version): {@code lambda0}, {@code k}, {@code M}, the part sizes {@code n1, n2} and whether they come from the
 * certified recipe of spec §2.2. Everything here depends only on the public {@code n, d, epsilon, delta, alpha}
 * and never on the data. Immutable.
 *
 * <p><b>The recipe (spec §2.2, with k raised per §2.3).</b>
 * <pre>
 *   lambda0 = 4d + 8 sqrt(d L) + 8 L,  L = ln(3n/alpha)                       (§2.1)
 *   k       = max(ceil(6 ln(6/delta)/eps) + 4, ceil(T_PTR))                     (§2.3, SOUND PTR)
 *   M       = 6k + ceil(18 ln(16 n/delta))                                      (§2.1)
 *   n2_min  = ceil(max{16 e^2 lambda0 k, 144 e^2 lambda0 ln(24/delta)/eps, 8d + 36 ln(48/delta)})
 *   n1_min  = ceil(max{32 e^2 k, M, 75 e sqrt(228 lambda0 ln(24/delta))/eps, 2})
 *   certified iff n >= n1_min + 2 n2_min;  n1 = n1_min, n2 = floor((n - n1)/2)
 * </pre>
 * With {@link PtrMechanism#BHS23_AS_PUBLISHED} the paper's k is used unchanged (that run is uncertified anyway).
 * The spec calls the Hanson–Wright line of {@code n2_min} an engineering bound. {@link #certified()} therefore also
 * checks both release terms of spec §5 with explicit tail bounds on their exact privacy losses
 * ({@link #covarianceTermLossBound}, {@link #meanTermLossBound}; derivation in docs/design/sampler-release-bounds.md). Given S1/S2, these
 * bounds are proven, and at recipe sizes they come to at most about 22% of {@code eps/3}.
 *
 * <p><b>Overrides</b> ({@link SizeConstants}, {@code --constants}): {@code C1, C2} give
 * {@code n1 = ceil(C1 sqrt(lambda0) ln(1/delta)/eps)}, {@code n2_min = ceil(C2 lambda0 ln(1/delta)/eps)} and
 * {@code n2 = floor((n - n1)/2)}; explicit {@code n1, n2} are used as given (rows after {@code n1 + 2 n2} are
 * ignored). Both are {@code certified = false}.
 */
public final class SamplerParameters {

    /** e^2, the literal constant of the stability lemmas (spec §0). */
    static final double E2 = Math.E * Math.E;

    private final int n;
    private final int d;
    private final double epsilon;
    private final double delta;
    private final double alpha;
    private final PtrMechanism ptr;
    private final double lambda0;
    private final int kPaper;
    private final int k;
    private final int referenceSize;
    private final int n1;
    private final int n2;
    private final boolean recipeSizes;
    private final SizeConstants constants; // null for the recipe

    private SamplerParameters(int n, int d, double epsilon, double delta, double alpha, PtrMechanism ptr,
            int n1, int n2, boolean recipeSizes, SizeConstants constants) {
        this.n = n;
        this.d = d;
        this.epsilon = epsilon;
        this.delta = delta;
        this.alpha = alpha;
        this.ptr = ptr;
        this.lambda0 = lambda0(n, d, alpha);
        this.kPaper = kPaper(epsilon, delta);
        this.k = k(ptr, epsilon, delta);
        this.referenceSize = referenceSize(k, n, delta);
        this.n1 = n1;
        this.n2 = n2;
        this.recipeSizes = recipeSizes;
        this.constants = constants;
    }

    /**
     * The certified recipe of spec §2.2.
     *
     * @param n rows, {@code >= 1} (public)
     * @param d dimension, {@code >= 1}
     * @param target the (epsilon, delta) target, a typed pair (epsilon: in {@code (0, 1]})
     *        (delta: in {@code (0, epsilon/10]})
     * @param alpha target total-variation distance, in {@code (0, 1]}
     * @param ptr the PTR rule ({@link PtrMechanism#SOUND} unless reproducing the paper)
     * @return the parameters
     * @throws InsufficientSampleSizeException if {@code n < n1_min + 2 n2_min}; the message gives the n needed
     */
    public static SamplerParameters certified(int n, int d, ApproxDp target, double alpha,
            PtrMechanism ptr) {
        double epsilon = Objects.requireNonNull(target, "target (epsilon, delta)").epsilon();
        double delta = target.delta();
        validate(n, d, epsilon, delta, alpha, ptr);
        long n1Min = n1Min(n, d, epsilon, delta, alpha, ptr);
        long n2Min = n2Min(n, d, epsilon, delta, alpha, ptr);
        if (n < n1Min + 2 * n2Min) {
            long need = requiredRows(d, epsilon, delta, alpha, ptr);
            throw new InsufficientSampleSizeException(String.format(Locale.ROOT,
                    "n=%d is below the %s rows the certified constants of spec §2.2 need for d=%d, eps=%s, "
                            + "delta=%s, alpha=%s (at n=%d: n1 >= %d, n2 >= %d, n >= n1 + 2 n2 = %d; the smallest "
                            + "certified n is %d); pass --constants C1=..,C2=.. or n1=..,n2=.. to run uncertified",
                    n, sci(need), d, epsilon, delta, alpha, n, n1Min, n2Min, n1Min + 2 * n2Min, need), need);
        }
        int n1 = (int) n1Min;
        return new SamplerParameters(n, d, epsilon, delta, alpha, ptr, n1, (n - n1) / 2, true, null);
    }

    /**
     * Sizes from user constants: <b>uncertified</b>.
     *
     * @param n rows
     * @param d dimension
     * @param target the (epsilon, delta) target, a typed pair (epsilon: in {@code (0, 1]})
     *        (delta: in {@code (0, epsilon/10]})
     * @param alpha in {@code (0, 1]}
     * @param ptr the PTR rule
     * @param constants C1, C2 or n1, n2, not null
     * @return the parameters
     * @throws IllegalArgumentException if the sizes do not fit in n, if {@code n1 < M} (the reference set
     *         {@code R} is drawn from the first n1 rows) or {@code n2 <= d} (then the covariance estimate is
     *         singular and the sampler FAILs with certainty)
     */
    public static SamplerParameters withConstants(int n, int d, ApproxDp target, double alpha,
            PtrMechanism ptr, SizeConstants constants) {
        double epsilon = Objects.requireNonNull(target, "target (epsilon, delta)").epsilon();
        double delta = target.delta();
        validate(n, d, epsilon, delta, alpha, ptr);
        Objects.requireNonNull(constants, "constants");
        double lambda0 = lambda0(n, d, alpha);
        double logInvDelta = Math.log(1 / delta);
        long n1;
        long n2;
        if (constants.kind() == SizeConstants.Kind.PAPER_CONSTANTS) {
            n1 = Math.max(2, (long) Math.ceil(constants.first() * Math.sqrt(lambda0) * logInvDelta / epsilon));
            long n2Min = (long) Math.ceil(constants.second() * lambda0 * logInvDelta / epsilon);
            if (n < n1 + 2 * n2Min) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "n=%d is below n1 + 2 n2 = %d + 2*%d "
                        + "= %d that --constants %s gives for d=%d, eps=%s, delta=%s (lambda0=%.4g, spec §2.1)",
                        n, n1, n2Min, n1 + 2 * n2Min, constants, d, epsilon, delta, lambda0));
            }
            n2 = (n - n1) / 2;
        } else {
            n1 = (long) constants.first();
            n2 = (long) constants.second();
            if (n < n1 + 2 * n2) {
                throw new IllegalArgumentException("n=" + n + " is below n1 + 2 n2 = " + (n1 + 2 * n2)
                        + " of --constants " + constants + ": the sampler needs n1 mean-part rows and 2 n2 "
                        + "covariance rows (spec §3.1)");
            }
        }
        int m = referenceSize(k(ptr, epsilon, delta), n, delta);
        if (n1 < m) {
            throw new IllegalArgumentException("n1=" + n1 + " (from --constants " + constants + ") is below M=" + m
                    + ": the reference set R of M rows is drawn from the first n1 rows (spec §3.1 line 8, §9 E3); "
                    + "M = 6k + ceil(18 ln(16n/delta)) with k=" + k(ptr, epsilon, delta));
        }
        if (n2 <= d) {
            throw new IllegalArgumentException("n2=" + n2 + " (from --constants " + constants + ") is not above d="
                    + d + ": fewer than d+1 covariance pairs make the covariance estimate singular, and the sampler "
                    + "would FAIL with certainty (spec §9 edge cases)");
        }
        return new SamplerParameters(n, d, epsilon, delta, alpha, ptr, (int) n1, (int) n2, false, constants);
    }

    // ------------------------------------------------------------------ the formulas (public, data-independent)

    /**
     * {@code lambda0 = 4d + 8 sqrt(d L) + 8 L} with {@code L = ln(3n/alpha)} (spec §2.1, Algorithm 2 line 2).
     *
     * @param n rows
     * @param d dimension
     * @param alpha target total-variation distance
     * @return lambda0
     */
    public static double lambda0(long n, int d, double alpha) {
        double l = Math.log(3.0 * n / alpha);
        return 4.0 * d + 8 * Math.sqrt(d * l) + 8 * l;
    }

    /**
     * The paper's discretisation parameter {@code ceil(6 ln(6/delta)/eps) + 4} (spec §2.1).
     *
     * @param epsilon eps
     * @param delta delta
     * @return k_paper
     */
    public static int kPaper(double epsilon, double delta) {
        return (int) Math.ceil(6 * Math.log(6 / delta) / epsilon) + 4;
    }

    /**
     * The k used: {@code max(k_paper, ceil(T_PTR))} for the sound PTR at {@code (eps/3, delta/6)} (spec §2.3), so
     * that a score of k FAILs with certainty; {@code k_paper} for the BHS23 rule (whose threshold is below it).
     *
     * @param ptr the PTR rule
     * @param epsilon eps
     * @param delta delta
     * @return k
     */
    public static int k(PtrMechanism ptr, double epsilon, double delta) {
        int kp = kPaper(epsilon, delta);
        double t = ptr.failThreshold(epsilon / 3, delta / 6);
        return Math.max(kp, (int) Math.ceil(t));
    }

    /**
     * {@code M = 6k + ceil(18 ln(16 n/delta))} (spec §2.1; the full n, conservative per §9 E3).
     *
     * @param k the discretisation parameter
     * @param n rows
     * @param delta delta
     * @return M
     */
    public static int referenceSize(int k, long n, double delta) {
        return 6 * k + (int) Math.ceil(18 * Math.log(16.0 * n / delta));
    }

    /** n2_min of spec §2.2 at n. */
    static long n2Min(long n, int d, double epsilon, double delta, double alpha, PtrMechanism ptr) {
        double lambda0 = lambda0(n, d, alpha);
        int k = k(ptr, epsilon, delta);
        double a = 16 * E2 * lambda0 * k; // Lem 3.1/3.3/3.5: gamma <= 1/(2k)
        double b = 144 * E2 * lambda0 * Math.log(24 / delta) / epsilon; // Hanson-Wright step (see releaseTermsBounded)
        double c = 8.0 * d + 36 * Math.log(48 / delta); // Beta step via chi-square tails
        return (long) Math.ceil(Math.max(a, Math.max(b, c)));
    }

    /** n1_min of spec §2.2 at n. */
    static long n1Min(long n, int d, double epsilon, double delta, double alpha, PtrMechanism ptr) {
        double lambda0 = lambda0(n, d, alpha);
        int k = k(ptr, epsilon, delta);
        double a = 32 * E2 * k; // Lem 3.3/3.5
        double m = referenceSize(k, n, delta); // R is an M-subset of [n1]
        double c = 75 * Math.E * Math.sqrt(228 * lambda0 * Math.log(24 / delta)) / epsilon; // Prop 4.21 cap bound
        return (long) Math.ceil(Math.max(Math.max(a, m), Math.max(c, 2)));
    }

    /**
     * The smallest n the recipe certifies: the least fixed point of {@code n >= n1_min(n) + 2 n2_min(n)}, found
     * by iterating {@code n <- n1_min(n) + 2 n2_min(n)} from 1 (the right-hand side is non-decreasing in n, so the
     * iterates increase to the least fixed point).
     *
     * @param d dimension
     * @param epsilon eps
     * @param delta delta
     * @param alpha alpha
     * @param ptr the PTR rule
     * @return the smallest certified n (may exceed the int range)
     */
    public static long requiredRows(int d, double epsilon, double delta, double alpha, PtrMechanism ptr) {
        validate(1, d, epsilon, delta, alpha, ptr);
        long cur = 1;
        for (int it = 0; it < 10_000; it++) {
            long next = n1Min(cur, d, epsilon, delta, alpha, ptr) + 2 * n2Min(cur, d, epsilon, delta, alpha, ptr);
            if (next <= cur) {
                return cur;
            }
            cur = next;
        }
        throw new IllegalStateException("the size recipe did not reach its fixed point for d=" + d);
    }

    /**
     * The smallest n >= 2 with {@code holds(n)}, for a size condition that is monotone in n (false, then true from
     * some n on): doubling from 2, then bisection. Shared by the size checks of {@link CovarianceAwareMean} and
     * {@link KnownCovarianceSampler}.
     *
     * @param holds the size condition
     * @param noneMessage the message of the exception thrown when no n up to 2^50 satisfies it
     * @return the smallest n the condition accepts
     * @throws IllegalStateException when doubling passes 2^50 without the condition holding
     */
    static long smallestRows(LongPredicate holds, String noneMessage) {
        long hi = 2;
        while (!holds.test(hi)) {
            hi *= 2;
            if (hi > (1L << 50)) {
                throw new IllegalStateException(noneMessage);
            }
        }
        long lo = hi / 2; // fails the condition (or is 1 when hi = 2)
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (holds.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * Checks epsilon, delta and alpha alone (the command line calls this before reading any file).
     *
     * @param epsilon in {@code (0, 1]}
     * @param delta in {@code (0, epsilon/10]}
     * @param alpha in {@code (0, 1]}
     * @throws IllegalArgumentException naming the parameter, its value and the allowed range
     */
    public static void checkPrivacyParameters(double epsilon, double delta, double alpha) {
        validate(1, 1, epsilon, delta, alpha, PtrMechanism.SOUND);
    }

    static void validate(long n, int d, double epsilon, double delta, double alpha, PtrMechanism ptr) {
        Objects.requireNonNull(ptr, "ptr");
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " is outside [1, inf): the data set is empty");
        }
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " is outside [1, inf): the data have no columns");
        }
        if (!(epsilon > 0 && epsilon <= 1)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + " is outside (0, 1]: the privacy proof of the "
                    + "sampler (spec §1, Thm 4.1) and its PTR step (§3.6) use eps <= 1");
        }
        if (!(delta > 0 && delta <= epsilon / 10)) {
            throw new IllegalArgumentException("delta=" + delta + " is outside (0, epsilon/10 = " + epsilon / 10
                    + "]: the sampler's theorem (spec §1) needs 0 < delta <= eps/10");
        }
        if (!(alpha > 0 && alpha <= 1)) {
            throw new IllegalArgumentException("alpha=" + alpha + " is outside (0, 1]: alpha is the target total-"
                    + "variation distance (a probability) that sets lambda0 (spec §2.1)");
        }
    }

    static String sci(long v) {
        return v < 100_000 ? Long.toString(v) : String.format(Locale.ROOT, "%.2g", (double) v);
    }

    // ------------------------------------------------------------------ accessors

    /** @return n (rows of the whole data set) */
    public int n() {
        return n;
    }

    /** @return d */
    public int d() {
        return d;
    }

    /** @return epsilon */
    public double epsilon() {
        return epsilon;
    }

    /** @return delta */
    public double delta() {
        return delta;
    }

    /** @return alpha */
    public double alpha() {
        return alpha;
    }

    /** @return the PTR rule */
    public PtrMechanism ptr() {
        return ptr;
    }

    /** @return lambda0 */
    public double lambda0() {
        return lambda0;
    }

    /** @return the paper's k (before §2.3) */
    public int kPaper() {
        return kPaper;
    }

    /** @return the k used by StableCov, StableMean and the sizes */
    public int k() {
        return k;
    }

    /** @return M = |R| */
    public int referenceSize() {
        return referenceSize;
    }

    /** @return n1, the mean-part size (rows 1..n1) */
    public int n1() {
        return n1;
    }

    /** @return n2, the number of covariance pairs (rows n1+1 .. n1+2 n2) */
    public int n2() {
        return n2;
    }

    /** @return rows used, {@code n1 + 2 n2} */
    public int rowsUsed() {
        return n1 + 2 * n2;
    }

    /**
     * @return whether the sizes come from the certified recipe with the sound PTR (randomness is a separate
     *         matter, see {@link UnboundedGaussianSampler})
     */
    public boolean certified() {
        return recipeSizes && ptr.isDifferentiallyPrivate() && releaseTermsBounded();
    }

    /**
     * Whether both release terms of spec §5 stay within {@code (eps/3, delta/6)} by the explicit bounds below
     * (true at every recipe size checked: d 1..3000, eps 0.03..1, delta 1e-12..eps/10).
     *
     * @return whether the covariance- and mean-term loss bounds are at most {@code eps/3}
     */
    public boolean releaseTermsBounded() {
        return covarianceTermLossBound(n2, d, delta, lambda0) <= epsilon / 3
                && meanTermLossBound(n1, n2, d, delta, lambda0) <= epsilon / 3;
    }

    /**
     * A bound, holding except with probability {@code delta/6}, on the privacy loss of the release's covariance term
     * (spec §5: {@code mu^' + c W z} against {@code mu^' + c W' z}; the spec's Prop 4.18/16 step). Given the data,
     * {@code W z} has the law of {@code Sigma^^{1/2} s}, {@code s = g/||G||} the first d coordinates of
     * {@code G ~ N(0, I_n2)}, so the loss is exactly
     * {@code L = -1/2 sum_j ln(1 + a_j) - beta ln(1 - Q/R)}, with {@code beta = (n2 - d)/2 - 1},
     * {@code Q = sum_j a_j g_j^2}, {@code R = ||G_{>d}||^2 ~ chi2_{n2-d}} and {@code 1 + a_j} the eigenvalues of
     * {@code Sigma^^{1/2} Sigma^'^{-1} Sigma^^{1/2}} (x outside the support of the neighbour's law iff
     * {@code Q >= R}). S1 gives {@code a_j in [-gamma, gamma/(1-gamma)]} and
     * {@code sum |a_j| <= tau = (1+2gamma)gamma}. Tails, {@code e^-t} each with {@code t = ln(12/delta)}:
     * Laurent-Massart's upper tail of Q (valid for signed coefficients), {@code Q <= sum a_j + eta},
     * {@code eta = 2 sqrt(tau a t) + 2 a t}, {@code a = gamma/(1-gamma)}; and one tail of R,
     * {@code R >= r- = N - 2 sqrt(N t)} or {@code R <= r+ = N + 2 sqrt(N t) + 2t} ({@code N = n2 - d}). With
     * {@code -ln(1+a) <= -a + a^2/(1-gamma)} and {@code -ln(1-x) <= x + x^2} for {@code x <= 1/2}, the loss is at
     * most {@code a tau/(2(1-gamma)) + eta/2 + theta (tau + eta)/2 + beta ((tau + eta)/r-)^2}, {@code theta} the
     * larger of
     * {@code |(N-2)/r- - 1|} and {@code |1 - (N-2)/r+|}.
     *
     * @param n2 covariance pairs
     * @param d dimension
     * @param delta delta
     * @param lambda0 the outlier threshold
     * @return the bound, or {@code +inf} where its conditions ({@code N >= 3}, {@code (tau + eta)/r- <= 1/2}) fail
     */
    static double covarianceTermLossBound(long n2, int d, double delta, double lambda0) {
        double gamma = 8 * E2 * lambda0 / n2;
        double big = n2 - (double) d;
        if (!(gamma < 1) || big < 3) {
            return Double.POSITIVE_INFINITY;
        }
        double tau = (1 + 2 * gamma) * gamma;
        double t = Math.log(12 / delta);
        double beta = big / 2 - 1;
        double aInf = gamma / (1 - gamma);
        double eta = 2 * Math.sqrt(aInf * tau * t) + 2 * aInf * t;
        double rLow = big - 2 * Math.sqrt(big * t);
        double rHigh = big + 2 * Math.sqrt(big * t) + 2 * t;
        double x = (tau + eta) / rLow;
        if (!(rLow > 0) || !(x <= 0.5)) {
            return Double.POSITIVE_INFINITY;
        }
        double theta = Math.max(Math.abs((big - 2) / rLow - 1), Math.abs(1 - (big - 2) / rHigh));
        return aInf * tau / (2 * (1 - gamma)) + eta / 2 + theta * (tau + eta) / 2 + beta * x * x;
    }

    /**
     * A bound, holding except with probability {@code delta/6}, on the privacy loss of the release's mean term
     * (spec §5: {@code mu^ + c W z} against {@code mu^' + c W z}; the spec's Prop 4.21/17 step). In the coordinates
     * {@code s} of the covariance term the two laws differ by the shift {@code l}, {@code ||l|| <= l_max =
     * sqrt((1+2gamma) 38 e^2 lambda0)/(n1 c)} (S2), and the loss is exactly {@code -beta ln(1 - x)} with
     * {@code x = (||l||^2 ||G||^2 - 2 <g, l> ||G||)/R}, {@code ||G||^2 = ||g||^2 + R}. Tails, {@code e^-t} each with
     * {@code t = ln(24/delta)}: {@code -<g, l> <= ||l|| sqrt(2t)}, {@code ||g||^2 <= d + 2 sqrt(d t) + 2t} and both
     * tails of R as in {@link #covarianceTermLossBound}; then {@code L <= beta (x+ + x+^2)} for the resulting
     * {@code x+ <= 1/2}.
     *
     * @param n1 mean-part rows
     * @param n2 covariance pairs
     * @param d dimension
     * @param delta delta
     * @param lambda0 the outlier threshold
     * @return the bound, or {@code +inf} where its conditions fail
     */
    static double meanTermLossBound(long n1, long n2, int d, double delta, double lambda0) {
        double gamma = 8 * E2 * lambda0 / n2;
        double big = n2 - (double) d;
        if (!(gamma < 1) || big < 3 || n1 < 2) {
            return Double.POSITIVE_INFINITY;
        }
        double t = Math.log(24 / delta);
        double beta = big / 2 - 1;
        double c = Math.sqrt((1 - 1.0 / n1) * n2);
        double l = Math.sqrt((1 + 2 * gamma) * 38 * E2 * lambda0) / (n1 * c);
        double gHigh = d + 2 * Math.sqrt(d * t) + 2 * t;
        double rLow = big - 2 * Math.sqrt(big * t);
        double rHigh = big + 2 * Math.sqrt(big * t) + 2 * t;
        if (!(rLow > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double x = (l * l * (gHigh + rHigh) + 2 * l * Math.sqrt(2 * t) * Math.sqrt(gHigh + rHigh)) / rLow;
        if (!(x <= 0.5)) {
            return Double.POSITIVE_INFINITY;
        }
        return beta * (x + x * x);
    }

    /** @return the user constants, or null for the recipe */
    public SizeConstants constants() {
        return constants;
    }

    /** @return the release scale {@code c = sqrt((1 - 1/n1) n2)} of spec §4 */
    public double releaseScale() {
        return Math.sqrt((1 - 1.0 / n1) * n2);
    }

    /**
     * @return the public parameters of a release (camelCase names; all functions of the public n, d, epsilon,
     *         delta, alpha, the PTR rule and the size choice)
     */
    public org.dpgauss.release.PublicParameters publicParameters() {
        return org.dpgauss.release.PublicParameters.builder()
                .put("n", n)
                .put("d", d)
                .put("epsilon", epsilon)
                .put("delta", delta)
                .put("alpha", alpha)
                .put("ptr", ptr.id())
                .put("lambda0", lambda0)
                .put("k", k)
                .put("kPaper", kPaper)
                .put("referenceSize", referenceSize)
                .put("n1", n1)
                .put("n2", n2)
                .put("rowsUsed", rowsUsed())
                .put("sizes", constants == null ? "certified recipe (spec §2.2)" : "--constants " + constants)
                .build();
    }
}
