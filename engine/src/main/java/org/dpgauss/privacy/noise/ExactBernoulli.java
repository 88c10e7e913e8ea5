package org.dpgauss.privacy.noise;

import java.math.BigInteger;
import org.dpgauss.privacy.RandomSource;

/**
 * Exact Bernoulli draws with rational parameters, the building blocks of Canonne, Kamath &amp; Steinke,
 * "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020; arXiv:2004.00010), here "CKS20".
 *
 * <p>Every decision is an integer comparison of a uniform integer against a rational's numerator, so no
 * floating-point value ever influences the distribution: {@code P[bernoulli(n, d) = 1] = n/d} exactly (given
 * uniform random bits). A {@code long} path serves the parameters the samplers of this package use; a
 * {@link BigInteger} path serves the rest.
 */
final class ExactBernoulli {

    private ExactBernoulli() {
    }

    /** A uniform long on {@code [0, bound)}, {@code bound >= 1}, by masking to bound's bit length and rejecting. */
    static long uniformBelow(RandomSource random, long bound) {
        if (bound == 1) {
            return 0;
        }
        long mask = -1L >>> Long.numberOfLeadingZeros(bound - 1); // smallest all-ones mask covering bound-1
        long u;
        do {
            u = random.nextLong() & mask;
        } while (u >= bound); // acceptance probability > 1/2
        return u;
    }

    /** A uniform BigInteger on {@code [0, bound)}, {@code bound >= 1}, by masking to its bit length and rejecting. */
    static BigInteger uniformBelow(RandomSource random, BigInteger bound) {
        if (bound.bitLength() < 63) {
            return BigInteger.valueOf(uniformBelow(random, bound.longValueExact()));
        }
        int bits = bound.bitLength();
        byte[] bytes = new byte[(bits + 7) / 8];
        int excess = bytes.length * 8 - bits;
        BigInteger u;
        do {
            random.nextBytes(bytes);
            bytes[0] &= (byte) (0xFF >>> excess);
            u = new BigInteger(1, bytes);
        } while (u.compareTo(bound) >= 0);
        return u;
    }

    /** {@code Bernoulli(num / den)} for {@code 0 <= num <= den}, {@code den >= 1}. */
    static boolean bernoulli(RandomSource random, long num, long den) {
        return uniformBelow(random, den) < num;
    }

    /** {@code Bernoulli(num / den)} for {@code 0 <= num <= den}, {@code den >= 1}. */
    static boolean bernoulli(RandomSource random, BigInteger num, BigInteger den) {
        return uniformBelow(random, den).compareTo(num) < 0;
    }

    /** A fair coin: one bit of one 64-bit draw. */
    static boolean fairCoin(RandomSource random) {
        return random.nextLong() < 0;
    }

    /**
     * {@code Bernoulli(exp(-num/den))} for {@code num >= 0}, {@code den >= 1} (CKS20 Algorithm 1). The integer
     * part of the exponent is handled by {@code floor(num/den)} independent {@code Bernoulli(exp(-1))} draws, the
     * fractional part {@code g in [0, 1)} by the alternating-series trick: draw {@code A_k ~ Bernoulli(g/k)}
     * for {@code k = 1, 2, ...} until one is 0 and accept iff that {@code k} is odd, which happens with
     * probability {@code sum_k (-g)^(k-1)/(k-1)! ... = exp(-g)}.
     */
    static boolean bernoulliExpNeg(RandomSource random, long num, long den) {
        long whole = num / den;
        long frac = num % den;
        for (long i = 0; i < whole; i++) {
            if (!bernoulliExpNegFraction(random, 1, 1)) {
                return false;
            }
        }
        return bernoulliExpNegFraction(random, frac, den);
    }

    /** {@code Bernoulli(exp(-num/den))}, {@code 0 <= num <= den}; BigInteger once {@code den*k} would overflow. */
    private static boolean bernoulliExpNegFraction(RandomSource random, long num, long den) {
        long k = 1;
        while (true) {
            long denK;
            try {
                denK = Math.multiplyExact(den, k);
            } catch (ArithmeticException overflow) {
                return continueBig(random, BigInteger.valueOf(num), BigInteger.valueOf(den), k);
            }
            if (!bernoulli(random, num, denK)) {
                break;
            }
            k++;
        }
        return (k & 1) == 1;
    }

    /** {@code Bernoulli(exp(-num/den))} for {@code num >= 0}, {@code den >= 1}, in BigInteger arithmetic. */
    static boolean bernoulliExpNeg(RandomSource random, BigInteger num, BigInteger den) {
        if (num.bitLength() < 63 && den.bitLength() < 63) {
            return bernoulliExpNeg(random, num.longValue(), den.longValue());
        }
        BigInteger[] qr = num.divideAndRemainder(den);
        for (BigInteger i = BigInteger.ZERO; i.compareTo(qr[0]) < 0; i = i.add(BigInteger.ONE)) {
            if (!bernoulliExpNegFraction(random, 1, 1)) {
                return false;
            }
        }
        return continueBig(random, qr[1], den, 1);
    }

    /** The loop of {@link #bernoulliExpNegFraction} from step {@code k} on, in BigInteger arithmetic. */
    private static boolean continueBig(RandomSource random, BigInteger num, BigInteger den, long k) {
        while (bernoulli(random, num, den.multiply(BigInteger.valueOf(k)))) {
            k++;
        }
        return (k & 1) == 1;
    }
}
