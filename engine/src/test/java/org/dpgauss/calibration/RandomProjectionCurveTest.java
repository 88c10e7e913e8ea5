package org.dpgauss.calibration;

import static org.dpgauss.calibration.GaussianMechanismCurveTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

/** Properties of the random-projection curve and its calibrations (spec ndis §5.5, §6.1, §6.3, §6.4, §9.1 12, 13). */
class RandomProjectionCurveTest {

    private static final int[] RS = {1, 2, 4, 10, 50, 100, 500};

    @Test
    void edgeCases() {
        assertEquals(0.0, RandomProjectionCurve.delta(1, 0, 10));
        assertEquals(0.0, RandomProjectionCurve.delta(0, 0, 10));
        assertEquals(1.0, RandomProjectionCurve.delta(1, 1, 10));
        assertEquals(0.0, RandomProjectionCurve.delta(Double.POSITIVE_INFINITY, 0.5, 10));
        assertTrue(RandomProjectionCurve.delta(1, 1 - 1e-12, 10) > 0.99, "p -> 1 gives delta -> 1");
        assertTrue(RandomProjectionCurve.delta(1, 1e-300, 10) == 0, "p -> 0 gives delta -> 0");
    }

    @Test
    void nondecreasingInLeverageAndNonincreasingInEpsilon() {
        // up to rounding: relative slack 1e-12 (near delta = 1 the values are 1 - 1e-16 or 1.0)
        double[] ps = {1e-6, 1e-4, 1e-3, 0.01, 0.03, 0.1, 0.3, 0.6, 0.9, 0.999};
        double[] epss = {0, 0.01, 0.1, 0.5, 1, 2, 5, 20};
        for (int r : RS) {
            for (double eps : epss) {
                double previous = 0;
                for (double p : ps) {
                    double d = RandomProjectionCurve.delta(eps, p, r);
                    assertTrue(d >= previous * (1 - 1e-12) && d <= 1, "Prop. 4 at r=" + r + " eps=" + eps + " p=" + p);
                    previous = d;
                }
            }
            for (double p : ps) {
                double previous = 1;
                for (double eps : epss) {
                    double d = RandomProjectionCurve.delta(eps, p, r);
                    assertTrue(d <= previous * (1 + 1e-12), "decreasing in eps at r=" + r + " eps=" + eps + " p=" + p);
                    previous = d;
                }
            }
        }
    }

    @Test
    void derivativeMatchesFiniteDifferences() {
        for (int r : RS) {
            for (double eps : new double[] {0, 0.1, 1, 3}) {
                for (double p : new double[] {0.002, 0.02, 0.1, 0.4}) {
                    double exact = RandomProjectionCurve.deltaDerivative(eps, p, r);
                    if (!(exact > 1e-250)) {
                        continue; // underflowed: nothing to compare
                    }
                    // step scaled to the log-slope so that the O(h^2) truncation error stays near 1e-9
                    double h = Math.min(1e-5 * p, 1e-4 * RandomProjectionCurve.delta(eps, p, r) / exact);
                    double fd = (RandomProjectionCurve.delta(eps, p + h, r) - RandomProjectionCurve.delta(eps, p - h, r))
                            / (2 * h);
                    if (exact > 1e-250) {
                        assertEquals(exact, fd, 2e-6 * exact, "r=" + r + " eps=" + eps + " p=" + p);
                    }
                }
            }
        }
        // p = 0: 0 for eps > 0, r f_r(r) for eps = 0 (limit t0 -> r)
        assertEquals(0.0, RandomProjectionCurve.deltaDerivative(1, 0, 10));
        double fdAtZero = RandomProjectionCurve.delta(0, 1e-7, 10) / 1e-7;
        assertEquals(fdAtZero, RandomProjectionCurve.deltaDerivative(0, 0, 10), 1e-5 * fdAtZero);
    }

    @Test
    void leverageBoundIsTheLargestFeasibleLeverage() {
        // spec §9.1 item 13: delta(p*) <= delta < delta(p* (1 + 1e-9))
        for (int r : new int[] {1, 10, 100, 500}) {
            for (double eps : new double[] {0, 0.1, 1, 5}) {
                for (double delta : new double[] {1e-12, 1e-6, 1e-2}) {
                    double p = RandomProjectionCurve.leverageBound(eps, delta, r);
                    assertTrue(p > 0 && p < 1);
                    assertTrue(RandomProjectionCurve.delta(eps, p, r) <= delta, "feasible");
                    assertTrue(RandomProjectionCurve.delta(eps, p * (1 + 1e-9), r) > delta,
                            "largest at r=" + r + " eps=" + eps + " delta=" + delta);
                    double ridge = RandomProjectionCurve.ridge(eps, delta, r, 2.5);
                    assertTrue(2.5 * 2.5 / ridge <= p, "ridge rounds up");
                    assertEquals(6.25 / p, ridge, 1e-15 * ridge);
                }
            }
        }
    }

    @Test
    void leverageBoundShrinksWithColumnsAndGrowsWithEpsilon() {
        double previous = 1;
        for (int r : new int[] {50, 100, 200, 500}) {
            double p = RandomProjectionCurve.leverageBound(1, 1e-6, r);
            assertTrue(p < previous);
            previous = p;
        }
        assertTrue(RandomProjectionCurve.leverageBound(2, 1e-6, 100) > RandomProjectionCurve.leverageBound(1, 1e-6, 100));
    }

    @Test
    void lsvBaselineFormula() {
        double l = Math.log(4 / 1e-6);
        assertEquals(1 / (4 * (Math.sqrt(200 * l) + l)), RandomProjectionCurve.lsvLeverage(1, 1e-6, 100), 1e-18);
        assertEquals(4 * (Math.sqrt(200 * l) + l), RandomProjectionCurve.lsvRidge(1, 1e-6, 100, 1), 1e-12);
        assertEquals(281.37, RandomProjectionCurve.lsvRidge(1, 1e-6, 100, 1), 0.006); // spec ndis §8.2 lambda_LSV, docs/references/ndis-values.md §3.2
        assertEquals(0.0, RandomProjectionCurve.lsvLeverage(0, 1e-6, 100));
    }

    @Test
    void poissonWrapperParameters() {
        for (double q : new double[] {1, 0.5, 0.01, 2e-6}) {
            RandomProjectionCurve.PoissonParameters pp = RandomProjectionCurve.poissonSubsampled(1, 1e-6, q);
            assertTrue(pp.epsilon0() >= 1);
            assertEquals(1e-6 / q, pp.delta0(), 0);
            // amplification brings eps0 back to eps: ln(1 + q (e^eps0 - 1)) = eps
            assertEquals(1, Math.log1p(q * Math.expm1(pp.epsilon0())), 1e-13);
        }
        assertEquals(1.0, RandomProjectionCurve.poissonSubsampled(1, 1e-6, 1).epsilon0(), 1e-15);
        double big = RandomProjectionCurve.poissonSubsampled(800, 1e-6, 0.5).epsilon0();
        assertEquals(800 + Math.log(2), big, 1e-12);
        assertMessage(() -> RandomProjectionCurve.poissonSubsampled(1, 1e-6, 1e-6), "q=1.0E-6 is outside (delta, 1]");
        assertMessage(() -> RandomProjectionCurve.poissonSubsampled(1, 1e-6, 1.5), "q=1.5");
    }

    @Test
    void ptrSplitsTheBudget() {
        // an unequal split and l = 2, so that swapping two deltas or using l instead of l^2 shows
        double deltaR = 5e-7;
        double deltaT = 3e-7;
        double deltaPtr = 2e-7;
        double l = 2;
        double sensitivity = l * l; // of lambda_min(D^T D) under add/remove (Weyl)
        for (double sT : new double[] {20, 40, 80, 400}) {
            RandomProjectionCurve.PtrCalibration c = RandomProjectionCurve.ptr(1, 100, l, deltaR, deltaT, deltaPtr, sT);
            // eps_T is the smallest epsilon at which the Gaussian test is deltaT-private
            assertTrue(GaussianMechanismCurve.delta(c.epsilonT(), sensitivity, sT) <= deltaT * (1 + 1e-9));
            assertTrue(c.epsilonT() > 1e-6 && GaussianMechanismCurve.delta(c.epsilonT() - 1e-6, sensitivity, sT) > deltaT,
                    "eps_T is not the smallest at sT=" + sT);
            assertEquals(1 - c.epsilonT(), c.epsilonR(), 1e-15);
            assertEquals(RandomProjectionCurve.leverageBound(c.epsilonR(), deltaR, 100), c.leverage(), 0);
            assertEquals(l * l / c.leverage(), c.ridge(), 1e-12 * c.ridge());
            double alpha = sT * NormalDistribution.of(0, 1).inverseSurvivalProbability(deltaPtr);
            assertEquals(alpha, c.alpha(), 1e-9 * alpha);
        }
        double third = 1e-6 / 3;
        assertMessage(() -> RandomProjectionCurve.ptr(1, 100, 1, third, third, third, 1), "increase sT");
    }

    @Test
    void rejectsInvalidArguments() {
        assertMessage(() -> RandomProjectionCurve.delta(-0.1, 0.1, 10), "epsilon=-0.1 is outside [0, inf)");
        assertMessage(() -> RandomProjectionCurve.delta(1, 1.5, 10), "leverage=1.5 is outside [0, 1]");
        assertMessage(() -> RandomProjectionCurve.delta(1, -0.5, 10), "leverage=-0.5");
        assertMessage(() -> RandomProjectionCurve.delta(1, 0.5, 0), "r=0 is outside [1,");
        assertMessage(() -> RandomProjectionCurve.deltaDerivative(1, 1, 10), "leverage=1.0 is outside [0, 1)");
        assertMessage(() -> RandomProjectionCurve.leverageBound(1, 0, 10), "delta=0.0 is outside (0, 1)");
        assertMessage(() -> RandomProjectionCurve.leverageBound(1, 1, 10), "delta=1.0 is outside (0, 1)");
        assertMessage(() -> RandomProjectionCurve.leverageBound(Double.NaN, 1e-5, 10), "epsilon=NaN");
        assertMessage(() -> RandomProjectionCurve.ridge(1, 1e-5, 10, 0), "rowBound=0.0 is outside (0, inf)");
        assertMessage(() -> RandomProjectionCurve.lsvRidge(0, 1e-5, 10, 1), "epsilon=0.0 is outside (0, inf)");
    }
}
