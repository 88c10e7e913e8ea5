package org.dpgauss.privacy.noise;

import java.util.Objects;
import org.dpgauss.privacy.RandomSource;

/**
 * Laplace privacy noise that resists floating-point attacks: a discrete Laplace (two-sided geometric) on the
 * power-of-two grid of {@link NoiseGrid}, drawn in exact integer arithmetic by Canonne, Kamath &amp; Steinke
 * 2020, Algorithm 2 ({@link DiscreteLaplace}).
 *
 * <p><b>Attack and defence</b>: as for {@link SecureGaussianSampler}; for Laplace noise the attack is
 * Mironov's original one (CCS 2012), against {@code b * ln(u)}-style samplers.
 *
 * <p>Noise for scale {@code b} is {@code g * Z} with {@code g = 2^(floor(log2 b) - 20)} and
 * {@code P[Z = z] proportional to exp(-|z| / t)}, {@code t = ceil(b / g)}. A mechanism rounds its query to the
 * grid ({@link NoiseGrid#index}) and releases {@code g * (round(f/g) + Z)}; with L1 sensitivity
 * {@code Delta} and the rounding inflation {@code g d} ({@link NoiseGrid#l1RoundingInflation}) it is
 * {@code ((Delta + g d) / (g t))}-DP, and {@code g t >= b}, so it is at most {@code (Delta + g d)/b}-DP
 * (geometric mechanism, Ghosh, Roughgarden &amp; Sundararajan, STOC 2009).
 *
 * <p>Not thread-safe unless the {@link RandomSource} is.
 */
public final class SecureLaplaceSampler {

    private final RandomSource random;

    private SecureLaplaceSampler(RandomSource random) {
        this.random = random;
    }

    /** @return a sampler drawing from a new {@link RandomSource#secure()} (SecureRandom) */
    public static SecureLaplaceSampler create() {
        return new SecureLaplaceSampler(RandomSource.secure());
    }

    /**
     * @param random the source of uniform bits, not null; use {@link RandomSource#insecureSeeded} only in tests
     * @return a sampler drawing from {@code random}
     */
    public static SecureLaplaceSampler using(RandomSource random) {
        return new SecureLaplaceSampler(Objects.requireNonNull(random, "random"));
    }

    /** @return the random source */
    public RandomSource source() {
        return random;
    }

    /**
     * @param scale the Laplace scale {@code b}, in {@code [2^-1000, 2^960]}
     * @return the grid spacing {@code 2^(floor(log2 b) - 20)}
     */
    public static double grid(double scale) {
        return NoiseGrid.spacing("scale", scale);
    }

    /**
     * One draw of Laplace noise with scale (at least) {@code b}, an exact point of the grid {@link #grid(double)}.
     *
     * @param scale the scale {@code b}, in {@code [2^-1000, 2^960]}
     * @return {@code g * Z}
     * @throws IllegalArgumentException if the scale is not positive and finite or out of range
     */
    public double sample(double scale) {
        double g = grid(scale);
        return g * DiscreteLaplace.withScale(NoiseGrid.integerScale("scale", scale, g)).sample(random);
    }

    /**
     * Fills {@code out} with independent draws as {@link #sample(double)}.
     *
     * @param out the array to fill, not null
     * @param scale the scale {@code b}
     */
    public void sample(double[] out, double scale) {
        Objects.requireNonNull(out, "out");
        double g = grid(scale);
        DiscreteLaplace z = DiscreteLaplace.withScale(NoiseGrid.integerScale("scale", scale, g));
        for (int i = 0; i < out.length; i++) {
            out[i] = g * z.sample(random);
        }
    }
}
