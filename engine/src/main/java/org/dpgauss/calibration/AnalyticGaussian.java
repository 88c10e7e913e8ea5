package org.dpgauss.calibration;

import org.dpgauss.privacy.Zcdp;

/**
 * Calibration of the Gaussian mechanism {@code f(D) + N(0, sigma^2 I)} for an L2 sensitivity {@code Delta}
 * (spec ndis §7 item 2: the analytic Gaussian mechanism of Balle &amp; Wang 2018, exact through
 * {@link GaussianMechanismCurve}), with the classical Dwork–Roth calibration (§7 item 3) as a reference and the
 * zCDP view (Bun &amp; Steinke 2016) delegated to {@link Zcdp}.
 *
 * <p>All methods are static and thread-safe.
 */
public final class AnalyticGaussian {

    private AnalyticGaussian() {
    }

    /**
     * The smallest noise standard deviation {@code sigma} with {@code delta(epsilon; sensitivity/sigma) <= delta}
     * (spec §7 item 2, §11.3): bisection in {@code log sigma} to relative width {@code 1e-12}, returning the
     * feasible (larger) end of the bracket, so the returned sigma always meets the bound.
     *
     * @param epsilon the target privacy loss, finite and {@code >= 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @param sensitivity the L2 sensitivity {@code Delta}, finite and {@code > 0}
     * @return sigma, finite and {@code > 0}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double sigma(double epsilon, double delta, double sensitivity) {
        Checks.epsilonNonNegative("epsilon", epsilon, false);
        Checks.deltaOpen("delta", delta);
        Checks.positiveFinite("sensitivity", sensitivity,
                "a zero sensitivity needs no noise and an infinite one cannot be masked");
        // Bracket [lo, hi] in sigma: lo infeasible, hi feasible. delta is decreasing in sigma.
        double lo = sensitivity;
        double hi = sensitivity;
        if (feasible(epsilon, delta, sensitivity, hi)) {
            do {
                hi = lo;
                lo = 0.5 * lo;
                if (lo == 0) {
                    throw new IllegalArgumentException("epsilon=" + epsilon + ", delta=" + delta + ", sensitivity="
                            + sensitivity + ": the calibrated sigma underflows a double");
                }
            } while (feasible(epsilon, delta, sensitivity, lo));
        } else {
            do {
                lo = hi;
                hi = 2 * hi;
                if (Double.isInfinite(hi)) {
                    throw new IllegalArgumentException("epsilon=" + epsilon + ", delta=" + delta + ", sensitivity="
                            + sensitivity + ": the calibrated sigma overflows a double");
                }
            } while (!feasible(epsilon, delta, sensitivity, hi));
        }
        double logLo = Math.log(lo);
        double logHi = Math.log(hi);
        for (int i = 0; i < 200 && logHi - logLo > GaussianMechanismCurve.RELATIVE_TOLERANCE; i++) {
            double logMid = 0.5 * (logLo + logHi);
            if (feasible(epsilon, delta, sensitivity, Math.exp(logMid))) {
                logHi = logMid;
            } else {
                logLo = logMid;
            }
        }
        double result = Math.exp(logHi);
        // exp(log(x)) may round below a feasible x: step up to a value that is checked feasible.
        while (!feasible(epsilon, delta, sensitivity, result)) {
            result = Math.nextUp(result);
        }
        return result;
    }

    /**
     * The smallest {@code epsilon >= 0} for which noise {@code sigma} makes the mechanism
     * {@code (epsilon, delta)}-DP ({@link GaussianMechanismCurve#epsilon}).
     *
     * @param sigma the noise standard deviation, finite and {@code > 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @param sensitivity the L2 sensitivity, finite and {@code >= 0}
     * @return epsilon, finite and {@code >= 0}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double epsilon(double sigma, double delta, double sensitivity) {
        Checks.positiveFinite("sigma", sigma, "without noise there is no finite epsilon");
        checkSensitivity(sensitivity);
        return GaussianMechanismCurve.epsilon(delta, sensitivity / sigma);
    }

    /**
     * The exact delta of the Gaussian mechanism at {@code epsilon} ({@link GaussianMechanismCurve#delta}).
     *
     * @param epsilon the privacy loss (negative values give the dual curve)
     * @param sigma the noise standard deviation, finite and {@code >= 0} (0 gives 1)
     * @param sensitivity the L2 sensitivity, finite and {@code >= 0}
     * @return delta in {@code [0, 1]}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static double delta(double epsilon, double sigma, double sensitivity) {
        return GaussianMechanismCurve.delta(epsilon, sensitivity, sigma);
    }

    /**
     * The classical calibration {@code sigma = Delta sqrt(2 ln(1.25/delta)) / epsilon} (Dwork &amp; Roth 2014,
     * Thm A.1; spec §7 item 3). It is only proved for {@code 0 < epsilon < 1}, and is always at least as large as
     * {@link #sigma}; it is kept as a reference line, not for use.
     *
     * @param epsilon the privacy loss, in {@code (0, 1)}
     * @param delta the target delta, in {@code (0, 1)}
     * @param sensitivity the L2 sensitivity, finite and {@code > 0}
     * @return sigma
     * @throws IllegalArgumentException if {@code epsilon} is outside {@code (0, 1)}, where the theorem does not
     *         hold, or another argument is out of range
     */
    public static double classicalSigma(double epsilon, double delta, double sensitivity) {
        if (!(epsilon > 0 && epsilon < 1)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + " is outside (0, 1): the classical"
                    + " Dwork-Roth calibration (Thm A.1) is only proved for 0 < epsilon < 1; use sigma(...) instead");
        }
        Checks.deltaOpen("delta", delta);
        Checks.positiveFinite("sensitivity", sensitivity,
                "a zero sensitivity needs no noise and an infinite one cannot be masked");
        return sensitivity * Math.sqrt(2 * Math.log(1.25 / delta)) / epsilon;
    }

    /**
     * The zCDP parameter of the Gaussian mechanism, {@code rho = Delta^2 / (2 sigma^2)}
     * ({@link Zcdp#gaussianMechanism}).
     *
     * @param sigma the noise standard deviation, finite and {@code > 0}
     * @param sensitivity the L2 sensitivity, finite and {@code >= 0}
     * @return rho
     */
    public static double rho(double sigma, double sensitivity) {
        return Zcdp.gaussianMechanism(sensitivity, sigma).rho();
    }

    /**
     * The smallest sigma for which the Gaussian mechanism is {@code rho}-zCDP, {@code Delta / sqrt(2 rho)}
     * ({@link Zcdp#sigmaFor(double, double)}). Convert zCDP to {@code (epsilon, delta)} with
     * {@link Zcdp#toApproxDp} or {@link Zcdp#toApproxDpTight}; for a single Gaussian release {@link #sigma} is
     * tighter than either.
     *
     * @param rho the target zCDP parameter, finite and {@code > 0}
     * @param sensitivity the L2 sensitivity, finite and {@code > 0}
     * @return sigma
     */
    public static double sigmaForRho(double rho, double sensitivity) {
        return Zcdp.sigmaFor(rho, sensitivity);
    }

    private static boolean feasible(double epsilon, double delta, double sensitivity, double sigma) {
        return GaussianMechanismCurve.delta(epsilon, sensitivity / sigma) <= delta;
    }

    private static void checkSensitivity(double sensitivity) {
        Checks.nonNegative("sensitivity", sensitivity, "an L2 sensitivity is a norm");
        if (Double.isInfinite(sensitivity)) {
            throw new IllegalArgumentException("sensitivity=" + sensitivity + " is outside [0, inf): an unbounded"
                    + " sensitivity cannot be masked by finite noise");
        }
    }
}
