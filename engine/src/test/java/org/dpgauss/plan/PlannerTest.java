package org.dpgauss.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.ConversionPolicy;
import org.junit.jupiter.api.Test;

class PlannerTest {

    @Test
    void theClippedMeanIsPlannedWithItsOwnStatement() {
        PlanQuery q = PlanQuery.builder(Family.MEAN, 10_000, 5, ApproxDp.of(1, 1e-6)).clipRadius(10).build();
        Planner.Plan p = Planner.plan(q);
        PlannedMethod clipped = p.methods().stream().filter(m -> m.method().equals("clipped")).findFirst()
                .orElseThrow();
        assertTrue(clipped.applicable());
        // the prediction is the mechanism's own accuracy statement at the same facts
        ClippedGaussianMean m = ClippedGaussianMean.of(10, new double[5], ConversionPolicy.rhoFor(1, 1e-6));
        assertEquals(m.accuracy(10_000, 0.95).expected(), clipped.predicted().orElseThrow().expected(), 0.0);
        assertTrue(p.recommended().isPresent());
    }

    @Test
    void withoutAPublicRadiusTheClippedMeanSaysWhatItNeeds() {
        PlanQuery q = PlanQuery.builder(Family.MEAN, 10_000, 5, ApproxDp.of(1, 1e-6)).build();
        PlannedMethod clipped = Planner.plan(q).methods().stream().filter(m -> m.method().equals("clipped"))
                .findFirst().orElseThrow();
        assertFalse(clipped.applicable());
        assertTrue(clipped.reason().contains("radius"), clipped.reason());
        // issue 15 item 3: without a public bound the planner recommends private parameter finding
        Planner.Plan p = Planner.plan(q);
        assertEquals("clipped --clip auto", p.recommended().orElseThrow().method());
    }

    @Test
    void minimumRowsFindsTheThreshold() {
        assertEquals(1234, Planner.minimumRows(n -> {
            if (n < 1234) {
                throw new IllegalArgumentException("n >= 1234 rows are needed");
            }
            return n;
        }, 1 << 30));
        assertEquals(-1, Planner.minimumRows(n -> {
            throw new IllegalArgumentException("never");
        }, 100));
    }
}
