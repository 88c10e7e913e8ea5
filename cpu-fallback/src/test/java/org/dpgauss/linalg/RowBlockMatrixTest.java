package org.dpgauss.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RowBlockMatrixTest {

    static double[][] data(int n, int d) {
        double[][] a = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                a[i][j] = i * 100 + j;
            }
        }
        return a;
    }

    @Test
    void blocksHoldWholeRowsAndTheLastBlockIsShort() {
        RowBlockMatrix m = RowBlockMatrix.of(data(10, 3), 4);
        assertEquals(3, m.blockCount());
        assertEquals(4, m.blockRowCount(0));
        assertEquals(2, m.blockRowCount(2));
        assertEquals(8, m.blockStart(2));
        assertEquals(12, m.block(0).length);
        assertEquals(6, m.block(2).length);
        assertEquals(902.0, m.get(9, 2), 0.0);
        assertArrayEquals(new double[] {500, 501, 502}, m.row(5), 0.0);
        assertEquals(30L, m.size());
    }

    @Test
    void rowAccessAcrossBlockBoundariesAndSelection() {
        double[][] a = data(17, 2);
        RowBlockMatrix m = RowBlockMatrix.of(a, 5);
        for (int i = 0; i < 17; i++) {
            assertArrayEquals(a[i], m.row(i), 0.0);
        }
        RowBlockMatrix s = m.selectRows(new int[] {16, 4, 5, 4});
        assertArrayEquals(a[16], s.row(0), 0.0);
        assertArrayEquals(a[4], s.row(3), 0.0);
        m.set(5, 1, -1);
        assertEquals(-1, m.get(5, 1), 0.0);
        assertEquals(a[5][1], s.get(2, 1), 0.0, "selection is a copy");
    }

    @Test
    void equalityIgnoresBlockLayoutAndCopiesAreDeep() {
        RowBlockMatrix a = RowBlockMatrix.of(data(9, 3), 2);
        RowBlockMatrix b = RowBlockMatrix.of(data(9, 3), 9);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        RowBlockMatrix c = a.copy();
        c.set(0, 0, 42);
        assertNotEquals(a, c);
        assertEquals(0.0, a.get(0, 0), 0.0);
    }

    @Test
    void defaultBlocksStayWithinOneArrayBudget() {
        RowBlockMatrix m = RowBlockMatrix.zeros(3_000_000, 7);
        assertTrue((long) m.blockRows() * 7 <= RowBlockMatrix.DEFAULT_BLOCK_ELEMENTS);
        assertTrue(m.blockCount() > 1, "21M values need more than one default block");
        long total = 0;
        for (int b = 0; b < m.blockCount(); b++) {
            total += m.block(b).length;
        }
        assertEquals(m.size(), total);
    }

    @Test
    void invalidShapesAndIndicesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> RowBlockMatrix.zeros(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> RowBlockMatrix.zeros(2, 0));
        assertThrows(IllegalArgumentException.class, () -> RowBlockMatrix.zeros(10, 2, 0));
        assertThrows(IllegalArgumentException.class, () -> RowBlockMatrix.zeros(10, 1 << 20, 1 << 12),
                "a block larger than one Java array");
        assertThrows(IllegalArgumentException.class, () -> RowBlockMatrix.of(new double[][] {{1, 2}, {3}}));
        assertThrows(IllegalArgumentException.class, () -> RowBlockMatrix.of(new double[0][]));
        RowBlockMatrix m = RowBlockMatrix.zeros(3, 2);
        assertThrows(IndexOutOfBoundsException.class, () -> m.get(3, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> m.get(0, 2));
        assertThrows(IllegalArgumentException.class, () -> m.setRow(0, new double[3]));
    }
}
