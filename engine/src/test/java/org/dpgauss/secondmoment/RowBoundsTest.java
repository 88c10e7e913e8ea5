package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.linalg.Norms;
import org.dpgauss.linalg.RowBlockMatrix;
import org.junit.jupiter.api.Test;

/** The whole-matrix clipping against the row-by-row definition ({@link RowBounds#scaleAndClipRow}). */
class RowBoundsTest {

    /** Rows short and long, moderate and extreme (the in-place fast path and the safe path), across blocks. */
    @Test
    void scaleAndClipEqualsRowByRowBitForBit() {
        SplittableRandom rnd = new SplittableRandom(16);
        int n = 257;
        int d = 13;
        RowBlockMatrix x = RowBlockMatrix.zeros(n, d, 10); // blocks of 10 rows: the output uses its own layout
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            double scale = i % 17 == 0 ? 0x1p500 : i % 19 == 0 ? 0x1p-450 : i % 2 == 0 ? 0.5 : 3.0;
            for (int j = 0; j < d; j++) {
                row[j] = rnd.nextGaussian() * scale;
            }
            x.setRow(i, row);
        }
        double radius = 5.0;
        for (double scale : new double[] {1.0, 0.25}) {
            RowBlockMatrix clipped = RowBounds.scaleAndClip(x, scale, radius);
            int changed = 0;
            for (int i = 0; i < n; i++) {
                double[] expected = x.row(i);
                RowBounds.scaleAndClipRow(expected, scale, radius, radius * RowBounds.safety(d));
                assertArrayEquals(expected, clipped.row(i), "row " + i + " scale " + scale);
                assertTrue(Norms.euclidean(clipped.row(i)) <= radius, "row " + i);
                if (!java.util.Arrays.equals(expected, x.row(i))) {
                    changed++;
                }
            }
            assertTrue(changed > n / 4, "long rows must have been clipped");
        }
    }

    @Test
    void clipOrShareSharesOnlyWhenNothingChanges() {
        double[][] rows = {{3, 4}, {0, 0}, {0.6, -0.8}, {1e-3, 2e-3}};
        RowBlockMatrix x = RowBlockMatrix.of(rows, 3);
        assertSame(x, RowBounds.clipOrShare(x, 5.0 * (1 + 1e-12)), "every norm within the target: no copy");
        // a row at exactly R is above the target R (1 - 4 (d + 2) u), so it is clipped and the matrix copied
        RowBlockMatrix clipped = RowBounds.clipOrShare(x, 1.0);
        assertNotSame(x, clipped);
        RowBlockMatrix expected = RowBounds.scaleAndClip(x, 1.0, 1.0);
        for (int i = 0; i < rows.length; i++) {
            assertArrayEquals(expected.row(i), clipped.row(i), "row " + i);
            assertArrayEquals(rows[i], x.row(i), "the input is untouched");
        }
        RowBlockMatrix atRadius = RowBlockMatrix.of(new double[][] {{0.6, -0.8}, {0.1, 0.1}});
        assertNotSame(atRadius, RowBounds.clipOrShare(atRadius, 1.0), "norm R itself exceeds the clip target");
        RowBlockMatrix huge = RowBlockMatrix.of(new double[][] {{1, 1}, {0x1p450, 0}});
        assertNotSame(huge, RowBounds.clipOrShare(huge, 0x1p460), "extreme entries take the safe path");
    }

    /**
     * The one-pass clip agrees with {@link RowBounds#clip} bit for bit where it applies, and declines (row untouched)
     * for a non-finite row or an entry outside the plain range, at an even or an odd position.
     */
    @Test
    void clipPlainEqualsClipOrDeclines() {
        SplittableRandom rnd = new SplittableRandom(61);
        double target = 4.0 * RowBounds.safety(7);
        for (int d : new int[] {1, 6, 7, 100}) {
            for (int t = 0; t < 300; t++) {
                double[] buf = new double[d + 3];
                double scale = t % 2 == 0 ? 0.5 : 3.0; // short and long rows: kept and clipped
                for (int j = 0; j < buf.length; j++) {
                    buf[j] = rnd.nextGaussian() * scale;
                }
                if (t % 5 == 0) { // within a few ulps of the target: decided by the sequential sum
                    double norm = 0;
                    for (int j = 2; j < 2 + d; j++) {
                        norm += buf[j] * buf[j];
                    }
                    double f = target / Math.sqrt(norm) * (1 + (t % 3 - 1) * 0x1p-50);
                    for (int j = 2; j < 2 + d; j++) {
                        buf[j] *= f;
                    }
                }
                double[] expected = java.util.Arrays.copyOfRange(buf, 2, 2 + d);
                RowBounds.clip(expected, 4.0, target);
                double[] before = buf.clone();
                assertTrue(RowBounds.clipPlain(buf, 2, d, target), "d " + d + " trial " + t);
                assertArrayEquals(expected, java.util.Arrays.copyOfRange(buf, 2, 2 + d), "d " + d + " trial " + t);
                assertEquals(before[0], buf[0]);
                assertEquals(before[1], buf[1]);
                assertEquals(before[2 + d], buf[2 + d], "nothing outside the row is written");
            }
        }
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, 0x1p450}) {
            for (int at = 0; at < 3; at++) {
                double[] row = {1.0, 2.0, 3.0};
                row[at] = bad;
                double[] before = row.clone();
                assertFalse(RowBounds.clipPlain(row, 0, 3, target), bad + " at " + at);
                assertArrayEquals(before, row, "declined rows are untouched");
            }
        }
        assertFalse(RowBounds.clipPlain(new double[] {0x1p-450, -0x1p-451}, 0, 2, target), "all entries tiny");
        assertFalse(RowBounds.clipPlain(new double[] {0.0, 0.0}, 0, 2, target), "the zero row takes clip's path");
    }
}
