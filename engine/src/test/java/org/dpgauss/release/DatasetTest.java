package org.dpgauss.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatasetTest {

    @Test
    void errorsNameRowColumnAndRuleNotTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{1, 2}, {3, Double.NaN}}));
        assertTrue(e.getMessage().contains("row 2, column 2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{1.5, 2}, {31337.25}}));
        assertTrue(e.getMessage().contains("row 2 has 1 columns"), e.getMessage());
        assertFalse(e.getMessage().contains("31337"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Dataset.of(new double[0][]));
        assertThrows(IllegalArgumentException.class, () -> Dataset.of(new double[][] {{}}));
    }

    /** From a file: the reader's check is the only one, and it still names the row and the column. */
    @Test
    void readRejectsNonFiniteValuesWithTheirCell(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        double[][] rows = new double[1000][7];
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < 7; j++) {
                rows[i][j] = i - 3.5 * j;
            }
        }
        java.nio.file.Path ok = dir.resolve("ok.npy");
        org.dpgauss.io.NpyWriter.write(ok, org.dpgauss.linalg.RowBlockMatrix.of(rows));
        Dataset d = Dataset.read(ok);
        assertEquals(1000, d.size());
        assertEquals(rows[999][6], d.matrix().get(999, 6), 0.0);
        for (double bad : new double[] {Double.NaN, Double.NEGATIVE_INFINITY}) {
            rows[700][5] = bad;
            java.nio.file.Path npy = dir.resolve("bad.npy");
            org.dpgauss.io.NpyWriter.write(npy, org.dpgauss.linalg.RowBlockMatrix.of(rows));
            Exception e = assertThrows(org.dpgauss.io.DataFormatException.class, () -> Dataset.read(npy));
            assertTrue(e.getMessage().contains("701") && e.getMessage().contains("6"), e.getMessage());
        }
        java.nio.file.Path csv = dir.resolve("bad.csv");
        java.nio.file.Files.writeString(csv, "a,b\n1,2\n3,inf\n");
        assertThrows(org.dpgauss.io.DataFormatException.class, () -> Dataset.read(csv));
    }

    @Test
    void rowsAreCopied() {
        double[][] rows = {{1, 2}};
        Dataset d = Dataset.of(rows);
        rows[0][0] = 5;
        assertEquals(1.0, d.matrix().get(0, 0), 0.0);
        assertEquals(2, d.dimension());
        assertEquals(1, d.size());
    }

    /** Every cell of a matrix of several blocks whose lengths are not multiples of four, each non-finite kind. */
    @Test
    void everyNonFiniteCellIsFoundWithItsRowAndColumn() {
        int n = 7;
        int d = 3;
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < d; j++) {
                    org.dpgauss.linalg.RowBlockMatrix m = org.dpgauss.linalg.RowBlockMatrix.zeros(n, d, 3);
                    for (int r = 0; r < n; r++) {
                        m.setRow(r, new double[] {-r, r + 0.5, -1e300});
                    }
                    m.set(i, j, bad);
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Dataset.of(m));
                    assertTrue(e.getMessage().contains("row " + (i + 1) + ", column " + (j + 1) + " "),
                            e.getMessage());
                }
            }
        }
        assertEquals(7, Dataset.of(org.dpgauss.linalg.RowBlockMatrix.zeros(n, d, 3)).size());
    }
}
