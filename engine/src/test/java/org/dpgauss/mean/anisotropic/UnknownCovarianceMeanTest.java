package org.dpgauss.mean.anisotropic;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

class UnknownCovarianceMeanTest {

    private static final double[] SIGMA = {100, 1, 1e-2, 1e-2, 1e-2};
    private static final int N = 22000;
    private static final double EPS = 4;
    private static final double DELTA = 1e-3;
    private static final double BETA = 0.5;

    @Test
    void chiSquareRuleMatchesTheSpecTable() {
        // spec §4.3 [R] (docs/references/anisotropic-mean-values.md §1) for d >= 10; d = 1, 2 by the same rule
        int[][] table = {{1, 11}, {2, 16}, {10, 30}, {100, 50}, {1000, 72}, {10000, 95}};
        for (int[] row : table) {
            assertEquals(row[1], ChiSquareRule.groupHalfSize(row[0]), "d=" + row[0]);
        }
        // the rule's tails: chi2_2 has P[chi2_2 <= x] = 1 - e^{-x/2}; l = 2 gives Pr[< 1] + Pr[> 4] = 1 - e^-0.5 + e^-2
        assertEquals(1 - Math.exp(-0.5) + Math.exp(-2.0), ChiSquareRule.outsideProbability(2), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> ChiSquareRule.groupHalfSize(0));
    }

    @Test
    void planUsesPublicQuantitiesAndGrowsK() {
        UnknownCovarianceMean small = UnknownCovarianceMean.of(N, 5, ApproxDp.of(EPS, DELTA), BETA);
        assertEquals(ChiSquareRule.groupHalfSize(5), small.ell());
        assertEquals((N / 2) / (2 * small.ell()), small.groups());
        assertEquals(1, small.k());
        UnknownCovarianceMean big = UnknownCovarianceMean.of(40 * N, 5, ApproxDp.of(EPS, DELTA), BETA);
        assertTrue(big.k() > small.k(), "k=" + big.k());
        // §4.11 worked example (docs/references/anisotropic-mean-values.md §2): N = 1e5, d = 1000, epsilon = 1, delta = 1e-6, beta = 0.01 is infeasible or k = 0
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UnknownCovarianceMean.of(100000, 1000, ApproxDp.of(1, 1e-6), 0.01));
        assertTrue(e.getMessage().startsWith("insufficient samples"), e.getMessage());
        PrivacyGuarantee g = small.guarantee();
        assertEquals(NeighbouringRelation.REPLACE_ONE, g.relation());
        // composed by the accountant: at most the target (basic composition of each chain meets it exactly)
        assertTrue(g.approxDp().orElseThrow().epsilon() <= EPS && g.approxDp().orElseThrow().delta() <= DELTA,
                g.describe());
        assertEquals(EPS, g.approxDp().orElseThrow().epsilon(), 1e-12 * EPS);
        assertTrue(g.certified());
    }

    /**
     * End to end on Gaussian data with unknown Sigma = diag(100, 1, .01, .01, .01) and a far mean. Each Avg call
     * gets lambda = sqrt(32 S^)(1 + 2 sqrt(ln(n/beta'))) with S^ at most 4 S (w.h.p.), so the error is at most the
     * sum over the two blocks of Thm 3.3's bound at the largest lambda; the bound is about 4 times the typical
     * error (spec §7), so failure is far below 1e-3 per run. HIGH (k = 1): I_top is empty by design. PAPER
     * (k = 1): coordinate 0 goes to I_top.
     */
    @Test
    void estimatesTheMeanWithinTheoremBounds() {
        int d = SIGMA.length;
        double[] mu = AnisotropicTestData.farMean(d);
        RowBlockMatrix x = GaussianTestData.diagonal(N, mu, SIGMA, 77);
        int n = N / 2;
        double trace = 0;
        for (double s : SIGMA) {
            trace += s;
        }
        double logTerm = 1 + 2 * Math.sqrt(Math.log(n / (BETA / 6)));
        double lambdaAll = Math.sqrt(32 * 4 * trace) * logTerm;
        double bound = RescaledAveraging.provable(ShapeMatrix.identity(d), lambdaAll, ApproxDp.of(EPS / 2, DELTA / 2))
                .accuracyBound(trace, 100, n, 0.01);
        for (TopVar.Threshold rule : TopVar.Threshold.values()) {
            UnknownCovarianceMean alg = UnknownCovarianceMean.of(N, d, ApproxDp.of(EPS, DELTA), BETA, rule);
            AnisotropicMeanResult r = alg.release(x, RandomSource.insecureSeeded(5));
            assertFalse(r.isFail(), rule.toString());
            double err = AnisotropicTestData.distance(r.estimate(), mu);
            assertTrue(err <= bound, rule + ": error " + err + " > bound " + bound);
            assertTrue(r.guarantee().certified(), "the recipe's (Releases withdraws it for a seeded source)");
        }
    }

    @Test
    void invalidParametersAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UnknownCovarianceMean.of(N, 5, ApproxDp.of(42, DELTA), BETA));
        assertTrue(e.getMessage().contains("epsilon=42.0") && e.getMessage().contains("(0, 42)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UnknownCovarianceMean.of(1, 5, ApproxDp.of(EPS, DELTA), BETA));
        assertThrows(IllegalArgumentException.class, () -> UnknownCovarianceMean.of(N, 0, ApproxDp.of(EPS, DELTA), BETA));
        assertThrows(IllegalArgumentException.class, () -> UnknownCovarianceMean.of(N, 5, ApproxDp.of(EPS, 0), BETA));
        e = assertThrows(IllegalArgumentException.class, () -> UnknownCovarianceMean.of(N, 5, ApproxDp.of(EPS, DELTA), 1));
        assertTrue(e.getMessage().contains("beta=1.0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> UnknownCovarianceMean.of(2000, 5, ApproxDp.of(EPS, DELTA), BETA));
        assertTrue(e.getMessage().startsWith("insufficient samples"), e.getMessage());
        UnknownCovarianceMean alg = UnknownCovarianceMean.of(N, 5, ApproxDp.of(EPS, DELTA), BETA);
        RowBlockMatrix wrong = RowBlockMatrix.zeros(N, 4);
        e = assertThrows(IllegalArgumentException.class, () -> alg.release(wrong, RandomSource.insecureSeeded(1)));
        assertTrue(e.getMessage().contains("expected N x d"), e.getMessage());
        RowBlockMatrix nan = RowBlockMatrix.zeros(N, 5);
        nan.set(3, 2, Double.NaN);
        e = assertThrows(IllegalArgumentException.class, () -> alg.release(nan, RandomSource.insecureSeeded(1)));
        assertTrue(e.getMessage().contains("non-finite"), e.getMessage());
    }
}
