package org.dpgauss.special;

import org.apache.commons.numbers.gamma.RegularizedGamma;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.apache.commons.statistics.distribution.PoissonDistribution;

/**
 * The noncentral chi-square distribution {@code chi2'_k(nc)} ({@code k > 0} degrees of freedom, noncentrality
 * {@code nc >= 0}, the sum of the squared means; spec ndis §0). Commons Statistics 1.1 has no noncentral
 * chi-square, so both the CDF and the survival function are computed here, each directly, from the Poisson
 * mixture
 *
 * <pre>  P[chi2'_k(nc) &lt;= x] = sum_j p_j P(k/2 + j, x/2),   p_j = e^{-lambda} lambda^j / j!,  lambda = nc/2</pre>
 *
 * (and the same with the upper regularized gamma Q for the survival function).
 *
 * <p><b>Summation.</b> The sum starts at the Poisson mode {@code m = floor(lambda)} and runs outward in both
 * directions. The weights use {@code p_{j+1} = p_j lambda/(j+1)}; the gamma terms use
 * {@code P(s+1,z) = P(s,z) - g(s)}, {@code Q(s+1,z) = Q(s,z) + g(s)} with {@code g(s) = z^s e^{-z}/Gamma(s+1)},
 * {@code g(s+1) = g(s) z/(s+1)}. The additive directions (P downward, Q upward) are stable; in the subtractive
 * directions the term is re-evaluated directly whenever it has fallen by a factor 16 since its last direct
 * evaluation, which keeps the relative rounding error below about 16 ulps.
 *
 * <p><b>Truncation bound.</b> Let {@code S} be the partial sum. Going up from index J, the remaining Poisson mass
 * is {@code sum_{i>J} p_i <= p_{J+1} / (1 - lambda/(J+2))} (ratios {@code p_{i+1}/p_i = lambda/(i+1)} are at most
 * {@code lambda/(J+2) < 1}); going down, {@code sum_{i<J} p_i <= p_{J-1} / (1 - (J-1)/lambda)}. The gamma factor of
 * every omitted term is at most 1, or at most the last computed one where it is monotone in the omitted
 * direction (P decreases upward, Q decreases downward). The sum in one direction stops once
 * (remaining mass) x (gamma factor bound) {@code <= 1e-17 S}, so the omitted part is below 1e-17 of the result
 * in each direction: the truncation error is negligible against rounding, in both tails.
 */
public final class NoncentralChiSquare {

    /** Relative truncation tolerance of each direction of the mixture sum. */
    private static final double TOLERANCE = 1e-17;
    /** Re-evaluate a gamma term directly once a subtractive recurrence has lost this factor. */
    private static final double RESTART = 16;

    private NoncentralChiSquare() {
    }

    /** @return P[chi2'_k(nc) &lt;= x]; 0 for x &lt;= 0 */
    public static double cdf(double x, double k, double nc) {
        check(k, nc);
        if (x <= 0) {
            return 0;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 1;
        }
        if (nc == 0) {
            return ChiSquaredDistribution.of(k).cumulativeProbability(x);
        }
        return mixture(x, k, nc, true);
    }

    /** @return P[chi2'_k(nc) &gt; x], computed directly (not as 1 - cdf); 1 for x &lt;= 0 */
    public static double sf(double x, double k, double nc) {
        check(k, nc);
        if (x <= 0) {
            return 1;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 0;
        }
        if (nc == 0) {
            return ChiSquaredDistribution.of(k).survivalProbability(x);
        }
        return mixture(x, k, nc, false);
    }

    /** @return the mean k + nc */
    public static double mean(double k, double nc) {
        return k + nc;
    }

    /** @return the variance 2 (k + 2 nc) */
    public static double variance(double k, double nc) {
        return 2 * (k + 2 * nc);
    }

    private static double gamma(double s, double z, boolean lower) {
        return lower ? RegularizedGamma.P.value(s, z) : RegularizedGamma.Q.value(s, z);
    }

    /** g(s) = z^s e^{-z} / Gamma(s+1), the density of Gamma(s+1, 1) at z. */
    private static double g(double s, double z) {
        return RegularizedGamma.P.derivative(s + 1, z);
    }

    private static double mixture(double x, double k, double nc, boolean lower) {
        final double lambda = 0.5 * nc;
        final double a = 0.5 * k;
        final double z = 0.5 * x;
        if (lambda > Integer.MAX_VALUE / 2.0) {
            throw new IllegalArgumentException("noncentrality nc=" + nc + " is too large (max " + Integer.MAX_VALUE + ")");
        }
        final int mode = (int) Math.floor(lambda);
        final double pMode = PoissonDistribution.of(lambda).probability(mode);
        final double gammaMode = gamma(a + mode, z, lower);
        double sum = pMode * gammaMode;

        // Upward: j = mode+1, mode+2, ...
        double p = pMode;
        double term = gammaMode;
        double chain = gammaMode;
        double gs = g(a + mode, z);
        for (int j = mode + 1; ; j++) {
            double s = a + j - 1;
            if (lower) {
                term -= gs;
                if (!(term > chain / RESTART) || gs == 0) {
                    term = gamma(s + 1, z, true);
                    chain = term;
                }
            } else {
                term += gs;
            }
            gs = gs == 0 || gs < Double.MIN_NORMAL ? g(s + 1, z) : gs * z / (s + 1);
            p *= lambda / j;
            sum += p * term;
            double mass = p * lambda / (j + 1) / (1 - lambda / (j + 2));
            double bound = mass * (lower ? term : 1);
            if (bound <= TOLERANCE * sum || p == 0) {
                break;
            }
        }

        // Downward: j = mode-1, ..., 0
        p = pMode;
        term = gammaMode;
        chain = gammaMode;
        for (int j = mode - 1; j >= 0; j--) {
            double s = a + j;
            double gj = g(s, z);
            if (lower) {
                term += gj;
            } else {
                term -= gj;
                if (!(term > chain / RESTART)) {
                    term = gamma(s, z, false);
                    chain = term;
                }
            }
            p *= (j + 1) / lambda;
            sum += p * term;
            if (j == 0) {
                break;
            }
            double mass = p * j / lambda / (1 - (j - 1) / lambda);
            double bound = mass * (lower ? 1 : term);
            if (bound <= TOLERANCE * sum || p == 0) {
                break;
            }
        }
        return Math.min(sum, 1);
    }

    private static void check(double k, double nc) {
        if (!(k > 0 && k < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("degrees of freedom k=" + k + " must be finite and > 0");
        }
        if (!(nc >= 0 && nc < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("noncentrality nc=" + nc + " must be finite and >= 0");
        }
    }
}
