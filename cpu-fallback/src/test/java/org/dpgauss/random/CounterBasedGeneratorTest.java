package org.dpgauss.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The derived-stream contract (word, uniform, normal) and bulk/per-element equality. */
class CounterBasedGeneratorTest {

    private static final int[] KEY = {0x01234567, 0x89abcdef, 0xdeadbeef, 0x0badf00d,
        0x13579bdf, 0x2468ace0, 0x7f7f7f7f, 0x80000001};

    private static List<CounterBasedGenerator> generators() {
        return List.of(ChaCha20.withKey(KEY, 0x1234_5678_9abcL), Philox4x32.withKey(0xfeedfacecafebeefL, 3L));
    }

    @Test
    void wordLayout() {
        for (CounterBasedGenerator g : generators()) {
            int w = g.wordsPerBlock();
            int half = w / 2;
            int[] b0 = new int[w];
            int[] b1 = new int[w];
            g.block(0, b0);
            g.block(1, b1);
            for (int j = 0; j < half; j++) {
                assertEquals((b0[2 * j] & 0xffffffffL) | ((long) b0[2 * j + 1] << 32), g.word(j), g.name());
                assertEquals((b1[2 * j] & 0xffffffffL) | ((long) b1[2 * j + 1] << 32), g.word(half + j), g.name());
            }
        }
        assertEquals(16, generators().get(0).wordsPerBlock());
        assertEquals(4, generators().get(1).wordsPerBlock());
    }

    @Test
    void uniformAndNormalDefinitions() {
        for (CounterBasedGenerator g : generators()) {
            for (long k = 0; k < 64; k++) {
                assertEquals(((g.word(k) >>> 12) + 0.5) * 0x1.0p-52, g.uniform(k));
                long m = k / 2;
                double u2 = g.uniform(2 * m + 1);
                assertEquals(BoxMuller.radius(g.uniform(2 * m)) * BoxMuller.sinCos(u2, k % 2 == 1), g.normal(k));
                // the polynomial logarithm and angle are within a few ulps of the library's log, sin and cos
                double r = Math.sqrt(-2 * Math.log(g.uniform(2 * m)));
                double t = 2 * Math.PI * u2;
                assertEquals(k % 2 == 0 ? r * Math.cos(t) : r * Math.sin(t), g.normal(k), 2e-15 * Math.max(1, r));
            }
        }
    }

    @Test
    void uniformIsStrictlyInsideUnitInterval() {
        assertEquals(0x1.0p-53, CounterBasedGenerator.toUniform(0L));
        assertEquals(1.0 - 0x1.0p-53, CounterBasedGenerator.toUniform(-1L));
        assertTrue(CounterBasedGenerator.toUniform(-1L) < 1.0);
        // Why 52 bits: the 53-bit midpoint formula rounds the top word to exactly 1.0.
        assertEquals(1.0, ((-1L >>> 11) + 0.5) * 0x1.0p-53);
        // symmetric grid: u(w) + u(~w) == 1 exactly
        for (long w : new long[] {0L, 1L << 12, 0x0123456789abcdefL, Long.MIN_VALUE}) {
            assertEquals(1.0, CounterBasedGenerator.toUniform(w) + CounterBasedGenerator.toUniform(~w));
        }
    }

    @Test
    void bulkEqualsPerElementForAnyStartAndLength() {
        for (CounterBasedGenerator g : generators()) {
            for (long start = 0; start < 37; start++) {
                for (int len = 0; len < 37; len++) {
                    double[] u = filled(len + 4);
                    double[] z = filled(len + 4);
                    g.fillUniforms(start, u, 2, len);
                    g.fillNormals(start, z, 2, len);
                    double[] eu = filled(len + 4);
                    double[] ez = filled(len + 4);
                    for (int i = 0; i < len; i++) {
                        eu[2 + i] = g.uniform(start + i);
                        ez[2 + i] = g.normal(start + i);
                    }
                    assertArrayEquals(eu, u, g.name() + " uniforms start=" + start + " len=" + len);
                    assertArrayEquals(ez, z, g.name() + " normals start=" + start + " len=" + len);
                }
            }
        }
    }

    @Test
    void bulkEqualsPerElementFarIntoTheStream() {
        for (CounterBasedGenerator g : generators()) {
            long start = (1L << 40) + 5;
            double[] z = new double[101];
            double[] u = new double[101];
            g.fillNormals(start, z, 0, z.length);
            g.fillUniforms(start, u, 0, u.length);
            for (int i = 0; i < z.length; i++) {
                assertEquals(g.normal(start + i), z[i]);
                assertEquals(g.uniform(start + i), u[i]);
            }
            // the last index of the stream is reachable
            double[] last = new double[1];
            g.fillNormals(Long.MAX_VALUE, last, 0, 1);
            assertEquals(g.normal(Long.MAX_VALUE), last[0]);
        }
    }

    @Test
    void gaussianMatrixInRowBlocksEqualsWholeMatrix() {
        int n = 10;
        int r = 7;
        for (CounterBasedGenerator g : generators()) {
            double[] whole = new double[n * r];
            g.fillNormals(0, whole, 0, n * r);
            // row blocks [0,3), [3,7), [7,10): starts 0, 21 (odd), 49 (odd)
            int[] rowStarts = {0, 3, 7, 10};
            double[] blocks = new double[n * r];
            for (int b = 0; b + 1 < rowStarts.length; b++) {
                int rows = rowStarts[b + 1] - rowStarts[b];
                double[] blk = new double[rows * r];
                g.fillNormals((long) rowStarts[b] * r, blk, 0, blk.length);
                System.arraycopy(blk, 0, blocks, rowStarts[b] * r, blk.length);
            }
            assertArrayEquals(whole, blocks, g.name());
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < r; j++) {
                    assertEquals(g.normal((long) i * r + j), whole[i * r + j], g.name() + " G(" + i + "," + j + ")");
                }
            }
        }
    }

    @Test
    void validatesArguments() {
        CounterBasedGenerator g = generators().get(0);
        double[] out = new double[4];
        assertThrows(IllegalArgumentException.class, () -> g.uniform(-1));
        assertThrows(IllegalArgumentException.class, () -> g.normal(-1));
        assertThrows(IllegalArgumentException.class, () -> g.word(-1));
        assertThrows(IllegalArgumentException.class, () -> g.fillNormals(-1, out, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> g.fillNormals(0, null, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> g.fillNormals(0, out, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> g.fillNormals(0, out, 1, 4));
        assertThrows(IllegalArgumentException.class, () -> g.fillUniforms(0, out, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> g.fillUniforms(Long.MAX_VALUE, out, 0, 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> g.fillUniforms(0, out, 3, 2));
        assertTrue(e.getMessage().contains("length 4"), e.getMessage());
    }

    private static double[] filled(int len) {
        double[] a = new double[len];
        Arrays.fill(a, Double.NaN);
        return a;
    }
}
