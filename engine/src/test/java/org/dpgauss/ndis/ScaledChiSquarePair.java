package org.dpgauss.ndis;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/**
 * An oracle for {@code delta_{X,Y}(eps)} when {@code X = N(0, a I_r)} and {@code Y = N(0, b I_r)} (the random
 * projection pair of Lemma 4 and the one-dimensional covariance-only pairs), built without the code under test.
 *
 * <p>The likelihood ratio of the pair depends on x only through {@code u = ||x||^2}, which is {@code a chi2_r}
 * under X and {@code b chi2_r} under Y, so {@code delta = sup_S (P[aT in S] - e^eps P[bT in S])} over sets of u.
 * The optimal set is where the density of {@code aT} exceeds {@code e^eps} times that of {@code bT}: an interval
 * {@code [u*, inf)} when {@code a > b}, {@code [0, u*]} when {@code a < b}. The crossing u* is found here by
 * bisection on the two log-densities (no closed-form threshold), and the two probabilities are Commons Statistics'
 * chi-square distribution functions at {@code u* / a} and {@code u* / b}.
 */
public final class ScaledChiSquarePair {

    private ScaledChiSquarePair() {
    }

    /**
     * @param a variance of each coordinate of X
     * @param b variance of each coordinate of Y
     * @param r dimension
     * @param eps epsilon, at least 0
     * @return {@code delta_{N(0, a I_r), N(0, b I_r)}(eps)}
     */
    public static double delta(double a, double b, int r, double eps) {
        if (a == b) {
            return 0;
        }
        ChiSquaredDistribution chi = ChiSquaredDistribution.of(r);
        // g(u) = log density of aT at u - log density of bT at u - eps; monotone in u (increasing when a > b)
        java.util.function.DoubleUnaryOperator g =
                u -> chi.logDensity(u / a) - Math.log(a) - chi.logDensity(u / b) + Math.log(b) - eps;
        double lo = Double.MIN_NORMAL;
        double hi = Math.max(a, b);
        boolean increasing = a > b;
        while (increasing ? g.applyAsDouble(hi) < 0 : g.applyAsDouble(hi) > 0) {
            hi *= 2;
        }
        if (increasing ? g.applyAsDouble(lo) >= 0 : g.applyAsDouble(lo) <= 0) {
            // the optimal set is everything (a > b) or nothing (a < b)
            return increasing ? 1 - Math.exp(eps) : 0;
        }
        for (int i = 0; i < 200; i++) {
            double mid = 0.5 * (lo + hi);
            if ((g.applyAsDouble(mid) < 0) == increasing) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double u = 0.5 * (lo + hi);
        return increasing
                ? chi.survivalProbability(u / a) - Math.exp(eps) * chi.survivalProbability(u / b)
                : chi.cumulativeProbability(u / a) - Math.exp(eps) * chi.cumulativeProbability(u / b);
    }
}
