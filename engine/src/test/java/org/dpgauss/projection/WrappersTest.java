package org.dpgauss.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.special.Normal;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** The Poisson (spec ndis §6.3) and PTR (§6.4) wrappers. */
class WrappersTest {

    private static final CpuEngine CPU = CpuEngine.instance();

    /** Spec §6.3 example [R]: r=100, eps=1, delta=1e-6; q=0.1 and q=0.01. */
    @Test
    void poissonParametersMatchTheSpec() {
        PoissonSubsampledProjection p = PoissonSubsampledProjection.of(100, 1, 1e-6, 0.1, 1);
        assertEquals(2.90048, p.innerParameters().epsilon0(), 1e-5);
        assertEquals(1e-5, p.innerParameters().delta0(), 1e-18);
        assertEquals(0.0787987, p.inner().leverage(), 1e-6);
        assertEquals(12.691, p.inner().ridge(), 1e-3);
        assertEquals(7.0717, PoissonSubsampledProjection.of(100, 1, 1e-6, 0.01, 1).inner().ridge(), 1e-3);
        // spec §9.1 item 13: eps0 >= eps, delta0 = delta/q
        assertTrue(p.innerParameters().epsilon0() >= 1);
    }

    @Test
    void poissonRejectsRatesAtOrBelowDelta() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PoissonSubsampledProjection.of(10, 1, 1e-3, 1e-3, 1));
        assertTrue(e.getMessage().contains("q=0.001"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PoissonSubsampledProjection.of(10, 1, 1e-3, 1.5, 1));
    }

    /**
     * True Poisson sampling: the sample size of n = 100000 rows at q = 0.1 is Binomial(n, q) (q exactly
     * representable: floor(q 2^53)/2^53 = q up to 1e-17); within 5 sd = 474 rows of nq. Failure probability
     * 6e-7. A fixed-size or q-ignoring sampler fails it.
     */
    @Test
    void poissonSampleSizeIsBinomial() {
        RowBlockMatrix x = RowBlockMatrix.zeros(100_000, 1);
        RowBlockMatrix s = PoissonSubsampledProjection.sample(x, 0.1, RandomSource.insecureSeeded(99));
        assertEquals(10_000, s.rows(), 5 * Math.sqrt(100_000 * 0.1 * 0.9));
        RowBlockMatrix t = PoissonSubsampledProjection.sample(x, 0.1, RandomSource.insecureSeeded(100));
        assertTrue(s.rows() != t.rows() || s.rows() == 10_000); // sizes vary between runs
        assertEquals(100_000, PoissonSubsampledProjection.sample(x, 1.0, RandomSource.insecureSeeded(1)).rows());
    }

    /** An empty sample still releases sqrt(lambda) G2, and the Gram estimate is divided by q. */
    @Test
    void poissonReleaseOfAnEmptySampleAndScaling() {
        double[][] one = {{0.5, 0.5}};
        PoissonSubsampledProjection p = PoissonSubsampledProjection.of(8, 1, 1e-6, 0.001, 1);
        ProjectionRelease rel = p.release(RowBlockMatrix.of(one), CPU, RandomSource.insecureSeeded(5));
        assertEquals(0.001, rel.gramScale());
        assertEquals(2, rel.dimension());
        assertEquals(8, rel.rank());
        assertEquals(NeighbouringRelation.ADD_REMOVE, rel.guarantee().relation());
        assertEquals(1.0, rel.guarantee().approxDp().orElseThrow().epsilon());
        DMatrixRMaj m = rel.output();
        double ss = 0;
        for (int i = 0; i < m.getNumElements(); i++) {
            ss += m.get(i) * m.get(i);
        }
        // ||sqrt(lambda) G2||_F^2 / lambda ~ chi2_16: in (1, 60) with probability > 1 - 1e-9
        double chi = ss / p.inner().ridge();
        assertTrue(chi > 1 && chi < 60, "chi2_16 statistic " + chi);
        assertThrows(IllegalArgumentException.class, () -> p.release(RowBlockMatrix.of(new double[][] {{2, 0}}), CPU,
                RandomSource.insecureSeeded(5)), "out-of-bound rows are rejected even when not sampled");
    }

    /** Spec §6.4 table [R] (r=100, eps=1, delta=1e-6 split in thirds, l=1), with the discrete-noise slack. */
    @Test
    void ptrCalibrationMatchesTheSpecTable() {
        double[][] table = {{5, 0.88189, 279.47, 24.854, 267.79}, {10, 0.42145, 64.018, 49.708, 77.186},
            {20, 0.20191, 47.644, 99.417, 110.52}};
        for (double[] row : table) {
            PtrProjection p = PtrProjection.equalSplit(100, 1, 1e-6, 1, row[0]);
            assertEquals(row[1], p.epsilonT(), 2e-4 * row[1], "eps_T at sT=" + row[0]);
            assertTrue(p.epsilonT() >= RandomProjectionCurve.ptrTestEpsilon(1e-6 / 3, row[0], 1) - 1e-12,
                    "discrete eps_T is never below the continuous one");
            assertEquals(row[2], p.targetRidge(), 2e-3 * row[2], "l^2/p* at sT=" + row[0]);
            assertEquals(row[3], p.alpha(), 1e-4 * row[3], "alpha at sT=" + row[0]);
            assertTrue(p.alpha() >= row[0] * Normal.inverseSf(1e-6 / 3));
            assertEquals(row[4], p.propositionFiveThreshold(), 2e-3 * row[4]);
            assertEquals(1e-6, p.delta(), 1e-20);
        }
    }

    @Test
    void ptrRejectsSplitsWhereTheTestExceedsTheBudget() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PtrProjection.equalSplit(100, 1, 1e-6, 1, 2));
        assertTrue(e.getMessage().contains("eps_T="), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PtrProjection.of(10, 1, 1, 0.5, 0.3, 0.3, 10));
    }

    /** The discrete hockey-stick bound is >= the continuous curve and only slightly above it. */
    @Test
    void discreteTestBoundIsCloseToTheContinuousCurve() {
        long s = 1_310_720;
        long c = 131_073;
        for (double eps : new double[] {0.2, 0.4, 0.8}) {
            double cont = GaussianMechanismCurve.delta(eps, (double) c / s);
            double disc = PtrProjection.discreteDelta(eps, c, s);
            assertTrue(disc >= cont);
            assertTrue(disc <= cont * (1 + 1e-3) + 1e-12, eps + ": " + disc + " vs " + cont);
        }
        assertTrue(PtrProjection.discreteTail(PtrProjection.marginIndex(1e-3, s), s) <= 1e-3);
        assertTrue(PtrProjection.discreteTail(PtrProjection.marginIndex(1e-3, s) - 2, s) > 1e-3, "smallest k");
    }

    /**
     * The private lower bound exceeds lambda_min with probability about delta_ptr. delta_ptr = 0.1, 3000 draws:
     * the count of failures is Binomial(3000, <= 0.1); accepted range [200, 380] = 300 -+ 5.5 sd (failure
     * probability < 1e-7). A margin without the +g rounding allowance or an ignored alpha fails the upper end,
     * a doubled margin the lower end.
     */
    @Test
    void lowerBoundFailsWithProbabilityDeltaPtr() {
        PtrProjection p = PtrProjection.of(10, 5, 1, 1e-6, 1e-6, 0.1, 3);
        SecureGaussianSampler sampler = SecureGaussianSampler.using(RandomSource.insecureSeeded(7));
        double lambdaMin = 123.456;
        int above = 0;
        for (int i = 0; i < 3000; i++) {
            if (p.lowerBound(lambdaMin, sampler) > lambdaMin) {
                above++;
            }
        }
        assertTrue(above >= 200 && above <= 380, "failures " + above);
    }

    /** With a large lambda_min the PTR ridge falls below the M_RP ridge and still meets the target. */
    @Test
    void ptrReleaseShrinksTheRidgeOnWellConditionedData() {
        int n = 4000;
        int d = 3;
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            x[i][i % d] = 1; // D^T D = (n/3) I, lambda_min = 1333.3
        }
        PtrProjection p = PtrProjection.equalSplit(50, 1, 1e-6, 1, 10);
        ProjectionRelease rel = p.release(RowBlockMatrix.of(x), CPU, RandomSource.insecureSeeded(4));
        double lb = (Double) rel.details().get("lambda_lb");
        assertTrue(lb > 1333.3 - 6 * 10 - p.alpha() - 1 && lb <= 1333.4, "lambda_lb " + lb);
        assertEquals(0.0, rel.ridge(), "lambda_lb exceeds l^2/p*: no ridge needed");
        assertTrue(rel.ridge() < RandomProjectionMechanism.of(50, 1, 1e-6, 1).ridge());

        double[][] thin = {{1, 0, 0}, {0, 1, 0}};
        ProjectionRelease rel2 = p.release(RowBlockMatrix.of(thin), CPU, RandomSource.insecureSeeded(4));
        assertEquals(p.targetRidge(), rel2.ridge(), 1e-12, "lambda_min = 0: the full ridge");
        assertEquals(1e-6, rel2.guarantee().approxDp().orElseThrow().delta(), 1e-20);
    }
}
