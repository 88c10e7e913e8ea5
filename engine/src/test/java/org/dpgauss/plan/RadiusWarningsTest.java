package org.dpgauss.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.dpgauss.privacy.ApproxDp;
import org.junit.jupiter.api.Test;

/**
 * Issue 29: the planner warns, from public facts only, when a public radius is large against the predicted error it
 * leads to, and when public per-column facts show columns of very different scales. Deterministic (no data, no
 * randomness).
 */
class RadiusWarningsTest {

    private static final ApproxDp EPS1 = ApproxDp.of(1, 1e-6);

    private static List<String> warnings(PlanQuery q) {
        Planner.Plan p = Planner.plan(q);
        assertEquals(p.warnings(), p.toMap().get("warnings"), "the JSON field carries the same warnings");
        return p.warnings();
    }

    @Test
    void clippedMeanWarnsWhenItsPredictedErrorIsALargeShareOfTheRadius() {
        // n = 150, d = 4, eps = 1, clip 10: the clipped mean predicts about 1.14, 11% of the radius
        PlanQuery small = PlanQuery.builder(Family.MEAN, 150, 4, EPS1).clipRadius(10).build();
        double e = Planner.plan(small).methods().stream().filter(m -> m.method().equals("clipped")).findFirst()
                .orElseThrow().predicted().orElseThrow().expected();
        assertTrue(e >= 0.1 * 10 && e < 0.2 * 10, "premise: " + e);
        List<String> w = warnings(small);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("11% of the radius --clip 10"), w.get(0));
        // 100x the rows: the share is about 0.1%, no warning (kills a warning that ignores the share)
        assertEquals(List.of(), warnings(PlanQuery.builder(Family.MEAN, 15_000, 4, EPS1).clipRadius(10).build()));
        // just below the threshold: n such that the share is under 10% (kills a threshold at a smaller share)
        assertEquals(List.of(), warnings(PlanQuery.builder(Family.MEAN, 200, 4, EPS1).clipRadius(10).build()));
    }

    @Test
    void publicBoundsOfVeryDifferentWidthsAreWarnedOf() {
        double[] lo = new double[3];
        double[] hi = {1, 1, 10};
        List<String> w = warnings(PlanQuery.builder(Family.MEAN, 100_000, 3, EPS1).bounds(lo, hi).build());
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("differ by a factor 10 (from 1 to 10)"), w.get(0));
        // widths within a factor 10: none
        double[] close = {1, 1, 9.9};
        assertEquals(List.of(), warnings(PlanQuery.builder(Family.MEAN, 100_000, 3, EPS1).bounds(lo, close).build()));
    }

    @Test
    void publicVariancesBelowTheNoisePerCoordinateAreCounted() {
        // n = 10,000, d = 4, clip 10: noise per coordinate about 0.0085 (share 0.17%, no share warning)
        double[] v = {1, 1, 1e-6, 1e-6};
        List<String> w = warnings(PlanQuery.builder(Family.MEAN, 10_000, 4, EPS1).clipRadius(10).variances(v)
                .build());
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("2 of the 4 columns"), w.get(0));
        double[] all = new double[4];
        Arrays.fill(all, 1);
        assertEquals(List.of(), warnings(PlanQuery.builder(Family.MEAN, 10_000, 4, EPS1).clipRadius(10)
                .variances(all).build()));
    }

    @Test
    void secondMomentWarnsAgainstRSquared() {
        List<String> w = warnings(PlanQuery.builder(Family.SECOND_MOMENT, 150, 4, EPS1).rowBound(10).build());
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("of R^2 = 100"), w.get(0));
        assertEquals(List.of(), warnings(PlanQuery.builder(Family.SECOND_MOMENT, 100_000, 4, EPS1).rowBound(10)
                .build()));
    }
}
