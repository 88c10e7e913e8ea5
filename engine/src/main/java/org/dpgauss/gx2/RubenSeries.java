package org.dpgauss.gx2;

import org.apache.commons.numbers.gamma.RegularizedGamma;

/**
 * Ruben's (1962) series for a positive combination {@code Q = sum_j l_j chi2'(h_j, d_j)}, all {@code l_j > 0}
 * (as in CompQuadForm's {@code ruben}):
 *
 * <pre>  P[Q <= x] = sum_k a_k P[chi2_{n+2k} <= x/beta],   P[Q > x] = sum_k a_k P[chi2_{n+2k} > x/beta],</pre>
 *
 * {@code n = sum h_j}. With {@code beta = min l_j} every {@code g_j = 1 - beta/l_j} lies in [0, 1), so all
 * {@code a_k >= 0} and {@code sum a_k = 1}: both tails are sums of positive terms and keep relative accuracy.
 * The a_k are the coefficients of the probability generating function
 *
 * <pre>  G(s) = prod_j (1-g_j)^{h_j/2} (1 - g_j s)^{-h_j/2} exp( (d_j/2) (s-1)/(1 - g_j s) ),</pre>
 *
 * computed by {@code k a_k = sum_{r<k} c_{k-r} a_r} with
 * {@code c_k = sum_j [ (h_j/2) g_j^k + (d_j/2)(1-g_j) k g_j^{k-1} ]} (the coefficients of (log G)').
 *
 * <p><b>Truncation bound (proven).</b> For every {@code 1 < s < 1/max g_j}, Markov's inequality on the
 * generating function gives {@code sum_{k>K} a_k <= G(s) s^{-(K+1)}}; the bound is minimised over s (the
 * exponent is convex in log s). The omitted terms of either tail are at most that mass, times
 * {@code P[chi2_{n+2K+2} <= x/beta]} for the CDF (the chi-square CDF decreases with the degrees of freedom).
 *
 * The error returned with each tail adds a rounding allowance of 4 K ulps relative to the tail.
 *
 * <p><b>Cost.</b> The recursion is O(K^2 + K m) for K terms and m distinct weights, K about
 * {@code E[k] + 75 / -log(max g)}; {@link #create} declines (returns null) when K would exceed its limit,
 * i.e. for badly conditioned weights, and the caller falls back to inversion (spec ndis §4.2).
 */
final class RubenSeries {

    /** Series truncated once the omitted Poisson-like mass is below this (absolute; probabilities <= 1). */
    static final double MASS_TOLERANCE = 1e-33;
    /** Largest number of coefficients: the O(K^2) recursion costs about K^2/2 multiply-adds. */
    static final int MAX_TERMS = 6000;

    private final double beta;
    private final double halfN;
    private final double[] a;
    private final double omittedMass;

    private RubenSeries(double beta, double halfN, double[] a, double omittedMass) {
        this.beta = beta;
        this.halfN = halfN;
        this.a = a;
        this.omittedMass = omittedMass;
    }

    /**
     * @param l  positive weights (distinct, any order)
     * @param h  degrees of freedom
     * @param d  non-centralities
     * @param maxTerms coefficient limit
     * @return the series, or null when more than {@code maxTerms} coefficients would be needed
     */
    static RubenSeries create(double[] l, int[] h, double[] d, int maxTerms) {
        int m = l.length;
        double beta = Double.POSITIVE_INFINITY;
        for (double v : l) {
            beta = Math.min(beta, v);
        }
        double[] g = new double[m];
        double gMax = 0;
        double logA0 = 0;
        double meanIndex = 0;
        double halfN = 0;
        for (int j = 0; j < m; j++) {
            g[j] = 1 - beta / l[j];
            gMax = Math.max(gMax, g[j]);
            logA0 += 0.5 * h[j] * Math.log(beta / l[j]) - 0.5 * d[j];
            // E[index] = (log G)'(1)
            meanIndex += 0.5 * h[j] * g[j] / (1 - g[j]) + 0.5 * d[j] / (1 - g[j]);
            halfN += 0.5 * h[j];
        }
        double decay = gMax > 0 ? 75 / -Math.log(gMax) : 0;
        if (logA0 < -700 || meanIndex + decay > maxTerms) {
            return null;
        }
        double[] a = new double[Math.min(maxTerms, (int) (meanIndex + decay) + 64) + 1];
        double[] c = new double[a.length];
        double[] pow = new double[m];
        java.util.Arrays.fill(pow, 1);
        a[0] = Math.exp(logA0);
        double partial = a[0];
        for (int k = 1; ; k++) {
            if (k >= a.length) {
                if (a.length > maxTerms) {
                    return null;
                }
                int len = Math.min(maxTerms + 1, 2 * a.length);
                a = java.util.Arrays.copyOf(a, len);
                c = java.util.Arrays.copyOf(c, len);
            }
            double ck = 0;
            for (int j = 0; j < m; j++) {
                double pk1 = pow[j]; // g^{k-1}
                double pk = pk1 * g[j];
                ck += 0.5 * h[j] * pk + 0.5 * d[j] * (1 - g[j]) * k * pk1;
                pow[j] = pk;
            }
            c[k] = ck;
            double s = 0;
            for (int r = 0; r < k; r++) {
                s += c[k - r] * a[r];
            }
            a[k] = s / k;
            partial += a[k];
            if (k > meanIndex && (k & 15) == 0) {
                double mass = tailBound(g, h, d, gMax, k);
                if (mass <= MASS_TOLERANCE || mass <= 0) {
                    return new RubenSeries(beta, halfN, java.util.Arrays.copyOf(a, k + 1), mass);
                }
            }
        }
    }

    /** min over s of G(s) s^{-(K+1)}: golden-section search on v = log s in (0, -log gMax). */
    private static double tailBound(double[] g, int[] h, double[] d, double gMax, int kLast) {
        if (gMax == 0) {
            // G(s) = exp(sum d_j (s-1)/2): Poisson; use the same bound with v unrestricted above.
            gMax = 1e-300;
        }
        double lo = 0;
        double hi = -Math.log(gMax);
        if (!Double.isFinite(hi)) {
            hi = 700;
        }
        final double phi = 0.5 * (Math.sqrt(5) - 1);
        double x1 = hi - phi * (hi - lo);
        double x2 = lo + phi * (hi - lo);
        double f1 = logBound(g, h, d, x1, kLast);
        double f2 = logBound(g, h, d, x2, kLast);
        for (int i = 0; i < 60; i++) {
            if (f1 < f2) {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - phi * (hi - lo);
                f1 = logBound(g, h, d, x1, kLast);
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + phi * (hi - lo);
                f2 = logBound(g, h, d, x2, kLast);
            }
        }
        return Math.exp(Math.min(f1, f2));
    }

    private static double logBound(double[] g, int[] h, double[] d, double v, int kLast) {
        double s = Math.exp(v);
        double logG = 0;
        for (int j = 0; j < g.length; j++) {
            double den = 1 - g[j] * s;
            if (!(den > 0)) {
                return Double.POSITIVE_INFINITY;
            }
            logG += 0.5 * h[j] * (Math.log1p(-g[j]) - Math.log(den)) + 0.5 * d[j] * (s - 1) / den;
        }
        return logG - (kLast + 1) * v;
    }

    int terms() {
        return a.length;
    }

    /**
     * @param x threshold (the series' own scale, weights positive)
     * @return {lower, upper, truncation bound of lower, truncation bound of upper}
     */
    double[] tails(double x) {
        if (x <= 0) {
            return new double[] {0, 1, 0, 0};
        }
        if (x == Double.POSITIVE_INFINITY) {
            return new double[] {1, 0, 0, 0};
        }
        final double z = 0.5 * x / beta;
        final int kMax = a.length - 1;
        // Upper tail: Q(s+1, z) = Q(s, z) + g(s), s = n/2 + k, additive and stable going up.
        double q = RegularizedGamma.Q.value(halfN, z);
        double gs = RegularizedGamma.P.derivative(halfN + 1, z);
        double upper = a[0] * q;
        for (int k = 1; k <= kMax; k++) {
            double s = halfN + k - 1;
            q += gs;
            upper += a[k] * q;
            gs = gs < Double.MIN_NORMAL ? RegularizedGamma.P.derivative(s + 2, z) : gs * z / (s + 1);
        }
        // Lower tail: P(s-1, z) = P(s, z) + g(s-1), additive and stable going down from the last term.
        double sLast = halfN + kMax;
        double p = RegularizedGamma.P.value(sLast, z);
        double pNext = RegularizedGamma.P.value(sLast + 1, z);
        double lower = a[kMax] * p;
        gs = RegularizedGamma.P.derivative(sLast, z); // g(sLast - 1)
        for (int k = kMax - 1; k >= 0; k--) {
            double s = halfN + k; // p becomes P(s, z) = P(s+1, z) + g(s)
            p += gs;
            lower += a[k] * p;
            gs = gs < Double.MIN_NORMAL ? RegularizedGamma.P.derivative(s, z) : gs * s / z;
        }
        // Rounding: each tail is a sum of positive terms whose gamma factors come from a recurrence of K steps
        // (relative error growing at most linearly); allow 4 K ulps relative.
        double rounding = 4 * Math.ulp(1.0) * a.length;
        return new double[] {Math.min(lower, 1), Math.min(upper, 1), omittedMass * pNext + rounding * lower,
            omittedMass + rounding * upper};
    }
}
