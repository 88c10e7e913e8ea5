package org.dpgauss.gx2;

import java.util.Arrays;
import java.util.Locale;
import org.dpgauss.special.Normal;
import org.dpgauss.special.NoncentralChiSquare;

/**
 * The generalized chi-square distribution {@code Q = sum_j w_j chi2'(k_j, nc_j) + sigma Z} (spec ndis §1 Def. 1,
 * §4): nonzero weights of either sign, integer degrees of freedom {@code k_j >= 1}, non-centralities
 * {@code nc_j >= 0} (sums of squared means) and an independent standard normal Z. Immutable and thread-safe.
 *
 * <p><b>Evaluation</b> (spec ndis §4.2; the method used is reported in {@link Gx2Probability#method()}):
 * <ol>
 * <li>closed forms first: no chi-square term: normal; one weight class and sigma = 0: scaled noncentral
 *     chi-square (sign handled), with dof 1 as a difference of normal probabilities;</li>
 * <li>same-sign weights, sigma = 0: Ruben's series of positive terms with a proven truncation bound
 *     ({@code RubenSeries}), when its cost is moderate;</li>
 * <li>otherwise inversion of the moment generating function on the vertical line through the saddlepoint,
 *     integrating the smaller tail directly ({@code SaddlepointInversion}), with an explicit bound for the
 *     truncated integral;</li>
 * <li>when that integral converges too slowly (small total dof and small sigma, spec §4.2 item 2 warning):
 *     exact conditioning on the normal term, or on one degree of freedom {@code w (G + mu)^2} of a term,
 *     integrating the rest's probability against the Gaussian density of G by adaptive Gauss-Kronrod on
 *     panels split at the kinks, with a squaring substitution at every panel end.</li>
 * </ol>
 * The smaller of the two tails is computed directly, the other as one minus it, so {@code cdf + sf = 1} and the
 * small tail keeps relative accuracy (spec §4.2 item 4, §11.3).
 */
public final class GeneralizedChiSquare {

    /** Work limit (integrand evaluations x terms) above which inversion is replaced by conditioning. */
    private static final double INVERSION_WORK = 3e7;
    /** Rounding allowance added to every error bound, relative to the directly computed tail. */
    private static final double ROUNDING = 1e-14;
    /** Half-width of the conditioning range: 2 Phi(-38.5) is below the smallest double. */
    private static final double RANGE = 38.5;
    /** Maximal nesting of conditioning steps. */
    private static final int MAX_DEPTH = 2;
    /** Segment limit of the adaptive quadrature of one conditioning integral. */
    private static final int CONDITIONING_SEGMENTS = 400;

    /** Forced evaluation method (package-private, for cross-checks in tests). */
    enum Method { AUTO, RUBEN, INVERSION, CONDITIONING }

    private final double[] w;
    private final int[] k;
    private final double[] nc;
    private final double sigma;
    private final double mean;
    private final double variance;
    private final RubenSeries ruben;
    private final SaddlepointInversion inversion;
    /** Lazily built distribution left after conditioning (benign race: immutable either way). */
    private volatile GeneralizedChiSquare conditioned;

    private GeneralizedChiSquare(double[] w, int[] k, double[] nc, double sigma) {
        this.w = w;
        this.k = k;
        this.nc = nc;
        this.sigma = sigma;
        double mu = 0;
        double var = sigma * sigma;
        boolean allPositive = true;
        boolean allNegative = true;
        for (int j = 0; j < w.length; j++) {
            mu += w[j] * (k[j] + nc[j]);
            var += 2 * w[j] * w[j] * (k[j] + 2 * nc[j]);
            allPositive &= w[j] > 0;
            allNegative &= w[j] < 0;
        }
        this.mean = mu;
        this.variance = var;
        RubenSeries series = null;
        if (sigma == 0 && w.length >= 2 && (allPositive || allNegative)) {
            double[] l = new double[w.length];
            for (int j = 0; j < w.length; j++) {
                l[j] = Math.abs(w[j]);
            }
            series = RubenSeries.create(l, k, nc, RubenSeries.MAX_TERMS);
        }
        this.ruben = series;
        this.inversion = w.length > 0 ? new SaddlepointInversion(w, k, nc, sigma) : null;
    }

    /**
     * @param weights       nonzero finite weights w_j, either sign
     * @param dof           degrees of freedom k_j >= 1
     * @param noncentrality non-centralities nc_j >= 0 (null: all zero)
     * @param sigma         coefficient of the normal term, >= 0
     * @return the distribution, with terms of exactly equal weight merged (dof and nc added; spec ndis §3)
     * @throws IllegalArgumentException naming the offending parameter, index and value
     */
    public static GeneralizedChiSquare of(double[] weights, int[] dof, double[] noncentrality, double sigma) {
        if (weights == null || dof == null) {
            throw new IllegalArgumentException("weights and dof must not be null");
        }
        int m = weights.length;
        if (dof.length != m || (noncentrality != null && noncentrality.length != m)) {
            throw new IllegalArgumentException("weights (length " + m + "), dof (length " + dof.length
                + ") and noncentrality (length " + (noncentrality == null ? "null" : noncentrality.length)
                + ") must have equal lengths");
        }
        if (!(sigma >= 0 && sigma < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("sigma=" + sigma + " must be finite and >= 0");
        }
        Integer[] order = new Integer[m];
        for (int j = 0; j < m; j++) {
            double wj = weights[j];
            if (!(wj != 0 && Double.isFinite(wj))) {
                throw new IllegalArgumentException("weights[" + j + "]=" + wj + " must be finite and nonzero");
            }
            if (dof[j] < 1) {
                throw new IllegalArgumentException("dof[" + j + "]=" + dof[j] + " must be >= 1");
            }
            double ncj = noncentrality == null ? 0 : noncentrality[j];
            if (!(ncj >= 0 && ncj < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException("noncentrality[" + j + "]=" + ncj + " must be finite and >= 0");
            }
            order[j] = j;
        }
        Arrays.sort(order, (p, q) -> Double.compare(weights[p], weights[q]));
        double[] mw = new double[m];
        int[] mk = new int[m];
        double[] mnc = new double[m];
        int n = -1;
        for (int idx : order) {
            double ncj = noncentrality == null ? 0 : noncentrality[idx];
            if (n >= 0 && mw[n] == weights[idx]) {
                mk[n] = Math.addExact(mk[n], dof[idx]);
                mnc[n] += ncj;
            } else {
                n++;
                mw[n] = weights[idx];
                mk[n] = dof[idx];
                mnc[n] = ncj;
            }
        }
        n++;
        return new GeneralizedChiSquare(Arrays.copyOf(mw, n), Arrays.copyOf(mk, n), Arrays.copyOf(mnc, n), sigma);
    }

    /** @return the distinct weights, ascending (equal weights merged) */
    public double[] weights() {
        return w.clone();
    }

    /** @return the degrees of freedom of each distinct weight */
    public int[] degreesOfFreedom() {
        return k.clone();
    }

    /** @return the non-centrality of each distinct weight */
    public double[] noncentralities() {
        return nc.clone();
    }

    /** @return the coefficient of the normal term */
    public double sigma() {
        return sigma;
    }

    /** @return the number of distinct weights */
    public int numberOfTerms() {
        return w.length;
    }

    /** @return E[Q] = sum_j w_j (k_j + nc_j) */
    public double mean() {
        return mean;
    }

    /** @return Var[Q] = sum_j 2 w_j^2 (k_j + 2 nc_j) + sigma^2 */
    public double variance() {
        return variance;
    }

    /** @return the distribution of -Q (all weights negated), for which P[-Q &lt;= -x] = P[Q &gt;= x] */
    public GeneralizedChiSquare negate() {
        double[] nw = new double[w.length];
        for (int j = 0; j < w.length; j++) {
            nw[j] = -w[j];
        }
        return of(nw, k, nc, sigma);
    }

    /** @return P[Q &lt;= x] */
    public double cdf(double x) {
        return cdfWithError(x).value();
    }

    /** @return P[Q > x], computed directly when it is the smaller tail (never as 1 - cdf in that case) */
    public double sf(double x) {
        return sfWithError(x).value();
    }

    /** @return P[Q &lt;= x] with a bound on its absolute error and the method used */
    public Gx2Probability cdfWithError(double x) {
        Tails t = tails(x, Method.AUTO, 0);
        return new Gx2Probability(t.lower, t.error, t.method);
    }

    /** @return P[Q > x] with a bound on its absolute error and the method used */
    public Gx2Probability sfWithError(double x) {
        Tails t = tails(x, Method.AUTO, 0);
        return new Gx2Probability(t.upper, t.error, t.method);
    }

    /** Both tails with a forced method (tests: cross-checks between methods). */
    Gx2Probability[] evaluate(double x, Method method) {
        Tails t = tails(x, method, 0);
        return new Gx2Probability[] {new Gx2Probability(t.lower, t.error, t.method),
            new Gx2Probability(t.upper, t.error, t.method)};
    }

    /** The two tails, the smaller one computed directly, and one error bound for both. */
    private record Tails(double lower, double upper, double error, String method) {
        static Tails of(double lower, double upper, double error, String method) {
            // The smaller tail is the accurate one; the other is 1 minus it (exactly complementary).
            double small = Math.max(0, Math.min(lower, upper));
            boolean lowerSmall = lower <= upper;
            double err = error + ROUNDING * small;
            return lowerSmall ? new Tails(small, 1 - small, err, method) : new Tails(1 - small, small, err, method);
        }
    }

    private Tails tails(double x, Method method, int depth) {
        if (Double.isNaN(x)) {
            throw new IllegalArgumentException("x is NaN");
        }
        if (x == Double.POSITIVE_INFINITY) {
            return new Tails(1, 0, 0, "limit");
        }
        if (x == Double.NEGATIVE_INFINITY) {
            return new Tails(0, 1, 0, "limit");
        }
        if (w.length == 0) {
            if (sigma == 0) {
                return x >= 0 ? new Tails(1, 0, 0, "point-mass") : new Tails(0, 1, 0, "point-mass");
            }
            return Tails.of(Normal.cdf(x / sigma), Normal.sf(x / sigma), 0, "normal");
        }
        if (sigma == 0) {
            // Outside the support of a same-sign combination the answer is exact.
            if (w[0] > 0 && x <= 0) {
                return new Tails(0, 1, 0, "support");
            }
            if (w[w.length - 1] < 0 && x >= 0) {
                return new Tails(1, 0, 0, "support");
            }
            // NoncentralChiSquare sums O(sqrt(nc)) Poisson terms and accepts nc/2 up to 2^30; beyond, invert.
            if (w.length == 1 && (k[0] == 1 || nc[0] <= 1e9)) {
                return closedForm(x);
            }
        }
        if (method == Method.RUBEN || (method == Method.AUTO && ruben != null)) {
            if (ruben == null) {
                throw new IllegalStateException("Ruben's series does not apply (or is too costly) here");
            }
            boolean negative = w[0] < 0;
            double[] r = ruben.tails(negative ? -x : x);
            double lower = negative ? r[1] : r[0];
            double upper = negative ? r[0] : r[1];
            double trunc = lower <= upper ? (negative ? r[3] : r[2]) : (negative ? r[2] : r[3]);
            return Tails.of(lower, upper, trunc, "ruben(" + ruben.terms() + " terms)");
        }
        if (method != Method.CONDITIONING) {
            boolean force = method == Method.INVERSION || depth >= MAX_DEPTH;
            double[] r = inversion.tails(x, INVERSION_WORK, force);
            if (r != null) {
                return Tails.of(r[0], r[1], r[2], "saddlepoint-inversion");
            }
        }
        return condition(x, depth);
    }

    private Tails closedForm(double x) {
        double wj = w[0];
        double y = x / wj;
        double lower;
        double upper;
        String method;
        if (k[0] == 1) {
            // P[(G + mu)^2 <= y] = Phi(sqrt(y) - mu) - Phi(-sqrt(y) - mu), both tails from erfc (spec §4.2 item 3).
            double r = Math.sqrt(y);
            double mu = Math.sqrt(nc[0]);
            lower = Normal.probabilityBetween(-r - mu, r - mu);
            upper = Normal.cdf(-r - mu) + Normal.sf(r - mu);
            method = "normal-difference";
        } else {
            lower = NoncentralChiSquare.cdf(y, k[0], nc[0]);
            upper = NoncentralChiSquare.sf(y, k[0], nc[0]);
            method = "noncentral-chi-square";
        }
        // A negative weight swaps the tails (the distribution is continuous).
        return wj > 0 ? Tails.of(lower, upper, 0, method) : Tails.of(upper, lower, 0, method);
    }

    /**
     * Exact conditioning. With sigma > 0: {@code P[Q <= x] = Int phi(g) P[Q0 <= x - sigma g] dg}, Q0 = Q without
     * the normal term. Otherwise one degree of freedom of term j is split off,
     * {@code w_j chi2'(k_j, nc_j) = w_j (G + sqrt(nc_j))^2 + w_j chi2_{k_j - 1}}, and
     * {@code P[Q <= x] = Int phi(g) P[R <= x - w_j (g + sqrt(nc_j))^2] dg}. Term j is the largest |w| of the sign
     * class with the smaller total dof, so that R is (closer to) same-sign. The range [-38.5, 38.5] loses less
     * than the smallest double.
     */
    private Tails condition(double x, int depth) {
        GeneralizedChiSquare rest = conditioned;
        int j = conditioningTerm();
        if (rest == null) {
            if (sigma > 0) {
                rest = new GeneralizedChiSquare(w, k, nc, 0);
            } else {
                double[] rw = w.clone();
                int[] rk = k.clone();
                double[] rnc = nc.clone();
                rk[j]--;
                rnc[j] = 0;
                if (rk[j] == 0) {
                    rw = remove(rw, j);
                    rk = remove(rk, j);
                    rnc = remove(rnc, j);
                }
                rest = new GeneralizedChiSquare(rw, rk, rnc, 0);
            }
            conditioned = rest;
        }
        final GeneralizedChiSquare r = rest;
        final double wj = sigma > 0 ? 0 : w[j];
        final double mu = sigma > 0 ? 0 : Math.sqrt(nc[j]);
        final int next = depth + 1;
        GaussKronrod.Integrand f = (g, out) -> {
            double y = sigma > 0 ? x - sigma * g : x - wj * (g + mu) * (g + mu);
            Tails t = r.tails(y, Method.AUTO, next);
            double p = Normal.pdf(g);
            out[0] = p * t.lower;
            out[1] = p * t.upper;
            out[2] = p * t.error;
        };
        double[] cuts = {-RANGE, -10, -5, -2.5, 0, 2.5, 5, 10, RANGE};
        double[] extra;
        if (sigma > 0) {
            double s0 = Math.sqrt(r.variance);
            extra = new double[] {x / sigma, (x - r.mean) / sigma, (x - r.mean - 2 * s0) / sigma,
                (x - r.mean + 2 * s0) / sigma};
        } else {
            double v = x / wj;
            extra = v > 0 ? new double[] {-mu, -mu - Math.sqrt(v), -mu + Math.sqrt(v)} : new double[] {-mu};
        }
        double[] pts = Arrays.copyOf(cuts, cuts.length + extra.length);
        System.arraycopy(extra, 0, pts, cuts.length, extra.length);
        pts = Arrays.stream(pts).filter(p -> p >= -RANGE && p <= RANGE).sorted().distinct().toArray();
        // Pass 1: one Kronrod rule per half panel sizes the relative tolerances; pass 2: global adaptive.
        GaussKronrod.Integrand sub = substituted(f, pts);
        int halves = 2 * (pts.length - 1);
        double[] breaks = new double[halves + 1];
        for (int i = 0; i <= halves; i++) {
            breaks[i] = i;
        }
        GaussKronrod gk = new GaussKronrod(sub, 3);
        double[] est = new double[3];
        gk.integrate(breaks, new double[] {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY}, 0, est, new double[3]);
        double[] tol = {Math.max(1e-13 * est[0], 1e-300), Math.max(1e-13 * est[1], 1e-300), Double.POSITIVE_INFINITY};
        double[] sum = new double[3];
        double[] err = new double[3];
        gk.integrate(breaks, tol, CONDITIONING_SEGMENTS, sum, err);
        double lower = sum[0];
        double upper = sum[1];
        double error = (lower <= upper ? err[0] : err[1]) + sum[2] + Double.MIN_NORMAL;
        String how = sigma > 0 ? "conditioning(normal term)" : "conditioning(term " + j + ")";
        return Tails.of(lower, upper, error, how + " over " + r.describe());
    }

    private String describe() {
        if (sigma == 0 && w.length == 1) {
            return k[0] == 1 ? "normal-difference" : "noncentral-chi-square";
        }
        return ruben != null ? "ruben" : "inversion/conditioning";
    }

    /**
     * Maps [i, i+1] onto half of panel [pts[i/2], pts[i/2+1]] with g = end -+ (half width) s^2, which removes
     * square-root type singularities at the panel ends (the inner probability's support edge).
     */
    private static GaussKronrod.Integrand substituted(GaussKronrod.Integrand f, double[] pts) {
        return (v, out) -> {
            int i = Math.min((int) Math.floor(v), 2 * (pts.length - 1) - 1);
            double s = v - i;
            int panel = i >> 1;
            double a = pts[panel];
            double b = pts[panel + 1];
            double half = 0.5 * (b - a);
            double g;
            double jac;
            if ((i & 1) == 0) {
                g = a + half * s * s;
            } else {
                g = b - half * (1 - s) * (1 - s);
                s = 1 - s;
            }
            jac = 2 * half * s;
            f.value(g, out);
            for (int c = 0; c < out.length; c++) {
                out[c] *= jac;
            }
        };
    }

    private int conditioningTerm() {
        if (sigma > 0) {
            return -1;
        }
        long pos = 0;
        long neg = 0;
        for (int j = 0; j < w.length; j++) {
            if (w[j] > 0) {
                pos += k[j];
            } else {
                neg += k[j];
            }
        }
        boolean pickPositive = neg == 0 || (pos > 0 && pos <= neg);
        int best = -1;
        for (int j = 0; j < w.length; j++) {
            if ((w[j] > 0) == pickPositive && (best < 0 || Math.abs(w[j]) > Math.abs(w[best]))) {
                best = j;
            }
        }
        return best;
    }

    private static double[] remove(double[] a, int j) {
        double[] r = new double[a.length - 1];
        System.arraycopy(a, 0, r, 0, j);
        System.arraycopy(a, j + 1, r, j, a.length - j - 1);
        return r;
    }

    private static int[] remove(int[] a, int j) {
        int[] r = new int[a.length - 1];
        System.arraycopy(a, 0, r, 0, j);
        System.arraycopy(a, j + 1, r, j, a.length - j - 1);
        return r;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "GeneralizedChiSquare[weights=%s, dof=%s, nc=%s, sigma=%s]",
            Arrays.toString(w), Arrays.toString(k), Arrays.toString(nc), sigma);
    }
}
