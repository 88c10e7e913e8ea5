package org.dpgauss.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The polynomial sin/cos of {@code 2 pi u} behind the normals, against StrictMath and exact values. */
class BoxMullerTest {

    /** StrictMath.sin/cos(fl(2 pi) u) carry an argument error up to ulp(2 pi)/2 = 4.4e-16, hence 1e-15. */
    @Test
    void agreesWithStrictMathOnTheWholeGrid() {
        SplittableRandom rnd = new SplittableRandom(16);
        double worst = 0;
        for (int i = 0; i < 200_000; i++) {
            double u = CounterBasedGenerator.toUniform(rnd.nextLong());
            double t = 2 * Math.PI * u;
            worst = Math.max(worst, Math.abs(BoxMuller.sinCos(u, true) - StrictMath.sin(t)));
            worst = Math.max(worst, Math.abs(BoxMuller.sinCos(u, false) - StrictMath.cos(t)));
        }
        assertTrue(worst < 1e-15, "max |error| " + worst);
    }

    /** The radius's logarithm against StrictMath over the whole range of u1 (2^-53 to 1 - 2^-53). */
    @Test
    void radiusWithinAFewUlpsOfStrictMath() {
        SplittableRandom rnd = new SplittableRandom(3);
        double worst = 0;
        int n = 4096;
        double[] u = new double[n];
        for (int rep = 0; rep < 100; rep++) {
            for (int i = 0; i < n; i++) { // every exponent: the word shifted right by 0..63 bits
                u[i] = CounterBasedGenerator.toUniform(rnd.nextLong() >>> rnd.nextInt(64));
            }
            double[] bulk = u.clone();
            BoxMuller.radii(bulk, new double[n], new double[n], n);
            for (int i = 0; i < n; i++) {
                double r = BoxMuller.radius(u[i]);
                assertEquals(r, bulk[i], "bulk and scalar radius at u=" + u[i]);
                double exact = StrictMath.sqrt(-2 * StrictMath.log(u[i]));
                worst = Math.max(worst, Math.abs(r - exact) / Math.ulp(exact));
            }
        }
        assertTrue(worst <= 3, "max error " + worst + " ulps");
        assertEquals(Math.sqrt(-2 * Math.log(0x1.0p-53)), BoxMuller.radius(0x1.0p-53), 1e-15);
        assertEquals(Math.sqrt(-2 * Math.log(1 - 0x1.0p-53)), BoxMuller.radius(1 - 0x1.0p-53), 1e-23);
    }

    @Test
    void exactAtQuadrantsAndRelativelyAccurateNearZeros() {
        assertEquals(1.0, BoxMuller.sinCos(0.25, true));
        assertEquals(0.0, BoxMuller.sinCos(0.25, false), 0.0);
        assertEquals(-1.0, BoxMuller.sinCos(0.5, false));
        assertEquals(-1.0, BoxMuller.sinCos(0.75, true));
        assertEquals(Math.sqrt(0.5), BoxMuller.sinCos(0.125, true), 2e-16);
        // on the generator's grid (multiples of 2^-53) the reduction is exact, so near the zeros the error stays relative
        for (double u : new double[] {0x1.0p-53, 0x1.0p-40, 0x1.5p-30, 0.5 - 0x1.0p-45, 1 - 0x1.0p-53}) {
            double expected = StrictMath.sin(2 * Math.PI * (u > 0.75 ? u - 1 : u > 0.25 ? u - 0.5 : u))
                    * (u > 0.25 && u <= 0.75 ? -1 : 1);
            assertEquals(expected, BoxMuller.sinCos(u, true), 4e-16 * Math.abs(expected), "u=" + u);
        }
    }

    @Test
    void bulkLoopEqualsScalarBitForBit() {
        SplittableRandom rnd = new SplittableRandom(7);
        int n = 4099;
        double[] u = new double[n];
        for (int i = 0; i < n; i++) {
            u[i] = CounterBasedGenerator.toUniform(rnd.nextLong());
        }
        double[] c = new double[n];
        double[] s = new double[n];
        for (int rep = 0; rep < 200; rep++) { // long enough for the JIT to compile (and vectorise) the loops
            BoxMuller.sinCos(u, c, s, new double[n], new double[n], n);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(BoxMuller.sinCos(u[i], false), c[i], "cos at " + i);
            assertEquals(BoxMuller.sinCos(u[i], true), s[i], "sin at " + i);
        }
    }

    @Test
    void chachaManyBlocksEqualBlockByBlock() {
        ChaCha20 g = ChaCha20.withKey(new int[] {1, -2, 3, -4, 5, -6, 7, -8}, 0x0123456789abcdefL);
        int count = 300;
        long first = 0xffffffffL - 100; // the low counter word wraps inside the batch
        int[] many = new int[16 * count];
        g.blocks(first, count, many);
        int[] one = new int[16];
        for (int i = 0; i < count; i++) {
            g.block(first + i, one);
            for (int w = 0; w < 16; w++) {
                assertEquals(one[w], many[w * count + i], "block " + i + " word " + w);
            }
        }
    }
}
