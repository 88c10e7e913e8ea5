package org.dpgauss.privacy;

import java.util.Objects;

/**
 * A zero-concentrated differential privacy guarantee, {@code rho}-zCDP (Bun &amp; Steinke, TCC 2016): for all
 * neighbouring datasets and all Rényi orders {@code alpha > 1}, the Rényi divergence of order {@code alpha}
 * between the output distributions is at most {@code rho * alpha}.
 *
 * <p>zCDP is the natural currency for Gaussian noise: the Gaussian mechanism with L2 sensitivity {@code Delta}
 * and standard deviation {@code sigma} is exactly {@code Delta^2 / (2 sigma^2)}-zCDP
 * ({@link #gaussianMechanism}), and composition is plain addition of {@code rho} ({@link #plus}), which is much
 * tighter than composing {@code (epsilon, delta)} guarantees. The usual pattern is therefore: account in zCDP,
 * convert to {@code (epsilon, delta)}-DP once at the end ({@link #toApproxDp} or {@link #toApproxDpTight}).
 *
 * <p>Instances are immutable and created through {@link #of(double)}, which rejects negative, NaN and
 * infinite {@code rho}.
 */
public final class Zcdp {

    /** The trivial guarantee {@code 0}-zCDP; the unit of {@link #plus}. */
    public static final Zcdp ZERO = new Zcdp(0.0);

    /** Grid half-width, in {@code ln(alpha - 1)}, searched around the Bun–Steinke optimum. */
    private static final double GRID_HALF_WIDTH = 25.0;
    /** Grid step in {@code ln(alpha - 1)}. */
    private static final double GRID_STEP = 0.05;
    /** Keeps {@code alpha - 1 = exp(u)} a normal, invertible double. */
    private static final double U_LIMIT = 700.0;
    /** Golden ratio conjugate {@code (sqrt(5) - 1) / 2}. */
    private static final double INV_PHI = 0.6180339887498949;

    private final double rho;

    private Zcdp(double rho) {
        this.rho = rho;
    }

    /**
     * Creates a {@code rho}-zCDP guarantee.
     *
     * @param rho the zCDP parameter, finite and {@code >= 0}
     * @return the guarantee
     * @throws IllegalArgumentException naming the parameter, its value and the allowed range if {@code rho} is
     *         negative, NaN or infinite
     */
    public static Zcdp of(double rho) {
        ApproxDp.checkPrivacyLoss("rho", rho);
        return new Zcdp(rho + 0.0); // normalise -0.0
    }

    /**
     * The zCDP guarantee of the Gaussian mechanism {@code f(x) + N(0, sigma^2 I)} where {@code f} has L2
     * sensitivity {@code l2Sensitivity}: {@code rho = Delta^2 / (2 sigma^2)} (Bun &amp; Steinke 2016, Prop. 1.6).
     * The value is exact up to the rounding of two floating-point operations.
     *
     * @param l2Sensitivity the L2 sensitivity {@code Delta} of the released quantity, finite and {@code >= 0}
     * @param sigma the standard deviation of the noise, finite and {@code > 0}
     * @return {@code (Delta^2 / (2 sigma^2))}-zCDP
     * @throws IllegalArgumentException if an argument is out of range or the resulting rho overflows
     */
    public static Zcdp gaussianMechanism(double l2Sensitivity, double sigma) {
        checkSensitivity(l2Sensitivity, false);
        checkSigma(sigma);
        double r = l2Sensitivity / sigma; // divide first: Delta^2 or sigma^2 alone may over/underflow
        double rho = 0.5 * r * r;
        if (Double.isInfinite(rho)) {
            throw new IllegalArgumentException("l2Sensitivity=" + l2Sensitivity + " with sigma=" + sigma
                    + " gives rho=Infinity: the noise is negligible against the sensitivity, no guarantee");
        }
        return new Zcdp(rho);
    }

    /**
     * The smallest standard deviation for which the Gaussian mechanism with L2 sensitivity {@code l2Sensitivity}
     * is {@code rho}-zCDP: {@code sigma = Delta / sqrt(2 rho)}. The result is nudged up by ulps if needed so that
     * {@code gaussianMechanism(l2Sensitivity, sigmaFor(rho, l2Sensitivity)).rho() <= rho} holds in floating point:
     * calibrating to a budget must never overspend it.
     *
     * @param rho the target zCDP parameter, finite and {@code > 0} (zero would need infinite noise)
     * @param l2Sensitivity the L2 sensitivity, finite and {@code > 0} (zero needs no noise at all)
     * @return the noise standard deviation
     * @throws IllegalArgumentException if an argument is out of range or sigma is not representable
     */
    public static double sigmaFor(double rho, double l2Sensitivity) {
        ApproxDp.checkPrivacyLoss("rho", rho);
        if (rho == 0) {
            throw new IllegalArgumentException("rho=0.0 is outside (0, inf): a zero privacy loss needs infinite"
                    + " noise, no finite sigma achieves it");
        }
        checkSensitivity(l2Sensitivity, true);
        double sigma = l2Sensitivity / Math.sqrt(2.0 * rho);
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("rho=" + rho + " with l2Sensitivity=" + l2Sensitivity
                    + " gives sigma=" + sigma + ", which is not a finite positive double");
        }
        for (int i = 0; i < 64 && 0.5 * (l2Sensitivity / sigma) * (l2Sensitivity / sigma) > rho; i++) {
            sigma = Math.nextUp(sigma);
        }
        return sigma;
    }

    /**
     * Instance form of {@link #sigmaFor(double, double)}: the noise needed to spend exactly this budget on one
     * Gaussian release.
     *
     * @param l2Sensitivity the L2 sensitivity, finite and {@code > 0}
     * @return the noise standard deviation
     */
    public double sigmaFor(double l2Sensitivity) {
        return sigmaFor(rho, l2Sensitivity);
    }

    /**
     * The largest {@code rho} whose Bun–Steinke conversion ({@link #toApproxDp}) is at most {@code epsilon} at
     * {@code delta}: solving {@code rho + 2 sqrt(rho L) = epsilon} with {@code L = ln(1/delta)} for
     * {@code s = sqrt(rho)} gives the quadratic {@code s^2 + 2 sqrt(L) s - epsilon = 0}, whose non-negative
     * root is {@code s = sqrt(L + epsilon) - sqrt(L)}, so {@code rho = (sqrt(L + epsilon) - sqrt(L))^2}.
     * It is evaluated as {@code (epsilon / (sqrt(L + epsilon) + sqrt(L)))^2}, which avoids the cancellation of
     * the difference form when {@code epsilon << L}, and then nudged down by ulps if needed so that the round
     * trip {@code forApproxDp(e, d).toApproxDp(d).epsilon() <= e} holds in floating point.
     *
     * @param epsilon the target epsilon, finite and {@code >= 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @return the largest such zCDP guarantee
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Zcdp forApproxDp(double epsilon, double delta) {
        ApproxDp.checkEpsilon(epsilon);
        ApproxDp.checkConversionDelta(delta);
        double l = -Math.log(delta);
        double s = epsilon / (Math.sqrt(l + epsilon) + Math.sqrt(l));
        double rho = s * s;
        for (int i = 0; i < 64 && rho > 0 && bunSteinkeEpsilon(rho, l) > epsilon; i++) {
            rho = Math.nextDown(rho);
        }
        return new Zcdp(rho);
    }

    /**
     * The largest rho whose {@link #toApproxDpTight} conversion at {@code delta} is at most {@code epsilon}: the
     * inverse of the project's one conversion policy ({@link ConversionPolicy}). It is never smaller than
     * {@link #forApproxDp} (the tight conversion is never looser than Bun–Steinke), so the same target costs
     * less noise. Found by bisection on rho (the converted epsilon increases with rho), starting from the
     * Bun–Steinke inverse, and checked: the returned rho always converts to at most {@code epsilon}.
     *
     * @param epsilon the target epsilon, finite and {@code >= 0}
     * @param delta the target delta, in {@code (0, 1)}
     * @return the largest such zCDP guarantee (to about 1e-12 relative)
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Zcdp forApproxDpTight(double epsilon, double delta) {
        Zcdp lower = forApproxDp(epsilon, delta);
        if (epsilon == 0) {
            return lower;
        }
        double lo = lower.rho;
        // at a given rho the tight epsilon is at least the Bun-Steinke epsilon minus ln(1/delta)-free terms;
        // doubling finds an upper bracket quickly
        double hi = Math.max(lo, Double.MIN_NORMAL) * 2;
        for (int i = 0; i < 200 && new Zcdp(hi).toApproxDpTight(delta).epsilon() <= epsilon; i++) {
            lo = hi;
            hi *= 2;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (new Zcdp(mid).toApproxDpTight(delta).epsilon() <= epsilon) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new Zcdp(lo);
    }

    /** @return the zCDP parameter rho, finite and {@code >= 0} */
    public double rho() {
        return rho;
    }

    /**
     * Composition: running a {@code rho1}-zCDP and a {@code rho2}-zCDP mechanism (possibly adaptively) on the
     * same data is {@code (rho1 + rho2)}-zCDP (Bun &amp; Steinke 2016, Lemma 2.3).
     *
     * @param other the guarantee of the other mechanism
     * @return the composed guarantee
     * @throws IllegalArgumentException if the sum overflows
     */
    public Zcdp plus(Zcdp other) {
        Objects.requireNonNull(other, "other");
        double sum = rho + other.rho;
        if (Double.isInfinite(sum)) {
            throw new IllegalArgumentException("composed rho=" + rho + "+" + other.rho
                    + " overflows: an infinite privacy loss gives no guarantee");
        }
        return new Zcdp(sum);
    }

    /**
     * Converts to {@code (epsilon, delta)}-DP with the standard Bun–Steinke bound (Bun &amp; Steinke 2016,
     * Prop. 1.3): {@code epsilon = rho + 2 sqrt(rho ln(1/delta))}.
     *
     * <p>Note: spec second-moment-estimation.md §1.2 misprints this as {@code rho + sqrt(2 rho ln(1/delta))},
     * which understates epsilon by a factor of about {@code sqrt(2)} in the dominant term and would overclaim
     * privacy. The formula here is the correct one: it is {@code min over alpha > 1} of
     * {@code alpha rho + ln(1/delta) / (alpha - 1)}, attained at {@code alpha = 1 + sqrt(ln(1/delta) / rho)}.
     *
     * @param delta the target delta, in {@code (0, 1)}
     * @return the implied {@code (epsilon, delta)}-DP guarantee
     * @throws IllegalArgumentException if delta is out of range or epsilon overflows
     */
    public ApproxDp toApproxDp(double delta) {
        ApproxDp.checkConversionDelta(delta);
        return ApproxDp.of(bunSteinkeEpsilon(rho, -Math.log(delta)), delta);
    }

    /**
     * Converts to {@code (epsilon, delta)}-DP with the tighter bound of Canonne, Kamath &amp; Steinke 2020
     * ("The Discrete Gaussian for Differential Privacy", Prop. 12 / Cor. 13; equivalently Asoodeh et al. 2021
     * applied to the Rényi curve {@code alpha rho}):
     * <pre>
     *   epsilon = inf over alpha &gt; 1 of
     *             alpha rho + (ln(1/delta) + (alpha - 1) ln(1 - 1/alpha) - ln(alpha)) / (alpha - 1)
     * </pre>
     * clamped at 0 (Cor. 13 holds for every {@code epsilon >= 0}; a negative value at some alpha means
     * {@code (0, delta)}-DP already holds). Every alpha gives a valid bound, so the numerical minimisation can
     * only be loose, never unsound. With {@code t = alpha - 1} the objective is evaluated as
     * {@code rho (1 + t) + L/t - log1p(1/t) - log1p(t)/t} (using {@code ln(1 - 1/alpha) = -log1p(1/t)} and
     * {@code ln(alpha) = log1p(t)}), whose terms are all computed to full relative precision for {@code alpha}
     * near 1 as well as for very large {@code alpha}.
     * It is minimised over {@code u = ln t} by a grid of step 0.05 spanning +/-25 around the Bun–Steinke optimum
     * {@code t* = sqrt(L / rho)} (robust to any non-convexity), refined by golden-section search in the best
     * bracket. The result is rounded up by a relative {@code 2^-46} of the magnitude of its terms to absorb
     * floating-point rounding, and never exceeds {@link #toApproxDp}: the extra terms
     * {@code ln(1 - 1/alpha) - ln(alpha)/(alpha - 1)} are negative for every alpha, so the bound is at most the
     * Bun–Steinke one at the same alpha.
     *
     * @param delta the target delta, in {@code (0, 1)}
     * @return the implied {@code (epsilon, delta)}-DP guarantee
     * @throws IllegalArgumentException if delta is out of range or epsilon overflows
     */
    public ApproxDp toApproxDpTight(double delta) {
        ApproxDp.checkConversionDelta(delta);
        if (rho == 0) {
            return ApproxDp.of(0.0, delta);
        }
        double l = -Math.log(delta);
        double bunSteinke = bunSteinkeEpsilon(rho, l);
        double center = clampU(0.5 * (Math.log(l) - Math.log(rho))); // ln t*, with t* = sqrt(L / rho)

        // Coarse grid in u = ln(alpha - 1).
        double lo = clampU(center - GRID_HALF_WIDTH);
        double hi = clampU(center + GRID_HALF_WIDTH);
        int n = (int) Math.ceil((hi - lo) / GRID_STEP);
        int bestI = 0;
        double bestF = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= n; i++) {
            double f = cksObjective(rho, l, Math.exp(gridPoint(lo, hi, n, i)));
            if (f < bestF) {
                bestF = f;
                bestI = i;
            }
        }
        double bestU = gridPoint(lo, hi, n, bestI);

        // Golden-section refinement inside the bracket around the best grid point.
        double a = gridPoint(lo, hi, n, Math.max(0, bestI - 1));
        double b = gridPoint(lo, hi, n, Math.min(n, bestI + 1));
        double c = b - INV_PHI * (b - a);
        double d = a + INV_PHI * (b - a);
        double fc = cksObjective(rho, l, Math.exp(c));
        double fd = cksObjective(rho, l, Math.exp(d));
        for (int iter = 0; iter < 200 && (b - a) > 1e-13 * Math.max(1.0, Math.abs(a)); iter++) {
            if (fc < fd) {
                b = d;
                d = c;
                fd = fc;
                c = b - INV_PHI * (b - a);
                fc = cksObjective(rho, l, Math.exp(c));
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + INV_PHI * (b - a);
                fd = cksObjective(rho, l, Math.exp(d));
            }
        }
        if (fc < bestF) {
            bestF = fc;
            bestU = c;
        }
        if (fd < bestF) {
            bestF = fd;
            bestU = d;
        }

        double t = Math.exp(bestU);
        double eps = bestF + cksMagnitude(rho, l, t) * 0x1p-46;
        eps = Math.min(eps, bunSteinke);
        return ApproxDp.of(Math.max(0.0, eps), delta);
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof Zcdp && Double.compare(rho, ((Zcdp) o).rho) == 0);
    }

    @Override
    public int hashCode() {
        return Double.hashCode(rho);
    }

    /** @return e.g. {@code (rho=0.5)-zCDP} */
    @Override
    public String toString() {
        return "(rho=" + ApproxDp.format(rho) + ")-zCDP";
    }

    // ------------------------------------------------------------------ internals

    /** {@code rho + 2 sqrt(rho L)}; spec second-moment-estimation.md §1.2 misprints the factor, see toApproxDp. */
    static double bunSteinkeEpsilon(double rho, double l) {
        return rho + 2.0 * Math.sqrt(rho * l);
    }

    /**
     * CKS20 Cor. 13 epsilon at {@code alpha = 1 + t}:
     * {@code rho(1+t) + L/t + ln t - log1p(t) - log1p(t)/t = rho(1+t) + L/t - log1p(1/t) - log1p(t)/t}.
     * NaN (impossible for the clamped range, but cheap to guard) is mapped to +infinity so it is never chosen.
     */
    static double cksObjective(double rho, double l, double t) {
        // ln t - log1p(t) = -log1p(1/t): the difference form cancels catastrophically for large t.
        double f = rho * (1.0 + t) + l / t - Math.log1p(1.0 / t) - Math.log1p(t) / t;
        return Double.isNaN(f) ? Double.POSITIVE_INFINITY : f;
    }

    /** Sum of the absolute values of the terms of {@link #cksObjective}, a scale for its rounding error. */
    private static double cksMagnitude(double rho, double l, double t) {
        return rho * (1.0 + t) + l / t + Math.log1p(1.0 / t) + Math.log1p(t) / t;
    }

    private static double gridPoint(double lo, double hi, int n, int i) {
        return i == n ? hi : lo + i * GRID_STEP;
    }

    private static double clampU(double u) {
        return Math.max(-U_LIMIT, Math.min(U_LIMIT, u));
    }

    private static void checkSensitivity(double l2Sensitivity, boolean strictlyPositive) {
        String range = strictlyPositive ? "(0, inf)" : "[0, inf)";
        if (Double.isNaN(l2Sensitivity)) {
            throw new IllegalArgumentException("l2Sensitivity=NaN is not a number: a sensitivity must be a finite"
                    + " value in " + range);
        }
        if (l2Sensitivity < 0 || (strictlyPositive && l2Sensitivity == 0)) {
            throw new IllegalArgumentException("l2Sensitivity=" + l2Sensitivity + " is outside " + range
                    + (l2Sensitivity < 0 ? ": a sensitivity (a norm) cannot be negative"
                            : ": a zero sensitivity needs no noise, there is no sigma to calibrate"));
        }
        if (Double.isInfinite(l2Sensitivity)) {
            throw new IllegalArgumentException("l2Sensitivity=" + l2Sensitivity + " is outside " + range
                    + ": an unbounded sensitivity cannot be masked by finite noise (clip the data first)");
        }
    }

    private static void checkSigma(double sigma) {
        if (Double.isNaN(sigma)) {
            throw new IllegalArgumentException("sigma=NaN is not a number: a noise standard deviation must be a"
                    + " finite value in (0, inf)");
        }
        if (sigma <= 0) {
            throw new IllegalArgumentException("sigma=" + sigma + " is outside (0, inf): "
                    + (sigma == 0 ? "without noise there is no privacy guarantee"
                            : "a standard deviation cannot be negative"));
        }
        if (Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("sigma=" + sigma
                    + " is outside (0, inf): infinite noise is not a mechanism");
        }
    }
}
