package org.dpgauss.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.special.Normal;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** The Poisson (spec ndis §6.3) and PTR (§6.4) wrappers. */
class WrappersTest {

    private static final CpuEngine CPU = CpuEngine.instance();

    /** Spec ndis §6.3 example [R] (docs/references/ndis-values.md §3.3): r=100, eps=1, delta=1e-6; q=0.1 and q=0.01. */
    @Test
    void poissonParametersMatchTheSpec() {
        PoissonSubsampledProjection p = poisson(100, 1, 1e-6, 0.1);
        assertEquals(2.90048, p.innerParameters().epsilon0(), 1e-5);
        assertEquals(1e-5, p.innerParameters().delta0(), 1e-18);
        assertEquals(0.0787987, p.inner().leverage(), 1e-6);
        assertEquals(12.691, p.inner().ridge(), 1e-3);
        assertEquals(7.0717, poisson(100, 1, 1e-6, 0.01).inner().ridge(), 1e-3);
        // spec §9.1 item 13: eps0 >= eps, delta0 = delta/q
        assertTrue(p.innerParameters().epsilon0() >= 1);
    }

    @Test
    void poissonRejectsRatesAtOrBelowDelta() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> poisson(10, 1, 1e-3, 1e-3));
        assertTrue(e.getMessage().contains("q=0.001"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> poisson(10, 1, 1e-3, 1.5));
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
        // that sizes vary with the right variance and every row is kept equally often: PoissonSamplingRandomnessTest
        assertEquals(100_000, PoissonSubsampledProjection.sample(x, 1.0, RandomSource.insecureSeeded(1)).rows());
    }

    /** An empty sample still releases sqrt(lambda) G2, and the Gram estimate is divided by q. */
    @Test
    void poissonReleaseOfAnEmptySampleAndScaling() {
        double[][] one = {{0.5, 0.5}};
        PoissonSubsampledProjection p = poisson(8, 1, 1e-6, 0.001);
        ProjectionRelease rel = p.release(RowBlockMatrix.of(one), CPU, RandomSource.insecureSeeded(5));
        assertEquals(0.001, rel.gramScale());
        assertEquals(2, rel.dimension());
        assertEquals(8, rel.rank());
        assertEquals(NeighbouringRelation.ADD_REMOVE, p.guarantee().relation());
        assertEquals(1.0, p.guarantee().approxDp().orElseThrow().epsilon());
        DMatrixRMaj m = rel.output();
        double ss = 0;
        for (int i = 0; i < m.getNumElements(); i++) {
            ss += m.get(i) * m.get(i);
        }
        // ||sqrt(lambda) G2||_F^2 / lambda ~ chi2_16: in (1, 60) with probability > 1 - 1e-9
        double chi = ss / p.inner().ridge();
        assertTrue(chi > 1 && chi < 60, "chi2_16 statistic " + chi);
        // an out-of-bound row is clipped, sampled or not (issue 24: never an error one neighbour triggers)
        assertEquals(2, p.release(RowBlockMatrix.of(new double[][] {{2, 0}}), CPU, RandomSource.insecureSeeded(5))
                .dimension());
    }

    /**
     * Spec ndis §6.4 table [R] (docs/references/ndis-values.md §3.4; r=100, eps=1, delta=1e-6 split in thirds,
     * l=1), with the discrete-noise slack.
     */
    @Test
    void ptrCalibrationMatchesTheSpecTable() {
        double[][] table = {{5, 0.88189, 279.47, 24.854, 267.79}, {10, 0.42145, 64.018, 49.708, 77.186},
            {20, 0.20191, 47.644, 99.417, 110.52}};
        for (double[] row : table) {
            PtrProjection p = ptr(100, 1, 1e-6, row[0]);
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
                () -> ptr(100, 1, 1e-6, 2));
        assertTrue(e.getMessage().contains("eps_T="), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PtrProjection.of(10, 1, 1, 0.5, 0.3, 0.3, 10, false));
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
        PtrProjection p = PtrProjection.of(10, 5, 1, 1e-6, 1e-6, 0.1, 3, false);
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
        PtrProjection p = ptr(50, 1, 1e-6, 10);
        ProjectionRelease rel = p.release(RowBlockMatrix.of(x), CPU, RandomSource.insecureSeeded(4));
        double lb = rel.lambdaLowerBound();
        assertTrue(lb > 1333.3 - 6 * 10 - p.alpha() - 1 && lb <= 1333.4, "lambda_lb " + lb);
        assertEquals(0.0, rel.ridge(), "lambda_lb exceeds l^2/p*: no ridge needed");
        assertTrue(rel.ridge() < RandomProjectionMechanism.of(50, ApproxDp.of(1, 1e-6), 1).ridge());

        double[][] thin = {{1, 0, 0}, {0, 1, 0}};
        ProjectionRelease rel2 = p.release(RowBlockMatrix.of(thin), CPU, RandomSource.insecureSeeded(4));
        assertEquals(p.targetRidge(), rel2.ridge(), 1e-12, "lambda_min = 0: the full ridge");
        assertEquals(1e-6, p.guarantee().approxDp().orElseThrow().delta(), 1e-20);
    }

    /**
     * The PTR guarantee is the accountant's composition of its three sub-steps (test, projection, failure of the
     * lower bound), and states exactly the (epsilon, delta) asked for, as before.
     */
    @Test
    void ptrGuaranteeIsComposedByTheAccountant() {
        for (double sT : new double[] {5, 10, 20}) {
            for (double[] ed : new double[][] {{1, 1e-6}, {0.9, 1e-5}, {3, 1e-7}}) {
                PtrProjection p = ptr(100, ed[0], ed[1], sT);
                PrivacyGuarantee g = p.guarantee();
                assertEquals(ed[0], g.approxDp().orElseThrow().epsilon(), "eps at sT=" + sT);
                assertEquals(ed[1], g.approxDp().orElseThrow().delta(), "delta at sT=" + sT);
                assertTrue(g.conversion().startsWith("basic composition of 3"), g.conversion());
                assertTrue(g.certified());
                assertTrue(p.epsilonT() + p.epsilonR() <= ed[0]);
            }
        }
        // an uneven split: delta_R + delta_T + delta_ptr never exceeds the budget's delta
        PtrProjection uneven = PtrProjection.builder().rank(20).budget(ApproxDp.of(1, 1e-6)).deltaSplit(1, 2, 7)
                .testNoise(10).rowBound(1).build();
        assertTrue(uneven.guarantee().approxDp().orElseThrow().delta() <= 1e-6);
        assertEquals(1e-6, uneven.delta(), 1e-21);
    }

    /** PTR releases its noised lower bound and the ridge it implies; both are released values, not parameters. */
    @Test
    void ptrReleaseCarriesTheLowerBoundAsAReleasedValue() {
        double[][] x = new double[300][3];
        for (int i = 0; i < 300; i++) {
            x[i][i % 3] = 1;
        }
        PtrProjection p = ptr(20, 1, 1e-6, 10);
        PrivateRelease r = Releases.run(p, Dataset.of(x), 1e-6, ReleaseContext.of(CPU, RandomSource.insecureSeeded(8)));
        assertEquals("projection.ptr", r.mechanism());
        assertEquals(java.util.List.of("projection", "lambdaLowerBound", "ridge"),
                new java.util.ArrayList<>(r.values().keySet()));
        assertFalse(r.parameters().has("ridge"));
        assertFalse(r.parameters().has("lambdaLowerBound"));
        assertEquals(p.targetRidge(), r.parameters().number("targetRidge"));
        ProjectionRelease v = ProjectionRelease.of(r);
        assertEquals(r.scalar("ridge"), v.ridge());
        assertEquals(Math.max(p.targetRidge() - r.scalar("lambdaLowerBound"), 0), v.ridge(), 1e-9);
        assertEquals("", r.failMeaning(), "PTR here never FAILs: a poor bound only means more ridge");
    }

    /** The Poisson release states its rate, and the Gram estimate read from the release is divided by it. */
    @Test
    void poissonReleaseStatesItsRate() {
        double[][] x = {{0.5, 0.5}, {0.1, 0}, {0, 0.2}};
        PoissonSubsampledProjection p = poisson(8, 1, 1e-6, 0.25);
        PrivateRelease r = Releases.run(p, Dataset.of(x), 1e-6, ReleaseContext.of(CPU, RandomSource.insecureSeeded(2)));
        assertEquals("projection.poisson", r.mechanism());
        assertEquals(0.25, r.parameters().number("samplingRate"));
        assertEquals(p.inner().ridge(), r.parameters().number("ridge"));
        assertEquals(0.25, ProjectionRelease.of(r).gramScale());
        assertTrue(r.guarantee().conversion().contains("Poisson subsampling"), r.guarantee().conversion());
        assertEquals(1e-6, r.guarantee().approxDp().orElseThrow().delta());
    }

    @Test
    void buildersRequireEveryParameter() {
        assertThrows(IllegalStateException.class, () -> PoissonSubsampledProjection.builder().rank(3)
                .budget(ApproxDp.of(1, 1e-6)).rowBound(1).build());
        assertThrows(IllegalStateException.class, () -> PtrProjection.builder().rank(3).budget(ApproxDp.of(1, 1e-6))
                .rowBound(1).build());
        assertThrows(IllegalArgumentException.class, () -> PtrProjection.builder().rank(3)
                .budget(ApproxDp.of(1, 1e-6)).testNoise(10).rowBound(1).deltaSplit(1, 0, 1).build());
    }

    static PoissonSubsampledProjection poisson(int r, double eps, double delta, double q) {
        return PoissonSubsampledProjection.builder().rank(r).budget(ApproxDp.of(eps, delta)).samplingRate(q)
                .rowBound(1).build();
    }

    static PtrProjection ptr(int r, double eps, double delta, double sT) {
        return PtrProjection.builder().rank(r).budget(ApproxDp.of(eps, delta)).testNoise(sT).rowBound(1).build();
    }
}
