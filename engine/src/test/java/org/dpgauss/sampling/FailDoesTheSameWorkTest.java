package org.dpgauss.sampling;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.testing.CountingEngine;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/**
 * Issue 14, finding 7: a PTR FAIL used to return before StableMean ran (when Score1 alone decided it), so the
 * latency revealed the test's outcome. A counting engine shows that a FAIL now runs the same primitives as a PASS:
 * StableCov and StableMean both reach the engine on both branches.
 */
class FailDoesTheSameWorkTest {

    /** Every pair difference is 0: Sigma^ singular, Score1 = k, FAIL with certainty before the old StableMean. */
    static RowBlockMatrix constant(int n) {
        RowBlockMatrix x = RowBlockMatrix.zeros(n, 3);
        for (int i = 0; i < n; i++) {
            x.setRow(i, new double[] {1, 2, 3});
        }
        return x;
    }

    @Test
    void samplerRunsStableMeanOnACertainFail() {
        UnboundedGaussianSampler s = UnboundedGaussianSampler.of(UnboundedGaussianSamplerTest.small());
        CountingEngine fail = new CountingEngine();
        UnboundedGaussianSampler.Trace tf = s.run(constant(1700), fail.engine, RandomSource.insecureSeeded(1));
        assertTrue(tf.release.isEmpty());
        assertEquals(s.parameters().k(), tf.score1, "Score1 alone decides this FAIL");
        assertTrue(tf.score2 >= 0, "StableMean ran on the FAIL branch");
        CountingEngine pass = new CountingEngine();
        RowBlockMatrix gaussian = GaussianTestData.correlated(1700, UnboundedGaussianSamplerTest.MU,
                UnboundedGaussianSamplerTest.L, new SplittableRandom(1));
        UnboundedGaussianSampler.Trace tp = s.run(gaussian, pass.engine, RandomSource.insecureSeeded(2));
        assertFalse(tp.release.isEmpty());
        assertStableMeanRanAlike(pass, fail);
    }

    /**
     * StableMean's primitives (the whitening and the reference distances) run as often on the FAIL branch as on the
     * PASS branch. (StableCov's peeling is data-dependent in length by nature: timing side channels in general are
     * outside the guarantee, and the guarantee's notes say so.)
     */
    static void assertStableMeanRanAlike(CountingEngine pass, CountingEngine fail) {
        for (String primitive : new String[] {"whiten", "largestReferenceDistances"}) {
            assertTrue(pass.calls.getOrDefault(primitive, 0) > 0, primitive + " on PASS: " + pass.calls);
            assertEquals(pass.calls.get(primitive), fail.calls.get(primitive), primitive + ": PASS " + pass.calls
                    + ", FAIL " + fail.calls);
        }
        assertEquals(pass.calls.get("cholesky"), fail.calls.get("cholesky"), "PASS " + pass.calls + ", FAIL "
                + fail.calls);
    }

    @Test
    void covarianceAwareMeanRunsStableMeanOnACertainFail() {
        CovarianceAwareMean m = CovarianceAwareMean.of(4000, 3, ApproxDp.of(1, 0.1), 0.05, Double.NaN, PtrMechanism.SOUND, true);
        CountingEngine fail = new CountingEngine();
        assertTrue(m.estimate(constant(4000), fail.engine, RandomSource.insecureSeeded(1)).isEmpty());
        CountingEngine pass = new CountingEngine();
        RowBlockMatrix gaussian = GaussianTestData.correlated(4000, UnboundedGaussianSamplerTest.MU,
                UnboundedGaussianSamplerTest.L, new SplittableRandom(3));
        assertFalse(m.estimate(gaussian, pass.engine, RandomSource.insecureSeeded(2)).isEmpty());
        assertStableMeanRanAlike(pass, fail);
    }

    @Test
    void theGuaranteeSaysTimingIsOutsideIt() {
        assertTrue(UnboundedGaussianSampler.of(UnboundedGaussianSamplerTest.small()).guarantee().notes()
                .contains("timing side channels in general are outside the guarantee"));
    }
}
