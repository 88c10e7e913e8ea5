package org.dpgauss.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.HockeyStickDivergence;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;

class GaussianPairAccountingTest {

    private static final NeighbouringRelation R = NeighbouringRelation.ADD_REMOVE;
    private static final double DELTA = 1e-6;

    private static Gaussian g(double[] mean, double[][] cov) {
        return Gaussian.of(mean, cov);
    }

    @Test
    void aMeanShiftPairComposesLikeTheGaussianMechanism() {
        // N(0, I_2) vs N((0.6, 0.8), I_2) is the Gaussian mechanism with tau = 1; with tau = 0.5 the exact
        // composition has tau = sqrt(1.25)
        PrivacyAccountant acc = PrivacyAccountant.forFixedSequence(R, ApproxDp.of(10, DELTA));
        acc.spend(Release.gaussianPair("projection", R, g(new double[2], new double[][] {{1, 0}, {0, 1}}),
                g(new double[] {0.6, 0.8}, new double[][] {{1, 0}, {0, 1}})));
        AccountingReport rep = acc.spend(Release.gaussian("mean", R, 1.0, 2.0));
        double expected = GaussianMechanismCurve.epsilon(DELTA, Math.sqrt(1.25));
        assertEquals(expected, rep.spent().epsilon(), 1e-6 * expected);
        assertTrue(rep.composition().contains("stacked Gaussian pair of dimension 3"), rep.composition());
    }

    /** Builds the block-diagonal stack of k copies of (p, q) by hand, as the reference. */
    private static Gaussian[] stackByHand(Gaussian p, Gaussian q, int k) {
        int d = p.dimension();
        double[] mp = new double[k * d];
        double[] mq = new double[k * d];
        double[][] cp = new double[k * d][k * d];
        double[][] cq = new double[k * d][k * d];
        for (int b = 0; b < k; b++) {
            for (int i = 0; i < d; i++) {
                mp[b * d + i] = p.mean()[i];
                mq[b * d + i] = q.mean()[i];
                for (int j = 0; j < d; j++) {
                    cp[b * d + i][b * d + j] = p.covarianceArray()[i][j];
                    cq[b * d + i][b * d + j] = q.covarianceArray()[i][j];
                }
            }
        }
        return new Gaussian[] {g(mp, cp), g(mq, cq)};
    }

    private static void assertComposesByStacking(Gaussian p, Gaussian q, boolean compareWithBasic) {
        PrivacyAccountant acc = PrivacyAccountant.forFixedSequence(R, ApproxDp.of(20, DELTA));
        acc.spend(Release.gaussianPair("first", R, p, q));
        AccountingReport rep = acc.spend(Release.gaussianPair("second", R, p, q));
        double eps = rep.spent().epsilon();
        Gaussian[] s = stackByHand(p, q, 2);
        HockeyStickDivergence h = HockeyStickDivergence.cpu();
        double at = Math.max(h.delta(s[0], s[1], eps), h.delta(s[1], s[0], eps));
        assertTrue(at <= DELTA, "profile at the reported eps " + at);
        double below = eps * (1 - 1e-4);
        assertTrue(Math.max(h.delta(s[0], s[1], below), h.delta(s[1], s[0], below)) > DELTA,
                "reported eps " + eps + " is not tight");
        if (!compareWithBasic) {
            return; // general pairs cost seconds per evaluation: skip the second search
        }
        // tighter than basic composition of the two releases at delta/2 each
        PrivacyAccountant single = PrivacyAccountant.forFixedSequence(R, ApproxDp.of(20, DELTA / 2));
        double each = single.spend(Release.gaussianPair("one", R, p, q)).spent().epsilon();
        assertTrue(eps < 2 * each, eps + " vs basic " + 2 * each);
    }

    @Test
    void pairsWithDifferentCovariancesComposeByStacking() {
        // equal means, covariances differing in one direction (the chi-square/gamma closed form of ndis)
        assertComposesByStacking(g(new double[2], new double[][] {{1, 0}, {0, 1}}),
                g(new double[2], new double[][] {{1.5, 0}, {0, 1}}), true);
    }

    /**
     * A general pair (different means and covariances) needs the generalized chi-square CDF of a low-dof,
     * mixed-sign spectrum (the bent-contour inversion; 2-20 s per evaluation before it, now milliseconds).
     */
    @Test
    void generalPairsComposeByStacking() {
        Gaussian p = g(new double[] {0, 0}, new double[][] {{1, 0}, {0, 1}});
        Gaussian q = g(new double[] {0.5, 0}, new double[][] {{1.5, 0.2}, {0.2, 1}});
        assertComposesByStacking(p, q, false);
    }

    @Test
    void pairsAndZcdpReleasesSplitTheDelta() {
        Gaussian p = g(new double[] {0}, new double[][] {{1}});
        Gaussian q = g(new double[] {1}, new double[][] {{1}});
        PrivacyAccountant acc = PrivacyAccountant.forFixedSequence(R, ApproxDp.of(20, DELTA));
        acc.spend(Release.gaussianPair("pair", R, p, q));
        AccountingReport rep = acc.spend(Release.zcdp("z", R, Zcdp.of(0.5)));
        // the best of the tried splits, each a valid basic composition
        double best = Double.POSITIVE_INFINITY;
        for (double f : new double[] {0.5, 0.1, 0.9}) {
            best = Math.min(best, GaussianMechanismCurve.epsilon(f * DELTA, 1.0)
                    + Zcdp.of(0.5).toApproxDpTight((1 - f) * DELTA).epsilon());
        }
        assertEquals(best, rep.spent().epsilon(), 1e-6 * best);
        assertTrue(rep.composition().contains("zCDP"), rep.composition());
    }

    @Test
    void disjointSupportsAreRefused() {
        // singular covariances on different lines: the outputs are perfectly distinguishable
        Gaussian p = g(new double[] {0, 0}, new double[][] {{1, 0}, {0, 0}});
        Gaussian q = g(new double[] {0, 1}, new double[][] {{1, 0}, {0, 0}});
        PrivacyAccountant acc = PrivacyAccountant.forFixedSequence(R, ApproxDp.of(5, DELTA));
        assertThrows(BudgetExceededException.class, () -> acc.spend(Release.gaussianPair("leak", R, p, q)));
        assertEquals(0, acc.report().releases().size());
        assertThrows(IllegalArgumentException.class, () -> Release.gaussianPair("bad", R, p,
                g(new double[] {0}, new double[][] {{1}})));
    }
}
