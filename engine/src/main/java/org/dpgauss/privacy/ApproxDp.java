package org.dpgauss.privacy;

import java.math.BigDecimal;

/**
 * An approximate differential privacy guarantee, {@code (epsilon, delta)}-DP.
 *
 * <p>A mechanism {@code M} is {@code (epsilon, delta)}-DP if for all neighbouring datasets {@code x, x'}
 * (see {@link NeighbouringRelation}) and every event {@code S},
 * {@code P[M(x) in S] <= exp(epsilon) * P[M(x') in S] + delta}.
 *
 * <p>Instances are immutable and are created through {@link #of(double, double)}, which rejects every value
 * that would not be a meaningful guarantee (negative, NaN or infinite epsilon; delta outside {@code [0, 1)}).
 * Holding an {@code ApproxDp} therefore means holding a well-formed claim; nothing downstream has to
 * re-validate it.
 */
public final class ApproxDp {

    /** The trivial guarantee {@code (0, 0)}-DP of a mechanism that ignores its input; the unit of {@link #plus}. */
    public static final ApproxDp ZERO = new ApproxDp(0.0, 0.0);

    private final double epsilon;
    private final double delta;

    private ApproxDp(double epsilon, double delta) {
        this.epsilon = epsilon;
        this.delta = delta;
    }

    /**
     * Creates an {@code (epsilon, delta)}-DP guarantee.
     *
     * @param epsilon the privacy loss bound, finite and {@code >= 0}
     * @param delta the failure probability, in {@code [0, 1)}
     * @return the guarantee
     * @throws IllegalArgumentException naming the parameter, its value and the allowed range if either is invalid
     */
    public static ApproxDp of(double epsilon, double delta) {
        checkEpsilon(epsilon);
        checkDelta(delta);
        // -0.0 passes the ">= 0" checks; normalise it so that equals/hashCode/toString see a single zero.
        return new ApproxDp(epsilon + 0.0, delta + 0.0);
    }

    /** @return the privacy loss bound epsilon, finite and {@code >= 0} */
    public double epsilon() {
        return epsilon;
    }

    /** @return the failure probability delta, in {@code [0, 1)} */
    public double delta() {
        return delta;
    }

    /**
     * Basic (sequential) composition: running this mechanism and {@code other} on the same data is
     * {@code (eps1 + eps2, delta1 + delta2)}-DP. This is valid for adaptive composition too, but it is loose for
     * many mechanisms; account in {@link Zcdp} and convert once at the end when the mechanisms are Gaussian.
     *
     * @param other the guarantee of the other mechanism
     * @return the composed guarantee
     * @throws IllegalArgumentException if the composed epsilon overflows or the composed delta reaches 1, in which
     *         case the composition carries no guarantee at all
     */
    public ApproxDp plus(ApproxDp other) {
        java.util.Objects.requireNonNull(other, "other");
        double e = epsilon + other.epsilon;
        double d = delta + other.delta;
        if (Double.isInfinite(e)) {
            throw new IllegalArgumentException("composed epsilon=" + epsilon + "+" + other.epsilon
                    + " overflows: an infinite privacy loss gives no guarantee");
        }
        if (d >= 1.0) {
            throw new IllegalArgumentException("composed delta=" + delta + "+" + other.delta + "=" + d
                    + " is outside [0, 1): delta >= 1 gives no guarantee");
        }
        return new ApproxDp(e, d);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ApproxDp)) {
            return false;
        }
        ApproxDp that = (ApproxDp) o;
        return Double.compare(epsilon, that.epsilon) == 0 && Double.compare(delta, that.delta) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * Double.hashCode(epsilon) + Double.hashCode(delta);
    }

    /** @return e.g. {@code (eps=1.0, delta=1e-06)-DP} */
    @Override
    public String toString() {
        return "(eps=" + format(epsilon) + ", delta=" + format(delta) + ")-DP";
    }

    // ------------------------------------------------------------------ validation shared in the package

    static void checkEpsilon(double epsilon) {
        checkPrivacyLoss("epsilon", epsilon);
    }

    /** Checks a privacy-loss parameter (epsilon, rho): finite and {@code >= 0}. */
    static void checkPrivacyLoss(String name, double value) {
        if (Double.isNaN(value)) {
            throw new IllegalArgumentException(name + "=NaN is not a number: a privacy loss must be a finite"
                    + " value in [0, inf)");
        }
        if (value < 0) {
            throw new IllegalArgumentException(name + "=" + value
                    + " is outside [0, inf): a privacy loss cannot be negative");
        }
        if (Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + "=" + value
                    + " is outside [0, inf): an infinite privacy loss gives no guarantee");
        }
    }

    /** Checks delta for an {@code (epsilon, delta)} guarantee: {@code [0, 1)}. */
    static void checkDelta(double delta) {
        if (Double.isNaN(delta)) {
            throw new IllegalArgumentException("delta=NaN is not a number: delta must be a probability in [0, 1)");
        }
        if (delta < 0) {
            throw new IllegalArgumentException("delta=" + delta
                    + " is outside [0, 1): a probability cannot be negative");
        }
        if (delta >= 1) {
            throw new IllegalArgumentException("delta=" + delta
                    + " is outside [0, 1): delta >= 1 gives no guarantee");
        }
    }

    /**
     * Checks delta for a conversion to {@code (epsilon, delta)}-DP: {@code (0, 1)}. Zero is excluded because
     * every zCDP-to-DP conversion needs {@code ln(1/delta)}, which is infinite at zero.
     */
    static void checkConversionDelta(double delta) {
        if (Double.isNaN(delta)) {
            throw new IllegalArgumentException("delta=NaN is not a number: delta must be a probability in (0, 1)");
        }
        if (delta <= 0) {
            throw new IllegalArgumentException("delta=" + delta + " is outside (0, 1): converting zCDP to"
                    + " (epsilon, delta)-DP needs delta > 0, ln(1/delta) is infinite at 0");
        }
        if (delta >= 1) {
            throw new IllegalArgumentException("delta=" + delta
                    + " is outside (0, 1): delta >= 1 gives no guarantee");
        }
    }

    /**
     * Formats a double the way Python's {@code repr} does ({@code 1.0}, {@code 0.0001}, {@code 1e-06},
     * {@code 1.5e+20}), so that human output and reports produced by the Python reference tooling agree
     * textually. Java's {@code Double.toString} would give {@code 1.0E-6}.
     */
    static String format(double x) {
        if (Double.isNaN(x)) {
            return "nan";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "inf" : "-inf";
        }
        if (x == 0) {
            return (1 / x < 0) ? "-0.0" : "0.0";
        }
        BigDecimal bd = new BigDecimal(Double.toString(x)).stripTrailingZeros();
        String digits = bd.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - bd.scale(); // decimal exponent of the leading digit
        String sign = x < 0 ? "-" : "";
        if (exponent >= -4 && exponent < 16) {
            String plain = bd.abs().toPlainString();
            return sign + (plain.indexOf('.') < 0 ? plain + ".0" : plain);
        }
        StringBuilder sb = new StringBuilder(sign).append(digits.charAt(0));
        if (digits.length() > 1) {
            sb.append('.').append(digits, 1, digits.length());
        }
        sb.append('e').append(exponent < 0 ? '-' : '+');
        int a = Math.abs(exponent);
        if (a < 10) {
            sb.append('0');
        }
        return sb.append(a).toString();
    }
}
