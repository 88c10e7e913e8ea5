package org.dpgauss.gx2;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Acceptance: relative accuracy of small tail probabilities against mpmath (tail-values.csv from
 * {@code gen_gx2.py tails}, 40 digits; tail-values-more.csv from {@code gen_gx2.py more}, 25-35 digits): at least
 * 6 correct significant digits (asserted: relative error 1e-8) down to 5e-16 for same-sign weights, to 1e-13 for
 * mixed signs and 1e-11 with a normal term, and to 1e-21 for a 100-term NDIS-like spectrum; error <= bound.
 */
class GeneralizedChiSquareTailTest {

    @Test
    void tailsAreRelativelyAccurateWithHonestBounds() {
        List<Gx2Cases> cases = new java.util.ArrayList<>(Gx2Cases.read("/org/dpgauss/gx2/tail-values.csv"));
        cases.addAll(Gx2Cases.read("/org/dpgauss/gx2/tail-values-more.csv"));
        assertTrue(cases.size() >= 19, "only " + cases.size() + " tail values");
        double smallest = 1;
        for (Gx2Cases c : cases) {
            GeneralizedChiSquare q = c.distribution();
            Gx2Probability p = c.upper() ? q.sfWithError(c.x()) : q.cdfWithError(c.x());
            double error = Math.abs(p.value() - c.value());
            assertTrue(error <= 1e-8 * c.value(), () -> c.line() + " got " + p + " relative error " + error / c.value());
            assertTrue(error <= p.absoluteErrorBound(), () -> c.line() + " bound too small: " + p);
            smallest = Math.min(smallest, c.value());
        }
        assertTrue(smallest < 1e-15, "the set reaches below 1e-15");
    }
}
