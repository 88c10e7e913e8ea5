package org.dpgauss.privacy;

/**
 * The source of randomness for privacy noise. Every mechanism draws its noise through this interface, so that
 * there is exactly one decision point for whether noise is secure, and so that an insecure, reproducible source
 * is always visible as such ({@link #isInsecure()}, {@link #describe()}) and can be reported with the result.
 *
 * <p>Contract of the sampling methods:
 * <ul>
 *   <li>{@link #nextDouble()} is uniform on the <em>open</em> interval {@code (0, 1)}: never 0 (so that
 *       {@code log(u)} is finite) and never 1;</li>
 *   <li>{@link #nextInt(int)} is exactly uniform on {@code [0, bound)} (rejection sampling, no modulo bias);</li>
 *   <li>{@link #nextGaussian()} is standard normal, drawn by the Marsaglia polar (Box–Muller) method.</li>
 * </ul>
 * Only {@link #nextLong()} is primitive; the defaults derive the others from {@code nextLong()}, so a seeded
 * source is reproducible across platforms ({@link #secure()} overrides {@link #nextBytes(byte[])} with
 * {@code SecureRandom.nextBytes}).
 *
 * <p><b>Floating-point caveat.</b> Noise computed in floating point, as {@code nextGaussian()} and any
 * Laplace/Gaussian sampler built naively on {@code nextDouble()} are, can leak information through the pattern
 * of representable outputs (Mironov, "On Significance of the Least Significant Bits for Differential Privacy",
 * CCS 2012). For privacy noise use the hardened samplers of {@code org.dpgauss.privacy.noise}:
 * {@link org.dpgauss.privacy.noise.SecureGaussianSampler} and
 * {@link org.dpgauss.privacy.noise.SecureLaplaceSampler} draw discrete Gaussian/Laplace noise on a power-of-two grid
 * in exact integer arithmetic (Canonne, Kamath &amp; Steinke 2020) from this interface's {@link #nextLong()};
 * {@code nextGaussian()} here is a plain polar-method draw for simulation, and a guarantee relying on it should
 * say so.
 *
 * <p>Implementations are not required to be thread-safe; {@link #secure()} happens to be, the seeded source is
 * not. Use one instance per thread, or synchronise externally.
 */
public interface RandomSource {

    /**
     * A cryptographically secure source backed by {@code new java.security.SecureRandom()}.
     *
     * <p>Deliberately not {@code SecureRandom.getInstanceStrong()}: on Linux that is {@code NativePRNGBlocking},
     * which reads {@code /dev/random} and can block indefinitely on entropy-starved machines (fresh VMs,
     * containers, CI runners), hanging a batch job. The default {@code SecureRandom} ({@code NativePRNG}, or
     * {@code DRBG} elsewhere) is seeded from the OS and is non-blocking; it is the recommended choice for
     * generating keys and nonces, and so is more than adequate for noise.
     *
     * @return a new secure source
     */
    static RandomSource secure() {
        return new SecureRandomSource();
    }

    /**
     * A deterministic, <b>insecure</b> source seeded with {@code seed} (backed by
     * {@link java.util.SplittableRandom}), for reproducible tests and debugging only. Its output is predictable
     * from the seed, so noise drawn from it provides <b>no privacy</b>. {@link #isInsecure()} returns true and
     * {@link #describe()} says so, so that results produced with it can be flagged.
     *
     * @param seed the seed
     * @return a new seeded source; two sources with the same seed produce the same sequence
     */
    static RandomSource insecureSeeded(long seed) {
        return new SeededRandomSource(seed);
    }

    /**
     * The source selected by the command line's {@code --insecure-seed N} option.
     *
     * @param insecureSeedOrNull the seed given with {@code --insecure-seed}, or null when the option is absent
     * @return {@link #secure()} when null, otherwise {@link #insecureSeeded(long)}
     */
    static RandomSource fromOption(Long insecureSeedOrNull) {
        return insecureSeedOrNull == null ? secure() : insecureSeeded(insecureSeedOrNull);
    }

    /**
     * A ChaCha20 keystream keyed with 256 bits drawn from {@code parent}: the fast stream for bulk draws (the
     * sampler's Gaussians, the secret row order). Secure exactly when the parent is; the key is never exposed.
     *
     * @param parent the source of the key, not null
     * @return a new keystream source (not thread-safe)
     */
    static RandomSource chaCha20KeyedFrom(RandomSource parent) {
        return KeystreamSource.keyedFrom(parent);
    }

    /** @return 64 uniformly random bits */
    long nextLong();

    /**
     * Fills {@code bytes} with uniformly random bytes: by default the little-endian bytes of successive
     * {@link #nextLong()} values (the last one truncated), so the stream depends only on {@code nextLong()}.
     *
     * @param bytes the array to fill, not null
     */
    default void nextBytes(byte[] bytes) {
        java.util.Objects.requireNonNull(bytes, "bytes");
        int i = 0;
        while (i < bytes.length) {
            long x = nextLong();
            for (int k = 0; k < Long.BYTES && i < bytes.length; k++, x >>>= 8) {
                bytes[i++] = (byte) x;
            }
        }
    }

    /** @return true if this source is predictable and must not be used for private releases */
    boolean isInsecure();

    /** @return a one-line description for logs and reports, saying "INSECURE" when {@link #isInsecure()} */
    String describe();

    /**
     * A uniform double on the open interval {@code (0, 1)}: {@code k / 2^53} for {@code k} uniform on
     * {@code [1, 2^53)}, drawing again in the (probability {@code 2^-53}) case {@code k = 0}. Never 0, never 1.
     *
     * @return the draw
     */
    default double nextDouble() {
        long k;
        do {
            k = nextLong() >>> 11;
        } while (k == 0);
        return k * 0x1.0p-53;
    }

    /**
     * A uniform int on {@code [0, bound)} without modulo bias: 63 random bits {@code u} are reduced modulo
     * {@code bound}, rejecting the {@code u} that fall in the final, incomplete block of {@code bound} values.
     *
     * @param bound the exclusive upper bound, {@code >= 1}
     * @return the draw
     * @throws IllegalArgumentException if {@code bound < 1}
     */
    default int nextInt(int bound) {
        if (bound < 1) {
            throw new IllegalArgumentException("bound=" + bound + " is outside [1, " + Integer.MAX_VALUE
                    + "]: the range [0, bound) must not be empty");
        }
        long m = bound;
        long u = nextLong() >>> 1;
        long r = u % m;
        while (u - r + (m - 1) < 0) { // u - r is the start of u's block; overflow means the block is incomplete
            u = nextLong() >>> 1;
            r = u % m;
        }
        return (int) r;
    }

    /**
     * A standard normal draw by the Marsaglia polar method (a rejection form of Box–Muller); the second variate
     * of each pair is discarded so the default implementation keeps no state. See the floating-point caveat in
     * the class comment.
     *
     * @return the draw
     */
    default double nextGaussian() {
        double u;
        double v;
        double s;
        do {
            u = 2.0 * nextDouble() - 1.0;
            v = 2.0 * nextDouble() - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        return u * Math.sqrt(-2.0 * Math.log(s) / s);
    }
}
