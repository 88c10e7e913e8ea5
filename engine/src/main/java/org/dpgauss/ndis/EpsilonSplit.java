package org.dpgauss.ndis;

import java.util.function.DoubleUnaryOperator;

/**
 * {@code inf_{eps1 in [0, eps]} h(eps1)} for the composition bounds (spec ndis §5.4, §6.5.2): a uniform grid
 * (default 400 intervals) plus caller-supplied candidates (e.g. {@code eps1 = eps - nu/2}, where the covariance
 * term switches to exactly 0), then golden-section refinement around the best grid point. Any eps1 gives a valid
 * bound, so the result is always a valid bound; the optimisation only affects tightness.
 */
final class EpsilonSplit {

    private EpsilonSplit() {
    }

    /** @return {best value, best eps1} */
    static double[] minimise(double epsilon, int intervals, DoubleUnaryOperator h, double... candidates) {
        double bestX = 0;
        double best = h.applyAsDouble(0);
        for (int i = 1; i <= intervals; i++) {
            double x = epsilon * i / intervals;
            double v = h.applyAsDouble(x);
            if (v < best) {
                best = v;
                bestX = x;
            }
        }
        for (double c : candidates) {
            if (c >= 0 && c <= epsilon) {
                double v = h.applyAsDouble(c);
                if (v < best) {
                    best = v;
                    bestX = c;
                }
            }
        }
        if (epsilon > 0 && intervals > 0) {
            double step = epsilon / intervals;
            double lo = Math.max(0, bestX - step);
            double hi = Math.min(epsilon, bestX + step);
            double g = (Math.sqrt(5) - 1) / 2;
            double x1 = hi - g * (hi - lo);
            double x2 = lo + g * (hi - lo);
            double f1 = h.applyAsDouble(x1);
            double f2 = h.applyAsDouble(x2);
            for (int it = 0; it < 60 && hi - lo > 1e-12 * Math.max(1, epsilon); it++) {
                if (f1 < f2) {
                    hi = x2;
                    x2 = x1;
                    f2 = f1;
                    x1 = hi - g * (hi - lo);
                    f1 = h.applyAsDouble(x1);
                } else {
                    lo = x1;
                    x1 = x2;
                    f1 = f2;
                    x2 = lo + g * (hi - lo);
                    f2 = h.applyAsDouble(x2);
                }
            }
            if (f1 < best) {
                best = f1;
                bestX = x1;
            }
            if (f2 < best) {
                best = f2;
                bestX = x2;
            }
        }
        return new double[] {best, bestX};
    }
}
