package org.dpgauss.secondmoment;

import static org.dpgauss.secondmoment.BaselineTestData.CPU;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

class SubsampleAndAggregateTest {

    @Test
    void maskScaleAndPrivacySampleSizeMatchSpecSection41() {
        // Spec §4.1 (docs/references/second-moment-values.md §2): C_abs = 2, eps = 1, delta = 1e-6, xi = 0.1, alpha = 1/2: eta = 4.37e-4 (d=100), 1.55e-4
        // (d=1000); the privacy condition needs n/m >= 8.4e8 (d=100) and 7.5e9 (d=1000; the exact value is 7.447e9,
        // the spec rounds it up).
        SubsampleAndAggregate s = sa(1, 0.5, 0.1, 1, 1e-6).build();
        assertEquals(4.369e-4, s.maskScale(100), 1e-7);
        assertEquals(1.55e-4, s.maskScale(1000), 1e-6);
        assertEquals(8.4e8, s.minimumRowsForPrivacy(100), 0.05e8);
        assertEquals(7.447e9, s.minimumRowsForPrivacy(1000), 0.001e9);
        assertEquals(1000 * s.minimumRowsForPrivacy(100),
                sa(1000, 0.5, 0.1, 1, 1e-6).build().minimumRowsForPrivacy(100), 1e-3);
        assertFalse(s.privacyConditionHolds(100_000, 100));
        assertEquals(2.0, s.finalGuarantee().epsilon(), 0.0);
        assertEquals(4 * Math.E * 1e-6, s.finalGuarantee().delta(), 1e-18);
    }

    @Test
    void refusesWhenThePrivacyConditionFailsUnlessUncertifiedRunsAreAllowed() {
        RowBlockMatrix x = GaussianTestData.centred(2000, new double[] {1, 1}, 3);
        SubsampleAndAggregate s = sa(100, 0.5, 0.1, 1, 1e-6).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SecondMomentEstimate.run(s, x, RandomSource.insecureSeeded(1), CPU));
        assertTrue(e.getMessage().contains("n=2000") && e.getMessage().contains("Thm A.6"), e.getMessage());
        // n = 20000, m = 100, d = 2, eps = 5: T = 200 groups that all agree (pair dists ~0.3 << 2), Q = 1 and the
        // truncated Laplace (support +-0.036) cannot reach the threshold 0.836: PASS with certainty, yet uncertified.
        RowBlockMatrix big = GaussianTestData.centred(20_000, new double[] {1, 1}, 3);
        SecondMomentEstimate o = SecondMomentEstimate.run(sa(100, 0.5, 0.1, 5, 1e-6).allowUncertified(true).build(),
                big, RandomSource.secure(), CPU);
        assertTrue(o.passed());
        assertFalse(o.certified());
        assertFalse(o.guarantee().certified());
        assertTrue(o.guarantee().notes().contains("NOT DP-certified"), o.guarantee().notes());
    }

    @Test
    void rejectsInvalidParameters() {
        assertThrows(IllegalArgumentException.class, () -> sa(0, 0.5, 0.1, 1, 1e-6).build());
        assertThrows(IllegalArgumentException.class, () -> sa(10, 0.6, 0.1, 1, 1e-6).build());
        assertThrows(IllegalArgumentException.class, () -> sa(10, 0, 0.1, 1, 1e-6).build());
        assertThrows(IllegalArgumentException.class, () -> sa(10, 0.5, 1, 1, 1e-6).build());
        assertThrows(IllegalArgumentException.class, () -> sa(10, 0.5, 0.1, 0, 1e-6).build());
        assertThrows(IllegalArgumentException.class, () -> sa(10, 0.5, 0.1, 1, 0.2).build());
        assertThrows(IllegalArgumentException.class, () -> sa(10, 0.5, 0.1, 1, 1e-6).cAbs(-1).build());
        RowBlockMatrix small = GaussianTestData.centred(5, new double[] {1, 1}, 3);
        assertThrows(IllegalArgumentException.class, () -> SecondMomentEstimate.run(sa(10, 0.5, 0.1, 1, 1e-6)
                .allowUncertified(true).build(), small, RandomSource.insecureSeeded(1), CPU));
        IllegalStateException noBudget = assertThrows(IllegalStateException.class,
                () -> SubsampleAndAggregate.builder().groupSize(10).build());
        assertTrue(noBudget.getMessage().contains("stepBudget"), noBudget.getMessage());
    }

    @Test
    void distOfDiagonalPairsAndSingularInputs() {
        DMatrixRMaj a = CommonOps_DDRM.identity(2);
        DMatrixRMaj b = CommonOps_DDRM.diag(2, 0.5);
        // mu = {0.5, 2}: max(|0.5-1|, |2-1|, |1/0.5-1|, |1/2-1|) = 1
        assertEquals(1.0, SpectralMetrics.dist(a, b), 1e-12);
        assertEquals(1.0, SpectralMetrics.dist(b, a), 1e-12);
        assertEquals(0.0, SpectralMetrics.dist(b, b), 1e-12);
        DMatrixRMaj singular = CommonOps_DDRM.diag(1, 0);
        assertEquals(Double.POSITIVE_INFINITY, SpectralMetrics.dist(a, singular));
        assertEquals(Double.POSITIVE_INFINITY, SpectralMetrics.dist(singular, a));
        assertFalse(SubsampleAndAggregate.withinDist(singular, singular, 1.0, CPU));
    }

    @Test
    void loewnerTestAgreesWithTheGeneralizedEigenvalueDistance() {
        // Random PD pairs; pairs within 1e-6 of the threshold (in relative terms) are skipped as ambiguous in FP.
        SplittableRandom g = new SplittableRandom(7);
        int agreeIn = 0;
        int agreeOut = 0;
        for (int trial = 0; trial < 300; trial++) {
            int d = 2 + g.nextInt(5);
            DMatrixRMaj a = randomPd(g, d, 1.0);
            DMatrixRMaj b = randomPd(g, d, 1.0 + g.nextDouble());
            CommonOps_DDRM.add(1 - 0.3 * g.nextDouble(), a, 0.2 * g.nextDouble(), b, b); // near a, at varied distances
            double dist = SpectralMetrics.dist(a, b);
            double tau = dist * (0.5 + g.nextDouble()); // half the pairs within, half outside
            if (Math.abs(dist - tau) < 1e-6 * tau) {
                continue;
            }
            boolean within = SubsampleAndAggregate.withinDist(a, b, tau, CPU);
            assertEquals(dist <= tau, within, "dist " + dist + " tau " + tau);
            if (within) {
                agreeIn++;
            } else {
                agreeOut++;
            }
        }
        assertTrue(agreeIn > 20 && agreeOut > 20, agreeIn + " / " + agreeOut); // both outcomes exercised
    }

    @Test
    void truncatedLaplaceStaysInItsSupportWithTheRightMeanMagnitude() {
        // b = 0.5, A = 1: E|z| = b - A e^{-A/b}/(1 - e^{-A/b}) = 0.5 - e^-2/(1 - e^-2) = 0.34348. 20000 draws: the
        // sample mean of |z| (sd of |z| about 0.27) has standard error 0.0019; a 0.01 window is 5 standard errors
        // (failure probability below 1e-6). The sign is fair: the mean of z has the same standard error scale.
        RandomSource r = RandomSource.insecureSeeded(9);
        double sumAbs = 0;
        double sum = 0;
        for (int i = 0; i < 20000; i++) {
            double z = SubsampleAndAggregate.truncatedLaplace(1.0, 2.0, 1.0, r);
            assertTrue(Math.abs(z) <= 1.0);
            sumAbs += Math.abs(z);
            sum += z;
        }
        assertEquals(0.5 - Math.exp(-2) / (1 - Math.exp(-2)), sumAbs / 20000, 0.01);
        assertEquals(0, sum / 20000, 0.02);
    }

    @Test
    void passesAndIsAccurateOnWellBehavedData() {
        // Property P8 (Thm A.6) in a regime where it is deterministic up to negligible probabilities: n = 40000,
        // d = 3, m = 400 (T = 100 groups). Each group estimate is within dist ~0.3 of Sigma, so every pair is within
        // 2 alpha/(1-alpha) = 2, all q_t = 1, Q = 1, and Q~ >= 1 - A = 0.928 > 0.8 + A = 0.872 (eps = 5): no FAIL.
        // All weights are 1 and n = mT, so Sigma^ = Sigma exactly and only the mask remains: eta = 1.43e-3, so
        // dist(Sigma, Sigma~) is about 2 eta ||G|| = 0.01; 0.05 would need ||G|| > 17 for a 3x3 Gaussian matrix
        // (probability below 1e-30). Thm A.6 promises only 2 alpha = 1.
        RowBlockMatrix x = GaussianTestData.centred(40_000, new double[] {4, 1, 0.01}, 21);
        DMatrixRMaj sigma = BaselineTestData.secondMoment(x);
        SubsampleAndAggregate s = sa(400, 0.5, 0.1, 5, 1e-6).allowUncertified(true).build();
        RandomSource random = RandomSource.insecureSeeded(4);
        for (int rep = 0; rep < 3; rep++) {
            SecondMomentEstimate o = SecondMomentEstimate.run(s, x, random, CPU);
            assertTrue(o.passed());
            double dist = SpectralMetrics.dist(sigma, o.matrix());
            assertTrue(dist < 0.05 && dist > 0, "dist " + dist);
        }
    }

    @Test
    void failsWhenEveryGroupIsSingular() {
        // m = 2 < d = 3: every group second moment has rank <= 2, every Dist is +inf, so Q = 0 and
        // Q~ <= A < 0.8 + A: FAIL with certainty, releasing nothing.
        RowBlockMatrix x = GaussianTestData.centred(1000, new double[] {1, 1, 1}, 2);
        SecondMomentEstimate o = SecondMomentEstimate.run(sa(2, 0.5, 0.1, 5, 1e-6).allowUncertified(true).build(), x,
                RandomSource.insecureSeeded(3), CPU);
        assertFalse(o.passed());
        assertThrows(IllegalStateException.class, o::matrix);
        assertTrue(o.release().values().isEmpty());
        assertTrue(o.release().failMeaning().startsWith(SubsampleAndAggregate.FAIL_MEANING));
        assertTrue(o.release().failMeaning().contains("n >= "), o.release().failMeaning());
    }

    @Test
    void fromParamsSpendsTheEpsilonDeltaThatRhoImplies() {
        // rho = 0.5 at delta = 1e-6: epsilon_total by the tight conversion; Algorithm 3 runs at epsilon_total/2 and
        // delta/(4 e^eps), so that its final (2 eps, 4 e^eps delta') is exactly (epsilon_total, 1e-6).
        SecondMomentParams p = SecondMomentParams.builder().budget(Zcdp.of(0.5)).radius(1).extra(SubsampleAndAggregate.EXTRA_GROUP_SIZE, 400)
                .extra(SubsampleAndAggregate.EXTRA_UNCERTIFIED, 1).build();
        SubsampleAndAggregate s = SubsampleAndAggregate.fromParams(p);
        assertEquals(p.equivalentEpsilon(), s.finalGuarantee().epsilon(), 1e-12);
        assertEquals(1e-6, s.finalGuarantee().delta(), 1e-18);
        assertEquals(400, s.m(3));
        assertTrue(s.allowsUncertified());
        assertEquals(SecondMomentParams.builder().budget(Zcdp.of(0.5)).radius(1).build().m(7),
                SubsampleAndAggregate.fromParams(SecondMomentParams.builder().budget(Zcdp.of(0.5)).radius(1).build()).m(7));
        assertThrows(IllegalArgumentException.class, () -> SubsampleAndAggregate.fromParams(SecondMomentParams
                .builder().budget(Zcdp.of(0.5)).radius(1).extra(SubsampleAndAggregate.EXTRA_GROUP_SIZE, 2.5).build()));
        assertThrows(IllegalArgumentException.class, () -> SubsampleAndAggregate.fromParams(SecondMomentParams
                .builder().budget(Zcdp.of(0.5)).radius(1).extra(SubsampleAndAggregate.EXTRA_UNCERTIFIED, 3).build()));

        RowBlockMatrix x = GaussianTestData.centred(40_000, new double[] {4, 1, 0.01}, 21);
        SecondMomentEstimate e = SecondMomentEstimate.run(s, x, RandomSource.insecureSeeded(5), CPU);
        Map<String, Object> g = e.guarantee().toMap();
        assertEquals("replace-one", g.get("relation"));
        assertEquals("approxDP", g.get("type"));
        assertEquals(p.equivalentEpsilon(), (Double) g.get("epsilon"), 1e-12);
        assertFalse(e.certified());
        assertEquals(100L, e.parameters().get("groups"));
        assertFalse((Boolean) e.parameters().get("privacyConditionHolds"));
        // Lemma A.5's two steps, composed by the accountant: (eps, delta) + (eps, (4 e^eps - 1) delta)
        assertTrue(e.guarantee().conversion().contains("composition"), e.guarantee().conversion());
    }

    private static SubsampleAndAggregate.Builder sa(int m, double alpha, double xi, double eps, double delta) {
        return SubsampleAndAggregate.builder().groupSize(m).alpha(alpha).xi(xi).stepBudget(ApproxDp.of(eps, delta));
    }

    private static DMatrixRMaj randomPd(SplittableRandom g, int d, double scale) {
        DMatrixRMaj m = new DMatrixRMaj(d, d);
        for (int i = 0; i < d * d; i++) {
            m.data[i] = g.nextGaussian();
        }
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(m, m, out);
        for (int i = 0; i < d; i++) {
            out.add(i, i, 0.1);
        }
        CommonOps_DDRM.scale(scale, out);
        return out;
    }
}
