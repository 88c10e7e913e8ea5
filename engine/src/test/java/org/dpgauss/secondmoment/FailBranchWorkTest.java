package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.testing.GaussianTestData;
import org.dpgauss.testing.CountingEngine;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, item 8: a FAIL of subsample-and-aggregate and of the recursive second moment (private lambda) used to
 * return as soon as the private test decided it; the release contract's convention is that mechanisms with a private
 * test do the same work on both branches where they can (docs/design/fail-branch-work.md). A counting engine shows
 * that the work after the test (the mask's two products; the recursion's Gram passes and eigendecompositions) now
 * reaches the engine on a certain FAIL too. Mutant: either early return restored fails its test (S&amp;A: 0
 * products on the FAIL; recursive: 66 Gram passes on the FAIL against 67).
 */
class FailBranchWorkTest {

    @Test
    void subsampleAndAggregateMasksOnACertainFail() {
        // m = 2 < d = 3: every group second moment is singular, every q_t = 0 and the FAIL is certain (spec §2.7);
        // the PASS regime is SubsampleAndAggregateTest's (T = 100 agreeing groups, eps = 5)
        SubsampleAndAggregate failing = SubsampleAndAggregate.builder().groupSize(2).alpha(0.5).xi(0.1)
                .stepBudget(ApproxDp.of(5, 1e-6)).allowUncertified(true).build();
        CountingEngine fail = new CountingEngine();
        SecondMomentEstimate f = SecondMomentEstimate.run(failing,
                GaussianTestData.centred(1000, new double[] {1, 1, 1}, 2), RandomSource.insecureSeeded(3),
                fail.engine);
        assertFalse(f.passed());
        SubsampleAndAggregate passing = SubsampleAndAggregate.builder().groupSize(400).alpha(0.5).xi(0.1)
                .stepBudget(ApproxDp.of(5, 1e-6)).allowUncertified(true).build();
        CountingEngine pass = new CountingEngine();
        SecondMomentEstimate p = SecondMomentEstimate.run(passing,
                GaussianTestData.centred(40_000, new double[] {4, 1, 0.01}, 21), RandomSource.insecureSeeded(4),
                pass.engine);
        assertTrue(p.passed());
        // steps 9-11: S (I + eta G) and its product with its transpose, on both branches
        assertEquals(2, pass.count("multiply"), "PASS " + pass.calls);
        assertEquals(pass.count("multiply"), fail.count("multiply"), "PASS " + pass.calls + ", FAIL " + fail.calls);
    }

    @Test
    void recursiveSecondMomentRunsTheRecursionOnAnAlgorithm4Fail() {
        // rank-deficient rows put Algorithm 4 in the {0} bucket: FAIL with certainty (spec §7.2 (a))
        double[][] a = new double[2000][3];
        SplittableRandom rnd = new SplittableRandom(4);
        for (double[] row : a) {
            row[0] = rnd.nextGaussian();
            row[1] = rnd.nextGaussian();
        }
        RecursiveSecondMoment m = RecursiveSecondMoment.fromParams(
                SecondMomentParams.builder().budget(Zcdp.of(1)).radius(5).lambdaBudget(1.0, null).build());
        CountingEngine fail = new CountingEngine();
        SecondMomentEstimate f = SecondMomentEstimate.run(m, RowBlockMatrix.of(a), RandomSource.insecureSeeded(2),
                fail.engine);
        assertFalse(f.passed());
        CountingEngine pass = new CountingEngine();
        SecondMomentEstimate p = SecondMomentEstimate.run(m,
                GaussianTestData.centred(2000, new double[] {1, 0.8, 0.6}, 5), RandomSource.insecureSeeded(2),
                pass.engine);
        assertTrue(p.passed(), "the PASS regime");
        // Algorithm 4's group Grams and eigendecompositions, then the recursion's Gram pass(es): on this data both
        // branches make the same calls (66 eigendecompositions, 67 Grams; the old FAIL stopped at 66 Grams)
        assertTrue(pass.count("weightedGram") > 0, "PASS " + pass.calls);
        assertEquals(pass.calls, fail.calls, "PASS " + pass.calls + ", FAIL " + fail.calls);
    }
}
