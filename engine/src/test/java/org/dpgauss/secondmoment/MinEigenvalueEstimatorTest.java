package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.Release;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/** Algorithm 4 (spec §2.5): buckets, accuracy P9, FAIL and the guarantee. */
class MinEigenvalueEstimatorTest {

    private static final ComputeEngine CPU = CpuEngine.instance();

    @Test
    void bucketsAreGeometricWithRatioOneOverOneMinusAlpha() {
        MinEigenvalueEstimator e = MinEigenvalueEstimator.of(10, 0.5, 1, 1e-6);
        assertEquals(2.0, e.ratio());
        assertEquals(0, e.bucket(1.0));
        assertEquals(0, e.bucket(1.999));
        assertEquals(1, e.bucket(2.0));
        assertEquals(-1, e.bucket(0.5));
        assertEquals(-2, e.bucket(0.49));
        assertEquals(MinEigenvalueEstimator.ZERO_BUCKET, e.bucket(0.0));
        assertEquals(MinEigenvalueEstimator.ZERO_BUCKET, e.bucket(-1e-3));
        assertEquals(0.25, e.lowerEdge(-2));
        assertEquals(0.0, e.lowerEdge(MinEigenvalueEstimator.ZERO_BUCKET));
        MinEigenvalueEstimator f = MinEigenvalueEstimator.of(10, 0.25, 1, 1e-6);
        for (double lambda : new double[] {1e-9, 3e-4, 0.7, 1, 4.0 / 3, 1e5}) {
            long j = f.bucket(lambda);
            assertTrue(f.lowerEdge(j) <= lambda && lambda < f.lowerEdge(j + 1), "bucket of " + lambda);
        }
    }

    /**
     * P9 on Gaussian data with lambda_min = 1e-2 (d = 3, n = 20000, groups of m = 100, 200 groups, eps = 1): group
     * minimum eigenvalues lie in about [0.68, 1.4] lambda_min, so at most two buckets hold them and the released
     * lower edge is in [(1-alpha)^2, 1+alpha] lambda_min. Failure probability per run below 1e-6 (Wishart extreme
     * eigenvalue concentration; FAIL needs a Laplace(2) draw below -70); 10 seeds.
     */
    @Test
    void estimateIsWithinTheP9Interval() {
        RowBlockMatrix x = GaussianTestData.centred(20_000, new double[] {1, 0.1, 0.01}, 17);
        double lambdaMin = SpectralMetrics.eigenvalues(SpectralMetrics.secondMoment(x, CPU))[0];
        MinEigenvalueEstimator est = MinEigenvalueEstimator.of(100, 0.5, 1.0, 1e-6);
        for (long seed = 0; seed < 10; seed++) {
            double l = est.estimate(x, RandomSource.insecureSeeded(seed), CPU);
            assertTrue(l >= 0.25 * lambdaMin && l <= 1.5 * lambdaMin, "lambda~=" + l + " vs lambda_min=" + lambdaMin);
        }
    }

    /** Two groups cannot pass the threshold 1 + 2 ln(1/delta)/eps ~ 28.6: FAIL (probability of PASS < 1e-5). */
    @Test
    void tooFewGroupsFail() {
        RowBlockMatrix x = GaussianTestData.centred(10, new double[] {1, 1}, 3);
        double l = MinEigenvalueEstimator.of(5, 0.5, 1.0, 1e-6).estimate(x, RandomSource.insecureSeeded(1), CPU);
        assertTrue(Double.isNaN(l));
    }

    @Test
    void guaranteeAndValidation() {
        MinEigenvalueEstimator est = MinEigenvalueEstimator.of(50, 0.5, 0.3, 1e-7);
        Release g = est.step("alg4");
        assertEquals(NeighbouringRelation.REPLACE_ONE, g.relation());
        assertEquals(Release.Kind.APPROX_DP, g.kind());
        assertEquals(0.3, g.approxDp().epsilon());
        assertEquals(1e-7, g.approxDp().delta());
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(0, 0.5, 1, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(5, 0.7, 1, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(5, 0.5, 0, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(5, 0.5, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> MinEigenvalueEstimator.of(50, 0.5, 1, 1e-6)
                .estimate(GaussianTestData.centred(10, new double[] {1}, 1), RandomSource.insecureSeeded(1), CPU));
    }
}
