package org.dpgauss.calibration;

import java.util.function.DoubleUnaryOperator;

/**
 * Composite Gauss–Legendre quadrature of a smooth function on a finite interval. Used only for integrals whose
 * integrand is positive, so that the sum carries no cancellation (spec ndis §11.3, "small delta"): this is how
 * the privacy curves keep relative accuracy when their closed form is a difference of two nearly equal terms.
 */
final class GaussLegendre {

    /** Nodes per panel. A 20-point rule integrates polynomials of degree 39 exactly. */
    static final int ORDER = 20;
    private static final double[] NODES = new double[ORDER];
    private static final double[] WEIGHTS = new double[ORDER];

    static {
        // Newton iteration on P_n from the Chebyshev-like start; converges to full double precision.
        int n = ORDER;
        for (int i = 0; i < n; i++) {
            double x = Math.cos(Math.PI * (i + 0.75) / (n + 0.5));
            double dp = 0;
            for (int iter = 0; iter < 100; iter++) {
                double p0 = 1;
                double p1 = x;
                for (int k = 2; k <= n; k++) {
                    double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
                    p0 = p1;
                    p1 = p2;
                }
                dp = n * (x * p1 - p0) / (x * x - 1);
                double step = p1 / dp;
                x -= step;
                if (Math.abs(step) < 1e-17) {
                    break;
                }
            }
            NODES[i] = x;
            WEIGHTS[i] = 2 / ((1 - x * x) * dp * dp);
        }
    }

    private GaussLegendre() {
    }

    /** @return the integral of {@code f} over {@code [lo, hi]} with {@code panels} equal panels */
    static double integrate(DoubleUnaryOperator f, double lo, double hi, int panels) {
        double width = (hi - lo) / panels;
        double half = 0.5 * width;
        double sum = 0;
        for (int k = 0; k < panels; k++) {
            double mid = lo + (k + 0.5) * width;
            double s = 0;
            for (int i = 0; i < ORDER; i++) {
                s += WEIGHTS[i] * f.applyAsDouble(mid + half * NODES[i]);
            }
            sum += half * s;
        }
        return sum;
    }
}
