package org.dpgauss.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Golden values from mpmath 1.3.0 at 40 digits ({@code mp.ncdf}, {@code mp.log(mp.ncdf(x))}). */
class NormalTest {

    private static void assertRelative(double expected, double actual, double tol) {
        assertEquals(expected, actual, Math.abs(expected) * tol, () -> "expected " + expected + " got " + actual);
    }

    @Test
    void cdfAndSurvivalAreRelativelyAccurateInBothTails() {
        assertRelative(7.619853024160526066e-24, Normal.cdf(-10), 1e-14);
        assertRelative(7.619853024160526066e-24, Normal.sf(10), 1e-14);
        assertRelative(0.15865525393145705141, Normal.cdf(-1), 1e-15);
        assertRelative(0.84134474606854294859, Normal.cdf(1), 1e-15);
        assertEquals(0.5, Normal.cdf(0), 0);
    }

    @Test
    void logCdfDoesNotUnderflow() {
        assertRelative(-804.60844201375378817, Normal.logCdf(-40), 1e-14);
        assertRelative(-53.231285150512470578, Normal.logCdf(-10), 1e-14);
        assertRelative(-1.8410216450092635058, Normal.logCdf(-1), 1e-15);
        assertRelative(-0.17275377902344988953, Normal.logCdf(1), 1e-14);
        assertRelative(-7.6198530241605260704e-24, Normal.logCdf(10), 1e-13);
        assertRelative(-804.60844201375378817, Normal.logSf(40), 1e-14);
    }

    @Test
    void quantilesInvertBothTails() {
        for (double x : new double[] {-37.5, -30, -8, -1.5, 0.3, 2}) {
            assertEquals(x, Normal.quantile(Normal.cdf(x)), 1e-12 * Math.max(1, Math.abs(x)));
            assertEquals(-x, Normal.inverseSf(Normal.sf(-x)), 1e-12 * Math.max(1, Math.abs(x)));
        }
        assertThrows(IllegalArgumentException.class, () -> Normal.quantile(1.5));
    }

    @Test
    void probabilityBetweenKeepsTailMass() {
        assertRelative(Normal.sf(9) - Normal.sf(10), Normal.probabilityBetween(9, 10), 1e-15);
        assertEquals(1 - 2 * Normal.sf(1), Normal.probabilityBetween(-1, 1), 1e-15);
    }
}
