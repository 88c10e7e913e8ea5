package org.dpgauss.random;

/**
 * Philox4x32-10 (Salmon et al., SC'11; Random123) as a counter-based generator: much cheaper per
 * word than ChaCha20 and statistically strong (passes TestU01 BigCrush), but neither designed nor
 * analysed as a cryptographic generator, and its key has only 64 bits.
 * <b>For simulations, tests and benchmarks only; never for privacy noise</b> (use {@link ChaCha20}).
 *
 * <p>Block {@code counter} is Philox applied to the 128-bit counter
 * {@code (c0, c1, c2, c3) = (lo(counter), hi(counter), lo(stream), hi(stream))} with key
 * {@code (k0, k1) = (lo(key), hi(key))}. Immutable and thread-safe.
 */
public final class Philox4x32 implements CounterBasedGenerator {

    /** Words per block. */
    public static final int WORDS = 4;

    private static final long M0 = 0xD2511F53L;
    private static final long M1 = 0xCD9E8D57L;
    private static final int W0 = 0x9E3779B9;
    private static final int W1 = 0xBB67AE85;

    private final int k0;
    private final int k1;
    private final long stream;

    private Philox4x32(long key, long stream) {
        this.k0 = (int) key;
        this.k1 = (int) (key >>> 32);
        this.stream = stream;
    }

    /** A generator with 64-bit key and stream id. Simulation only: not cryptographically secure. */
    public static Philox4x32 withKey(long key, long stream) {
        return new Philox4x32(key, stream);
    }

    /** Same key, another stream id. */
    public Philox4x32 withStream(long newStream) {
        return new Philox4x32(key(), newStream);
    }

    /** The 64-bit key {@code k0 | k1 << 32} (not secret: this generator is not for privacy noise). */
    public long key() {
        return (k0 & 0xffffffffL) | ((long) k1 << 32);
    }

    /** The stream id (counter words 2/3). */
    public long stream() {
        return stream;
    }

    @Override
    public String name() {
        return "Philox4x32-10";
    }

    @Override
    public int wordsPerBlock() {
        return WORDS;
    }

    @Override
    public void block(long counter, int[] out) {
        if (out == null || out.length < WORDS) {
            throw new IllegalArgumentException("out must be an int[] of length >= 4, got "
                    + (out == null ? "null" : "length " + out.length));
        }
        rounds((int) counter, (int) (counter >>> 32), (int) stream, (int) (stream >>> 32), k0, k1, out);
    }

    /**
     * Raw Philox4x32-10 of Random123: {@code out4 = philox(ctr4, key2)}, for known-answer tests.
     *
     * @throws IllegalArgumentException if an array is null or has the wrong length
     */
    public static void philox(int[] ctr4, int[] key2, int[] out4) {
        if (ctr4 == null || ctr4.length != 4) {
            throw new IllegalArgumentException("ctr4 must be an int[4]");
        }
        if (key2 == null || key2.length != 2) {
            throw new IllegalArgumentException("key2 must be an int[2]");
        }
        if (out4 == null || out4.length < 4) {
            throw new IllegalArgumentException("out4 must be an int[] of length >= 4");
        }
        rounds(ctr4[0], ctr4[1], ctr4[2], ctr4[3], key2[0], key2[1], out4);
    }

    private static void rounds(int c0, int c1, int c2, int c3, int k0, int k1, int[] out) {
        for (int r = 0; r < 10; r++) {
            if (r > 0) {
                k0 += W0;
                k1 += W1;
            }
            long p0 = M0 * (c0 & 0xffffffffL);
            long p1 = M1 * (c2 & 0xffffffffL);
            int n0 = (int) (p1 >>> 32) ^ c1 ^ k0;
            int n2 = (int) (p0 >>> 32) ^ c3 ^ k1;
            c1 = (int) p1;
            c3 = (int) p0;
            c0 = n0;
            c2 = n2;
        }
        out[0] = c0;
        out[1] = c1;
        out[2] = c2;
        out[3] = c3;
    }

    @Override
    public String toString() {
        return "Philox4x32-10[key=0x" + Long.toHexString(key()) + ", stream="
                + Long.toUnsignedString(stream) + "]";
    }
}
