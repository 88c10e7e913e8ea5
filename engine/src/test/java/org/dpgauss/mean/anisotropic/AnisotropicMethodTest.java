package org.dpgauss.mean.anisotropic;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The CLI-facing method selector: M and lambda per spec §3.2. */
class AnisotropicMethodTest {

    @Test
    void methodsPickMAndLambdaOfSpecSection32() {
        double[] spec = AnisotropicTestData.polynomialSpectrum(12);
        ShapeMatrix sigma = ShapeMatrix.diagonal(spec);
        RescaledAveraging a = AnisotropicMethod.ANISOTROPIC.estimator(sigma, 500, 0.01, ApproxDp.of(1.0, 1e-6));
        RescaledAveraging f = AnisotropicMethod.FOLKLORE.estimator(sigma, 500, 0.01, ApproxDp.of(1.0, 1e-6));
        assertSame(sigma, a.shape());
        assertEquals(LambdaRule.knownCovariance(sigma, 500, 0.01), a.lambda());
        assertTrue(f.shape().isIdentity());
        assertEquals(LambdaRule.folklore(sigma.tracePower(1), 1.0, 500, 0.01), f.lambda());
        assertEquals(Calibration.PROVABLE, a.calibration());
    }

    @Test
    void parsesIdsAndRejectsOthers() {
        assertSame(AnisotropicMethod.FOLKLORE, AnisotropicMethod.fromId(" Folklore"));
        assertSame(AnisotropicMethod.ANISOTROPIC, AnisotropicMethod.fromId("anisotropic"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AnisotropicMethod.fromId("clipped"));
        assertTrue(e.getMessage().contains("method=clipped") && e.getMessage().contains("anisotropic, folklore"),
                e.getMessage());
    }
}
