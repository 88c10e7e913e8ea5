package org.dpgauss.random;

import java.security.SecureRandom;

/**
 * ChaCha20 block function (RFC 8439, 20 rounds) as a counter-based generator: the generator for
 * privacy noise, because its output is computationally indistinguishable from random to anyone
 * without the key, unlike statistical generators whose state can be recovered from outputs.
 *
 * <p>State layout is the original (DJB) one with a 64-bit counter and a 64-bit stream id:
 * words 0-3 constants, 4-11 key, 12/13 counter low/high, 14/15 stream low/high. RFC 8439's
 * 96-bit-nonce layout is the special case {@code counter = (nonce0 << 32) | blockCounter},
 * {@code stream = nonce1 | (nonce2 << 32)} (nonce words little-endian). The key is copied in and
 * never exposed by {@link #toString()}. Instances are immutable and thread-safe.
 */
public final class ChaCha20 implements CounterBasedGenerator {

    /** Words per block. */
    public static final int WORDS = 16;

    private static final int C0 = 0x61707865;
    private static final int C1 = 0x3320646e;
    private static final int C2 = 0x79622d32;
    private static final int C3 = 0x6b206574;

    private final int[] key;
    private final long stream;

    private ChaCha20(int[] key8, long stream) {
        this.key = key8;
        this.stream = stream;
    }

    /**
     * A generator with the given 256-bit key (8 little-endian words, as in RFC 8439) and stream id.
     *
     * @throws IllegalArgumentException if {@code key8} is null or not of length 8
     */
    public static ChaCha20 withKey(int[] key8, long stream) {
        if (key8 == null || key8.length != 8) {
            throw new IllegalArgumentException("ChaCha20 key must be an int[8] (256 bits), got "
                    + (key8 == null ? "null" : "length " + key8.length));
        }
        return new ChaCha20(key8.clone(), stream);
    }

    /**
     * A generator with a fresh key drawn from {@code rng} and stream 0; the way production noise is
     * seeded. Use {@link #withStream(long)} for further independent streams under the same key.
     *
     * @throws IllegalArgumentException if {@code rng} is null
     */
    public static ChaCha20 fromSecureRandom(SecureRandom rng) {
        if (rng == null) {
            throw new IllegalArgumentException("SecureRandom must not be null");
        }
        int[] k = new int[8];
        for (int i = 0; i < 8; i++) {
            k[i] = rng.nextInt();
        }
        return new ChaCha20(k, 0L);
    }

    /** Same key, another stream id: an independent stream (e.g. one per release). */
    public ChaCha20 withStream(long newStream) {
        return new ChaCha20(key, newStream);
    }

    /** The stream id (words 14/15). */
    public long stream() {
        return stream;
    }

    /**
     * A copy of the key, for handing it to the GPU kernel ({@code dp_chacha20_normals}). It is the
     * secret behind the privacy noise: do not log or persist it.
     */
    public int[] keyCopy() {
        return key.clone();
    }

    @Override
    public String name() {
        return "ChaCha20";
    }

    @Override
    public int wordsPerBlock() {
        return WORDS;
    }

    @Override
    public void block(long counter, int[] out) {
        if (out == null || out.length < WORDS) {
            throw new IllegalArgumentException("out must be an int[] of length >= 16, got "
                    + (out == null ? "null" : "length " + out.length));
        }
        final int k0 = key[0], k1 = key[1], k2 = key[2], k3 = key[3];
        final int k4 = key[4], k5 = key[5], k6 = key[6], k7 = key[7];
        final int n0 = (int) counter, n1 = (int) (counter >>> 32);
        final int n2 = (int) stream, n3 = (int) (stream >>> 32);
        int x0 = C0, x1 = C1, x2 = C2, x3 = C3;
        int x4 = k0, x5 = k1, x6 = k2, x7 = k3;
        int x8 = k4, x9 = k5, x10 = k6, x11 = k7;
        int x12 = n0, x13 = n1, x14 = n2, x15 = n3;
        for (int i = 0; i < 10; i++) {
            // column round: QR(0,4,8,12) QR(1,5,9,13) QR(2,6,10,14) QR(3,7,11,15)
            x0 += x4; x12 = Integer.rotateLeft(x12 ^ x0, 16);
            x8 += x12; x4 = Integer.rotateLeft(x4 ^ x8, 12);
            x0 += x4; x12 = Integer.rotateLeft(x12 ^ x0, 8);
            x8 += x12; x4 = Integer.rotateLeft(x4 ^ x8, 7);
            x1 += x5; x13 = Integer.rotateLeft(x13 ^ x1, 16);
            x9 += x13; x5 = Integer.rotateLeft(x5 ^ x9, 12);
            x1 += x5; x13 = Integer.rotateLeft(x13 ^ x1, 8);
            x9 += x13; x5 = Integer.rotateLeft(x5 ^ x9, 7);
            x2 += x6; x14 = Integer.rotateLeft(x14 ^ x2, 16);
            x10 += x14; x6 = Integer.rotateLeft(x6 ^ x10, 12);
            x2 += x6; x14 = Integer.rotateLeft(x14 ^ x2, 8);
            x10 += x14; x6 = Integer.rotateLeft(x6 ^ x10, 7);
            x3 += x7; x15 = Integer.rotateLeft(x15 ^ x3, 16);
            x11 += x15; x7 = Integer.rotateLeft(x7 ^ x11, 12);
            x3 += x7; x15 = Integer.rotateLeft(x15 ^ x3, 8);
            x11 += x15; x7 = Integer.rotateLeft(x7 ^ x11, 7);
            // diagonal round: QR(0,5,10,15) QR(1,6,11,12) QR(2,7,8,13) QR(3,4,9,14)
            x0 += x5; x15 = Integer.rotateLeft(x15 ^ x0, 16);
            x10 += x15; x5 = Integer.rotateLeft(x5 ^ x10, 12);
            x0 += x5; x15 = Integer.rotateLeft(x15 ^ x0, 8);
            x10 += x15; x5 = Integer.rotateLeft(x5 ^ x10, 7);
            x1 += x6; x12 = Integer.rotateLeft(x12 ^ x1, 16);
            x11 += x12; x6 = Integer.rotateLeft(x6 ^ x11, 12);
            x1 += x6; x12 = Integer.rotateLeft(x12 ^ x1, 8);
            x11 += x12; x6 = Integer.rotateLeft(x6 ^ x11, 7);
            x2 += x7; x13 = Integer.rotateLeft(x13 ^ x2, 16);
            x8 += x13; x7 = Integer.rotateLeft(x7 ^ x8, 12);
            x2 += x7; x13 = Integer.rotateLeft(x13 ^ x2, 8);
            x8 += x13; x7 = Integer.rotateLeft(x7 ^ x8, 7);
            x3 += x4; x14 = Integer.rotateLeft(x14 ^ x3, 16);
            x9 += x14; x4 = Integer.rotateLeft(x4 ^ x9, 12);
            x3 += x4; x14 = Integer.rotateLeft(x14 ^ x3, 8);
            x9 += x14; x4 = Integer.rotateLeft(x4 ^ x9, 7);
        }
        out[0] = x0 + C0;
        out[1] = x1 + C1;
        out[2] = x2 + C2;
        out[3] = x3 + C3;
        out[4] = x4 + k0;
        out[5] = x5 + k1;
        out[6] = x6 + k2;
        out[7] = x7 + k3;
        out[8] = x8 + k4;
        out[9] = x9 + k5;
        out[10] = x10 + k6;
        out[11] = x11 + k7;
        out[12] = x12 + n0;
        out[13] = x13 + n1;
        out[14] = x14 + n2;
        out[15] = x15 + n3;
    }

    /**
     * Many blocks at once (the bulk normals' source): the 16 state words of {@code count} blocks live in 16 arrays
     * indexed by block, and each double round is one loop over the blocks, which the JIT vectorises (several blocks
     * per SIMD instruction). Bit-identical to {@link #block} (the same RFC 8439 rounds).
     */
    @Override
    public void blocks(long first, int count, int[] out) {
        if (count < 1 || out == null || out.length < (long) count * WORDS) {
            throw new IllegalArgumentException("blocks: count=" + count + " does not fit in out of length "
                    + (out == null ? "null" : out.length));
        }
        int[][] s = STATE.get();
        if (s[0].length < count) {
            for (int w = 0; w < s.length; w++) {
                s[w] = new int[count];
            }
        }
        int[] init = {C0, C1, C2, C3, key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7], 0, 0,
            (int) stream, (int) (stream >>> 32)};
        for (int w = 0; w < WORDS; w++) {
            java.util.Arrays.fill(s[w], 0, count, init[w]);
        }
        int[] c12 = s[WORDS];
        int[] c13 = s[WORDS + 1];
        for (int i = 0; i < count; i++) {
            long c = first + i;
            c12[i] = (int) c;
            c13[i] = (int) (c >>> 32);
        }
        System.arraycopy(c12, 0, s[12], 0, count);
        System.arraycopy(c13, 0, s[13], 0, count);
        for (int round = 0; round < 10; round++) {
            doubleRound(s, count);
        }
        for (int w = 0; w < WORDS; w++) {
            int[] sw = s[w];
            int base = w * count;
            if (w == 12 || w == 13) {
                int[] c = w == 12 ? c12 : c13;
                for (int i = 0; i < count; i++) {
                    out[base + i] = sw[i] + c[i];
                }
            } else {
                int v = init[w];
                for (int i = 0; i < count; i++) {
                    out[base + i] = sw[i] + v;
                }
            }
            java.util.Arrays.fill(sw, 0, count, 0); // no key-derived state outlives the call
        }
    }

    /**
     * Per-thread working state of {@link #blocks} (the 16 words and the two counter words of each block), reused so
     * that a bulk fill allocates nothing per batch; the 16 words are zeroed before each call returns.
     */
    private static final ThreadLocal<int[][]> STATE = ThreadLocal.withInitial(() -> {
        int[][] s = new int[WORDS + 2][];
        for (int w = 0; w < s.length; w++) {
            s[w] = new int[0];
        }
        return s;
    });

    /** One double round (column round, then diagonal round) on every block, one block per loop iteration. */
    private static void doubleRound(int[][] s, int count) {
        final int[] a0 = s[0];
        final int[] a1 = s[1];
        final int[] a2 = s[2];
        final int[] a3 = s[3];
        final int[] a4 = s[4];
        final int[] a5 = s[5];
        final int[] a6 = s[6];
        final int[] a7 = s[7];
        final int[] a8 = s[8];
        final int[] a9 = s[9];
        final int[] a10 = s[10];
        final int[] a11 = s[11];
        final int[] a12 = s[12];
        final int[] a13 = s[13];
        final int[] a14 = s[14];
        final int[] a15 = s[15];
        for (int i = 0; i < count; i++) {
                int x0 = a0[i];
                int x1 = a1[i];
                int x2 = a2[i];
                int x3 = a3[i];
                int x4 = a4[i];
                int x5 = a5[i];
                int x6 = a6[i];
                int x7 = a7[i];
                int x8 = a8[i];
                int x9 = a9[i];
                int x10 = a10[i];
                int x11 = a11[i];
                int x12 = a12[i];
                int x13 = a13[i];
                int x14 = a14[i];
                int x15 = a15[i];
                x0 += x4; x12 = Integer.rotateLeft(x12 ^ x0, 16);
                x8 += x12; x4 = Integer.rotateLeft(x4 ^ x8, 12);
                x0 += x4; x12 = Integer.rotateLeft(x12 ^ x0, 8);
                x8 += x12; x4 = Integer.rotateLeft(x4 ^ x8, 7);
                x1 += x5; x13 = Integer.rotateLeft(x13 ^ x1, 16);
                x9 += x13; x5 = Integer.rotateLeft(x5 ^ x9, 12);
                x1 += x5; x13 = Integer.rotateLeft(x13 ^ x1, 8);
                x9 += x13; x5 = Integer.rotateLeft(x5 ^ x9, 7);
                x2 += x6; x14 = Integer.rotateLeft(x14 ^ x2, 16);
                x10 += x14; x6 = Integer.rotateLeft(x6 ^ x10, 12);
                x2 += x6; x14 = Integer.rotateLeft(x14 ^ x2, 8);
                x10 += x14; x6 = Integer.rotateLeft(x6 ^ x10, 7);
                x3 += x7; x15 = Integer.rotateLeft(x15 ^ x3, 16);
                x11 += x15; x7 = Integer.rotateLeft(x7 ^ x11, 12);
                x3 += x7; x15 = Integer.rotateLeft(x15 ^ x3, 8);
                x11 += x15; x7 = Integer.rotateLeft(x7 ^ x11, 7);
                x0 += x5; x15 = Integer.rotateLeft(x15 ^ x0, 16);
                x10 += x15; x5 = Integer.rotateLeft(x5 ^ x10, 12);
                x0 += x5; x15 = Integer.rotateLeft(x15 ^ x0, 8);
                x10 += x15; x5 = Integer.rotateLeft(x5 ^ x10, 7);
                x1 += x6; x12 = Integer.rotateLeft(x12 ^ x1, 16);
                x11 += x12; x6 = Integer.rotateLeft(x6 ^ x11, 12);
                x1 += x6; x12 = Integer.rotateLeft(x12 ^ x1, 8);
                x11 += x12; x6 = Integer.rotateLeft(x6 ^ x11, 7);
                x2 += x7; x13 = Integer.rotateLeft(x13 ^ x2, 16);
                x8 += x13; x7 = Integer.rotateLeft(x7 ^ x8, 12);
                x2 += x7; x13 = Integer.rotateLeft(x13 ^ x2, 8);
                x8 += x13; x7 = Integer.rotateLeft(x7 ^ x8, 7);
                x3 += x4; x14 = Integer.rotateLeft(x14 ^ x3, 16);
                x9 += x14; x4 = Integer.rotateLeft(x4 ^ x9, 12);
                x3 += x4; x14 = Integer.rotateLeft(x14 ^ x3, 8);
                x9 += x14; x4 = Integer.rotateLeft(x4 ^ x9, 7);
                a0[i] = x0;
                a1[i] = x1;
                a2[i] = x2;
                a3[i] = x3;
                a4[i] = x4;
                a5[i] = x5;
                a6[i] = x6;
                a7[i] = x7;
                a8[i] = x8;
                a9[i] = x9;
                a10[i] = x10;
                a11[i] = x11;
                a12[i] = x12;
                a13[i] = x13;
                a14[i] = x14;
                a15[i] = x15;
        }
    }

    /**
     * The ChaCha quarter round on {@code x[a], x[b], x[c], x[d]} in place (RFC 8439 section 2.1);
     * {@link #block} inlines the same steps. Kept for the section 2.1.1 test vector.
     */
    static void quarterRound(int[] x, int a, int b, int c, int d) {
        x[a] += x[b]; x[d] = Integer.rotateLeft(x[d] ^ x[a], 16);
        x[c] += x[d]; x[b] = Integer.rotateLeft(x[b] ^ x[c], 12);
        x[a] += x[b]; x[d] = Integer.rotateLeft(x[d] ^ x[a], 8);
        x[c] += x[d]; x[b] = Integer.rotateLeft(x[b] ^ x[c], 7);
    }

    /** Names the stream but never the key. */
    @Override
    public String toString() {
        return "ChaCha20[stream=" + Long.toUnsignedString(stream) + ", key=<secret>]";
    }
}
