package org.dpgauss.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.calibration.GaussianMechanismCurve;
import org.junit.jupiter.api.Test;

class DiscreteGaussianPrivacyTest {

    /**
     * Reference values of CKS20 Thm. 7 at shift c = Delta, P[X > a] - e^eps P[X > a + Delta] with
     * a = eps sigma^2/Delta - Delta/2, from direct tail sums in mpmath at 40 digits (|y| <= 40 sigma + Delta + 10).
     */
    @Test
    void matchesTheorem7TailSums() {
        assertEquals(0.20398281376343895, DiscreteGaussianPrivacy.delta(0.5, 1, 1.0), 1e-12);
        assertEquals(0.20028259930737607, DiscreteGaussianPrivacy.delta(1.0, 1, 0.7), 1e-12);
        assertEquals(0.19947114020071634, DiscreteGaussianPrivacy.delta(0.0, 1, 2.0), 1e-12);
        assertEquals(0.20450923544652709, DiscreteGaussianPrivacy.delta(1.0, 3, 2.5), 1e-12);
        assertEquals(4.4347693457584975e-5, DiscreteGaussianPrivacy.delta(0.3, 10, 100.0), 1e-15);
    }

    @Test
    void isCloseToButNotTheContinuousCurve() {
        // small sigma: the discrete mechanism can be worse than the continuous one at the same parameters
        assertTrue(DiscreteGaussianPrivacy.delta(1.0, 3, 2.5) > GaussianMechanismCurve.delta(1.0, 3 / 2.5));
        // large sigma: within 1e-3 relative
        double d = DiscreteGaussianPrivacy.delta(0.3, 10, 100.0);
        assertEquals(GaussianMechanismCurve.delta(0.3, 0.1), d, 1e-3 * d);
    }

    @Test
    void invalidArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussianPrivacy.delta(-1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussianPrivacy.delta(1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussianPrivacy.delta(1, 1, Double.NaN));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DiscreteGaussianPrivacy.delta(1, 1000, 1e6));
        assertTrue(e.getMessage().contains("zCDP"), e.getMessage());
    }
}
