package org.dpgauss.calibration;

import org.apache.commons.numbers.gamma.Erf;
import org.apache.commons.numbers.gamma.Erfcx;
import org.dpgauss.special.Normal;

/**
 * The privacy curve of the Gaussian mechanism: the hockey-stick divergence between two Gaussians with equal
 * covariance whose means are {@code tau} apart in Mahalanobis distance (spec ndis §5.1, Proposition 1; the
 * analytic Gaussian mechanism of Balle &amp; Wang 2018, Theorem 8):
 * <pre>
 *   delta(eps; tau) = Phi(-eps/tau + tau/2) - e^eps Phi(-eps/tau - tau/2)
 * </pre>
 * For a Gaussian mechanism with L2 sensitivity {@code Delta} and noise standard deviation {@code sigma},
 * {@code tau = Delta / sigma}. The curve is symmetric in the two distributions, nonincreasing in {@code eps} and
 * nondecreasing in {@code tau}.
 *
 * <p><b>Numerics</b> (spec §11.3). With {@code a = tau/2 - eps/tau} and {@code b = a - tau}, the identity
 * {@code eps - b^2/2 = -a^2/2} gives {@code e^eps Phi(b) = exp(-a^2/2) erfcx(-b/sqrt2)/2}, so {@code e^eps} is
 * never formed (no overflow for large eps) and, for {@code a < 0},
 * {@code delta = exp(-a^2/2) (erfcx(-a/sqrt2) - erfcx(-b/sqrt2)) / 2} keeps both terms at the scale of the result.
 * When the two terms still agree to more than three digits (small {@code tau} against {@code |a|}, or
 * {@code a ~ 0} with small {@code tau}), the difference is replaced by the equivalent integral of a positive
 * function, {@code delta = int_0^inf phi(a - y) (1 - e^{-tau y}) dy} (the hockey-stick integral over the
 * privacy-loss region {@code x < a}), evaluated by Gauss–Legendre quadrature with {@code expm1}: this keeps
 * relative accuracy near {@code 1e-13} however small delta is, down to underflow. At {@code eps = 0} it returns
 * {@code erf(tau / (2 sqrt2)) = 2 Phi(tau/2) - 1}. For {@code eps < 0} it uses the duality of spec §9.1 item 4,
 * {@code delta(eps) = 1 - e^eps + e^eps delta(-eps)}, a sum of non-negative terms.
 *
 * <p>All methods are static and thread-safe.
 */
public final class GaussianMechanismCurve {

    private static final double SQRT2 = Math.sqrt(2);
    private static final double INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);
    /** Above this ratio of the leading term to the difference, the difference is recomputed by quadrature. */
    private static final double CANCELLATION_LIMIT = 1e3;
    private static final int PANELS = 16;
    /** Bisection stop: relative width of the bracket (spec §11.3 asks for 1e-12 on calibrated parameters). */
    static final double RELATIVE_TOLERANCE = 1e-12;

    private GaussianMechanismCurve() {
    }

    /**
     * The hockey-stick divergence of two unit-variance Gaussians whose means are {@code tau} apart (spec §5.1).
     *
     * @param epsilon the privacy loss, any real number or {@code +-infinity} (negative values are the dual curve,
     *        spec §9.1 item 4; {@code +infinity} gives 0, {@code -infinity} gives 1), not NaN
     * @param tau the Mahalanobis distance {@code sensitivity / sigma}, in {@code [0, inf]}; 0 gives 0 for
     *        {@code epsilon >= 0} (identical distributions), {@code +infinity} (no noise) gives 1 for finite
     *        {@code epsilon}
     * @return delta in {@code [0, 1]}
     * @throws IllegalArgumentException if {@code epsilon} is NaN or {@code tau} is negative or NaN
     */
    public static double delta(double epsilon, double tau) {
        if (Double.isNaN(epsilon)) {
            throw new IllegalArgumentException("epsilon=NaN is not a number: the privacy loss must be a real number"
                    + " or +-infinity");
        }
        Checks.nonNegative("tau", tau, "tau is a Mahalanobis distance (sensitivity / sigma), a norm");
        if (epsilon == Double.POSITIVE_INFINITY) {
            return 0; // convention of the reference values: every mechanism is (inf, 0)-DP
        }
        if (tau == 0) {
            // Identical distributions: sup_S P(S)(1 - e^eps) = (1 - e^eps)_+ (spec §11.4).
            return epsilon >= 0 ? 0 : -Math.expm1(epsilon);
        }
        if (tau == Double.POSITIVE_INFINITY) {
            return 1; // disjoint point masses (sigma = 0)
        }
        if (epsilon < 0) {
            // Duality (spec §9.1 item 4), symmetric curve: both terms are >= 0, no cancellation.
            double dual = deltaPositive(-epsilon, tau);
            return Math.min(1, -Math.expm1(epsilon) + Math.exp(epsilon) * dual);
        }
        return deltaPositive(epsilon, tau);
    }

    /**
     * The Gaussian mechanism curve for L2 sensitivity {@code sensitivity} and noise standard deviation
     * {@code sigma}: {@code delta(epsilon, sensitivity / sigma)}.
     *
     * @param epsilon the privacy loss (see {@link #delta(double, double)})
     * @param sensitivity the L2 sensitivity, in {@code [0, inf)}
     * @param sigma the noise standard deviation, in {@code [0, inf)}; 0 with a positive sensitivity gives 1
     * @return delta in {@code [0, 1]}
     * @throws IllegalArgumentException if an argument is NaN, negative or (sensitivity) infinite, or both are 0
     */
    public static double delta(double epsilon, double sensitivity, double sigma) {
        Checks.nonNegative("sensitivity", sensitivity, "an L2 sensitivity is a norm");
        if (Double.isInfinite(sensitivity)) {
            throw new IllegalArgumentException("sensitivity=" + sensitivity + " is outside [0, inf): an unbounded"
                    + " sensitivity cannot be masked by finite noise");
        }
        Checks.nonNegative("sigma", sigma, "a standard deviation cannot be negative");
        if (sigma == 0 && sensitivity == 0) {
            throw new IllegalArgumentException("sigma=0.0 with sensitivity=0.0: the Mahalanobis distance 0/0 is"
                    + " undefined; pass tau directly to delta(epsilon, tau)");
        }
        return delta(epsilon, sensitivity / sigma);
    }

    /**
     * The smallest {@code epsilon >= 0} with {@code delta(epsilon, tau) <= delta}, by bisection to relative
     * {@code 1e-12}, returning the feasible end of the bracket (spec §6.4 step 1, §7 item 2, §11.3). Returns 0
     * when {@code delta(0, tau) <= delta} already.
     *
     * @param delta the target delta, in {@code (0, 1)}
     * @param tau the Mahalanobis distance, finite and {@code >= 0}
     * @return epsilon, finite and {@code >= 0}
     * @throws IllegalArgumentException if delta is outside (0, 1), tau is negative, NaN or infinite, or the
     *         answer overflows a double
     */
    public static double epsilon(double delta, double tau) {
        Checks.deltaOpen("delta", delta);
        Checks.nonNegative("tau", tau, "tau is a Mahalanobis distance (sensitivity / sigma), a norm");
        if (Double.isInfinite(tau)) {
            throw new IllegalArgumentException("tau=Infinity is outside [0, inf): without noise delta(eps) = 1 for"
                    + " every finite eps, no epsilon reaches delta=" + delta);
        }
        if (delta(0, tau) <= delta) {
            return 0;
        }
        double lo = 0;
        double hi = 1;
        while (delta(hi, tau) > delta) {
            lo = hi;
            hi *= 2;
            if (Double.isInfinite(hi)) {
                throw new IllegalArgumentException("tau=" + tau + " with delta=" + delta
                        + ": the epsilon needed overflows a double");
            }
        }
        return bisectDecreasing(lo, hi, delta, e -> delta(e, tau));
    }

    // ------------------------------------------------------------------ internals

    /** Bisection on a nonincreasing function: smallest x in (lo, hi] with f(x) <= target; returns feasible hi. */
    static double bisectDecreasing(double lo, double hi, double target, java.util.function.DoubleUnaryOperator f) {
        for (int i = 0; i < 2000 && hi - lo > RELATIVE_TOLERANCE * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (f.applyAsDouble(mid) <= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** delta for finite epsilon >= 0 and finite tau > 0. */
    private static double deltaPositive(double epsilon, double tau) {
        if (epsilon == 0) {
            return Erf.value(tau / (2 * SQRT2)); // 2 Phi(tau/2) - 1 without cancellation (spec §11.3)
        }
        double ratio = epsilon / tau;
        double a = 0.5 * tau - ratio;
        double b = -0.5 * tau - ratio;
        if (Double.isInfinite(a) || Double.isInfinite(b)) {
            return 0; // epsilon / tau overflowed: a = -inf, both terms vanish
        }
        double scale = Math.exp(-0.5 * a * a); // = e^eps exp(-b^2/2)
        double second = 0.5 * Erfcx.value(-b / SQRT2) * scale; // e^eps Phi(b), b < 0
        double first;
        double diff;
        if (a < 0) {
            double ea = Erfcx.value(-a / SQRT2);
            first = 0.5 * ea * scale;
            diff = 0.5 * (ea - Erfcx.value(-b / SQRT2)) * scale;
        } else {
            first = Normal.cdf(a);
            diff = first - second;
        }
        if (!(first > 0)) {
            return 0;
        }
        if (diff * CANCELLATION_LIMIT < first) {
            diff = byQuadrature(a, tau);
        }
        return Math.max(0, Math.min(1, diff));
    }

    /**
     * {@code int_0^inf phi(a - y) (1 - e^{-tau y}) dy}: the hockey-stick integral written with a positive
     * integrand (substitute {@code x = a - y} in {@code int_{x < a} phi(x) (1 - exp(tau (x - a))) dx}).
     */
    static double byQuadrature(double a, double tau) {
        if (a < -1) {
            // phi(a - y) = phi(a) exp(a y - y^2/2): factor phi(a) out; exp(a y) < e^-50 beyond y = 50/|a|.
            double hi = 50 / -a;
            double integral = GaussLegendre.integrate(
                    y -> Math.exp(y * (a - 0.5 * y)) * -Math.expm1(-tau * y), 0, hi, PANELS);
            return INV_SQRT_2PI * Math.exp(-0.5 * a * a) * integral;
        }
        double lo = Math.max(0, a - 13);
        double hi = Math.max(a, 0) + 13;
        double integral = GaussLegendre.integrate(
                y -> Math.exp(-0.5 * (a - y) * (a - y)) * -Math.expm1(-tau * y), lo, hi, PANELS);
        return INV_SQRT_2PI * integral;
    }
}
