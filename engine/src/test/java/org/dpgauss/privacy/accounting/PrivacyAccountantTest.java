package org.dpgauss.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.special.Normal;
import org.junit.jupiter.api.Test;

class PrivacyAccountantTest {

    private static final NeighbouringRelation R = NeighbouringRelation.REPLACE_ONE;

    @Test
    void basicCompositionOfAFewReleases() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(1.0, 1e-6));
        acc.spend(Release.approxDp("count", R, ApproxDp.of(0.25, 0)));
        AccountingReport rep = acc.spend(Release.approxDp("histogram", R, ApproxDp.of(0.5, 1e-7)));
        assertEquals(0.75, rep.spent().epsilon(), 0.0);
        assertEquals(1e-7, rep.spent().delta(), 0.0);
        assertTrue(rep.composition().startsWith("basic composition"), rep.composition());
        assertEquals(List.of("count", "histogram"), rep.releases().stream().map(Release::name).toList());
        assertEquals(0.25, rep.epsilonLeft(), 1e-15);
    }

    @Test
    void requireFitsRefusesWhatSpendWouldAndRecordsNothing() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(1.0, 1e-6));
        acc.spend(Release.approxDp("count", R, ApproxDp.of(0.75, 0)));
        Release fits = Release.approxDp("small", R, ApproxDp.of(0.25, 0));
        assertEquals(1.0, acc.requireFits(fits).spent().epsilon(), 0.0);
        Release tooBig = Release.approxDp("big", R, ApproxDp.of(0.5, 0));
        assertThrows(BudgetExceededException.class, () -> acc.requireFits(tooBig));
        assertEquals(List.of("count"), acc.report().releases().stream().map(Release::name).toList());
        assertEquals(0.75, acc.report().spent().epsilon(), 0.0);
        assertThrows(BudgetExceededException.class, () -> acc.spend(tooBig));
    }

    @Test
    void advancedCompositionIsUsedWhenItBeatsBasic() {
        // 100 x (0.1, 0) with delta' = 1e-5: KOV gives 5.2981096617668815 < 10 (basic); the zCDP route for pure
        // releases, rho = 100 * 0.01 / 2 = 0.5 converted at 1e-5 (CKS20), is smaller still.
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(20, 2e-5), 1e-5);
        for (int i = 0; i < 100; i++) {
            acc.spend(Release.approxDp("q" + i, R, ApproxDp.of(0.1, 0)));
        }
        AccountingReport rep = acc.report();
        double viaZcdp = Zcdp.of(0.5).toApproxDpTight(2e-5).epsilon();
        assertEquals(Math.min(viaZcdp, 5.2981096617668815), rep.spent().epsilon(), 1e-12);
        assertTrue(rep.spent().epsilon() < 10);

        // with (eps, delta > 0) releases only KOV competes with basic
        PrivacyAccountant acc2 = PrivacyAccountant.create(R, ApproxDp.of(20, 2e-5), 1e-5);
        for (int i = 0; i < 100; i++) {
            acc2.spend(Release.approxDp("q" + i, R, ApproxDp.of(0.1, 1e-8)));
        }
        AccountingReport rep2 = acc2.report();
        assertEquals(5.2981096617668815, rep2.spent().epsilon(), 1e-12);
        assertEquals(100 * 1e-8 + 1e-5, rep2.spent().delta(), 1e-18);
        assertTrue(rep2.composition().contains("Kairouz"), rep2.composition());
    }

    @Test
    void zcdpReleasesAddTheirRhoAndConvertOnce() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(5, 1e-6));
        acc.spend(Release.zcdp("a", R, Zcdp.of(0.1)));
        acc.spend(Release.of("b", PrivacyGuarantee.zcdp(R, Zcdp.of(0.2), 1e-6, true, "")));
        AccountingReport rep = acc.report();
        assertEquals(Zcdp.of(0.1).plus(Zcdp.of(0.2)).toApproxDpTight(1e-6).epsilon(), rep.spent().epsilon(), 0.0);
        assertEquals(1e-6, rep.spent().delta(), 0.0);
        assertTrue(rep.composition().contains("rho=0.300000"), rep.composition());
    }

    @Test
    void gaussianReleasesComposeExactlyIntoOneGaussianMechanism() {
        double delta = 1e-6;
        PrivacyAccountant acc = PrivacyAccountant.forFixedSequence(R, ApproxDp.of(10, delta));
        acc.spend(Release.gaussian("mean", R, 1.0, 2.0));
        acc.spend(Release.gaussian("cov", R, 3.0, 3.0));
        AccountingReport rep = acc.report();
        double tau = Math.sqrt(0.25 + 1.0);
        double eps = rep.spent().epsilon();
        assertEquals(GaussianMechanismCurve.epsilon(delta, tau), eps, 0.0);
        // Prop. 1 written out independently: delta(eps) = Phi(-eps/tau + tau/2) - e^eps Phi(-eps/tau - tau/2)
        double prop1 = Normal.cdf(-eps / tau + tau / 2) - Math.exp(eps) * Normal.cdf(-eps / tau - tau / 2);
        assertTrue(prop1 <= delta * (1 + 1e-9), "delta at the reported eps " + prop1);
        assertTrue(prop1 >= delta * (1 - 1e-6), "reported eps is not tight: delta " + prop1);
        assertTrue(rep.composition().startsWith("exact Gaussian composition"), rep.composition());
        // it beats basic composition of the two releases (each converted exactly at delta/2) and the zCDP route
        double basic = GaussianMechanismCurve.epsilon(delta / 2, 0.5) + GaussianMechanismCurve.epsilon(delta / 2, 1.0);
        assertTrue(eps < basic, eps + " vs basic " + basic);
        assertTrue(eps < Zcdp.of(tau * tau / 2).toApproxDpTight(delta).epsilon());
    }

    @Test
    void aMechanismsReportedGuaranteeIsRecordedAsItsZcdp() {
        ClippedGaussianMean mean = ClippedGaussianMean.of(1.0, new double[3], Zcdp.of(0.125));
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(5.0, 1e-6));
        acc.spend(Release.of("mean 1", mean.guarantee(1e-6)));
        AccountingReport rep = acc.spend(Release.of("mean 2", mean.guarantee(1e-6)));
        assertEquals(Release.Kind.ZCDP, rep.releases().get(1).kind());
        assertEquals(Zcdp.of(0.25).toApproxDpTight(1e-6).epsilon(), rep.spent().epsilon(), 0.0);
    }

    @Test
    void mixedApproxAndGaussianReleasesSplitTheDelta() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(10, 1e-6), 0);
        acc.spend(Release.approxDp("count", R, ApproxDp.of(0.5, 4e-7)));
        AccountingReport rep = acc.spend(Release.gaussian("mean", R, 1.0, 1.0));
        assertEquals(0.5 + GaussianMechanismCurve.epsilon(1e-6 - 4e-7, 1.0), rep.spent().epsilon(), 1e-15);
        assertEquals(1e-6, rep.spent().delta(), 0.0);
    }

    @Test
    void aRefusedReleaseLeavesTheStateUnchangedAndSaysWhy() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(1.0, 0));
        acc.spend(Release.approxDp("first", R, ApproxDp.of(0.625, 0)));
        AccountingReport before = acc.report();
        BudgetExceededException e = assertThrows(BudgetExceededException.class,
                () -> acc.spend(Release.approxDp("too much", R, ApproxDp.of(0.5, 0))));
        String m = e.getMessage();
        assertTrue(m.contains("'too much'") && m.contains("(eps=0.5, delta=0.0)-DP"), m); // the release and its need
        assertTrue(m.contains("epsilon left 0.375"), m);                                  // what is left
        assertTrue(m.contains("basic composition"), m);                                   // the composition
        assertTrue(m.contains("(eps=1.125, delta=0.0)-DP"), m);                           // what it would spend
        assertEquals("too much", e.releaseName());
        AccountingReport after = acc.report();
        assertEquals(before.spent(), after.spent());
        assertEquals(1, after.releases().size());
        // the remaining budget is still usable
        acc.spend(Release.approxDp("fits", R, ApproxDp.of(0.375, 0)));
        assertEquals(1.0, acc.report().spent().epsilon(), 0.0);
    }

    @Test
    void aReleaseWhoseDeltaAloneExceedsTheBudgetIsRefused() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(5, 1e-6));
        BudgetExceededException e = assertThrows(BudgetExceededException.class,
                () -> acc.spend(Release.approxDp("leaky", R, ApproxDp.of(0.1, 2e-6))));
        assertTrue(e.getMessage().contains("delta"), e.getMessage());
        // a zCDP release needs delta > 0 to be stated in (eps, delta)
        PrivacyAccountant pure = PrivacyAccountant.create(R, ApproxDp.of(5, 0));
        BudgetExceededException z = assertThrows(BudgetExceededException.class,
                () -> pure.spend(Release.zcdp("z", R, Zcdp.of(0.01))));
        assertTrue(z.getMessage().contains("need delta > 0"), z.getMessage());
        assertEquals(0, pure.report().releases().size());
    }

    @Test
    void mixedNeighbouringRelationsAreRejected() {
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(1.0, 1e-6));
        acc.spend(Release.approxDp("a", R, ApproxDp.of(0.1, 0)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> acc.spend(Release.approxDp("b", NeighbouringRelation.ADD_REMOVE, ApproxDp.of(0.1, 0))));
        assertTrue(e.getMessage().contains("'b'") && e.getMessage().contains("add/remove")
                && e.getMessage().contains("replace-one"), e.getMessage());
        assertEquals(1, acc.report().releases().size());
    }

    @Test
    void invalidConfigurationIsRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> PrivacyAccountant.create(R, ApproxDp.of(1, 1e-6), 2e-6));
        assertThrows(IllegalArgumentException.class, () -> Release.approxDp(" ", R, ApproxDp.of(1, 0)));
        assertThrows(IllegalArgumentException.class, () -> Release.gaussian("g", R, 1.0, 0.0));
        assertThrows(NullPointerException.class, () -> PrivacyAccountant.create(null, ApproxDp.of(1, 0)));
    }

    @Test
    void concurrentSpendsNeverOverspend() throws Exception {
        // delta = 0 leaves only basic composition: exactly 128 releases of 2^-7 fit in epsilon 1
        PrivacyAccountant acc = PrivacyAccountant.create(R, ApproxDp.of(1.0, 0));
        AtomicInteger accepted = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        try {
                            acc.spend(Release.approxDp("t" + id + "-" + i, R, ApproxDp.of(0x1p-7, 0)));
                            accepted.incrementAndGet();
                        } catch (BudgetExceededException refused) {
                            // expected once the budget is used up
                        }
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(128, accepted.get());
        assertEquals(128, acc.report().releases().size());
        assertEquals(1.0, acc.report().spent().epsilon(), 0.0);
    }
}
