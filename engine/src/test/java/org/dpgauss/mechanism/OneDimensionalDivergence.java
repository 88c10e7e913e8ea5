package org.dpgauss.mechanism;

import org.dpgauss.special.Normal;

/**
 * Independent closed form of the hockey-stick divergence between two one-dimensional Gaussians (test oracle):
 * the set {@code {p_X > e^eps p_Y}} is where a quadratic is positive (an interval, its complement, a half-line or
 * empty), so {@code delta = P_X(S) - e^eps P_Y(S)} needs only Phi. Variances, not standard deviations.
 */
final class OneDimensionalDivergence {

    private OneDimensionalDivergence() {
    }

    static double delta(double mx, double vx, double my, double vy, double eps) {
        // log p_X - log p_Y - eps = A x^2 + B x + C
        double a = 0.5 / vy - 0.5 / vx;
        double b = mx / vx - my / vy;
        double c = -mx * mx / (2 * vx) + my * my / (2 * vy) - 0.5 * Math.log(vx / vy) - eps;
        double sx = Math.sqrt(vx);
        double sy = Math.sqrt(vy);
        double res;
        if (Math.abs(a) < 1e-300) {
            if (b == 0) {
                return c > 0 ? 1 - Math.exp(eps) * 1 : 0;
            }
            double t = -c / b; // region x > t if b > 0
            res = b > 0 ? Normal.sf((t - mx) / sx) - Math.exp(eps) * Normal.sf((t - my) / sy)
                    : Normal.cdf((t - mx) / sx) - Math.exp(eps) * Normal.cdf((t - my) / sy);
            return Math.max(0, res);
        }
        double disc = b * b - 4 * a * c;
        if (disc <= 0) {
            return a > 0 ? Math.max(0, 1 - Math.exp(eps)) : 0; // everywhere (a > 0) or nowhere
        }
        double q = -0.5 * (b + Math.copySign(Math.sqrt(disc), b));
        double r1 = q / a;
        double r2 = c / q;
        double lo = Math.min(r1, r2);
        double hi = Math.max(r1, r2);
        double px = Normal.probabilityBetween((lo - mx) / sx, (hi - mx) / sx);
        double py = Normal.probabilityBetween((lo - my) / sy, (hi - my) / sy);
        if (a < 0) {
            res = px - Math.exp(eps) * py; // between the roots
        } else {
            res = Normal.cdf((lo - mx) / sx) + Normal.sf((hi - mx) / sx) // outside the roots
                    - Math.exp(eps) * (Normal.cdf((lo - my) / sy) + Normal.sf((hi - my) / sy));
        }
        return Math.max(0, res);
    }
}
