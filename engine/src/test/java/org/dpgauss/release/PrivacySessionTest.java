package org.dpgauss.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.junit.jupiter.api.Test;

class PrivacySessionTest {

    private static PrivacySession open(double eps) {
        return PrivacySession.builder(Dataset.of(new double[][] {{1, 2}, {3, 4}, {5, 6}, {0, 1}}))
                .relation(NeighbouringRelation.REPLACE_ONE).budget(ApproxDp.of(eps, 1e-6))
                .context(ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(3))).open();
    }

    @Test
    void releasesAreChargedAndComposedInZcdp() {
        PrivacySession s = open(5);
        ClippedGaussianMean m = ClippedGaussianMean.builder().clipRadius(10).rho(0.1).build(2);
        s.release(m);
        s.release(m);
        // two 0.1-zCDP releases compose to 0.2-zCDP, converted once by the policy
        assertEquals(Zcdp.of(0.2).toApproxDpTight(1e-6).epsilon(), s.spent().epsilon(), 1e-12);
        assertEquals(2, s.report().releases().size());
    }

    @Test
    void aReleaseOverBudgetIsRefusedBeforeReadingAndNothingIsCharged() {
        PrivacySession s = open(4.0);
        ReleaseContractTest.Probe small = new ReleaseContractTest.Probe(false, true); // 0.1-zCDP
        s.release(small);
        ApproxDp before = s.spent();
        ClippedGaussianMean big = ClippedGaussianMean.builder().clipRadius(10).rho(1.0).build(2);
        assertThrows(BudgetExceededException.class, () -> s.release(big));
        assertEquals(before, s.spent());
        assertEquals(1, s.report().releases().size());
        ReleaseContractTest.Probe probe = new ReleaseContractTest.Probe(false, true);
        // 0.1 + 0.1 zCDP fits in eps 4 at delta 1e-6 ...
        s.release(probe);
        assertEquals(1, probe.computed);
        // ... but enough further ones do not, and a refused one never computes
        int refusedAt = -1;
        for (int i = 0; i < 20 && refusedAt < 0; i++) {
            ReleaseContractTest.Probe p = new ReleaseContractTest.Probe(false, true);
            try {
                s.release(p);
                assertEquals(1, p.computed);
            } catch (BudgetExceededException e) {
                assertEquals(0, p.computed);
                refusedAt = i;
            }
        }
        assertTrue(refusedAt >= 0);
        assertTrue(s.spent().epsilon() <= 4.0);
    }

    @Test
    void aMechanismUnderAnotherRelationIsRejected() {
        PrivacySession s = PrivacySession.builder(Dataset.of(new double[][] {{1}, {2}}))
                .relation(NeighbouringRelation.ADD_REMOVE).budget(ApproxDp.of(1, 1e-6)).open();
        ClippedGaussianMean m = ClippedGaussianMean.builder().clipRadius(10).rho(0.1).build(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.release(m));
        assertTrue(e.getMessage().contains("replace-one"), e.getMessage());
        assertEquals(0.0, s.spent().epsilon(), 0.0);
    }

    @Test
    void aSessionNeedsARelationAndABudget() {
        Dataset d = Dataset.of(new double[][] {{1}});
        assertThrows(IllegalStateException.class, () -> PrivacySession.builder(d).budget(ApproxDp.of(1, 1e-6)).open());
        assertThrows(IllegalStateException.class,
                () -> PrivacySession.builder(d).relation(NeighbouringRelation.REPLACE_ONE).open());
    }

    /**
     * Issue 24, item 6: there is no precondition that reads the data before the charge any more; a row above the
     * projection's bound is clipped (it used to be refused, for free, naming the row), and the release is charged.
     */
    @Test
    void aRowAboveABoundIsClippedAndTheReleaseIsCharged() {
        PrivacySession s = PrivacySession.builder(Dataset.of(new double[][] {{0.1, 0.2}, {3, 4}}))
                .relation(NeighbouringRelation.ADD_REMOVE).budget(ApproxDp.of(2, 1e-5))
                .context(ReleaseContext.of(org.dpgauss.engine.CpuEngine.instance(), RandomSource.insecureSeeded(1)))
                .open();
        org.dpgauss.projection.RandomProjectionMechanism m = org.dpgauss.projection.RandomProjectionMechanism.of(2,
                ApproxDp.of(1, 1e-6), 1.0);
        assertTrue(s.release(m).isPass());
        assertEquals(1, s.report().releases().size());
        assertTrue(s.spent().epsilon() > 0);
    }
}
