package org.dpgauss.privacy.noise;

import java.math.BigInteger;
import java.util.Objects;
import org.dpgauss.privacy.RandomSource;

/**
 * The discrete Gaussian distribution {@code N_Z(0, sigma^2)} on the integers:
 * {@code P[X = x] proportional to exp(-x^2 / (2 sigma^2))}, with {@code sigma^2} an exact rational, sampled
 * exactly by Canonne, Kamath &amp; Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020),
 * Algorithm 3: draw {@code Y} from the discrete Laplace with integer scale {@code t} and accept it with
 * probability {@code exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2))}.
 *
 * <p>The acceptance ratio is the target over the proposal up to a constant, for <em>every</em> {@code t > 0}
 * ({@code -y^2/(2 s^2) + |y|/t = -(|y| - s^2/t)^2/(2 s^2) + s^2/(2 t^2)}); CKS20 take
 * {@code t = floor(sigma) + 1}. For an integer sigma we take {@code t = sigma}, which keeps the exponent
 * {@code (|Y| - sigma)^2 / (2 sigma^2)} in {@code long} arithmetic (the fast path used by
 * {@link SecureGaussianSampler}); the acceptance rate is then about {@code 1 - 1/e} or better.
 *
 * <p><b>Privacy</b> (CKS20 Thm. 4 and, for vectors of independent draws, Thm. 14): adding independent
 * {@code N_Z(0, sigma^2)} draws to an integer-valued query with L2 sensitivity {@code Delta} is
 * {@code Delta^2 / (2 sigma^2)}-zCDP, the same as the continuous Gaussian mechanism.
 *
 * <p>Immutable; thread safety is that of the {@link RandomSource} passed to {@link #sample}.
 */
public final class DiscreteGaussian {

    /** Largest integer sigma on the long fast path: {@code 2 sigma^2 < 2^63}. */
    public static final long MAX_INTEGER_SIGMA = 1L << 30;

    private final long sigmaSquaredNum;
    private final long sigmaSquaredDen;
    private final long integerSigma; // > 0 iff sigma is an integer (fast path)
    private final DiscreteLaplace proposal;
    // BigInteger path: sigma^2 = num/den, t = floor(sigma)+1
    private final BigInteger num;
    private final BigInteger den;
    private final BigInteger t;

    private DiscreteGaussian(long sigmaSquaredNum, long sigmaSquaredDen, long integerSigma, long t) {
        this.sigmaSquaredNum = sigmaSquaredNum;
        this.sigmaSquaredDen = sigmaSquaredDen;
        this.integerSigma = integerSigma;
        this.proposal = DiscreteLaplace.withScale(t);
        this.num = BigInteger.valueOf(sigmaSquaredNum);
        this.den = BigInteger.valueOf(sigmaSquaredDen);
        this.t = BigInteger.valueOf(t);
    }

    /**
     * The discrete Gaussian with an integer {@code sigma}.
     *
     * @param sigma the parameter, in {@code [1, 2^30]}
     * @return the distribution
     * @throws IllegalArgumentException if sigma is out of range
     */
    public static DiscreteGaussian withIntegerSigma(long sigma) {
        if (sigma < 1 || sigma > MAX_INTEGER_SIGMA) {
            throw new IllegalArgumentException("sigma=" + sigma + " is outside [1, " + MAX_INTEGER_SIGMA
                    + "]: an integer discrete Gaussian parameter must be positive and small enough for exact"
                    + " 64-bit arithmetic");
        }
        return new DiscreteGaussian(sigma * sigma, 1, sigma, sigma);
    }

    /**
     * The discrete Gaussian with the rational {@code sigma^2 = num / den}, sampled in BigInteger arithmetic
     * (slower; {@link #withIntegerSigma} is the fast path).
     *
     * @param num the numerator, {@code >= 1}
     * @param den the denominator, {@code >= 1}, with {@code num / den <= 2^60}
     * @return the distribution
     * @throws IllegalArgumentException if the parameter is out of range
     */
    public static DiscreteGaussian withSigmaSquared(long num, long den) {
        if (num < 1 || den < 1) {
            throw new IllegalArgumentException("sigma^2=" + num + "/" + den
                    + " is not a positive rational: numerator and denominator must both be >= 1");
        }
        long floorVariance = num / den;
        if (floorVariance > (1L << 60)) {
            throw new IllegalArgumentException("sigma^2=" + num + "/" + den + " is above 2^60: out of the supported"
                    + " range of the discrete Gaussian sampler");
        }
        long s = BigInteger.valueOf(floorVariance).sqrt().longValueExact(); // floor(sigma) = floor(sqrt(floor(s^2)))
        if (num % den == 0 && s * s == floorVariance && s <= MAX_INTEGER_SIGMA) {
            return withIntegerSigma(s);
        }
        return new DiscreteGaussian(num, den, 0, s + 1);
    }

    /** @return the numerator of {@code sigma^2} */
    public long sigmaSquaredNumerator() {
        return sigmaSquaredNum;
    }

    /** @return the denominator of {@code sigma^2} */
    public long sigmaSquaredDenominator() {
        return sigmaSquaredDen;
    }

    /** @return {@code sigma} as a double (informational; sampling uses the exact rational) */
    public double sigma() {
        return Math.sqrt((double) sigmaSquaredNum / sigmaSquaredDen);
    }

    /**
     * Draws one sample (CKS20 Algorithm 3).
     *
     * @param random the random source, not null
     * @return the draw
     */
    public long sample(RandomSource random) {
        Objects.requireNonNull(random, "random");
        while (true) {
            long y = proposal.sample(random);
            if (accept(random, Math.abs(y))) {
                return y;
            }
        }
    }

    /** Bernoulli(exp(-(|y| - sigma^2/t)^2 / (2 sigma^2))). */
    private boolean accept(RandomSource random, long absY) {
        if (integerSigma > 0) {
            // t = sigma: exponent (|y| - sigma)^2 / (2 sigma^2)
            long diff = absY - integerSigma;
            if (Math.abs(diff) < (1L << 31)) {
                return ExactBernoulli.bernoulliExpNeg(random, diff * diff, 2 * integerSigma * integerSigma);
            }
            BigInteger d = BigInteger.valueOf(diff);
            return ExactBernoulli.bernoulliExpNeg(random, d.multiply(d),
                    BigInteger.valueOf(2 * integerSigma * integerSigma));
        }
        // sigma^2 = num/den: (|y| - num/(den t))^2 / (2 num/den) = (|y| den t - num)^2 / (2 num den t^2)
        BigInteger a = BigInteger.valueOf(absY).multiply(den).multiply(t).subtract(num);
        BigInteger numerator = a.multiply(a);
        BigInteger denominator = num.multiply(den).multiply(t).multiply(t).shiftLeft(1);
        return ExactBernoulli.bernoulliExpNeg(random, numerator, denominator);
    }

    @Override
    public String toString() {
        return "DiscreteGaussian(sigma^2=" + sigmaSquaredNum + "/" + sigmaSquaredDen + ")";
    }
}
