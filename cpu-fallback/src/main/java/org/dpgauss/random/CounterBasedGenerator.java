package org.dpgauss.random;

/**
 * A counter-based random number generator: output block {@code b} is a pure function of
 * (key, stream, b). Any element of the derived streams can therefore be computed independently,
 * in any order, by any thread or device, which is what lets a Gaussian matrix be streamed in row
 * blocks on the CPU and generated in parallel on the GPU ({@code kernels/src/main/cuda/counter_rng.cuh})
 * with the same values.
 *
 * <h2>Derived streams (the contract the CUDA twin reproduces)</h2>
 * Let {@code W = wordsPerBlock()} (16 or 4) and {@code H = W / 2}.
 * <ul>
 *   <li><b>64-bit word {@code k}</b> ({@code k >= 0}): with {@code out = block(k / H)} and
 *       {@code j = k % H}, {@code word(k) = (out[2j] & 0xffffffffL) | ((long) out[2j+1] << 32)}.</li>
 *   <li><b>uniform(k)</b> = {@code ((word(k) >>> 12) + 0.5) * 0x1.0p-52}: the midpoints of a 2^52 grid,
 *       so every value is exact, lies in [2^-53, 1 - 2^-53] (never 0, never 1) and the distribution
 *       is symmetric about 1/2. (With 53 bits, {@code ((w >>> 11) + 0.5) * 0x1.0p-53}, the sum is not
 *       representable above 2^52 and rounds to 2^53 for the top word, giving exactly 1.0.)</li>
 *   <li><b>normal(k)</b>: Box-Muller on the uniform pair {@code u1 = uniform(2*(k/2))},
 *       {@code u2 = uniform(2*(k/2) + 1)}: {@code r = sqrt(-2 ln u1)}; even {@code k} gives
 *       {@code r * cos(2 pi u2)}, odd {@code k} gives {@code r * sin(2 pi u2)}, with the logarithm and sin and
 *       cos of the exactly reduced arguments evaluated by the series and polynomials in {@code BoxMuller}
 *       (within a few ulps of the true values). Both members of a pair come from one block.</li>
 * </ul>
 * By construction words and uniforms are bit-identical on the GPU and normals agree to a few ulps
 * (to be confirmed on a GPU): {@code sqrt} and the products are correctly rounded on both sides, the
 * logarithms (CUDA's {@code log}, max 1 ulp; Java's series, max 3 ulps) see bit-identical arguments, and
 * both sides take sin and cos of the exact angle {@code 2 pi u2} (CUDA: {@code sincospi(2*u2)}; Java: the
 * polynomial of {@code BoxMuller}), each within a few ulps.
 *
 * <p>The bulk {@code fill*} methods generate each block once and are bit-identical to the
 * per-element methods for any start and length, so a matrix G with {@code G[i][j] = normal(i*r + j)}
 * can be produced in row blocks of any size.
 */
public interface CounterBasedGenerator {

    /** Short algorithm name, e.g. {@code "ChaCha20"}. */
    String name();

    /** Number of 32-bit words per block: 16 (ChaCha20) or 4 (Philox4x32). */
    int wordsPerBlock();

    /**
     * Writes block {@code counter} (all 64 bits used, unsigned) into {@code out[0 .. wordsPerBlock())}.
     *
     * @throws IllegalArgumentException if {@code out} is null or shorter than {@link #wordsPerBlock()}
     */
    void block(long counter, int[] out);

    /** The {@code k}-th 64-bit word of the stream (see the class comment). */
    default long word(long k) {
        requireIndex(k);
        int half = wordsPerBlock() / 2;
        int[] buf = new int[wordsPerBlock()];
        block(k / half, buf);
        return pack(buf, (int) (k % half));
    }

    /** The {@code k}-th uniform in the open interval (0, 1). */
    default double uniform(long k) {
        return toUniform(word(k));
    }

    /** The {@code k}-th standard normal (Box-Muller, see the class comment). */
    default double normal(long k) {
        requireIndex(k);
        long first = k & ~1L;
        return BoxMuller.radius(uniform(first)) * BoxMuller.sinCos(uniform(first + 1), (k & 1L) != 0);
    }

    /**
     * Writes blocks {@code first .. first + count - 1} word-major: word {@code w} of block {@code first + i} to
     * {@code out[w * count + i]}. The default calls {@link #block} per block; ChaCha20 computes many blocks at once.
     *
     * @throws IllegalArgumentException if {@code count < 1} or {@code out} is shorter than
     *                                  {@code count * wordsPerBlock()}
     */
    default void blocks(long first, int count, int[] out) {
        int words = wordsPerBlock();
        if (count < 1 || out == null || out.length < (long) count * words) {
            throw new IllegalArgumentException("blocks: count=" + count + " does not fit in out of length "
                    + (out == null ? "null" : out.length));
        }
        int[] buf = new int[words];
        for (int i = 0; i < count; i++) {
            block(first + i, buf);
            for (int w = 0; w < words; w++) {
                out[w * count + i] = buf[w];
            }
        }
    }

    /** Writes {@code uniform(start + i)} to {@code out[off + i]} for {@code 0 <= i < len}. */
    default void fillUniforms(long start, double[] out, int off, int len) {
        checkFill(start, out, off, len);
        if (len == 0) {
            return;
        }
        int half = wordsPerBlock() / 2;
        int[] buf = new int[wordsPerBlock()];
        long blk = start / half;
        int j = (int) (start % half);
        block(blk, buf);
        for (int i = 0; i < len; i++, j++) {
            if (j == half) {
                block(++blk, buf);
                j = 0;
            }
            out[off + i] = toUniform(pack(buf, j));
        }
    }

    /** Writes {@code normal(start + i)} to {@code out[off + i]} for {@code 0 <= i < len}. */
    default void fillNormals(long start, double[] out, int off, int len) {
        checkFill(start, out, off, len);
        if (len == 0) {
            return;
        }
        BoxMuller.fill(this, start, out, off, len);
    }

    /** Maps a 64-bit word to (0, 1): {@code ((w >>> 12) + 0.5) * 2^-52}, exact in double. */
    static double toUniform(long w) {
        return ((w >>> 12) + 0.5) * 0x1.0p-52;
    }

    /** Joins words {@code 2j} (low) and {@code 2j+1} (high) of a block into one 64-bit word. */
    private static long pack(int[] buf, int j) {
        return (buf[2 * j] & 0xffffffffL) | ((long) buf[2 * j + 1] << 32);
    }

    private static void requireIndex(long k) {
        if (k < 0) {
            throw new IllegalArgumentException("stream index k=" + k + " must be >= 0");
        }
    }

    private static void checkFill(long start, double[] out, int off, int len) {
        if (out == null) {
            throw new IllegalArgumentException("out must not be null");
        }
        if (start < 0) {
            throw new IllegalArgumentException("start=" + start + " must be >= 0");
        }
        if (len < 0) {
            throw new IllegalArgumentException("len=" + len + " must be >= 0");
        }
        if (off < 0 || off > out.length - len) {
            throw new IllegalArgumentException("off=" + off + ", len=" + len
                    + " do not fit in out of length " + out.length);
        }
        if (len > 0 && start > Long.MAX_VALUE - (len - 1)) {
            throw new IllegalArgumentException("start=" + start + " + len=" + len
                    + " overflows the 63-bit stream index");
        }
    }
}
