package org.dpgauss.ndis;

import java.util.Objects;

/**
 * The privacy profile of one neighbouring pair of Gaussian outputs, {@code P = M(D)} and {@code Q = M(D')}
 * (spec ndis §0: a mechanism is (eps, delta)-DP iff {@code delta_{M(D),M(D')}(eps) <= delta} for EVERY ordered
 * pair, so both orderings count): {@code forward(eps) = delta_{P,Q}(eps)}, {@code backward(eps) =
 * delta_{Q,P}(eps)} and the mechanism profile {@code delta(eps) = max(forward, backward)}.
 *
 * <p>Both ordered pairs are decomposed once ({@link HockeyStickDivergence#prepare}); every evaluation reuses them.
 * {@link #epsilon(double)} inverts the (nonincreasing, spec §9.1 item 2) profile by bisection and returns the
 * feasible end of the bracket. Immutable and thread-safe.
 */
public final class PrivacyProfile {

    /** Largest epsilon searched by {@link #epsilon}; beyond it the profile is reported as unbounded. */
    public static final double MAX_EPSILON = 700;
    /** Bisection stop: relative bracket width. */
    public static final double RELATIVE_TOLERANCE = 1e-10;

    private final HockeyStickDivergence.Prepared forward;
    private final HockeyStickDivergence.Prepared backward;

    private PrivacyProfile(HockeyStickDivergence.Prepared forward, HockeyStickDivergence.Prepared backward) {
        this.forward = forward;
        this.backward = backward;
    }

    /**
     * @param divergence the calculator (engine)
     * @param p          the output on D
     * @param q          the output on the neighbour D'
     */
    public static PrivacyProfile of(HockeyStickDivergence divergence, Gaussian p, Gaussian q) {
        Objects.requireNonNull(divergence, "divergence");
        return new PrivacyProfile(divergence.prepare(p, q), divergence.prepare(q, p));
    }

    /** On the CPU engine. */
    public static PrivacyProfile of(Gaussian p, Gaussian q) {
        return of(HockeyStickDivergence.cpu(), p, q);
    }

    /** {@code delta_{P,Q}(eps)}. */
    public double forward(double epsilon) {
        return forward.delta(epsilon);
    }

    /** {@code delta_{Q,P}(eps)}. */
    public double backward(double epsilon) {
        return backward.delta(epsilon);
    }

    /** The mechanism profile {@code max(delta_{P,Q}(eps), delta_{Q,P}(eps))}. */
    public double delta(double epsilon) {
        return Math.max(forward(epsilon), backward(epsilon));
    }

    /** One row of {@link #table}. */
    public record Point(double epsilon, double forward, double backward, double delta) {
    }

    /** The profile on a grid of epsilons (any real values, in the order given). */
    public Point[] table(double[] epsilons) {
        Objects.requireNonNull(epsilons, "epsilons");
        Point[] out = new Point[epsilons.length];
        for (int i = 0; i < epsilons.length; i++) {
            double f = forward(epsilons[i]);
            double b = backward(epsilons[i]);
            out[i] = new Point(epsilons[i], f, b, Math.max(f, b));
        }
        return out;
    }

    /** The mechanism profile on a grid. */
    public double[] delta(double[] epsilons) {
        Point[] t = table(epsilons);
        double[] out = new double[t.length];
        for (int i = 0; i < t.length; i++) {
            out[i] = t[i].delta();
        }
        return out;
    }

    /** How {@link #epsilon} ended. */
    public enum Status {
        /** {@code delta(0) <= target}: epsilon 0 already suffices. */
        ZERO,
        /** A finite epsilon found by bisection (the feasible end of the final bracket). */
        FOUND,
        /** {@code delta(eps) > target} up to {@link #MAX_EPSILON} (e.g. disjoint supports, or target 0). */
        UNBOUNDED
    }

    /**
     * Result of the inverse.
     *
     * @param epsilon smallest eps >= 0 with {@code delta(eps) <= target}, up to the bisection tolerance (always a
     *                feasible value); {@code +infinity} when {@link Status#UNBOUNDED}
     * @param delta   the profile at that epsilon ({@code <= target} unless unbounded)
     * @param status  how the search ended
     */
    public record EpsilonResult(double epsilon, double delta, Status status) {
    }

    /**
     * The smallest {@code eps >= 0} with {@code max(delta_{P,Q}(eps), delta_{Q,P}(eps)) <= delta}: bisection on the
     * nonincreasing curve (spec §9.1 item 2), returning the feasible end of the bracket.
     *
     * @param delta the target, in [0, 1]
     * @throws IllegalArgumentException when delta is outside [0, 1] or NaN
     */
    public EpsilonResult epsilon(double delta) {
        if (!(delta >= 0 && delta <= 1)) {
            throw new IllegalArgumentException("delta = " + delta + " must lie in [0, 1] (a probability)");
        }
        double at0 = delta(0);
        if (at0 <= delta) {
            return new EpsilonResult(0, at0, Status.ZERO);
        }
        double lo = 0;
        double hi = 1;
        double atHi = delta(hi);
        while (atHi > delta) {
            lo = hi;
            if (hi >= MAX_EPSILON) {
                return new EpsilonResult(Double.POSITIVE_INFINITY, atHi, Status.UNBOUNDED);
            }
            hi = Math.min(MAX_EPSILON, 2 * hi);
            atHi = delta(hi);
        }
        for (int it = 0; it < 200 && hi - lo > RELATIVE_TOLERANCE * hi; it++) {
            double mid = 0.5 * (lo + hi);
            double v = delta(mid);
            if (v <= delta) {
                hi = mid;
                atHi = v;
            } else {
                lo = mid;
            }
        }
        return new EpsilonResult(hi, atHi, Status.FOUND);
    }
}
