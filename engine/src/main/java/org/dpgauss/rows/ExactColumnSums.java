package org.dpgauss.rows;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Exact column sums of rows of doubles, kept in a fixed-point superaccumulator per column (R. M. Neal, "Fast exact
 * summation using small and large superaccumulators", arXiv:1505.05571, 2015, the "small superaccumulator"): every
 * finite double is an integer multiple of {@code 2^-1074}, so a column's sum is an integer {@code N} times
 * {@code 2^-1074}, held as 66 signed 64-bit chunks of weight {@code 2^(32k - 1074)}. A value's 53-bit significand,
 * shifted by its exponent's low five bits, is added into two adjacent chunks; carries are propagated every
 * {@link #CARRY_EVERY} rows, before a chunk could overflow. {@link #rounded()} rounds {@code N 2^-1074} once to the
 * nearest double (ties to even). The result therefore does not depend on the order of the rows, on how they were
 * split among blocks or on the order of {@link #addAll merges}; subnormals and the full exponent range are exact.
 *
 * <p>Inputs must be finite: a NaN or an infinity makes {@link #exact()} and {@link #rounded()} throw
 * {@link NumberFormatException} ("Infinite or NaN"). A sum whose rounding lies beyond {@code Double.MAX_VALUE} makes
 * {@link #rounded()} throw {@link ArithmeticException} ({@link #exact()} still returns it). Mutable; not
 * thread-safe. Serialized compactly (each column's exact sum as a two's-complement integer, a few bytes for sums of
 * like-sized values), since a cluster ships one per partition.
 */
public final class ExactColumnSums implements Serializable {

    private static final long serialVersionUID = 2L;

    /** Bits of weight per chunk: chunk k has weight 2^(32k - 1074). */
    private static final int CHUNK_BITS = 32;
    private static final long CHUNK_MASK = (1L << CHUNK_BITS) - 1;
    /**
     * Chunks per column: the largest finite double's significand starts at bit 2045 (biased exponent 2046, minus
     * one), i.e. in chunk 63, and reaches chunk 64; chunk 65 takes the carries (weight 2^1006, so its value stays
     * below 2^18 times the number of values summed).
     */
    static final int CHUNKS = 66;
    /**
     * Rows between carry propagations. After a propagation chunks 0..64 lie in [0, 2^32); a row adds less than
     * 2^52 in magnitude to each chunk (the high part of a significand shifted by at most 31 bits), so 2047 rows
     * keep every chunk below 2^32 + 2047 * 2^52 + 2^31 (the incoming carry) &lt; 2^63.
     */
    static final int CARRY_EVERY = 2047;

    private final int d;
    /** Chunk-major: chunk k of column j is acc[k * d + j], so a row's values update memory left to right. */
    private final long[] acc;
    /** Rows (or merged partials) added since the last carry propagation. */
    private int pending;
    /** Whether a NaN or an infinity was added (their garbage in acc is never read). */
    private boolean nonFinite;

    private ExactColumnSums(int d) {
        this.d = d;
        this.acc = new long[CHUNKS * d];
    }

    /**
     * @param d the number of columns
     * @return empty sums
     */
    public static ExactColumnSums zeros(int d) {
        if (d < 1 || d > Integer.MAX_VALUE / CHUNKS) {
            throw new IllegalArgumentException("d=" + d + " columns is outside [1, " + Integer.MAX_VALUE / CHUNKS
                    + "]");
        }
        return new ExactColumnSums(d);
    }

    /** @return the number of columns */
    public int columns() {
        return d;
    }

    /**
     * Adds one row.
     *
     * @param row d finite values
     */
    public void add(double[] row) {
        add(row, 0);
    }

    /**
     * Adds {@code row[off .. off+d)}.
     *
     * @param data row-major values
     * @param off the offset of the row
     */
    public void add(double[] data, int off) {
        long[] a = acc;
        int cols = d;
        int bad = 0;
        for (int j = 0; j < cols; j++) {
            bad |= addValue(a, cols, j, data[off + j]);
        }
        if (bad != 0) {
            nonFinite = true;
        }
        if (++pending >= CARRY_EVERY) {
            propagate();
        }
    }

    /**
     * Adds {@code x} to column j's chunks.
     *
     * @return 1 if x is NaN or infinite, else 0
     */
    static int addValue(long[] a, int cols, int j, double x) {
        long bits = Double.doubleToRawLongBits(x);
        int e = (int) (bits >>> 52) & 0x7FF;
        int normal = (e + 0x7FF) >>> 11; // 1 for a normal (or non-finite) x, 0 for a subnormal or zero
        long m = (bits & 0xFFFFFFFFFFFFFL) | ((long) normal << 52);
        int pos = e - normal; // x = m 2^(pos - 1074)
        long signed = (m ^ (bits >> 63)) - (bits >> 63); // +-m
        int shift = pos & (CHUNK_BITS - 1);
        int at = (pos >>> 5) * cols + j;
        // signed << shift = lo + hi 2^32 with lo in [0, 2^32) and |hi| < 2^52 (hi rounds towards -inf)
        a[at] += (signed << shift) & CHUNK_MASK;
        a[at + cols] += signed >> (CHUNK_BITS - shift);
        return (e + 1) >>> 11;
    }

    /**
     * Adds {@code other}'s sums (exact: the sums become the sums of both inputs).
     *
     * @param other sums of the same number of columns
     */
    public void addAll(ExactColumnSums other) {
        if (other.d != d) {
            throw new IllegalArgumentException("column sums of " + other.d + " columns cannot be added to " + d);
        }
        if (other == this) {
            throw new IllegalArgumentException("column sums cannot be added to themselves");
        }
        propagate();
        other.propagate();
        // chunks 0..64 of both now lie in [0, 2^32): their sums stay far from overflow, and so do the top chunks
        for (int i = 0; i < acc.length; i++) {
            acc[i] += other.acc[i];
        }
        nonFinite |= other.nonFinite;
        propagate();
    }

    /** Moves each chunk's bits above 32 into the next chunk: chunks 0..64 end in [0, 2^32), chunk 65 signed. */
    private void propagate() {
        long[] a = acc;
        int cols = d;
        for (int k = 0; k < CHUNKS - 1; k++) {
            int base = k * cols;
            for (int j = 0; j < cols; j++) {
                long c = a[base + j];
                a[base + j] = c & CHUNK_MASK;
                a[base + cols + j] += c >> CHUNK_BITS;
            }
        }
        pending = 0;
    }

    /** @return column j's exact sum as the integer N with sum = N 2^-1074 (chunks propagated) */
    private BigInteger integer(int j) {
        // big-endian two's complement: the signed top chunk as 8 bytes, then chunks 64..0 as 4 unsigned bytes each
        byte[] bytes = new byte[8 + 4 * (CHUNKS - 1)];
        long top = acc[(CHUNKS - 1) * d + j];
        for (int b = 0; b < 8; b++) {
            bytes[b] = (byte) (top >>> (56 - 8 * b));
        }
        for (int k = CHUNKS - 2, p = 8; k >= 0; k--, p += 4) {
            long c = acc[k * d + j];
            bytes[p] = (byte) (c >>> 24);
            bytes[p + 1] = (byte) (c >>> 16);
            bytes[p + 2] = (byte) (c >>> 8);
            bytes[p + 3] = (byte) c;
        }
        return new BigInteger(bytes);
    }

    private void requireFinite() {
        if (nonFinite) {
            throw new NumberFormatException("Infinite or NaN");
        }
    }

    /** @return each column's exact sum, unrounded (for a caller that rounds it to a grid of its own) */
    public BigDecimal[] exact() {
        requireFinite();
        propagate();
        BigDecimal[] out = new BigDecimal[d];
        for (int j = 0; j < d; j++) {
            out[j] = toDecimal(integer(j));
        }
        return out;
    }

    /** @return {@code n 2^-1074} exactly, with the smallest scale that holds it */
    private static BigDecimal toDecimal(BigInteger n) {
        if (n.signum() == 0) {
            return BigDecimal.ZERO;
        }
        int zeros = n.getLowestSetBit();
        BigInteger odd = n.shiftRight(zeros);
        int exponent = zeros - 1074;
        if (exponent >= 0) {
            return new BigDecimal(odd.shiftLeft(exponent));
        }
        // odd / 2^k = odd 5^k / 10^k
        return new BigDecimal(odd.multiply(BigInteger.valueOf(5).pow(-exponent)), -exponent);
    }

    /** @return each column's exact sum rounded once to the nearest double (ties to even) */
    public double[] rounded() {
        requireFinite();
        propagate();
        double[] out = new double[d];
        for (int j = 0; j < d; j++) {
            out[j] = round(integer(j));
            if (Double.isInfinite(out[j])) {
                throw new ArithmeticException("column " + j + ": the exact sum rounds beyond the double range");
            }
        }
        return out;
    }

    /** @return {@code n 2^-1074} rounded to the nearest double, ties to even (+0.0 for 0) */
    static double round(BigInteger n) {
        BigInteger m = n.abs();
        int length = m.bitLength();
        double magnitude;
        if (length <= 53) {
            magnitude = Math.scalb((double) m.longValue(), -1074); // exact: at most 53 bits at or above 2^-1074
        } else {
            // at least 2^-1021, a normal double: keep 53 bits, round on the first dropped bit and the rest (sticky)
            int drop = length - 53;
            long q = m.shiftRight(drop).longValue();
            boolean half = m.testBit(drop - 1);
            boolean rest = m.getLowestSetBit() < drop - 1;
            if (half && (rest || (q & 1) == 1)) {
                q++; // q = 2^53 is still exact as a double
            }
            magnitude = Math.scalb((double) q, drop - 1074);
        }
        return n.signum() < 0 ? -magnitude : magnitude;
    }

    private Object writeReplace() {
        return new Form(this);
    }

    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("ExactColumnSums is serialized through its compact form");
    }

    /**
     * The serialized form: per column, the exact sum's integer N (sum = N 2^-1074) without its low zero chunks, as
     * two's-complement bytes, and how many chunks were dropped.
     */
    private static final class Form implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final boolean nonFinite;
        private final short[] dropped;
        private final byte[][] sums;

        Form(ExactColumnSums s) {
            s.propagate();
            d = s.d;
            nonFinite = s.nonFinite;
            dropped = new short[d];
            sums = new byte[d][];
            for (int j = 0; j < d; j++) {
                int low = 0;
                while (low < CHUNKS - 1 && s.acc[low * d + j] == 0) {
                    low++;
                }
                dropped[j] = (short) low;
                sums[j] = s.integer(j).shiftRight(CHUNK_BITS * low).toByteArray();
            }
        }

        private Object readResolve() throws InvalidObjectException {
            if (d < 1 || d > Integer.MAX_VALUE / CHUNKS || dropped == null || sums == null || dropped.length != d
                    || sums.length != d) {
                throw new InvalidObjectException("corrupt ExactColumnSums form");
            }
            ExactColumnSums s = new ExactColumnSums(d);
            s.nonFinite = nonFinite;
            for (int j = 0; j < d; j++) {
                if (dropped[j] < 0 || dropped[j] >= CHUNKS || sums[j] == null || sums[j].length == 0) {
                    throw new InvalidObjectException("corrupt ExactColumnSums form");
                }
                BigInteger n = new BigInteger(sums[j]);
                int k = dropped[j];
                for (; k < CHUNKS - 1; k++) {
                    s.acc[k * d + j] = n.longValue() & CHUNK_MASK;
                    n = n.shiftRight(CHUNK_BITS); // floor: a negative n keeps its sign in the higher chunks
                }
                if (n.bitLength() > 63) {
                    throw new InvalidObjectException("corrupt ExactColumnSums form");
                }
                s.acc[k * d + j] = n.longValue();
            }
            return s;
        }
    }
}
