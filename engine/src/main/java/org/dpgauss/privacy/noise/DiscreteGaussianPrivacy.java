package org.dpgauss.privacy.noise;

/**
 * The exact {@code (epsilon, delta)} profile of the one-dimensional discrete Gaussian mechanism
 * {@code q(x) + N_Z(0, sigma^2)} for an integer-valued query {@code q} with sensitivity {@code Delta}
 * (Canonne, Kamath &amp; Steinke 2020, Thm. 7):
 * <pre>
 *   delta(eps) = max over integer shifts 1 &lt;= c &lt;= Delta of
 *                P[X &gt; eps sigma^2/c - c/2] - e^eps P[X &gt; eps sigma^2/c + c/2],   X ~ N_Z(0, sigma^2)
 * </pre>
 * (the maximum over {@code c} makes the bound hold for every neighbouring pair without relying on
 * monotonicity in the shift). It differs from the continuous Gaussian's curve (spec ndis Prop. 1): for small
 * sigma it can be larger (e.g. {@code eps = 1, Delta = 3, sigma = 2.5}: {@code 0.20451} against
 * {@code 0.20148}), so an {@code (epsilon, delta)} calibration of the <em>continuous</em> mechanism does not carry
 * over to discrete noise as is; the zCDP calibration does ({@code Delta^2/(2 sigma^2)}, CKS20 Thm. 4).
 *
 * <p>Evaluation: the hockey-stick sum {@code sum_y w(y) (1 - exp(eps - L(y)))_+ / sum_y w(y)} with
 * {@code w(y) = exp(-y^2/(2 sigma^2))} and privacy loss {@code L(y) = c (c - 2y) / (2 sigma^2)}, over
 * {@code |y| <= sigma sqrt(1500) + Delta + 2} (beyond which {@code w} underflows to 0); every term is
 * non-negative, so there is no cancellation, and the result is rounded up by a relative
 * {@code 1e-12 + n 2^-52} ({@code n} terms) to cover summation error. Cost {@code O(Delta sigma)}.
 */
public final class DiscreteGaussianPrivacy {

    /** Largest {@code Delta * (number of terms)} evaluated: about a second of work. */
    static final long MAX_WORK = 1L << 28;

    private DiscreteGaussianPrivacy() {
    }

    /**
     * @param epsilon the privacy loss, finite and {@code >= 0}
     * @param sensitivity the integer sensitivity {@code Delta >= 1}
     * @param sigma the discrete Gaussian parameter (integer scale), finite and {@code > 0}
     * @return delta, an upper bound within a relative {@code 1e-9} of the exact value
     * @throws IllegalArgumentException if an argument is out of range or the sum would be too long
     */
    public static double delta(double epsilon, long sensitivity, double sigma) {
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + " is outside [0, inf): the privacy loss must be"
                    + " finite and non-negative");
        }
        if (sensitivity < 1) {
            throw new IllegalArgumentException("sensitivity=" + sensitivity + " is outside [1, inf): an integer"
                    + " query's sensitivity is a positive integer (0 needs no noise)");
        }
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("sigma=" + sigma + " is outside (0, inf): the discrete Gaussian needs"
                    + " a positive finite parameter");
        }
        long half = (long) Math.ceil(sigma * Math.sqrt(1500.0)) + sensitivity + 2;
        long terms = 2 * half + 1;
        if (terms > MAX_WORK / sensitivity) {
            throw new IllegalArgumentException("sigma=" + sigma + " with sensitivity=" + sensitivity + " needs about "
                    + terms * sensitivity + " terms, above " + MAX_WORK + ": account the release in zCDP"
                    + " (Delta^2/(2 sigma^2), exact for the discrete Gaussian) instead");
        }
        double twoS2 = 2 * sigma * sigma;
        double z = 0;
        for (long y = -half; y <= half; y++) {
            z += Math.exp(-(double) y * y / twoS2);
        }
        double worst = 0;
        for (long c = 1; c <= sensitivity; c++) {
            double sum = 0;
            for (long y = -half; y <= half; y++) {
                double loss = c * (c - 2.0 * y) / twoS2;
                if (loss > epsilon) {
                    sum += Math.exp(-(double) y * y / twoS2) * -Math.expm1(epsilon - loss);
                }
            }
            worst = Math.max(worst, sum / z);
        }
        return Math.min(1.0, worst * (1 + 1e-12 + terms * 0x1p-52));
    }
}
