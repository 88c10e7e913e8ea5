package org.dpgauss.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;

/**
 * The accountant of a session is a privacy filter (docs/design/adaptive-composition.md): only rules valid for
 * adaptively chosen privacy parameters. Golden values computed by hand or by an independent Python script
 * (CKS20 Cor. 13 minimised by golden-section search over ln(alpha - 1), 300 iterations; the Gaussian curve of
 * ndis Prop. 1 inverted by 200 bisections with math.erfc), quoted to 1e-9 relative.
 */
class AdaptiveFilterTest {

    private static final NeighbouringRelation R = NeighbouringRelation.REPLACE_ONE;

    @Test
    void theFilterChargesBasicCompositionWhereAdvancedCompositionWouldBeSmaller() {
        // 100 x (0.1, 1e-8): KOV with delta' = 1e-5 gives 5.2981096617668815 for this sequence fixed in advance,
        // but with adaptively chosen parameters only the basic filter holds: sum eps = 10 (9.99999999999998 in
        // doubles), sum delta = 1e-6.
        PrivacyAccountant filter = PrivacyAccountant.create(R, ApproxDp.of(20, 2e-5));
        PrivacyAccountant fixed = PrivacyAccountant.forFixedSequence(R, ApproxDp.of(20, 2e-5));
        assertTrue(filter.adaptive());
        assertFalse(fixed.adaptive());
        for (int i = 0; i < 100; i++) {
            filter.spend(Release.approxDp("q" + i, R, ApproxDp.of(0.1, 1e-8)));
            fixed.spend(Release.approxDp("q" + i, R, ApproxDp.of(0.1, 1e-8)));
        }
        AccountingReport f = filter.report();
        assertEquals(10.0, f.spent().epsilon(), 1e-12);
        assertEquals(1e-6, f.spent().delta(), 1e-18);
        assertTrue(f.composition().startsWith("basic composition filter of 100"), f.composition());
        assertEquals(5.2981096617668815, fixed.report().spent().epsilon(), 1e-12);
        assertTrue(fixed.report().composition().contains("Kairouz"), fixed.report().composition());
    }

    @Test
    void pureReleasesStayInTheBasicFilter() {
        // the fixed-sequence accountant may restate 100 pure (0.1, 0) releases as 0.5-zCDP (min over routes);
        // the filter uses one rule per kind: 10
        PrivacyAccountant filter = PrivacyAccountant.create(R, ApproxDp.of(20, 2e-5));
        for (int i = 0; i < 100; i++) {
            filter.spend(Release.approxDp("q" + i, R, ApproxDp.of(0.1, 0)));
        }
        assertEquals(10.0, filter.report().spent().epsilon(), 1e-12);
        assertEquals(0.0, filter.report().spent().delta(), 0.0);
    }

    @Test
    void theFilterRefusesTheReleaseAdvancedCompositionWouldAdmit() {
        // budget (6, 2e-5), releases (0.125, 1e-8): 48 x 0.125 = 6 exactly fits the basic filter; the 49th does
        // not, although KOV (delta' = 1e-5) states 49 of them at 4.5566105419673795.
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(6, 2e-5));
        for (int i = 0; i < 48; i++) {
            acc.spend(Release.approxDp("q" + i, R, ApproxDp.of(0.125, 1e-8)));
        }
        assertEquals(6.0, acc.report().spent().epsilon(), 0.0);
        Release next = Release.approxDp("q48", R, ApproxDp.of(0.125, 1e-8));
        assertThrows(BudgetExceededException.class, () -> acc.spend(next));
        assertEquals(48, acc.report().releases().size());
        PrivacyAccountant fixed = PrivacyAccountant.forFixedSequence(R, ApproxDp.of(6, 2e-5));
        for (int i = 0; i < 49; i++) {
            fixed.spend(Release.approxDp("q" + i, R, ApproxDp.of(0.125, 1e-8)));
        }
        assertEquals(4.5566105419673795, fixed.report().spent().epsilon(), 1e-12);
    }

    @Test
    void zcdpFilterAddsRhoAndConvertsOnceAtTheBudgetsDelta() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(5, 1e-6));
        acc.spend(Release.zcdp("a", R, Zcdp.of(0.1)));
        AccountingReport rep = acc.spend(Release.zcdp("b", R, Zcdp.of(0.2)));
        assertEquals(3.9200575369412016, rep.spent().epsilon(), 1e-9 * 3.92); // CKS20 at rho 0.3, delta 1e-6
        assertEquals(1e-6, rep.spent().delta(), 0.0);
        assertTrue(rep.composition().contains("zCDP filter") && rep.composition().contains("rho=0.300000"),
                rep.composition());
        // a third release of 0.2 would need CKS20(0.5, 1e-6) = 5.2215344445301692 > 5: refused
        assertThrows(BudgetExceededException.class, () -> acc.spend(Release.zcdp("c", R, Zcdp.of(0.2))));
    }

    @Test
    void afterAnApproxFirstReleaseZcdpReleasesEnterTheBasicFilterAtHalfTheDeltaLeft() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(10, 1e-6));
        acc.spend(Release.approxDp("count", R, ApproxDp.of(0.5, 4e-7)));
        acc.spend(Release.zcdp("mean", R, Zcdp.of(0.1)));
        AccountingReport rep = acc.spend(Release.zcdp("mean2", R, Zcdp.of(0.1)));
        // 0.5 + CKS20(0.1, 3e-7) + CKS20(0.1, 1.5e-7); delta 4e-7 + 3e-7 + 1.5e-7
        assertEquals(5.0654626775504017, rep.spent().epsilon(), 1e-9 * 5.07);
        assertEquals(8.5e-7, rep.spent().delta(), 1e-20);
        assertTrue(rep.composition().startsWith("basic composition filter of 3"), rep.composition());
    }

    @Test
    void afterAZcdpFirstReleasePureReleasesJoinTheZcdpSumAndApproxReleasesAreRefused() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(10, 1e-6));
        acc.spend(Release.zcdp("mean", R, Zcdp.of(0.3)));
        AccountingReport rep = acc.spend(Release.approxDp("count", R, ApproxDp.of(0.5, 0)));
        // rho = 0.3 + 0.5^2/2 = 0.425 converted at 1e-6 (CKS20)
        assertEquals(4.7640786404695454, rep.spent().epsilon(), 1e-9 * 4.76);
        assertEquals(1e-6, rep.spent().delta(), 0.0);
        BudgetExceededException e = assertThrows(BudgetExceededException.class,
                () -> acc.spend(Release.approxDp("ptr", R, ApproxDp.of(0.1, 1e-8))));
        assertTrue(e.getMessage().contains("zCDP filter cannot charge"), e.getMessage());
        assertEquals(2, acc.report().releases().size());
    }

    @Test
    void gaussianMechanismsEnterTheZcdpFilterAsTauSquaredOverTwo() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(10, 1e-6));
        acc.spend(Release.gaussian("mean", R, 1.0, 2.0));                 // tau 0.5
        AccountingReport rep = acc.spend(Release.gaussian("cov", R, 3.0, 3.0)); // tau 1
        // rho = (0.25 + 1) / 2 = 0.625 at 1e-6 (CKS20); the fixed-sequence exact Gaussian curve would give 5.55
        assertEquals(5.9268180155404515, rep.spent().epsilon(), 1e-9 * 5.93);
    }

    @Test
    void gaussianPairsAreRefusedByTheFilterAndComposedForAFixedSequence() {
        Gaussian p = Gaussian.of(new double[] {0}, new double[][] {{1}});
        Gaussian q = Gaussian.of(new double[] {1}, new double[][] {{1}});
        Release pair = Release.gaussianPair("pair", R, p, q);
        PrivacyAccountant filter = PrivacyAccountant.create(R, ApproxDp.of(10, 1e-6));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> filter.spend(pair));
        assertTrue(e.getMessage().contains("filter"), e.getMessage());
        assertEquals(0, filter.report().releases().size());
        PrivacyAccountant fixed = PrivacyAccountant.forFixedSequence(R, ApproxDp.of(10, 1e-6));
        fixed.spend(pair);
        assertEquals(1, fixed.report().releases().size());
    }

    @Test
    void composeStepsKeepsTheFixedSequenceTheorems() {
        // a mechanism's steps are fixed before it runs: advanced composition stays valid there
        List<Release> steps = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            steps.add(Release.approxDp("s" + i, R, ApproxDp.of(0.1, 1e-8)));
        }
        PrivacyGuarantee g = PrivacyAccountant.composeSteps(R, steps, 2e-5, true, null);
        assertEquals(5.2981096617668815, g.approxDp().orElseThrow().epsilon(), 1e-12);
    }

    /** The ledger's bulk replay: one composition of the stored list equals spending each in turn. */
    @Test
    void restoreEqualsSpendingEachInTurnAndRefusesWhatSpendWould() {
        for (List<Release> stored : List.of(
                List.of(Release.approxDp("a", R, ApproxDp.of(0.3, 1e-8)), Release.zcdp("b", R, Zcdp.of(0.05)),
                        Release.gaussian("c", R, 2.0, 7.3), Release.approxDp("d", R, ApproxDp.of(0.1, 0))),
                List.of(Release.zcdp("a", R, Zcdp.of(0.05)), Release.gaussian("b", R, 1.5, 6.0),
                        Release.zcdp("c", R, Zcdp.of(0.1))))) {
            PrivacyAccountant oneByOne = PrivacyAccountant.create(R, ApproxDp.of(4, 1e-6));
            for (Release r : stored) {
                oneByOne.spend(r);
            }
            PrivacyAccountant bulk = PrivacyAccountant.create(R, ApproxDp.of(4, 1e-6));
            assertEquals(oneByOne.report().spent(), bulk.restore(stored).spent());
            assertEquals(oneByOne.report().spent(), bulk.report().spent());
            assertEquals(oneByOne.report().releases().size(), bulk.report().releases().size());
        }
        // a zCDP-first list with a later (eps, delta > 0) release: spend refuses it, so restore refuses the list
        List<Release> infeasible = List.of(Release.zcdp("a", R, Zcdp.of(0.05)),
                Release.approxDp("b", R, ApproxDp.of(0.1, 1e-9)));
        PrivacyAccountant bulk = PrivacyAccountant.create(R, ApproxDp.of(4, 1e-6));
        assertThrows(BudgetExceededException.class, () -> bulk.restore(infeasible));
        assertEquals(0, bulk.report().releases().size(), "nothing is recorded");
        List<Release> over = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            over.add(Release.approxDp("r" + i, R, ApproxDp.of(0.1, 0)));
        }
        assertThrows(BudgetExceededException.class, () -> PrivacyAccountant.create(R, ApproxDp.of(4, 1e-6))
                .restore(over), "60 x 0.1 is over epsilon 4 by basic composition");
    }
}
