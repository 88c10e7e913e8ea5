package org.dpgauss.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GoodSubsetTest {

    @Test
    void indicesOfListsTheTrueEntriesInIncreasingOrder() {
        assertArrayEquals(new int[] {0, 2, 5}, GoodSubset.indicesOf(new boolean[] {true, false, true, false, false, true}));
        assertArrayEquals(new int[0], GoodSubset.indicesOf(new boolean[] {false, false}));
        assertArrayEquals(new int[0], GoodSubset.indicesOf(new boolean[0]));
    }

    @Test
    void instanceIndicesAgreeWithIndicesOfAndSize() {
        boolean[] m = {false, true, true, false, true};
        GoodSubset g = new GoodSubset(m, 3);
        assertArrayEquals(GoodSubset.indicesOf(m), g.indices());
        assertEquals(3, g.size());
    }
}
