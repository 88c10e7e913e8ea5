package org.dpgauss.calibration;

import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.numbers.gamma.RegularizedGamma;
import org.dpgauss.special.Normal;

/**
 * The privacy curve of the Gaussian random projection {@code gRP_r(D) = D^T G} (spec ndis §5.5, Lemma 4 and
 * Proposition 4) and the calibrations built on it: the leverage bound {@code p*} and ridge of the mechanism
 * M_RP (§6.1), the LSV baseline of Figure 2 (§7 item 1), and the parameters of the Poisson-subsampled (§6.3) and
 * PTR (§6.4) wrappers.
 *
 * <p>Removing a row of leverage {@code p} from the database gives (Lemma 4)
 * <pre>
 *   rho   = 1/(1-p),   t0 = 2 (eps + (r/2) log rho) / (rho - 1)
 *   delta = Q(r/2, t0/2) - e^eps Q(r/2, rho t0/2)
 * </pre>
 * with {@code Q} the regularized upper incomplete gamma function. It is nondecreasing in {@code p} (Prop. 4)
 * and nonincreasing in {@code eps}.
 *
 * <p><b>Numerics</b> (spec §5.5 "stable evaluation", §11.3). {@code rho - 1 = p/(1-p)} and
 * {@code log rho = -log1p(-p)} are computed directly, upper tails use {@code Q}, never {@code 1 - P}, and
 * {@code e^eps Q} is formed as {@code exp(eps + log Q)} (no overflow). When the two terms agree to more than one
 * digit (small {@code p}: the loss is about {@code log10(1/p)} digits) or the second term underflows, the
 * difference is replaced by the equivalent integral of a positive function: with
 * {@code e^eps rho f(rho y) = f(y) exp(-(rho-1)(y-t0)/2)} (the identity of the proof of Prop. 4),
 * {@code delta = int_{t0}^inf f_{chi2_r}(y) (1 - exp(-(rho-1)(y-t0)/2)) dy}, evaluated by Gauss–Legendre
 * quadrature in log scale with {@code expm1}.
 *
 * <p>All methods are static and thread-safe.
 */
public final class RandomProjectionCurve {

    private static final double LN2 = Math.log(2);
    /**
     * Above this ratio of the leading term to the difference, the difference is recomputed by quadrature. The
     * incomplete gamma values carry relative errors of order 1e-14 for large arguments (measured against mpmath),
     * so even one lost digit is worth the quadrature.
     */
    private static final double CANCELLATION_LIMIT = 10;
    private static final int PANELS = 24;
    /** Upper end of the CALIBRATE_P bracket (spec §6.1). */
    private static final double P_MAX = 1 - 1e-15;

    private RandomProjectionCurve() {
    }

    /**
     * {@code delta^gRP_r(eps; p)}: the hockey-stick divergence, at {@code epsilon}, between the random projections
     * of a database and of the same database without a row of leverage {@code p} (spec §5.5, Lemma 4; the
     * removal direction, which is the hard one).
     *
     * @param epsilon the privacy loss, in {@code [0, inf]} ({@code +infinity} gives 0)
     * @param leverage the leverage {@code p = v^T (D^T D)^{-1} v} of the removed row, in {@code [0, 1]}; 0 gives 0,
     *        1 gives 1
     * @param r the number of projection columns, {@code >= 1}
     * @return delta in {@code [0, 1]}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double delta(double epsilon, double leverage, int r) {
        Checks.epsilonNonNegative("epsilon", epsilon, true);
        checkLeverage(leverage, true);
        Checks.columns(r);
        if (leverage == 0 || epsilon == Double.POSITIVE_INFINITY) {
            return 0;
        }
        if (leverage == 1) {
            return 1; // rho = inf: the smaller database's projection lies in a proper subspace
        }
        double s = 0.5 * r;
        double rhoMinus1 = leverage / (1 - leverage);
        double logRho = -Math.log1p(-leverage);
        double rho = 1 / (1 - leverage);
        double t0 = 2 * (epsilon + s * logRho) / rhoMinus1;
        if (Double.isInfinite(t0)) {
            return 0;
        }
        double q1 = RegularizedGamma.Q.value(s, 0.5 * t0);
        if (!(q1 > 0)) {
            return 0; // delta <= Q(r/2, t0/2), which underflowed
        }
        double q2 = RegularizedGamma.Q.value(s, 0.5 * rho * t0);
        double diff;
        if (q2 >= Double.MIN_NORMAL) {
            diff = q1 - Math.exp(epsilon + Math.log(q2));
        } else {
            diff = Double.NaN; // e^eps times an underflowed Q: recompute
        }
        if (!(diff * CANCELLATION_LIMIT >= q1)) {
            diff = byQuadrature(t0, rhoMinus1, r);
        }
        return Math.max(0, Math.min(1, diff));
    }

    /**
     * The derivative {@code d delta / d p = rho t0 f_{chi2_r}(t0)} (spec §5.5, proof of Prop. 4), evaluated in log
     * scale; non-negative.
     *
     * @param epsilon the privacy loss, finite and {@code >= 0}
     * @param leverage the leverage, in {@code [0, 1)}
     * @param r the number of projection columns, {@code >= 1}
     * @return the derivative of {@link #delta} with respect to the leverage
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double deltaDerivative(double epsilon, double leverage, int r) {
        Checks.epsilonNonNegative("epsilon", epsilon, false);
        checkLeverage(leverage, false);
        Checks.columns(r);
        if (leverage == 0) {
            // t0 -> inf for eps > 0; for eps = 0, t0 -> r log(rho)/(rho - 1) -> r and rho -> 1.
            return epsilon > 0 ? 0 : Math.exp(Math.log(r) + logChiSquareDensity(r, r));
        }
        double rhoMinus1 = leverage / (1 - leverage);
        double logRho = -Math.log1p(-leverage);
        double t0 = 2 * (epsilon + 0.5 * r * logRho) / rhoMinus1;
        if (Double.isInfinite(t0)) {
            return 0;
        }
        return Math.exp(logRho + Math.log(t0) + logChiSquareDensity(r, t0));
    }

    /**
     * The calibrated leverage bound {@code p*(eps, delta; r) = sup{p in [0,1) : delta^gRP_r(eps; p) <= delta}}
     * (spec §6.1, CALIBRATE_P): bisection on {@code [0, 1 - 1e-15]} to relative width {@code 1e-12}, returning the
     * feasible end, so {@code delta(epsilon, p*, r) <= delta} always holds.
     *
     * @param epsilon the privacy loss, finite and {@code >= 0}
     * @param delta the target delta, in {@code (0, 1)} (delta = 0 would give p* = 0 and an infinite ridge)
     * @param r the number of projection columns, {@code >= 1}
     * @return p*, in {@code (0, 1)}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double leverageBound(double epsilon, double delta, int r) {
        Checks.epsilonNonNegative("epsilon", epsilon, false);
        Checks.deltaOpen("delta", delta);
        Checks.columns(r);
        double lo = 0;
        double hi = P_MAX;
        if (delta(epsilon, hi, r) <= delta) {
            return hi;
        }
        for (int i = 0; i < 2000 && hi - lo > GaussianMechanismCurve.RELATIVE_TOLERANCE * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (delta(epsilon, mid, r) <= delta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The ridge level of M_RP, {@code lambda = l^2 / p*} (spec §6.1 step 2), rounded up so that
     * {@code l^2 / lambda <= p*} holds in floating point.
     *
     * @param epsilon the privacy loss, finite and {@code >= 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @param r the number of projection columns, {@code >= 1}
     * @param rowBound the public bound {@code l} on every row's L2 norm, finite and {@code > 0}
     * @return the ridge level lambda
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double ridge(double epsilon, double delta, int r, double rowBound) {
        Checks.positiveFinite("rowBound", rowBound, "the public row-norm bound l must be a positive norm");
        return ridgeFor(leverageBound(epsilon, delta, r), rowBound);
    }

    /**
     * The LSV leverage threshold of Sheffet's calibration (spec §7 item 1, the baseline of Figure 2):
     * {@code p_LSV = eps / (4 (sqrt(2 r ln(4/delta)) + ln(4/delta)))}, natural logarithm.
     *
     * @param epsilon the privacy loss, finite and {@code >= 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @param r the number of projection columns, {@code >= 1}
     * @return p_LSV, {@code >= 0}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double lsvLeverage(double epsilon, double delta, int r) {
        Checks.epsilonNonNegative("epsilon", epsilon, false);
        Checks.deltaOpen("delta", delta);
        Checks.columns(r);
        double l = Math.log(4 / delta);
        return epsilon / (4 * (Math.sqrt(2.0 * r * l) + l));
    }

    /**
     * The LSV ridge {@code w^2 = l^2 / p_LSV = 4 l^2 (sqrt(2 r ln(4/delta)) + ln(4/delta)) / eps} (spec §7 item 1).
     *
     * @param epsilon the privacy loss, finite and {@code > 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @param r the number of projection columns, {@code >= 1}
     * @param rowBound the public row-norm bound {@code l}, finite and {@code > 0}
     * @return the ridge level
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double lsvRidge(double epsilon, double delta, int r, double rowBound) {
        Checks.positiveFinite("epsilon", epsilon, "the LSV ridge is l^2 / p_LSV and p_LSV = 0 at epsilon = 0");
        Checks.positiveFinite("rowBound", rowBound, "the public row-norm bound l must be a positive norm");
        return ridgeFor(lsvLeverage(epsilon, delta, r), rowBound);
    }

    /**
     * Parameters of the Poisson-subsampled wrapper M_RP^Pois (spec §6.3, Figure 3): M_RP is run on the subsample
     * at {@code eps0 = ln(1 + (e^eps - 1)/q)} and {@code delta0 = delta/q}, which amplification
     * (Balle–Barthe–Gaboardi 2018, Thm 8) brings back to {@code (eps, delta)}.
     *
     * @param epsilon the target privacy loss, finite and {@code >= 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @param q the Poisson sampling rate, in {@code (delta, 1]}
     * @return {@code eps0 >= eps} and {@code delta0 = delta/q < 1}
     * @throws IllegalArgumentException if {@code q <= delta} (then {@code delta0 >= 1}) or an argument is out
     *         of range
     */
    public static PoissonParameters poissonSubsampled(double epsilon, double delta, double q) {
        Checks.epsilonNonNegative("epsilon", epsilon, false);
        Checks.deltaOpen("delta", delta);
        if (!(q > delta && q <= 1)) {
            throw new IllegalArgumentException("q=" + q + " is outside (delta, 1] = (" + delta + ", 1]: "
                    + (q > 1 ? "a sampling rate is a probability"
                            : "q <= delta gives delta0 = delta/q >= 1, no guarantee for the inner mechanism"
                                    + " (spec ndis §6.3, §11.4)"));
        }
        double eps0;
        if (epsilon < 700) {
            eps0 = Math.log1p(Math.expm1(epsilon) / q);
        } else {
            // ln(1 + (e^eps - 1)/q) = eps - ln q + log1p((q - 1) e^-eps), no overflow
            eps0 = epsilon - Math.log(q) + Math.log1p((q - 1) * Math.exp(-epsilon));
        }
        return new PoissonParameters(Math.max(eps0, epsilon), delta / q);
    }

    /**
     * PTR step 1 (spec §6.4): the smallest {@code eps_T >= 0} with
     * {@code Phi(l^2/(2 s_T) - eps_T s_T/l^2) - e^{eps_T} Phi(-l^2/(2 s_T) - eps_T s_T/l^2) <= delta_T}, i.e. the
     * analytic Gaussian mechanism for the sensitivity {@code l^2} of {@code lambda_min(D^T D)} and noise std
     * {@code s_T}.
     *
     * @param deltaT the delta spent on the test, in {@code (0, 1)}
     * @param sT the standard deviation of the test noise, finite and {@code > 0}
     * @param rowBound the public row-norm bound {@code l}, finite and {@code > 0}
     * @return eps_T, finite and {@code >= 0}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double ptrTestEpsilon(double deltaT, double sT, double rowBound) {
        Checks.deltaOpen("deltaT", deltaT);
        Checks.positiveFinite("sT", sT, "the PTR test noise standard deviation must be positive");
        Checks.positiveFinite("rowBound", rowBound, "the public row-norm bound l must be a positive norm");
        return GaussianMechanismCurve.epsilon(deltaT, rowBound * rowBound / sT);
    }

    /**
     * All data-independent parameters of the PTR wrapper M_RP^PTR (spec §6.4, Figure 4) for the split
     * {@code delta = deltaR + deltaT + deltaPtr}.
     *
     * @param epsilon the total privacy loss, finite and {@code >= 0}
     * @param r the number of projection columns, {@code >= 1}
     * @param rowBound the public row-norm bound {@code l}, finite and {@code > 0}
     * @param deltaR the delta of the projection, in {@code (0, 1)}
     * @param deltaT the delta of the test, in {@code (0, 1)}
     * @param deltaPtr the failure probability of the lower bound, in {@code (0, 1)}
     * @param sT the standard deviation of the test noise, finite and {@code > 0}
     * @return the calibration
     * @throws IllegalArgumentException if an argument is out of range, the deltas sum to 1 or more, or
     *         {@code eps_T > epsilon} (spec §6.4 edge case: the guarantee would fail; increase {@code sT})
     */
    public static PtrCalibration ptr(double epsilon, int r, double rowBound, double deltaR, double deltaT,
            double deltaPtr, double sT) {
        Checks.epsilonNonNegative("epsilon", epsilon, false);
        Checks.columns(r);
        Checks.deltaOpen("deltaR", deltaR);
        Checks.deltaOpen("deltaPtr", deltaPtr);
        double total = deltaR + deltaT + deltaPtr;
        double epsT = ptrTestEpsilon(deltaT, sT, rowBound);
        Checks.deltaOpen("deltaR + deltaT + deltaPtr", total);
        if (epsT > epsilon) {
            throw new IllegalArgumentException("sT=" + sT + " gives eps_T=" + epsT + " > epsilon=" + epsilon
                    + ": the test alone exceeds the budget (spec ndis §6.4, §11.4); increase sT or deltaT");
        }
        double epsR = Math.max(epsilon - epsT, 0);
        double p = leverageBound(epsR, deltaR, r);
        double ridge = ridgeFor(p, rowBound);
        double alpha = sT * Normal.inverseSf(deltaPtr);
        double ridgeRp = ridge(epsilon, total, r, rowBound);
        return new PtrCalibration(epsT, epsR, p, ridge, alpha, alpha + ridge - ridgeRp);
    }

    /** {@code (eps0, delta0)} for the inner M_RP of the Poisson wrapper (spec §6.3). */
    public record PoissonParameters(double epsilon0, double delta0) {
    }

    /**
     * The data-independent PTR parameters (spec §6.4).
     *
     * @param epsilonT eps_T of the test (step 1)
     * @param epsilonR eps_R = max(eps - eps_T, 0) left for the projection
     * @param leverage p*(eps_R, delta_R; r) (step 2)
     * @param ridge l^2 / p*, the target lower bound on lambda_min of the ridged Gram matrix (step 4)
     * @param alpha the margin {@code s_T Phi^{-1}(1 - delta_ptr)} (step 3)
     * @param propositionFiveThreshold Prop. 5: PTR uses less ridge than M_RP at the full (eps, delta) when
     *        {@code lambda_min(D^T D)} exceeds this (and the noise draw is {@code >= 0}, spec §11.2)
     */
    public record PtrCalibration(double epsilonT, double epsilonR, double leverage, double ridge, double alpha,
            double propositionFiveThreshold) {
    }

    // ------------------------------------------------------------------ internals

    static double ridgeFor(double leverage, double rowBound) {
        double l2 = rowBound * rowBound;
        double lambda = l2 / leverage;
        for (int i = 0; i < 64 && l2 / lambda > leverage; i++) {
            lambda = Math.nextUp(lambda);
        }
        if (Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("rowBound=" + rowBound + " with leverage bound " + leverage
                    + " gives an infinite ridge");
        }
        return lambda;
    }

    /** log of the chi-square density with r degrees of freedom at x > 0. */
    static double logChiSquareDensity(int r, double x) {
        double s = 0.5 * r;
        return (s - 1) * Math.log(x) - 0.5 * x - s * LN2 - LogGamma.value(s);
    }

    /** {@code int_{t0}^inf f_r(y) (1 - exp(-c (y - t0))) dy}, c = (rho - 1)/2, in log scale. */
    static double byQuadrature(double t0, double rhoMinus1, int r) {
        double c = 0.5 * rhoMinus1;
        double sm1 = 0.5 * r - 1;
        double mode = Math.max(r - 2.0, 0);
        double peak = Math.max(t0, mode); // log f is concave on (0, inf) for r >= 2, decreasing for r = 1
        double logPeak = logChiSquareDensity(r, peak);
        double inc = Math.max(1, Math.sqrt(2.0 * r));
        while (logChiSquareDensity(r, peak + inc) > logPeak - 50) {
            inc *= 2;
        }
        double end = peak + inc;
        // f(y)/f(peak) = exp((r/2 - 1) log(y/peak) - (y - peak)/2): no log-gamma per node
        java.util.function.DoubleUnaryOperator density =
                y -> Math.exp(sm1 * Math.log1p((y - peak) / peak) - 0.5 * (y - peak));
        double fast = 40 / c; // beyond t0 + 40/c the weight 1 - e^{-c(y-t0)} is 1 to double precision
        double sum;
        if (t0 + fast < end) {
            sum = GaussLegendre.integrate(y -> density.applyAsDouble(y) * -Math.expm1(-c * (y - t0)), t0, t0 + fast,
                    PANELS) + GaussLegendre.integrate(density, t0 + fast, end, PANELS);
        } else {
            sum = GaussLegendre.integrate(y -> density.applyAsDouble(y) * -Math.expm1(-c * (y - t0)), t0, end,
                    PANELS);
        }
        return sum * Math.exp(logPeak);
    }

    private static void checkLeverage(double p, boolean allowOne) {
        if (!(p >= 0 && (allowOne ? p <= 1 : p < 1))) {
            throw new IllegalArgumentException("leverage=" + p + " is outside [0, 1" + (allowOne ? "]" : ")")
                    + ": a leverage v^T (D^T D)^{-1} v of a row of D lies in [0, 1]"
                    + (allowOne ? "" : " and the derivative is unbounded at 1"));
        }
    }
}
