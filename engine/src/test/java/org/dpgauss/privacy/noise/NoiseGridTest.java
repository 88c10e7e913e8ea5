package org.dpgauss.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NoiseGridTest {

    @Test
    void spacingIsTheTwentyBitPowerOfTwoBelowTheScale() {
        assertEquals(0x1p-20, NoiseGrid.spacing("sigma", 1.0), 0.0);
        assertEquals(0x1p-20, NoiseGrid.spacing("sigma", 1.999), 0.0);
        assertEquals(0x1p-19, NoiseGrid.spacing("sigma", 2.0), 0.0);
        assertEquals(0x1p-1, NoiseGrid.spacing("sigma", 1e6), 0.0); // 2^19 <= 1e6 < 2^20
        assertEquals((long) Math.ceil(1e6 * 2), NoiseGrid.integerScale("sigma", 1e6, 0.5));
    }

    @Test
    void indexRoundsToTheNearestGridPointAndRejectsUnrepresentableValues() {
        assertEquals(3, NoiseGrid.index(0.74, 0.25));
        assertEquals(-3, NoiseGrid.index(-0.76, 0.25));
        assertThrows(IllegalArgumentException.class, () -> NoiseGrid.index(Double.NaN, 0.25));
        assertThrows(IllegalArgumentException.class, () -> NoiseGrid.index(1e10, 0x1p-60));
        assertThrows(IllegalArgumentException.class, () -> NoiseGrid.index(1.0, 0.3));
    }

    @Test
    void roundingInflationBoundsTheWorstCaseOfTwoRoundings() {
        // f(x) = (g/2 - tiny) 1, f(x') = (-g/2 + tiny) 1 round apart by g in each coordinate: distance g sqrt(d)
        double g = 0.25;
        int d = 9;
        double tiny = 1e-9;
        double dist2 = 0;
        for (int j = 0; j < d; j++) {
            long a = NoiseGrid.index(g / 2 + tiny, g);
            long b = NoiseGrid.index(-g / 2 + tiny, g);
            dist2 += (a - b) * g * (a - b) * g;
        }
        double rawDistance = 2 * tiny * Math.sqrt(d);
        assertTrue(Math.sqrt(dist2) <= rawDistance + NoiseGrid.l2RoundingInflation(g, d));
        assertEquals(g * 3, NoiseGrid.l2RoundingInflation(g, d), 1e-15);
        assertEquals(g * d, NoiseGrid.l1RoundingInflation(g, d), 0.0);
        assertThrows(IllegalArgumentException.class, () -> NoiseGrid.l2RoundingInflation(g, 0));
    }
}
