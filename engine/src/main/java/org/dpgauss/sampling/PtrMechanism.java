package org.dpgauss.sampling;

import java.math.BigInteger;
import java.util.Objects;
import org.dpgauss.privacy.RandomSource;

/**
 * The propose-test-release step {@code M_PTR^{(eps', delta')}: score -> PASS | FAIL} of BHS23 Claim 10 / spec
 * unbounded-gaussian-sampling §3.6, for a score whose sensitivity under <b>replace-one</b> neighbours is at most 2
 * (spec §5, Lem 3.5/43). The sampler and the covariance-aware mean estimator run it at
 * {@code (eps', delta') = (eps/3, delta/6)}.
 *
 * <ul>
 *   <li>{@link #SOUND} (the default everywhere): PTR-A of spec §3.6. {@code (eps', delta')}-DP for every score of
 *       sensitivity {@code <= 2}; PASS for sure at score 0, FAIL for sure at scores {@code >= 2B = T_PTR}.
 *       Because {@code T_PTR} exceeds the paper's quoted threshold, callers must raise the discretisation
 *       parameter to {@code k >= ceil(T_PTR)} (spec §2.3) so that "Score = k implies FAIL".</li>
 *   <li>{@link #BHS23_AS_PUBLISHED}: the rule of the public BHS23 reference code (spec §3.6, erratum E4),
 *       {@code pFail(z) = min(1, delta' e^{eps'(z-2)/2})} for {@code 0 < z < tau}, FAIL for
 *       {@code z >= tau = 2 ln((1-delta')/delta')/eps' + 4}. <b>It is not differentially private</b> in the PASS
 *       direction (spec §3.6 counterexample: eps'=1, delta'=0.01, P[PASS | 9] = 0.669 > e * P[PASS | 11] + 0.01
 *       = 0.282). Kept only to reproduce the paper; every output made with it is uncertified.</li>
 * </ul>
 *
 * <p><b>The coin.</b> {@link #test} draws FAIL with probability <em>exactly</em> {@code pFail(z)} as a double: the
 * double {@code p} is a dyadic rational {@code m / 2^s}, and a uniform {@code U in [0, 1)} given by its binary
 * expansion (64 secure random bits at a time from the {@link RandomSource}) is compared with {@code p} digit by
 * digit, so no floating-point rounding of {@code U} enters ({@link #bernoulli}). The only inexactness left is the
 * evaluation of {@code pFail} itself (relative error about {@code 1e-15}), far below {@code delta'}.
 */
public enum PtrMechanism {

    /** PTR-A of spec §3.6: sound for sensitivity-2 scores; the default. */
    SOUND("sound", true),

    /** The BHS23 reference-code rule (spec §3.6): NOT differentially private; paper reproduction only. */
    BHS23_AS_PUBLISHED("bhs23-as-published", false);

    private final String id;
    private final boolean differentiallyPrivate;

    PtrMechanism(String id, boolean differentiallyPrivate) {
        this.id = id;
        this.differentiallyPrivate = differentiallyPrivate;
    }

    /** @return the command-line identifier: {@code sound} or {@code bhs23-as-published} */
    public String id() {
        return id;
    }

    /** @return whether this rule is {@code (eps', delta')}-DP for sensitivity-2 scores (false for the BHS23 rule) */
    public boolean isDifferentiallyPrivate() {
        return differentiallyPrivate;
    }

    /**
     * Parses {@link #id()} (or the constant name, any case, '_' for '-').
     *
     * @param text the identifier
     * @return the mechanism
     * @throws IllegalArgumentException listing the accepted values
     */
    public static PtrMechanism fromId(String text) {
        if (text != null) {
            String norm = text.strip().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            for (PtrMechanism p : values()) {
                if (p.id.equals(norm)) {
                    return p;
                }
            }
        }
        throw new IllegalArgumentException("--ptr=" + text + " is unknown: expected 'sound' (PTR-A of spec §3.6, "
                + "the default) or 'bhs23-as-published' (NOT differentially private, paper reproduction only)");
    }

    /**
     * The probability that the test FAILs at score {@code z}.
     *
     * <p>SOUND (spec §3.6): with {@code B = (2/eps') ln(1 + (e^{eps'} - 1)/(2 delta'))} and
     * {@code g(u) = delta' (e^{eps' u/2} - 1)/(e^{eps'} - 1)}: 0 for {@code z <= 0}, {@code g(z)} on {@code (0, B]},
     * {@code 1 - g(2B - z)} on {@code (B, 2B)}, 1 from {@code 2B} on. Both DP chains
     * ({@code pFail(z+2) <= e^{eps'} pFail(z) + delta'} and the same for PASS) hold with equality on each half.
     *
     * @param z the score (any real; scores of the algorithms are integers in {@code [0, k]})
     * @param epsilonPrime eps' in {@code (0, 1]}
     * @param deltaPrime delta' in {@code (0, eps'/10]}
     * @return pFail in {@code [0, 1]}
     */
    public double failProbability(double z, double epsilonPrime, double deltaPrime) {
        checkLevels(epsilonPrime, deltaPrime);
        if (Double.isNaN(z)) {
            throw new IllegalArgumentException("score=NaN is not a number");
        }
        if (this == BHS23_AS_PUBLISHED) {
            if (z <= 0) {
                return 0;
            }
            if (z >= failThreshold(epsilonPrime, deltaPrime)) {
                return 1;
            }
            // the reference code's PASS probability 1 - delta' e^{eps'(z-2)/2}, clamped where it would go negative
            return Math.min(1.0, deltaPrime * Math.exp(epsilonPrime * (z - 2) / 2));
        }
        if (z <= 0) {
            return 0;
        }
        double b = halfThreshold(epsilonPrime, deltaPrime);
        if (z >= 2 * b) {
            return 1;
        }
        if (z <= b) {
            return g(z, epsilonPrime, deltaPrime);
        }
        return 1 - g(2 * b - z, epsilonPrime, deltaPrime);
    }

    /**
     * The score from which the test FAILs with certainty: {@code T_PTR = 2B = (4/eps') ln(1 + (e^{eps'}-1)/(2 delta'))}
     * for SOUND (spec §2.3), {@code tau = 2 ln((1-delta')/delta')/eps' + 4} for the BHS23 rule.
     *
     * @param epsilonPrime eps'
     * @param deltaPrime delta'
     * @return the threshold
     */
    public double failThreshold(double epsilonPrime, double deltaPrime) {
        checkLevels(epsilonPrime, deltaPrime);
        if (this == BHS23_AS_PUBLISHED) {
            return 2 * Math.log((1 - deltaPrime) / deltaPrime) / epsilonPrime + 4;
        }
        return 2 * halfThreshold(epsilonPrime, deltaPrime);
    }

    /**
     * One run of the test.
     *
     * @param score the score, an integer {@code >= 0}
     * @param epsilonPrime eps'
     * @param deltaPrime delta'
     * @param random the source of the coin (secure unless a test passes a seeded one), not null
     * @return true for PASS, false for FAIL
     */
    public boolean test(int score, double epsilonPrime, double deltaPrime, RandomSource random) {
        Objects.requireNonNull(random, "random");
        if (score < 0) {
            // the score is private: never in the message (issue 24, item 2)
            throw new IllegalArgumentException("a score is negative: scores are counts in [0, k]");
        }
        return !bernoulli(failProbability(score, epsilonPrime, deltaPrime), random);
    }

    /** B of spec §3.6: g(B) = 1/2. */
    private static double halfThreshold(double epsilonPrime, double deltaPrime) {
        return (2 / epsilonPrime) * Math.log1p(Math.expm1(epsilonPrime) / (2 * deltaPrime));
    }

    private static double g(double u, double epsilonPrime, double deltaPrime) {
        return deltaPrime * Math.expm1(epsilonPrime * u / 2) / Math.expm1(epsilonPrime);
    }

    /** The ranges of spec §3.6 (BHS23 Claim 10): 0 < eps' <= 1, 0 < delta' <= eps'/10. */
    static void checkLevels(double epsilonPrime, double deltaPrime) {
        if (!(epsilonPrime > 0 && epsilonPrime <= 1)) {
            throw new IllegalArgumentException("PTR eps'=" + epsilonPrime + " is outside (0, 1]: the PTR mechanism "
                    + "of spec §3.6 (BHS23 Claim 10) is stated for 0 < eps' <= 1");
        }
        if (!(deltaPrime > 0 && deltaPrime <= epsilonPrime / 10)) {
            throw new IllegalArgumentException("PTR delta'=" + deltaPrime + " is outside (0, eps'/10 = "
                    + epsilonPrime / 10 + "]: the PTR mechanism of spec §3.6 needs 0 < delta' <= eps'/10");
        }
    }

    /**
     * {@code Bernoulli(p)} with probability exactly the double {@code p}: {@code p = m / 2^s} with {@code m} odd; the
     * binary digits of a uniform {@code U} are drawn 64 at a time and compared with those of {@code p}; the first
     * differing digit decides {@code U < p}. If all {@code s} digits agree, {@code U >= p}.
     *
     * @param p the probability; {@code <= 0} gives false, {@code >= 1} true
     * @param random the bit source
     * @return true with probability p
     */
    static boolean bernoulli(double p, RandomSource random) {
        if (Double.isNaN(p)) {
            throw new IllegalArgumentException("probability=NaN");
        }
        if (p <= 0) {
            return false;
        }
        if (p >= 1) {
            return true;
        }
        long bits = Double.doubleToRawLongBits(p);
        int biased = (int) ((bits >>> 52) & 0x7ff);
        long m = bits & ((1L << 52) - 1);
        int s;
        if (biased == 0) {
            s = 1074; // subnormal: p = m 2^-1074
        } else {
            m |= 1L << 52;
            s = 1075 - biased; // p = m 2^(biased - 1075)
        }
        int tz = Long.numberOfTrailingZeros(m);
        m >>>= tz;
        s -= tz; // s >= 1 because p < 1
        BigInteger num = BigInteger.valueOf(m);
        for (int chunk = 0; 64 * chunk < s; chunk++) {
            // digits 64*chunk+1 .. 64*chunk+64 of p, i.e. floor(p 2^{64(chunk+1)}) mod 2^64
            int shift = s - 64 * (chunk + 1);
            BigInteger digits = shift >= 0 ? num.shiftRight(shift) : num.shiftLeft(-shift);
            long pChunk = digits.longValue(); // low 64 bits
            long uChunk = random.nextLong();
            int cmp = Long.compareUnsigned(uChunk, pChunk);
            if (cmp != 0) {
                return cmp < 0;
            }
        }
        return false;
    }
}
