package org.dpgauss.privacy.noise;

import java.util.Objects;
import org.dpgauss.privacy.RandomSource;

/**
 * Gaussian privacy noise that resists floating-point attacks: a discrete Gaussian on a power-of-two grid, drawn
 * in exact integer arithmetic.
 *
 * <p><b>The attack.</b> Textbook samplers ({@code sigma * nextGaussian()}, Box–Muller, inverse-CDF Laplace) and
 * the addition {@code f(x) + noise} are computed in floating point. The set of doubles they can produce, and their
 * probabilities, are irregular and depend on {@code f(x)}: Mironov ("On Significance of the Least Significant
 * Bits for Differential Privacy", CCS 2012) showed that an observer can often tell {@code f(x)} from
 * {@code f(x')} exactly from the low-order bits of one output, breaking the guarantee completely; Jin, McMurtry,
 * Rubinstein &amp; Ohrimenko ("Are We There Yet? Timing and Floating-Point Attacks on Differential Privacy
 * Systems", IEEE S&amp;P 2022) extended this to Gaussian samplers, and Haney, Desfontaines, Hartman, Shrestha
 * &amp; Hay ("Precision-based attacks and interval refining: how to break, then fix, differential privacy on
 * finite computers", 2022) to snapping-style defences.
 *
 * <p><b>The defence.</b> Noise is {@code g * Z} where {@code g = 2^k} is the grid of {@link NoiseGrid} and
 * {@code Z ~ N_Z(0, s^2)} is the discrete Gaussian with the <em>integer</em> parameter
 * {@code s = ceil(sigma / g)} in {@code [2^20, 2^21]}, sampled by Canonne, Kamath &amp; Steinke (NeurIPS 2020)
 * Algorithms 1–3 ({@link DiscreteGaussian}): every random decision is an integer comparison, so the distribution
 * of {@code Z} is exactly the discrete Gaussian, given uniform bits from the {@link RandomSource}
 * ({@code SecureRandom} by default). The returned double {@code g * Z} is exact: {@code value / g} is an integer.
 * A mechanism must round its query to the same grid ({@link NoiseGrid#index}) and release
 * {@code g * (round(f/g) + Z)}, accounting the rounding by {@link NoiseGrid#l2RoundingInflation}; then its
 * output is an exact grid point whose distribution is a shifted discrete Gaussian, and
 * {@code Delta'^2 / (2 (g s)^2)}-zCDP holds exactly (CKS20 Thm. 14) for the inflated sensitivity
 * {@code Delta' = Delta + g sqrt(d)}. {@code g s >= sigma}, so this is at most {@code Delta'^2/(2 sigma^2)}.
 *
 * <p>Variance: {@code Var[Z] <= s^2} (CKS20, Sec. 2) with a relative gap far below {@code 1e-10} for
 * {@code s >= 2^20}, so {@code g * Z} has standard deviation {@code g s}, within a relative {@code 2^-20} above
 * {@code sigma}. Timing: the running time is random but independent of the data (the noise is drawn before it
 * is added); it is correlated with the drawn {@code |Z|}, so an adversary who can time a release learns a
 * little about the noise (Jin et al. 2022). This residual side channel is not mitigated here.
 *
 * <p>Not thread-safe unless the {@link RandomSource} is ({@link RandomSource#secure()} is).
 */
public final class SecureGaussianSampler {

    private final RandomSource random;

    private SecureGaussianSampler(RandomSource random) {
        this.random = random;
    }

    /** @return a sampler drawing from a new {@link RandomSource#secure()} (SecureRandom) */
    public static SecureGaussianSampler create() {
        return new SecureGaussianSampler(RandomSource.secure());
    }

    /**
     * @param random the source of uniform bits, not null; use {@link RandomSource#insecureSeeded} only in tests
     * @return a sampler drawing from {@code random}
     */
    public static SecureGaussianSampler using(RandomSource random) {
        return new SecureGaussianSampler(Objects.requireNonNull(random, "random"));
    }

    /** @return the random source */
    public RandomSource source() {
        return random;
    }

    /**
     * The grid of {@link #sample(double)}: {@code 2^(floor(log2 sigma) - 20)}.
     *
     * @param sigma the standard deviation, in {@code [2^-1000, 2^960]}
     * @return the grid spacing {@code g}
     */
    public static double grid(double sigma) {
        return NoiseGrid.spacing("sigma", sigma);
    }

    /**
     * The standard deviation parameter actually used: {@code g * ceil(sigma / g)}, in
     * {@code [sigma, sigma (1 + 2^-20)]}.
     *
     * @param sigma the requested standard deviation
     * @return the effective parameter
     */
    public static double effectiveSigma(double sigma) {
        double g = grid(sigma);
        return g * NoiseGrid.integerScale("sigma", sigma, g);
    }

    /**
     * One draw of Gaussian noise with standard deviation (at least) {@code sigma}, an exact point of the grid
     * {@link #grid(double)}.
     *
     * @param sigma the standard deviation, in {@code [2^-1000, 2^960]}
     * @return {@code g * Z}, {@code Z ~ N_Z(0, ceil(sigma/g)^2)}
     * @throws IllegalArgumentException if sigma is not positive and finite or out of range
     */
    public double sample(double sigma) {
        double g = grid(sigma);
        return g * DiscreteGaussian.withIntegerSigma(NoiseGrid.integerScale("sigma", sigma, g)).sample(random);
    }

    /**
     * Fills {@code out} with independent draws as {@link #sample(double)}.
     *
     * @param out the array to fill, not null
     * @param sigma the standard deviation
     */
    public void sample(double[] out, double sigma) {
        Objects.requireNonNull(out, "out");
        double g = grid(sigma);
        DiscreteGaussian z = DiscreteGaussian.withIntegerSigma(NoiseGrid.integerScale("sigma", sigma, g));
        for (int i = 0; i < out.length; i++) {
            out[i] = g * z.sample(random);
        }
    }

    /**
     * The integer noise {@code Z ~ N_Z(0, ceil(sigma/grid)^2)} for a caller-chosen power-of-two grid; the mechanism
     * then releases {@code grid * (index + Z)} with {@code index = NoiseGrid.index(f, grid)}.
     *
     * @param sigma the standard deviation
     * @param grid a power of two with {@code sigma / grid} in {@code [1, 2^30]}
     * @return the integer draw
     */
    public long sampleIndex(double sigma, double grid) {
        return DiscreteGaussian.withIntegerSigma(NoiseGrid.integerScale("sigma", sigma, grid)).sample(random);
    }
}
