package org.dpgauss.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.special.Normal;
import org.junit.jupiter.api.Test;

/** Properties of the Gaussian-mechanism curve (spec ndis §5.1, §9.1 items 1, 2, 4, 6, §11.3, §11.4). */
class GaussianMechanismCurveTest {

    private static final double[] TAUS = {1e-6, 1e-3, 0.01, 0.05, 0.2, 0.5, 1, 2, 5, 10, 40};
    private static final double[] EPSILONS = {0, 1e-9, 1e-4, 0.01, 0.1, 0.5, 1, 2, 5, 10, 30, 100, 800};

    @Test
    void edgeCasesOfTheReferenceValues() {
        assertEquals(1.0, GaussianMechanismCurve.delta(1, 1, 0)); // sigma = 0
        assertEquals(0.0, GaussianMechanismCurve.delta(Double.POSITIVE_INFINITY, 1, 1));
        assertEquals(0.0, GaussianMechanismCurve.delta(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
        assertEquals(0.0, GaussianMechanismCurve.delta(0, 0.0));
        assertEquals(0.0, GaussianMechanismCurve.delta(2, 0, 1)); // zero sensitivity: identical distributions
        assertEquals(-Math.expm1(-0.5), GaussianMechanismCurve.delta(-0.5, 0.0), 1e-16); // (1 - e^eps)_+
        assertEquals(1.0, GaussianMechanismCurve.delta(Double.NEGATIVE_INFINITY, 1));
        assertEquals(1.0, GaussianMechanismCurve.delta(3, Double.POSITIVE_INFINITY));
    }

    @Test
    void epsilonZeroIsTheTotalVariationDistance() {
        // spec §9.1 item 6: 2 Phi(tau/2) - 1, here as 1 - 2 sf(tau/2) (no cancellation issue at these tau)
        for (double tau : new double[] {0.1, 0.5, 1, 2, 3, 8}) {
            double expected = 1 - 2 * Normal.sf(tau / 2);
            assertEquals(expected, GaussianMechanismCurve.delta(0, tau), 2e-16 / Math.min(1, tau) + 1e-15 * expected);
        }
        // relative accuracy for tiny tau: erf(x) ~ 2x/sqrt(pi)
        assertEquals(1e-8 / Math.sqrt(2 * Math.PI), GaussianMechanismCurve.delta(0, 1e-8), 1e-22);
    }

    @Test
    void limitsInTau() {
        assertTrue(GaussianMechanismCurve.delta(0.5, 1e-300) == 0);
        assertTrue(GaussianMechanismCurve.delta(0, 1e-300) < 1e-299);
        assertEquals(1.0, GaussianMechanismCurve.delta(1, 80), 1e-15);
        assertEquals(1.0, GaussianMechanismCurve.delta(0, 80), 1e-15);
    }

    @Test
    void rangeAndMonotonicity() {
        for (double tau : TAUS) {
            double previous = 1;
            for (double eps : EPSILONS) {
                double d = GaussianMechanismCurve.delta(eps, tau);
                assertTrue(d >= 0 && d <= 1, "range at eps=" + eps + " tau=" + tau);
                assertTrue(d <= previous, "nonincreasing in eps at eps=" + eps + " tau=" + tau);
                previous = d;
            }
        }
        for (double eps : EPSILONS) {
            double previous = 0;
            for (double tau : TAUS) {
                double d = GaussianMechanismCurve.delta(eps, tau);
                assertTrue(d >= previous, "nondecreasing in tau at eps=" + eps + " tau=" + tau);
                previous = d;
            }
        }
    }

    @Test
    void slopeInEpsilonMatchesFiniteDifferences() {
        // d delta / d eps = -e^eps Phi(-eps/tau - tau/2): checks that the direct and quadrature branches agree
        for (double tau : new double[] {0.02, 0.1, 0.5, 1, 3}) {
            for (double eps : new double[] {0.05, 0.3, 1, 2}) {
                double exactSlope = -Math.exp(eps + Normal.logCdf(-eps / tau - tau / 2));
                if (!(exactSlope < -1e-250)) {
                    continue; // underflowed: nothing to compare
                }
                // step scaled to the log-slope so that the O(h^2) truncation error stays near 1e-9
                double h = Math.min(1e-5 * eps, -1e-4 * GaussianMechanismCurve.delta(eps, tau) / exactSlope);
                double fd = (GaussianMechanismCurve.delta(eps + h, tau) - GaussianMechanismCurve.delta(eps - h, tau))
                        / (2 * h);
                double exact = exactSlope;
                if (exact != 0) {
                    assertEquals(exact, fd, 1e-6 * Math.abs(exact), "eps=" + eps + " tau=" + tau);
                }
            }
        }
    }

    @Test
    void negativeEpsilonMatchesTheDirectFormula() {
        for (double tau : new double[] {0.3, 1, 2.5}) {
            for (double eps : new double[] {-3, -1, -0.2}) {
                double direct = Normal.cdf(-eps / tau + tau / 2) - Math.exp(eps) * Normal.cdf(-eps / tau - tau / 2);
                assertEquals(direct, GaussianMechanismCurve.delta(eps, tau), 1e-15);
            }
        }
    }

    @Test
    void largeEpsilonDoesNotOverflow() {
        double d = GaussianMechanismCurve.delta(1000, 40);
        assertTrue(d > 0 && d < 1);
        assertEquals(0.0, GaussianMechanismCurve.delta(1e308, 1));
    }

    @Test
    void epsilonInvertsDelta() {
        for (double tau : new double[] {0.01, 0.2, 1, 4, 20}) {
            for (double target : new double[] {1e-12, 1e-6, 1e-3, 0.1}) {
                double eps = GaussianMechanismCurve.epsilon(target, tau);
                assertTrue(GaussianMechanismCurve.delta(eps, tau) <= target, "feasible");
                if (eps > 0) {
                    assertTrue(GaussianMechanismCurve.delta(eps * (1 - 1e-9), tau) > target, "smallest");
                } else {
                    assertTrue(GaussianMechanismCurve.delta(0, tau) <= target);
                }
            }
        }
        assertEquals(0.0, GaussianMechanismCurve.epsilon(0.5, 1)); // delta(0) = 0.383 <= 0.5
    }

    @Test
    void rejectsInvalidArgumentsWithTheParameterName() {
        assertMessage(() -> GaussianMechanismCurve.delta(Double.NaN, 1), "epsilon=NaN");
        assertMessage(() -> GaussianMechanismCurve.delta(1, -1), "tau=-1.0");
        assertMessage(() -> GaussianMechanismCurve.delta(1, Double.NaN), "tau=NaN");
        assertMessage(() -> GaussianMechanismCurve.delta(1, -1, 1), "sensitivity=-1.0");
        assertMessage(() -> GaussianMechanismCurve.delta(1, 1, -2), "sigma=-2.0");
        assertMessage(() -> GaussianMechanismCurve.delta(1, 0, 0), "sigma=0.0 with sensitivity=0.0");
        assertMessage(() -> GaussianMechanismCurve.epsilon(0, 1), "delta=0.0 is outside (0, 1)");
        assertMessage(() -> GaussianMechanismCurve.epsilon(1, 1), "delta=1.0 is outside (0, 1)");
        assertMessage(() -> GaussianMechanismCurve.epsilon(1e-5, Double.POSITIVE_INFINITY), "tau=Infinity");
    }

    static void assertMessage(org.junit.jupiter.api.function.Executable call, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(fragment), () -> "message '" + e.getMessage() + "' lacks '" + fragment + "'");
    }
}
