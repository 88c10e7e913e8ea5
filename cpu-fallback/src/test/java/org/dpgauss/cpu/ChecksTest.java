package org.dpgauss.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.Philox4x32;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** The checks both backends (CPU primitives and GpuEngine) run before any work. */
class ChecksTest {

    @Test
    void divisorMustBeFiniteAndPositive() {
        assertDoesNotThrow(() -> Checks.divisor(3.0));
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Checks.divisor(bad));
            assertTrue(e.getMessage().contains("divisor m="), e.getMessage());
        }
    }

    @Test
    void weightsAreNullOrOneFiniteNonNegativePerRow() {
        assertDoesNotThrow(() -> Checks.weights(null, 4));
        assertDoesNotThrow(() -> Checks.weights(new double[] {0, 1, 2}, 3));
        assertThrows(IllegalArgumentException.class, () -> Checks.weights(new double[] {1, 1}, 3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Checks.weights(new double[] {1, -0.5, 1}, 3));
        assertTrue(e.getMessage().contains("w_1=-0.5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Checks.weights(new double[] {Double.NaN}, 1));
    }

    @Test
    void thresholdMustBeFiniteAndPositive() {
        assertDoesNotThrow(() -> Checks.threshold(0.5));
        assertThrows(IllegalArgumentException.class, () -> Checks.threshold(0));
        assertThrows(IllegalArgumentException.class, () -> Checks.threshold(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Checks.threshold(Double.POSITIVE_INFINITY));
    }

    @Test
    void startSetIsAFreshCopyOrAllRows() {
        assertArrayEquals(new boolean[] {true, true, true}, Checks.startSet(null, 3));
        boolean[] start = {true, false};
        boolean[] s = Checks.startSet(start, 2);
        assertArrayEquals(start, s);
        assertNotSame(start, s);
        s[0] = false;
        assertTrue(start[0], "the caller's start set must not be modified");
        assertThrows(IllegalArgumentException.class, () -> Checks.startSet(new boolean[] {true}, 2));
    }

    @Test
    void symmetricToleratesRoundingButNotAsymmetry() {
        assertDoesNotThrow(() -> Checks.symmetric(new DMatrixRMaj(new double[][] {{2, 1}, {1 + 1e-12, 3}}), "a"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Checks.symmetric(new DMatrixRMaj(new double[][] {{2, 1}, {1.5, 3}}), "a"));
        assertTrue(e.getMessage().startsWith("a is not symmetric: |a(1,0) - a(0,1)| = 0.5"), e.getMessage());
    }

    @Test
    void referenceDistancesNeedMatchingColumnsAndKeepInRange() {
        RowBlockMatrix x = RowBlockMatrix.zeros(4, 2);
        RowBlockMatrix r = RowBlockMatrix.zeros(3, 2);
        assertDoesNotThrow(() -> Checks.referenceDistances(x, r, 3));
        assertThrows(IllegalArgumentException.class, () -> Checks.referenceDistances(x, r, 0));
        assertThrows(IllegalArgumentException.class, () -> Checks.referenceDistances(x, r, 4));
        assertThrows(IllegalArgumentException.class,
                () -> Checks.referenceDistances(x, RowBlockMatrix.zeros(3, 1), 1));
        assertThrows(IllegalArgumentException.class, () -> Checks.referenceDistances(x, null, 1));
    }

    @Test
    void radiusAndProjectionArguments() {
        assertDoesNotThrow(() -> Checks.radius(0));
        assertThrows(IllegalArgumentException.class, () -> Checks.radius(-1e-300));
        assertThrows(IllegalArgumentException.class, () -> Checks.radius(Double.NaN));
        RowBlockMatrix x = RowBlockMatrix.zeros(4, 2);
        Philox4x32 g = Philox4x32.withKey(1L, 0L);
        assertDoesNotThrow(() -> Checks.projection(x, 3, g, 0));
        assertThrows(IllegalArgumentException.class, () -> Checks.projection(x, 0, g, 0));
        assertThrows(IllegalArgumentException.class, () -> Checks.projection(x, 3, null, 0));
        assertThrows(IllegalArgumentException.class, () -> Checks.projection(x, 3, g, -1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Checks.projection(x, 3, g, Long.MAX_VALUE - 11));
        assertTrue(e.getMessage().contains("overflow"), e.getMessage());
        assertDoesNotThrow(() -> Checks.projection(x, 3, g, Long.MAX_VALUE - 12));
    }

    @Test
    void weightedGramChecksDataDivisorAndWeights() {
        RowBlockMatrix y = RowBlockMatrix.zeros(2, 3);
        assertArrayEquals(new int[] {0, 1}, Checks.weightedGram(y, null, null, 2));
        int[] rows = {1, 1};
        assertArrayEquals(rows, Checks.weightedGram(y, rows, new double[] {0, 1}, 2));
        assertThrows(IllegalArgumentException.class, () -> Checks.weightedGram(y, new int[] {2}, null, 2));
        assertThrows(IllegalArgumentException.class, () -> Checks.weightedGram(null, null, null, 2));
        assertThrows(IllegalArgumentException.class, () -> Checks.weightedGram(y, null, null, 0));
        assertThrows(IllegalArgumentException.class, () -> Checks.weightedGram(y, null, new double[3], 2));
    }
}
