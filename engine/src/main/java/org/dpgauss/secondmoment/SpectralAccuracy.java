package org.dpgauss.secondmoment;

/**
 * The a-priori accuracy arithmetic shared by the second-moment methods: the metric and the spectral norm of the
 * symmetric noise matrix {@code SymGauss(d, sigma)} ({@link SymmetricNoise}: independent entries of standard
 * deviation sigma on and above the diagonal, mirrored below). Public quantities only.
 *
 * <p><b>The metric</b> is {@link #METRIC}: the absolute spectral error {@code ||S~ - S||_2} in the units of S, with
 * {@code S = (1/n) sum_i x_i x_i^T} the uncentred second moment of the input rows as given (before any clipping) and
 * {@code S~} the released {@code secondMoment}. Its scale is public: the noise the methods add is a public function of
 * n, d, rho, the radius R and the method's parameters, and {@code ||S||_2 <= R^2} when every row has norm at most R.
 * Each statement is also given in units of {@code R^2} (public) and, only where a public lower bound {@code s0} on
 * {@code ||S||_2} exists, divided by s0: an upper bound on the relative error {@code ||S~ - S||_2 / ||S||_2}
 * ({@link #withUnits}). A relative statement without such a bound would have to guess the private {@code ||S||_2}.
 *
 * <p><b>Noise norm.</b> For {@code N = SymGauss(d, sigma)}:
 * <ul>
 *   <li>Bound: {@code P(||N||_2 > sigma (2 sqrt(d) + 2 sqrt(ln(2/beta)))) <= beta}. Proof: {@code u^T N u} over unit
 *       u is a Gaussian process with increments {@code E(X_u - X_v)^2 <= 2 sigma^2 ||uu^T - vv^T||_F^2
 *       <= 4 sigma^2 ||u - v||^2} (the diagonal has variance sigma^2, half the GOE's), so by the Sudakov-Fernique
 *       inequality {@code E lambda_max(N) <= 2 sigma E||g|| <= 2 sigma sqrt(d)} (Vershynin, <i>High-Dimensional
 *       Probability</i>, 2018, Thm 7.2.11 and §7.3), and the same for {@code -lambda_min}; both are
 *       {@code sqrt(2) sigma}-Lipschitz functions of the independent standard Gaussians, so Gaussian concentration
 *       (ibid. Thm 5.2.2; Boucheron, Lugosi &amp; Massart 2013, Thm 5.6) gives
 *       {@code P(lambda_max > 2 sigma sqrt(d) + t) <= exp(-t^2/(4 sigma^2))}; a union over the two ends gives the
 *       bound (spec second-moment-estimation §3.3).</li>
 *   <li>Expected value: {@code sigma (2 sqrt(d) - 1.2 d^(-1/6))}, the Tracy-Widom edge approximation (the mean of
 *       the GOE Tracy-Widom law is about -1.21): within 10% of a Monte-Carlo mean of {@code ||N||} for every
 *       {@code d >= 1} we checked (0.80 sigma at d = 1, 1.47 sigma sqrt(d) at d = 4, 1.94 sigma sqrt(d) at d = 64);
 *       an approximation, not a bound.</li>
 * </ul>
 * The released noise is the exact discrete Gaussian on a grid of spacing about {@code 2^-20 sigma}
 * ({@link SymmetricGaussianNoise}); its standard deviation {@link SymmetricGaussianNoise#effectiveSigma} is used, and
 * the rounding of the query onto the grid (at most half a grid step per entry, {@code d g / 2} in spectral norm) is
 * added to the bound.
 */
public final class SpectralAccuracy {

    /** The family's metric, in words. */
    public static final String METRIC = "absolute spectral error ||S~ - S||_2 in the units of S, S = (1/n) sum_i"
            + " x_i x_i^T the uncentred second moment of the input rows as given (before any clipping)";

    /** The metric of multiplicative statements (subsample-and-aggregate), in words. */
    public static final String RELATIVE_METRIC = "relative spectral error ||S~ - S||_2 / ||S||_2, S = (1/n) sum_i"
            + " x_i x_i^T the uncentred second moment of the input rows as given (before any clipping)";

    /** The default probability of the stated bounds. */
    public static final double PROBABILITY = 0.95;

    private SpectralAccuracy() {
    }

    /**
     * @param sigma the requested noise standard deviation per entry
     * @param d the dimension
     * @return the approximate expected spectral norm of {@code SymGauss(d, sigma)} as released
     */
    public static double expectedNoiseNorm(double sigma, int d) {
        double s = SymmetricGaussianNoise.effectiveSigma(sigma);
        return s * Math.max(2 * Math.sqrt(d) - 1.2 * Math.pow(d, -1.0 / 6), 0.5);
    }

    /**
     * @param sigma the requested noise standard deviation per entry
     * @param d the dimension
     * @param beta the failure probability, in (0, 1)
     * @return a bound that the spectral norm of the released noise (grid rounding included) exceeds with probability
     *     at most beta
     */
    public static double noiseNormBound(double sigma, int d, double beta) {
        if (!(beta > 0 && beta < 1)) {
            throw new IllegalArgumentException("beta=" + beta + " is outside (0, 1)");
        }
        double s = SymmetricGaussianNoise.effectiveSigma(sigma);
        return s * (2 * Math.sqrt(d) + 2 * Math.sqrt(Math.log(2 / beta)))
                + d * SymmetricGaussianNoise.grid(sigma) / 2;
    }

    /**
     * The ratio {@code R^2 / ||S||_2} that Gaussian rows reach at most when R is about their largest norm:
     * {@code d + 2 sqrt(2 d ln n) + 2 ln n}. For {@code x ~ N(0, S)}, {@code ||x||^2} is a Gaussian quadratic form
     * with {@code P(||x||^2 > tr S + 2 ||S||_F sqrt(t) + 2 ||S|| t) <= e^-t} (Laurent &amp; Massart 2000, Lemma 1);
     * with {@code t = ln n} (the largest of n rows), {@code tr S <= d ||S||} and {@code ||S||_F <= sqrt(d) ||S||}.
     * For near-isotropic Gaussian rows it is also about {@code R^2 / (tr S / d)}, the scale at which the expected
     * values of the methods whose error depends on S are stated.
     *
     * @param d the dimension
     * @param n the number of rows
     * @return the factor
     */
    public static double gaussianRadiusFactor(int d, int n) {
        double l = Math.log(Math.max(2, n));
        return d + 2 * Math.sqrt(2 * d * l) + 2 * l;
    }

    /**
     * The statement also in units of {@code R^2} and, with a public lower bound s0 on {@code ||S||_2}, relative to
     * it (expected and bound over s0 bound the relative error's from above).
     *
     * @param a the statement in {@link #METRIC}
     * @param radius the public row-norm bound R, or null if none
     * @param normLowerBound a public lower bound on {@code ||S||_2}, or null if none
     * @param lowerBoundWords where the lower bound comes from (public words)
     * @return the statement with its other units
     */
    static org.dpgauss.release.Accuracy withUnits(org.dpgauss.release.Accuracy a, Double radius,
            Double normLowerBound, String lowerBoundWords) {
        org.dpgauss.release.Accuracy out = a;
        if (radius != null && radius > 0 && Double.isFinite(radius * radius)) {
            out = out.alsoIn(String.format(java.util.Locale.ROOT, "R^2 = %.4g (R the public row-norm bound)",
                    radius * radius), radius * radius);
        }
        if (normLowerBound != null && normLowerBound > 0) {
            out = out.alsoIn(String.format(java.util.Locale.ROOT, "||S||_2, at most: the error over %s %.4g <= ||S||_2"
                    + " (an upper bound on the relative error ||S~ - S||_2 / ||S||_2)", lowerBoundWords,
                    normLowerBound), normLowerBound);
        }
        return out;
    }

    /** A finite, non-negative value for an {@link org.dpgauss.release.Accuracy} (huge values are capped). */
    static double finite(double v) {
        return Double.isFinite(v) ? Math.max(0, v) : Double.MAX_VALUE;
    }
}
