package org.dpgauss.calibration;

import static org.dpgauss.calibration.GaussianMechanismCurveTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;

/** The analytic Gaussian calibrator (spec ndis §7 items 2 and 3) and its zCDP view. */
class AnalyticGaussianCalibrationTest {

    @Test
    void sigmaIsTheSmallestFeasibleNoise() {
        for (double eps : new double[] {0, 0.01, 0.1, 1, 3, 10}) {
            for (double delta : new double[] {1e-12, 1e-6, 1e-3, 0.2}) {
                for (double sens : new double[] {0.5, 1, 7}) {
                    double s = AnalyticGaussian.sigma(eps, delta, sens);
                    assertTrue(AnalyticGaussian.delta(eps, s, sens) <= delta, "feasible");
                    assertTrue(AnalyticGaussian.delta(eps, s * (1 - 1e-10), sens) > delta, "tight to 1e-10");
                }
            }
        }
    }

    @Test
    void sigmaScalesLinearlyWithSensitivity() {
        double s1 = AnalyticGaussian.sigma(0.7, 1e-7, 1);
        assertEquals(3 * s1, AnalyticGaussian.sigma(0.7, 1e-7, 3), 1e-11 * s1);
    }

    @Test
    void epsilonAndSigmaAreInverse() {
        double s = AnalyticGaussian.sigma(1.3, 1e-8, 2);
        assertEquals(1.3, AnalyticGaussian.epsilon(s, 1e-8, 2), 1e-9);
    }

    @Test
    void classicalCalibrationIsMoreConservativeAndOnlyBelowEpsilonOne() {
        for (double eps : new double[] {0.01, 0.3, 0.99}) {
            double classical = AnalyticGaussian.classicalSigma(eps, 1e-5, 1);
            assertEquals(Math.sqrt(2 * Math.log(1.25 / 1e-5)) / eps, classical, 1e-14 * classical);
            assertTrue(classical >= AnalyticGaussian.sigma(eps, 1e-5, 1));
            assertTrue(AnalyticGaussian.delta(eps, classical, 1) <= 1e-5);
        }
        assertMessage(() -> AnalyticGaussian.classicalSigma(1, 1e-5, 1), "only proved for 0 < epsilon < 1");
        assertMessage(() -> AnalyticGaussian.classicalSigma(0, 1e-5, 1), "epsilon=0.0");
    }

    @Test
    void zcdpViewDelegatesToZcdp() {
        assertEquals(0.125, AnalyticGaussian.rho(2, 1), 0);
        double s = AnalyticGaussian.sigmaForRho(0.5, 3);
        assertEquals(3, s, 1e-15);
        assertTrue(AnalyticGaussian.rho(s, 3) <= 0.5);
        // For one release the analytic calibration beats the zCDP conversion at the same (eps, delta).
        double viaZcdp = Zcdp.forApproxDp(1, 1e-6).sigmaFor(1);
        assertTrue(AnalyticGaussian.sigma(1, 1e-6, 1) < viaZcdp);
    }

    @Test
    void rejectsInvalidArguments() {
        assertMessage(() -> AnalyticGaussian.sigma(-1, 1e-5, 1), "epsilon=-1.0 is outside [0, inf)");
        assertMessage(() -> AnalyticGaussian.sigma(Double.POSITIVE_INFINITY, 1e-5, 1), "epsilon=Infinity");
        assertMessage(() -> AnalyticGaussian.sigma(1, 0, 1), "delta=0.0 is outside (0, 1)");
        assertMessage(() -> AnalyticGaussian.sigma(1, 1e-5, 0), "sensitivity=0.0 is outside (0, inf)");
        assertMessage(() -> AnalyticGaussian.epsilon(0, 1e-5, 1), "sigma=0.0 is outside (0, inf)");
    }
}
