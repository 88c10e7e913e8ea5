package org.dpgauss.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The one clipping routine at every scale (issue 24, item 1): rows and radii from 1e-300 to 1e300 (and rows up to
 * {@code Double.MAX_VALUE}), checked against the exact norm in BigDecimal. A routine that compares a squared norm
 * with {@code C * C} fails here: above C ~ 1e154 it never clips, below C ~ 1e-154 it clips everything to 0 or
 * nothing.
 */
class L2ClipTest {

    private static final MathContext MC = new MathContext(60);

    private static BigDecimal exactNorm(double[] v) {
        BigDecimal s = BigDecimal.ZERO;
        for (double x : v) {
            BigDecimal b = new BigDecimal(x);
            s = s.add(b.multiply(b));
        }
        return s.sqrt(MC);
    }

    @Test
    void clipsToTheTargetAtEveryScale() {
        SplittableRandom g = new SplittableRandom(24);
        double[] scales = {1e-300, 1e-200, 1e-160, 1e-150, 1e-100, 1, 1e100, 1e150, 1e160, 1e200, 1e300};
        for (double radius : scales) {
            for (double rowScale : scales) {
                for (int d : new int[] {1, 3, 50}) {
                    double[] v = new double[d];
                    for (int j = 0; j < d; j++) {
                        v[j] = rowScale * g.nextGaussian();
                    }
                    double[] w = v.clone();
                    double factor = L2Clip.clip(w, radius);
                    BigDecimal before = exactNorm(v);
                    BigDecimal after = exactNorm(w);
                    BigDecimal r = new BigDecimal(radius);
                    String at = "radius " + radius + ", rows " + rowScale + ", d " + d;
                    if (before.compareTo(r.multiply(new BigDecimal(1 - 1e-12))) < 0) {
                        assertArrayEquals(v, w, 0.0, "inside the ball: unchanged, " + at);
                        assertEquals(1.0, factor, at);
                    } else if (before.compareTo(r.multiply(new BigDecimal(1 + 1e-12))) > 0) {
                        // clipped onto the sphere: within (d + 2) u of the radius, and the direction kept
                        double rel = after.subtract(r).abs().divide(r, MC).doubleValue();
                        assertTrue(rel <= (d + 2) * 0x1p-53 * 1.01, at + ": relative error " + rel);
                        assertTrue(factor < 1, at);
                        for (int j = 0; j < d; j++) {
                            assertTrue(Math.signum(w[j]) == Math.signum(v[j]) || w[j] == 0, at);
                        }
                    }
                }
            }
        }
    }

    @Test
    void theIssuesRepro() {
        double[] row = {1e205, 0};
        double f = L2Clip.clip(row, 1e200);
        assertEquals(1e200, row[0], 1e186);
        assertEquals(1e-5, f, 1e-19);
        double[] tiny = {3e-305, 4e-305};
        L2Clip.clip(tiny, 1e-306);
        assertEquals(6e-307, tiny[0], 1e-320);
        assertEquals(8e-307, tiny[1], 1e-320);
        double[] inside = {3e-160, 4e-160}; // squares underflow: a C*C routine would see 0 and keep it
        assertEquals(1.0, L2Clip.clip(inside.clone(), 5.0000001e-160));
        double[] outside = inside.clone();
        assertTrue(L2Clip.clip(outside, 4.9e-160) < 1, "a squared comparison underflows and keeps this row");
    }

    @Test
    void rowsNearTheLargestDoubleAndDifferencesThatOverflow() {
        double[] max = {Double.MAX_VALUE, -Double.MAX_VALUE, Double.MAX_VALUE};
        L2Clip.clip(max, 2.0);
        for (double v : max) {
            assertEquals(2 / Math.sqrt(3), Math.abs(v), 1e-15);
        }
        double[] out = new double[2];
        L2Clip.clipDifference(new double[] {Double.MAX_VALUE, 0}, 0, new double[] {-Double.MAX_VALUE, 0}, out, 1e300);
        assertEquals(1e300, out[0], 1e286, "x - c overflows: the direction is kept, the norm is the target");
        assertEquals(0.0, out[1]);
        L2Clip.clipDifference(new double[] {5, 1}, 0, new double[] {2, -3}, out, 10);
        assertArrayEquals(new double[] {3, 4}, out, 0.0, "inside: the plain difference");
        L2Clip.clipDifference(new double[] {0, 7, 0, 5, 1}, 3, new double[] {2, -3}, out, 2.5);
        assertArrayEquals(new double[] {1.5, 2}, out, 1e-15, "from an offset");
    }

    @Test
    void zeroAndSubnormalRows() {
        double[] z = {0, -0.0};
        assertEquals(1.0, L2Clip.clip(z, Double.MIN_NORMAL));
        double[] sub = {Double.MIN_VALUE, Double.MIN_VALUE};
        assertEquals(1.0, L2Clip.clip(sub, Double.MIN_NORMAL), "a subnormal row is inside every admitted ball");
        double[] many = new double[400];
        java.util.Arrays.fill(many, Double.MIN_NORMAL / 2);
        double f = L2Clip.clip(many, Double.MIN_NORMAL);
        assertTrue(f < 1);
        assertTrue(exactNorm(many).compareTo(new BigDecimal(Double.MIN_NORMAL).multiply(new BigDecimal(1 + 1e-10)))
                <= 0);
    }

    @Test
    void thePlainFastPathDecidesAsTheRoutineAtEveryScale() {
        SplittableRandom g = new SplittableRandom(7);
        for (double radius : new double[] {1e-300, 1e-160, 1e-150, 1, 1e150, 1e160, 1e300}) {
            for (int t = 0; t < 200; t++) {
                double[] v = new double[1 + g.nextInt(20)];
                double s = Math.scalb(1.0, g.nextInt(-390, 390));
                for (int j = 0; j < v.length; j++) {
                    v[j] = s * g.nextGaussian();
                }
                double[] a = v.clone();
                double[] b = v.clone();
                assertTrue(L2Clip.clipPlain(a, 0, a.length, radius));
                L2Clip.clip(b, radius);
                assertArrayEquals(b, a, 0.0, "radius " + radius);
            }
        }
        assertTrue(!L2Clip.clipPlain(new double[] {1e300}, 0, 1, 1.0), "outside the plain range: not decided");
    }

    @Test
    void exceedsComparesTheNormNotItsSquare() {
        assertTrue(L2Clip.exceeds(new double[] {3e200, 4e200}, 0, 2, 4.9e200));
        assertTrue(!L2Clip.exceeds(new double[] {3e200, 4e200}, 0, 2, 5.1e200));
        assertTrue(L2Clip.exceeds(new double[] {3e-200, 4e-200}, 0, 2, 4.9e-200));
        assertTrue(!L2Clip.exceeds(new double[] {3e-200, 4e-200}, 0, 2, 5.1e-200));
    }

    @Test
    void radiiAreCheckedBeforeTheData() {
        assertEquals(1e300, L2Clip.checkRadius("C", 1e300));
        assertEquals(Double.MIN_NORMAL, L2Clip.checkRadius("C", Double.MIN_NORMAL));
        for (double bad : new double[] {0, -1, Double.MIN_VALUE, 0x1p1001, Double.MAX_VALUE,
            Double.POSITIVE_INFINITY, Double.NaN}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> L2Clip.checkRadius("C",
                    bad));
            assertTrue(e.getMessage().startsWith("C="), e.getMessage());
        }
    }
}
