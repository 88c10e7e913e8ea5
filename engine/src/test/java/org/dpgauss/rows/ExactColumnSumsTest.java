package org.dpgauss.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/**
 * The exact sums against BigDecimal (the exact sum, rounded to the nearest double with ties to even by
 * {@link BigDecimal#doubleValue()}) and against the Shewchuk implementation the superaccumulator replaced
 * ({@link ShewchukColumnSums}), bit for bit, in any order, blocking and merge tree. Every random stream has a fixed
 * seed, so each test is deterministic.
 */
class ExactColumnSumsTest {

    @Test
    void cancellationIsExact() {
        ExactColumnSums s = ExactColumnSums.zeros(1);
        s.add(new double[] {1e16});
        s.add(new double[] {1.0});
        s.add(new double[] {-1e16});
        s.add(new double[] {0x1p-60});
        assertEquals(0, s.exact()[0].compareTo(new BigDecimal(1.0).add(new BigDecimal(0x1p-60))));
    }

    @Test
    void matchesBigDecimalOnWideRangeValues() {
        SplittableRandom r = new SplittableRandom(7);
        ExactColumnSums s = ExactColumnSums.zeros(1);
        BigDecimal exact = BigDecimal.ZERO;
        for (int i = 0; i < 20_000; i++) {
            double x = (r.nextDouble() - 0.5) * Math.scalb(1.0, r.nextInt(-40, 60));
            s.add(new double[] {x});
            exact = exact.add(new BigDecimal(x));
        }
        assertEquals(0, s.exact()[0].compareTo(exact));
    }

    /** Value generators, one per column: each stresses a different part of the accumulator. */
    private static List<DoubleSupplier> generators(SplittableRandom r) {
        List<DoubleSupplier> g = new ArrayList<>();
        // mixed exponents over the whole finite range (magnitudes kept below 2^1010 so no sum overflows)
        g.add(() -> Math.scalb(r.nextDouble() - 0.5, r.nextInt(-1074, 1010)));
        // subnormals: random significands with a zero exponent field, either sign
        g.add(() -> Double.longBitsToDouble(r.nextLong() & 0x800FFFFFFFFFFFFFL));
        // huge cancellations: +-2^k with k up to 1000 and tiny values that the large ones hide
        g.add(() -> r.nextBoolean() ? (r.nextBoolean() ? 1 : -1) * Math.scalb(1.0, r.nextInt(900, 1000))
                : Math.scalb(r.nextDouble() - 0.5, r.nextInt(-1074, -900)));
        // near MAX_VALUE / 2, alternating signs (the sum stays in range; a random order of the rows may pass
        // 2^1024 on the way, which the sums must survive exactly)
        int[] count = {0};
        g.add(() -> (count[0]++ % 2 == 0 ? 1 : -1) * Double.MAX_VALUE / 2 * (1 - r.nextDouble() * 0x1p-20));
        // 53-bit significands whose shifts straddle the chunk boundaries
        g.add(() -> Math.scalb((double) (r.nextLong() >>> 11), r.nextInt(-1074, 900)));
        // clipped-mean-like terms: Gaussian coordinates
        g.add(() -> r.nextDouble() * 2 - 1 + 3 * (r.nextDouble() - 0.5));
        return g;
    }

    private static double[][] rows(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        List<DoubleSupplier> g = generators(r);
        double[][] rows = new double[n][g.size()];
        for (double[] row : rows) {
            for (int j = 0; j < row.length; j++) {
                row[j] = g.get(j).getAsDouble();
            }
        }
        return rows;
    }

    private static BigDecimal[] bigSums(double[][] rows) {
        BigDecimal[] s = new BigDecimal[rows[0].length];
        java.util.Arrays.fill(s, BigDecimal.ZERO);
        for (double[] row : rows) {
            for (int j = 0; j < row.length; j++) {
                s[j] = s[j].add(new BigDecimal(row[j]));
            }
        }
        return s;
    }

    private static void assertSums(BigDecimal[] expected, ExactColumnSums s, String what) {
        BigDecimal[] exact = s.exact();
        double[] rounded = s.rounded();
        for (int j = 0; j < expected.length; j++) {
            assertEquals(0, expected[j].compareTo(exact[j]), what + ": exact sum of column " + j);
            assertEquals(Double.doubleToRawLongBits(expected[j].doubleValue()), Double.doubleToRawLongBits(rounded[j]),
                    what + ": rounded sum of column " + j);
        }
    }

    @Test
    void randomColumnsMatchBigDecimalInAnyOrderAndMergeTree() throws IOException {
        for (long seed = 1; seed <= 4; seed++) {
            double[][] rows = rows(seed, 3000 + (int) seed * 1000); // more than CARRY_EVERY rows
            BigDecimal[] expected = bigSums(rows);
            ExactColumnSums forward = ExactColumnSums.zeros(rows[0].length);
            ExactColumnSums backward = ExactColumnSums.zeros(rows[0].length);
            for (int i = 0; i < rows.length; i++) {
                forward.add(rows[i]);
                backward.add(rows[rows.length - 1 - i]);
            }
            assertSums(expected, forward, "forward, seed " + seed);
            assertSums(expected, backward, "backward, seed " + seed);
            assertSums(expected, randomTree(rows, new SplittableRandom(seed + 100)), "merge tree, seed " + seed);
        }
    }

    /**
     * Splits the rows into 1..60 random contiguous blocks, sums each (rows in random order within the block, some
     * through add(data, off) on a row-major copy), serializes some, then merges them pairwise in a random tree.
     */
    private static ExactColumnSums randomTree(double[][] rows, SplittableRandom r) throws IOException {
        int d = rows[0].length;
        int blocks = r.nextInt(1, 61);
        List<ExactColumnSums> parts = new ArrayList<>();
        int start = 0;
        for (int b = 0; b < blocks; b++) {
            int end = b == blocks - 1 ? rows.length : start + r.nextInt(0, 2 * rows.length / blocks + 1);
            end = Math.min(end, rows.length);
            ExactColumnSums s = ExactColumnSums.zeros(d);
            if (r.nextBoolean()) {
                for (int i = end - 1; i >= start; i--) {
                    s.add(rows[i]);
                }
            } else {
                double[] flat = new double[(end - start) * d + 1];
                for (int i = start; i < end; i++) {
                    System.arraycopy(rows[i], 0, flat, 1 + (i - start) * d, d);
                }
                for (int i = 0; i < end - start; i++) {
                    s.add(flat, 1 + i * d);
                }
            }
            parts.add(r.nextInt(3) == 0 ? roundTrip(s) : s);
            start = end;
        }
        while (parts.size() > 1) {
            ExactColumnSums a = parts.remove(r.nextInt(parts.size()));
            ExactColumnSums b = parts.remove(r.nextInt(parts.size()));
            a.addAll(b);
            parts.add(r.nextInt(4) == 0 ? roundTrip(a) : a);
        }
        return parts.get(0);
    }

    private static ExactColumnSums roundTrip(ExactColumnSums s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(s);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (ExactColumnSums) in.readObject();
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void sameBitsAsTheShewchukImplementation() {
        // the values the old class handles without overflow: every partial sum stays below 2^1010
        SplittableRandom r = new SplittableRandom(11);
        int d = 7;
        for (int trial = 0; trial < 20; trial++) {
            ExactColumnSums s = ExactColumnSums.zeros(d);
            ShewchukColumnSums old = ShewchukColumnSums.zeros(d);
            ExactColumnSums second = ExactColumnSums.zeros(d);
            ShewchukColumnSums oldSecond = ShewchukColumnSums.zeros(d);
            int n = r.nextInt(1, 3000);
            for (int i = 0; i < n; i++) {
                double[] row = new double[d];
                for (int j = 0; j < d; j++) {
                    int e = j == 0 ? r.nextInt(-1074, 1000) : r.nextInt(-60 * j, 60 * j);
                    row[j] = Math.scalb(r.nextDouble() - 0.5, e);
                    if (r.nextInt(10) == 0) {
                        row[j] = -row[j] * r.nextInt(1, 3); // exact cancellations
                    }
                }
                if (i % 3 == 0) {
                    second.add(row);
                    oldSecond.add(row);
                } else {
                    s.add(row);
                    old.add(row);
                }
            }
            s.addAll(second);
            old.addAll(oldSecond);
            double[] got = s.rounded();
            double[] want = old.rounded();
            BigDecimal[] exact = s.exact();
            BigDecimal[] oldExact = old.exact();
            for (int j = 0; j < d; j++) {
                assertEquals(Double.doubleToRawLongBits(want[j]), Double.doubleToRawLongBits(got[j]),
                        "trial " + trial + " column " + j);
                assertEquals(0, oldExact[j].compareTo(exact[j]), "trial " + trial + " column " + j);
            }
        }
    }

    @Test
    void tiesRoundToEven() {
        // 1 + 2^-53 is halfway between 1 and 1 + 2^-52: to even, 1; (1 + 2^-52) + 2^-53: to even, 1 + 2^-51
        assertEquals(1.0, sum(1.0, 0x1p-53));
        assertEquals(1.0 + 0x1p-51, sum(1.0 + 0x1p-52, 0x1p-53));
        // the halfway term arriving in pieces, with and without a sticky bit far below
        assertEquals(1.0, sum(1.0, 0x1p-54, 0x1p-55, 0x1p-55));
        assertEquals(1.0 + 0x1p-52, sum(1.0, 0x1p-54, 0x1p-55, 0x1p-55, Double.MIN_VALUE));
        assertEquals(1.0, sum(1.0, 0x1p-54, 0x1p-55, 0x1p-55, -Double.MIN_VALUE));
        assertEquals(-1.0, sum(-1.0, -0x1p-53));
        assertEquals(-1.0 - 0x1p-52, sum(-1.0, -0x1p-53, -Double.MIN_VALUE));
        // halfway after a huge cancellation, at the top of the range and at the subnormal boundary
        assertEquals(1.0, sum(0x1p1000, 1.0, 0x1p-53, -0x1p1000));
        assertEquals(0x1p1000, sum(0x1p1000, 0x1p947));
        assertEquals(0x1p1000 + 0x1p949, sum(0x1p1000 + 0x1p948, 0x1p947));
        assertEquals(0x1p-1022 - Double.MIN_VALUE, sum(0x1p-1022, -Double.MIN_VALUE));
        // random ties: a random double plus exactly half its ulp, split in two, sometimes with a sticky bit
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 2000; i++) {
            double a = Math.scalb(1 + r.nextDouble(), r.nextInt(-1000, 1000)) * (r.nextBoolean() ? 1 : -1);
            double half = Math.copySign(Math.ulp(a) / 2, a);
            double sticky = r.nextInt(3) == 0 ? Math.copySign(Double.MIN_VALUE, r.nextBoolean() ? a : -a) : 0.0;
            double[] terms = {a, half / 2, half / 2, sticky};
            BigDecimal exact = BigDecimal.ZERO;
            for (double t : terms) {
                exact = exact.add(new BigDecimal(t));
            }
            assertEquals(exact.doubleValue(), sum(terms), "tie " + i);
            ShewchukColumnSums old = ShewchukColumnSums.zeros(1);
            for (double t : terms) {
                old.add(new double[] {t});
            }
            assertEquals(old.rounded()[0], sum(terms), "tie " + i);
        }
    }

    private static double sum(double... values) {
        ExactColumnSums s = ExactColumnSums.zeros(1);
        for (double v : values) {
            s.add(new double[] {v});
        }
        return s.rounded()[0];
    }

    @Test
    void roundingOfTheExactIntegerAgreesWithBigDecimal() {
        SplittableRandom r = new SplittableRandom(3);
        BigDecimal unit = new BigDecimal(Double.MIN_VALUE);
        for (int i = 0; i < 3000; i++) {
            BigInteger n = new BigInteger(r.nextInt(1, 2100), new java.util.Random(r.nextLong()));
            if (i % 5 == 0) { // a tie: ...1 followed by zeros, or a sticky bit after it
                n = n.setBit(0).shiftLeft(r.nextInt(0, 40));
            }
            n = r.nextBoolean() ? n : n.negate();
            assertEquals(new BigDecimal(n).multiply(unit).doubleValue(), ExactColumnSums.round(n), "n = " + n);
        }
        BigInteger max = BigInteger.ONE.shiftLeft(53).subtract(BigInteger.ONE).shiftLeft(2045); // MAX_VALUE
        assertEquals(Double.MAX_VALUE, ExactColumnSums.round(max));
        assertEquals(Double.POSITIVE_INFINITY, ExactColumnSums.round(max.add(BigInteger.ONE.shiftLeft(2044))));
        assertEquals(Double.MAX_VALUE, ExactColumnSums.round(max.add(BigInteger.ONE.shiftLeft(2043))));
        assertEquals(0.0, ExactColumnSums.round(BigInteger.ZERO));
    }

    @Test
    void carriesKeepLongRunsOfLargeChunksExact() {
        // significand all ones shifted by 31 bits: each value adds ~2^52 to one chunk, which overflows a long
        // after 2^11 rows unless carries are propagated
        double big = 2 - 0x1p-52; // position 1023 = 32 * 31 + 31: its high part 2^52 - 1 goes to chunk 32
        double[] shifts = new double[32];
        for (int k = 0; k < 32; k++) {
            shifts[k] = Math.scalb(2 - 0x1p-52, k - 992); // positions 31..62: every shift once
        }
        for (double x : new double[] {big, -big, Math.scalb(big, 960), -Math.scalb(big, -992), Math.scalb(big, 7)}) {
            ExactColumnSums s = ExactColumnSums.zeros(2);
            BigDecimal exact = BigDecimal.ZERO;
            for (int i = 0; i < 10_000; i++) {
                s.add(new double[] {x, shifts[i % 32]});
                exact = exact.add(new BigDecimal(x));
            }
            assertEquals(0, exact.compareTo(s.exact()[0]), "x = " + x);
            assertEquals(exact.doubleValue(), s.rounded()[0], "x = " + x);
        }
        // the 32 shifts alone, 10000 rows, against BigDecimal
        ExactColumnSums s = ExactColumnSums.zeros(1);
        BigDecimal exact = BigDecimal.ZERO;
        for (int i = 0; i < 10_000; i++) {
            s.add(new double[] {shifts[i % 32]});
            exact = exact.add(new BigDecimal(shifts[i % 32]));
        }
        assertEquals(0, exact.compareTo(s.exact()[0]));
        // merging many partials, each just under a carry period, keeps the sums exact too
        ExactColumnSums total = ExactColumnSums.zeros(1);
        BigDecimal totalExact = BigDecimal.ZERO;
        for (int p = 0; p < 6; p++) {
            ExactColumnSums part = ExactColumnSums.zeros(1);
            for (int i = 0; i < ExactColumnSums.CARRY_EVERY - 1; i++) {
                part.add(new double[] {big});
                totalExact = totalExact.add(new BigDecimal(big));
            }
            total.addAll(part);
        }
        assertEquals(0, totalExact.compareTo(total.exact()[0]));
    }

    @Test
    void extremesAreExact() {
        // the largest and smallest magnitudes, and a sum that passes 2^1024 on the way but ends in range
        assertEquals(Double.MAX_VALUE, sum(Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE));
        assertEquals(Double.MIN_VALUE, sum(Double.MAX_VALUE, Double.MIN_VALUE, -Double.MAX_VALUE));
        assertEquals(3 * Double.MIN_VALUE, sum(Double.MIN_VALUE, Double.MIN_VALUE, Double.MIN_VALUE));
        assertEquals(0x1p-1022, sum(0x1p-1023, 0x1p-1023)); // two subnormals make the smallest normal
        assertEquals(0.0, sum(-0.0));
        assertEquals(0.0, sum(1.5, -1.5));
        assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(sum(-0.0, -0.0)));
        ShewchukColumnSums old = ShewchukColumnSums.zeros(1);
        old.add(new double[] {-0.0});
        assertEquals(Double.doubleToRawLongBits(old.rounded()[0]), Double.doubleToRawLongBits(sum(-0.0)));
        // beyond the double range: rounded() refuses, exact() is still exact
        ExactColumnSums s = ExactColumnSums.zeros(2);
        s.add(new double[] {Double.MAX_VALUE, 1});
        s.add(new double[] {Double.MAX_VALUE, 1});
        ArithmeticException e = assertThrows(ArithmeticException.class, s::rounded);
        assertTrue(e.getMessage().contains("column 0"), e.getMessage());
        assertEquals(0, s.exact()[0].compareTo(new BigDecimal(Double.MAX_VALUE).multiply(BigDecimal.valueOf(2))));
    }

    @Test
    void nonFiniteInputsFailAsBefore() throws IOException {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            ExactColumnSums s = ExactColumnSums.zeros(3);
            ShewchukColumnSums old = ShewchukColumnSums.zeros(3);
            s.add(new double[] {1, 2, 3});
            old.add(new double[] {1, 2, 3});
            s.add(new double[] {1, bad, 3});
            old.add(new double[] {1, bad, 3});
            NumberFormatException was = assertThrows(NumberFormatException.class, old::rounded);
            NumberFormatException is = assertThrows(NumberFormatException.class, s::rounded);
            assertEquals(was.getMessage(), is.getMessage());
            assertThrows(NumberFormatException.class, old::exact);
            assertThrows(NumberFormatException.class, s::exact);
            // kept through serialization and merges into finite sums
            ExactColumnSums other = ExactColumnSums.zeros(3);
            other.add(new double[] {0, 1, 0});
            other.addAll(roundTrip(s));
            assertThrows(NumberFormatException.class, other::rounded);
            assertThrows(NumberFormatException.class, other::exact);
            // an opposite infinity does not cancel it
            ExactColumnSums opposite = ExactColumnSums.zeros(3);
            opposite.add(new double[] {0, bad, 0});
            opposite.add(new double[] {0, -bad, 0});
            assertThrows(NumberFormatException.class, opposite::rounded);
        }
    }

    @Test
    void serializedFormIsCompact() throws IOException {
        int d = 50;
        SplittableRandom r = new SplittableRandom(9);
        ExactColumnSums s = ExactColumnSums.zeros(d);
        double[] row = new double[d];
        for (int i = 0; i < 4096; i++) {
            for (int j = 0; j < d; j++) {
                row[j] = (r.nextDouble() - 0.5) * 4;
            }
            s.add(row);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(s);
        }
        // a column's sum here spans about 3 chunks: ~15 bytes of integer plus the array headers, not 66 longs
        assertTrue(bytes.size() < 40 * d + 400, "serialized size " + bytes.size());
        ExactColumnSums back = roundTrip(s);
        double[] want = s.rounded();
        double[] got = back.rounded();
        for (int j = 0; j < d; j++) {
            assertEquals(want[j], got[j]);
        }
    }

    @Test
    void rejectsBadShapes() {
        assertThrows(IllegalArgumentException.class, () -> ExactColumnSums.zeros(0));
        ExactColumnSums s = ExactColumnSums.zeros(2);
        assertThrows(IllegalArgumentException.class, () -> s.addAll(ExactColumnSums.zeros(3)));
        assertThrows(IllegalArgumentException.class, () -> s.addAll(s));
    }
}
