package org.dpgauss.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.dpgauss.privacy.ApproxDp;
import org.junit.jupiter.api.Test;

/** Composition formulas against values computed by hand (Python 3 math, shown in the comments). */
class CompositionTest {

    @Test
    void basicAddsEpsilonsAndDeltas() {
        ApproxDp total = Composition.basic(List.of(ApproxDp.of(0.5, 1e-6), ApproxDp.of(0.25, 0), ApproxDp.of(1, 2e-6)));
        assertEquals(1.75, total.epsilon(), 0.0);
        assertEquals(3e-6, total.delta(), 1e-21);
        assertEquals(ApproxDp.ZERO, Composition.basic(List.of()));
    }

    @Test
    void drvMatchesTheFormula() {
        // sqrt(2*100*ln(1e5))*0.1 + 100*0.1*(e^0.1 - 1) = 5.850235092944558
        ApproxDp g = Composition.advancedDrv(ApproxDp.of(0.1, 1e-8), 100, 1e-5);
        assertEquals(5.850235092944558, g.epsilon(), 1e-12);
        assertEquals(100 * 1e-8 + 1e-5, g.delta(), 1e-20);
    }

    @Test
    void kovIsTheMinimumOfItsThreeTermsAndNeverWorseThanDrv() {
        // 100 x eps = 0.1, delta' = 1e-5: B = 100*0.1*tanh(0.05); the log(1/delta') term wins: 5.2981096617668815
        ApproxDp k = Composition.advancedHeterogeneous(Collections.nCopies(100, ApproxDp.of(0.1, 0)), 1e-5);
        assertEquals(5.2981096617668815, k.epsilon(), 1e-12);
        assertEquals(1e-5, k.delta(), 0.0);
        assertTrue(k.epsilon() < Composition.advancedDrv(ApproxDp.of(0.1, 0), 100, 1e-5).epsilon());
        // heterogeneous: 50 x 0.1 and 50 x 0.2, delta' = 1e-5; basic 15, the three terms 15, 8.98310158556929,
        // 8.833607467964693
        List<ApproxDp> het = new ArrayList<>(Collections.nCopies(50, ApproxDp.of(0.1, 1e-9)));
        het.addAll(Collections.nCopies(50, ApproxDp.of(0.2, 1e-9)));
        ApproxDp h = Composition.advancedHeterogeneous(het, 1e-5);
        assertEquals(8.833607467964693, h.epsilon(), 1e-12);
        assertEquals(100e-9 + 1e-5, h.delta(), 1e-20);
        // few releases: the basic sum is the minimum
        ApproxDp few = Composition.advancedHeterogeneous(List.of(ApproxDp.of(0.5, 0), ApproxDp.of(0.1, 0)), 1e-6);
        assertEquals(0.6, few.epsilon(), 1e-15);
    }

    @Test
    void invalidArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Composition.advancedDrv(ApproxDp.of(1, 0), 0, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> Composition.advancedDrv(ApproxDp.of(1, 0), 3, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Composition.advancedHeterogeneous(List.of(ApproxDp.of(1, 0)), 1.5));
        assertTrue(e.getMessage().contains("delta'=1.5") && e.getMessage().contains("(0, 1)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Composition.advancedHeterogeneous(List.of(), 1e-6));
        assertThrows(IllegalArgumentException.class,
                () -> Composition.basic(List.of(ApproxDp.of(1, 0.6), ApproxDp.of(1, 0.6))));
    }
}
