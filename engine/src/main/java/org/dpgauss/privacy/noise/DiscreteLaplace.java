package org.dpgauss.privacy.noise;

import java.util.Objects;
import org.dpgauss.privacy.RandomSource;

/**
 * The discrete Laplace distribution on the integers with integer scale {@code t}:
 * {@code P[X = x] = (e^{1/t} - 1) / (e^{1/t} + 1) * exp(-|x| / t)}, sampled exactly by Canonne, Kamath &amp;
 * Steinke 2020, Algorithm 2 (with {@code s = 1}): {@code |X| = U + t V} with {@code U} uniform on
 * {@code [0, t)} accepted with probability {@code exp(-U/t)} and {@code V} geometric with ratio
 * {@code e^-1}, then a fair sign, rejecting "negative zero" so that 0 is not counted twice.
 *
 * <p>All decisions are exact integer comparisons ({@link ExactBernoulli}); no floating-point value enters the
 * sample. Adding {@code X} to an integer-valued query of L1 sensitivity {@code Delta} is
 * {@code (Delta / t)}-DP (the geometric mechanism, Ghosh, Roughgarden &amp; Sundararajan 2009). Immutable; thread
 * safety is that of the {@link RandomSource} passed to {@link #sample}.
 */
public final class DiscreteLaplace {

    /** Largest supported scale: keeps {@code U + t V} far from overflow (V exceeds 2^30 with probability e^-2^30). */
    public static final long MAX_SCALE = 1L << 32;

    private final long scale;

    private DiscreteLaplace(long scale) {
        this.scale = scale;
    }

    /**
     * @param scale the integer scale {@code t}, in {@code [1, 2^32]}
     * @return the distribution
     * @throws IllegalArgumentException if the scale is out of range
     */
    public static DiscreteLaplace withScale(long scale) {
        if (scale < 1 || scale > MAX_SCALE) {
            throw new IllegalArgumentException("scale=" + scale + " is outside [1, " + MAX_SCALE
                    + "]: the discrete Laplace scale is a positive integer (larger scales overflow exact arithmetic)");
        }
        return new DiscreteLaplace(scale);
    }

    /** @return the scale {@code t} */
    public long scale() {
        return scale;
    }

    /**
     * Draws one sample (CKS20 Algorithm 2). Expected number of iterations is below 3 for every scale.
     *
     * @param random the random source, not null
     * @return the draw
     */
    public long sample(RandomSource random) {
        Objects.requireNonNull(random, "random");
        while (true) {
            long u = ExactBernoulli.uniformBelow(random, scale);
            if (!ExactBernoulli.bernoulliExpNeg(random, u, scale)) {
                continue;
            }
            long v = 0;
            while (ExactBernoulli.bernoulliExpNeg(random, 1, 1)) {
                v++;
            }
            long x = Math.addExact(u, Math.multiplyExact(scale, v));
            boolean negative = ExactBernoulli.fairCoin(random);
            if (negative && x == 0) {
                continue;
            }
            return negative ? -x : x;
        }
    }

    @Override
    public String toString() {
        return "DiscreteLaplace(scale=" + scale + ")";
    }
}
