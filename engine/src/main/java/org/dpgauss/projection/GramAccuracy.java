package org.dpgauss.projection;

import org.dpgauss.release.Accuracy;

/**
 * The a-priori accuracy of the Gram estimate {@code S = ((1/r) M M^T - lambda I) / q} of a projection release
 * (spec ndis §6.2, Theorem 5.2, with explicit constants), from public quantities only: d, r, the ridge lambda,
 * the row bound l' (l plus its public slack), the Poisson rate q and, when the user gives one, a public upper
 * bound N on the number of rows (under add/remove neighbours n itself is private and is never used).
 *
 * <p><b>The error.</b> The columns of M are independent {@code N(0, Sigma)} with {@code Sigma = A + lambda I},
 * {@code A = D^T D}; so {@code S - A = Sigma^{1/2} (W - I) Sigma^{1/2}} with {@code W = Z Z^T / r}, Z a
 * {@code d x r} standard Gaussian matrix. Every admissible database has {@code ||A|| <= tr A <= N l'^2}
 * ({@code T := N l'^2}).
 *
 * <p><b>Bound (rigorous), the smaller of two, each holding with probability {@code >= 1 - beta}:</b>
 * <ol>
 * <li>Singular values of a Gaussian matrix (Davidson &amp; Szarek 2001, Thm II.13; Vershynin 2012, <i>Introduction
 * to the non-asymptotic analysis of random matrices</i>, Cor. 5.35): with probability {@code >= 1 - 2e^{-t^2/2}}
 * all singular values of Z lie in {@code [sqrt r - sqrt d - t, sqrt r + sqrt d + t]}, hence
 * {@code ||W - I|| <= 2a + a^2}, {@code a = (sqrt d + t)/sqrt r}, {@code t = sqrt(2 ln(2/beta))}, and
 * {@code ||S - A|| <= ||Sigma|| ||W - I|| <= (T + lambda)(2a + a^2)}.</li>
 * <li>Chebyshev on the exact second moment of the Frobenius error (Isserlis: {@code Var S_ij =
 * (Sigma_ij^2 + Sigma_ii Sigma_jj)/r}): {@code E||S - A||_F^2 = (||Sigma||_F^2 + (tr Sigma)^2)/r <=
 * ((T^2 + 2 lambda T + d lambda^2) + (T + d lambda)^2)/r =: F}, so {@code ||S - A|| <= ||S - A||_F <= sqrt(F/beta)}
 * with probability {@code >= 1 - beta}.</li>
 * </ol>
 * Both numbers are public, so taking the smaller keeps the probability. For the Poisson wrapper the second moment
 * splits exactly ({@code E[S_S - A_S | S] = 0}) into the sketch part of the sample, divided by {@code q^2}, and the
 * sampling part {@code E||A_S/q - A||_F^2 = (1-q)/q sum ||x_i||^4 <= (1-q)/q N l'^4}; with
 * {@code E (tr A_S)^2 <= q^2 T^2 + q(1-q) N l'^4} this gives a Chebyshev bound as above.
 *
 * <p><b>Expected (an approximation, validated by simulation in the tests).</b> For about N rows of norm about l whose
 * Gram matrix is dominated by one direction (uncentred data; the largest error for a given {@code tr A}),
 * {@code E||S - A|| ~ sqrt( (4/pi) T^2/r + T lambda (d-1)/r + (lambda m)^2 )}: the top direction's relative error
 * is {@code |N(0, 2/r)|}, the cross term is {@code sqrt(T lambda) ||N(0, I_{d-1}/r)||}, and the ridge term is
 * {@code lambda E||W - I||} with {@code m(d, r) = (2 sqrt d - 0.9)/sqrt r + d/r} (the Marchenko-Pastur edge with a
 * fitted finite-size shift; within 6% of simulation for {@code d = 1..30}, {@code r = 100..1000}). Data spread over
 * many directions, fewer rows or shorter rows give less error (down to about half of it for rows spread evenly on
 * the sphere at d = 30).
 *
 * <p><b>Without a public bound on n</b> the statement is relative: {@code ||S - A|| / (||A|| + lambda)}, at most
 * {@code 2a + a^2} (item 1), expected {@code m(d, r)} (exact when the ridge dominates; less when the data do). For
 * the Poisson wrapper, with {@code beta/2} to each part and matrix Bernstein (Tropp 2012, <i>User-friendly tail
 * bounds for sums of random matrices</i>, Thm 1.4) for {@code A_S/q - A} (variance {@code <= (1-q)/q l'^2 ||A||},
 * range {@code <= l'^2 max(1, (1-q)/q)}) and {@code l'^2 <= lambda} ({@code p* < 1}), the ratio is at most
 * {@code f/q + (1 + f)((2/3) max(1, (1-q)/q) L + sqrt(L (1-q)/(2q)))} with {@code f} item 1 at {@code beta/2} and
 * {@code L = ln(4d/beta)}; expected {@code m/q} (exact at n = 0).
 */
final class GramAccuracy {

    /** The probability at which releases state their bound. */
    static final double PROBABILITY = 0.95;

    /** The metric with a public bound on n. */
    static final String METRIC = "spectral error of the Gram estimate (units of the data's squared norms)";

    /** The metric without one. */
    static final String RELATIVE_METRIC = "spectral error of the Gram estimate relative to ||D^T D|| + lambda";

    private static final String CLIP_NOTE = "; with clipRows the error is against the Gram of the rows after each is"
            + " brought to norm <= l";

    private GramAccuracy() {
    }

    /** {@code m(d, r)}: approximately {@code E||W - I||} for {@code W = Z Z^T/r} (class comment). */
    static double wishartDeviation(int d, int r) {
        return Math.max(2 * Math.sqrt(d) - 0.9, 0.2) / Math.sqrt(r) + (double) d / r;
    }

    /** {@code 2a + a^2}, {@code a = (sqrt d + sqrt(2 ln(2/beta)))/sqrt r}: a bound on {@code ||W - I||}. */
    static double wishartBound(int d, int r, double beta) {
        double a = (Math.sqrt(d) + Math.sqrt(2 * Math.log(2 / beta))) / Math.sqrt(r);
        return 2 * a + a * a;
    }

    /** The expected spectral error of the sketch for trace bound T (class comment). */
    static double sketchExpected(double t, double lambda, int d, int r) {
        double m = wishartDeviation(d, r);
        return Math.sqrt(4 / Math.PI * t * t / r + t * lambda * (d - 1) / r + lambda * m * lambda * m);
    }

    /** The rigorous bound of the sketch at probability {@code 1 - beta}: the smaller of items 1 and 2. */
    static double sketchBound(double t, double lambda, int d, int r, double beta) {
        double singular = (t + lambda) * wishartBound(d, r, beta);
        double frob = (t * t + 2 * lambda * t + d * lambda * lambda) + (t + d * lambda) * (t + d * lambda);
        return Math.min(singular, Math.sqrt(frob / (r * beta)));
    }

    /**
     * The statement of M_RP, the LSV baseline and PTR (whose ridge is at most {@code lambda}).
     *
     * @param d the dimension
     * @param r the rank
     * @param lambda the ridge (for PTR its largest value, the target ridge)
     * @param effectiveRowBound l'
     * @param maxRows a public upper bound N on n, or {@code <= 0} for none (relative statement)
     * @param clip whether rows are clipped
     * @param extra more assumptions (may be empty)
     * @return the statement
     */
    static Accuracy projection(int d, int r, double lambda, double effectiveRowBound, long maxRows, boolean clip,
            String extra) {
        double beta = 1 - PROBABILITY;
        String tail = (clip ? CLIP_NOTE : "") + extra;
        if (maxRows <= 0) {
            return Accuracy.of(RELATIVE_METRIC, wishartDeviation(d, r), wishartBound(d, r, beta), PROBABILITY,
                    "every row has L2 norm <= l (the bound: Gaussian singular values, Vershynin 2012 Cor. 5.35);"
                            + " the expected value is exact when the ridge dominates D^T D and smaller when the data"
                            + " dominate; a public bound on the number of rows (maxRows, --max-rows) gives an absolute"
                            + " statement" + tail);
        }
        double t = maxRows * effectiveRowBound * effectiveRowBound;
        return Accuracy.of(METRIC, sketchExpected(t, lambda, d, r), sketchBound(t, lambda, d, r, beta), PROBABILITY,
                "the data have at most maxRows=" + maxRows + " rows, each of L2 norm <= l (the bound: ||D^T D||"
                        + " <= maxRows l^2 with Gaussian singular values, Vershynin 2012 Cor. 5.35, or Chebyshev on the"
                        + " exact Frobenius second moment); the expected value is for about maxRows rows of norm about"
                        + " l pointing mostly one way (uncentred data): fewer, shorter or spread-out rows give less"
                        + tail);
    }

    /**
     * The statement of the Poisson wrapper: its Gram estimate is divided by q.
     *
     * @param d the dimension
     * @param r the rank
     * @param lambda the inner ridge (at {@code eps0, delta0})
     * @param q the sampling rate
     * @param effectiveRowBound l'
     * @param maxRows a public upper bound on n, or {@code <= 0} for none
     * @param clip whether rows are clipped
     * @return the statement
     */
    static Accuracy poisson(int d, int r, double lambda, double q, double effectiveRowBound, long maxRows,
            boolean clip) {
        double beta = 1 - PROBABILITY;
        String tail = clip ? CLIP_NOTE : "";
        if (maxRows <= 0) {
            double f = wishartBound(d, r, beta / 2);
            double logs = Math.log(4 * d / beta);
            double c = 2.0 / 3 * Math.max(1, (1 - q) / q) * logs + Math.sqrt(logs * (1 - q) / (2 * q));
            return Accuracy.of(RELATIVE_METRIC, wishartDeviation(d, r) / q, f / q + (1 + f) * c, PROBABILITY,
                    "every row has L2 norm <= l; lambda is the inner ridge (the bound: Gaussian singular values,"
                            + " Vershynin 2012 Cor. 5.35, and matrix Bernstein, Tropp 2012 Thm 1.4, for the sampling);"
                            + " the expected value is exact when the ridge dominates; a public bound on the number of"
                            + " rows (maxRows, --max-rows) gives an absolute statement" + tail);
        }
        double l2 = effectiveRowBound * effectiveRowBound;
        double t = maxRows * l2;
        double l4 = maxRows * l2 * l2;
        double sampling = (1 - q) / q * l4;
        double sketch = sketchExpected(q * t, lambda, d, r) / q;
        double expected = Math.sqrt(sketch * sketch + 2 / Math.PI * sampling);
        double trace2 = q * q * t * t + q * (1 - q) * l4;
        double second = (2 * trace2 + 2 * lambda * (1 + d) * q * t + d * (1.0 + d) * lambda * lambda) / (r * q * q)
                + sampling;
        return Accuracy.of(METRIC, expected, Math.sqrt(second / beta), PROBABILITY,
                "the data have at most maxRows=" + maxRows + " rows, each of L2 norm <= l (the bound: Chebyshev on"
                        + " the exact Frobenius second moment of sketch plus sampling error); the expected value is for"
                        + " about maxRows rows of norm about l pointing mostly one way (uncentred data): fewer,"
                        + " shorter or spread-out rows give less" + tail);
    }
}
