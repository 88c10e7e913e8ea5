package org.dpgauss.sampling;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.Optional;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/** The covariance-aware mean estimator (spec §3.8) and the known-covariance sketch (spec §3.9). */
class CovarianceAwareMeanTest {

    private static final double[] MU = UnboundedGaussianSamplerTest.MU;
    private static final double[][] L = UnboundedGaussianSamplerTest.L;

    /** The certified n is the smallest n meeting the four conditions of the class comment. */
    @Test
    void certifiedSizeIsMinimalAndDominatedByStability() {
        long need = CovarianceAwareMean.requiredRows(2, 1, 0.1, 0.05, Double.NaN, PtrMechanism.SOUND);
        assertTrue(CovarianceAwareMean.certifiable(need, 2, 1, 0.1, 0.05, Double.NaN, PtrMechanism.SOUND));
        assertFalse(CovarianceAwareMean.certifiable(need - 1, 2, 1, 0.1, 0.05, Double.NaN, PtrMechanism.SOUND));
        double lambda0 = SamplerParameters.lambda0(need, 2, 0.05);
        int k = SamplerParameters.k(PtrMechanism.SOUND, 1, 0.1);
        // floor(n/2) >= 16 e^2 lambda0 k is the binding condition: n is about twice it
        assertEquals(2 * 16 * SamplerParameters.E2 * lambda0 * k, need, 3);
        // at that n the release terms hold with room to spare
        double gamma = 8 * SamplerParameters.E2 * lambda0 / (need / 2);
        assertTrue(GaussianMechanismCurve.delta(1.0 / 3, CovarianceAwareMean.meanShift(need, 1, 0.1, lambda0, gamma))
                < 0.1 / 6 / 100);
        // an explicit lambda0 is honoured
        long needSmall = CovarianceAwareMean.requiredRows(2, 1, 0.1, 0.05, 10, PtrMechanism.SOUND);
        assertTrue(needSmall < need / 10, needSmall + " vs " + need);
        assertThrows(IllegalArgumentException.class,
                () -> CovarianceAwareMean.requiredRows(2, 1, 0.1, 0.05, Double.NaN, PtrMechanism.BHS23_AS_PUBLISHED));
    }

    @Test
    void failsBeforeDataBelowTheCertifiedSizeUnlessAskedToRunUncertified() {
        InsufficientSampleSizeException e = assertThrows(InsufficientSampleSizeException.class,
                () -> CovarianceAwareMean.of(4000, 3, ApproxDp.of(1, 0.1), 0.05, Double.NaN, PtrMechanism.SOUND, false));
        assertTrue(e.getMessage().contains("n=4000") && e.getMessage().contains("--uncertified"), e.getMessage());
        assertEquals(CovarianceAwareMean.requiredRows(3, 1, 0.1, 0.05, Double.NaN, PtrMechanism.SOUND),
                e.requiredRows());
        // n below M cannot run at all
        assertThrows(IllegalArgumentException.class,
                () -> CovarianceAwareMean.of(300, 3, ApproxDp.of(1, 0.1), 0.05, Double.NaN, PtrMechanism.SOUND, true));
        assertThrows(IllegalArgumentException.class,
                () -> CovarianceAwareMean.of(4000, 3, ApproxDp.of(1, 0.1), 0.05, 0.5, PtrMechanism.SOUND, true));
    }

    /**
     * An uncertified run on Gaussian data: PASS, labelled uncertified, and mu~ - mu^ ~ N(0, c^2 Sigma^) given the
     * data, so {@code ||mu~ - mean||^2_Sigma / c^2} is about chi2_3 (plus the difference between Sigma^ and Sigma
     * and mu^ and the sample mean, both small here); the bound 45 fails with probability below 1e-8.
     */
    @Test
    void uncertifiedRunOnGaussianDataIsAccurateAndLabelled() {
        CovarianceAwareMean m = CovarianceAwareMean.of(4000, 3, ApproxDp.of(1, 0.1), 0.05, Double.NaN, PtrMechanism.SOUND, true);
        RowBlockMatrix x = GaussianTestData.correlated(4000, MU, L, new SplittableRandom(21));
        Optional<double[]> r = m.estimate(x, UnboundedGaussianSamplerTest.CPU, RandomSource.insecureSeeded(22));
        assertFalse(r.isEmpty());
        PrivacyGuarantee g = m.guarantee();
        assertEquals(NeighbouringRelation.REPLACE_ONE, g.relation());
        assertFalse(g.certified());
        assertTrue(g.notes().contains("--uncertified"), g.notes());
        double[] sampleMean = x.columnMeans();
        double[] u = SamplingTestData.whiten(r.orElseThrow(), sampleMean, L);
        double sq = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        double c = m.noiseScale();
        assertTrue(sq / (c * c) < 45, "||mu~ - mean||^2_Sigma / c^2 = " + sq / (c * c));
        assertEquals(CovarianceAwareMean.noiseScaleSquared(4000, 1, 0.1, m.lambda0()), c * c, 1e-15);
        // singular data: Score1 = k, FAIL with certainty
        RowBlockMatrix constant = RowBlockMatrix.zeros(4000, 3);
        assertTrue(m.estimate(constant, UnboundedGaussianSamplerTest.CPU, RandomSource.insecureSeeded(1)).isEmpty());
        // the BHS23 PTR is never certified
        CovarianceAwareMean b = CovarianceAwareMean.of(4000, 3, ApproxDp.of(1, 0.1), 0.05, Double.NaN,
                PtrMechanism.BHS23_AS_PUBLISHED, true);
        assertTrue(b.guarantee().notes().contains("NOT differentially private"));
        assertFalse(b.guarantee().certified());
    }

    /** The known-covariance sketch: always uncertified, fails before data below its size, accurate otherwise. */
    @Test
    void knownCovarianceSketch() {
        DMatrixRMaj sigma = new DMatrixRMaj(3, 3);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int k = 0; k < 3; k++) {
                    s += L[i][k] * L[j][k];
                }
                sigma.set(i, j, s);
            }
        }
        long need = KnownCovarianceSampler.requiredRows(3, 1, 0.1, 0.05, PtrMechanism.SOUND);
        // bounded by 32 e^2 k (k = 31) and M, far below the sampler's certified n
        assertTrue(need >= 32 * SamplerParameters.E2 * 31 && need < 8000, "need " + need);
        InsufficientSampleSizeException e = assertThrows(InsufficientSampleSizeException.class,
                () -> KnownCovarianceSampler.of((int) need - 1, 3, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND, sigma));
        assertEquals(need, e.requiredRows());
        KnownCovarianceSampler s = KnownCovarianceSampler.of((int) need, 3, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND, sigma);
        RowBlockMatrix x = GaussianTestData.correlated((int) need, MU, L, new SplittableRandom(31));
        Optional<double[]> r = s.sample(x, UnboundedGaussianSamplerTest.CPU, RandomSource.secure());
        assertFalse(r.isEmpty());
        assertFalse(s.guarantee().certified());
        assertTrue(s.guarantee().notes().contains("sketch"), s.guarantee().notes());
        // Z ~ N(mu, Sigma) (exactly, over data and noise): ||L^{-1}(Z - mu)||^2 ~ chi2_3, above 45 w.p. < 1e-9
        double[] u = SamplingTestData.whiten(r.orElseThrow(), MU, L);
        assertTrue(u[0] * u[0] + u[1] * u[1] + u[2] * u[2] < 45);
        DMatrixRMaj singular = new DMatrixRMaj(3, 3);
        singular.set(0, 0, 1);
        assertThrows(IllegalArgumentException.class,
                () -> KnownCovarianceSampler.of((int) need, 3, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND, singular));
        assertThrows(IllegalArgumentException.class, () -> KnownCovarianceSampler.of((int) need, 2, ApproxDp.of(1, 0.1), 0.05,
                PtrMechanism.SOUND, sigma));
    }
}
