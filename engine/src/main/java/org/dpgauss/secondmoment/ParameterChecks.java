package org.dpgauss.secondmoment;

import java.util.Objects;
import org.dpgauss.privacy.Zcdp;

/**
 * The parameter rules the second-moment methods share ({@link AnalyzeGauss}, {@link CoinPress},
 * {@link SubsampleAndAggregate}, {@link RecursiveSecondMoment}): one implementation and one message per rule, each
 * naming the parameter, its value and the rule.
 */
final class ParameterChecks {

    private ParameterChecks() {
    }

    /**
     * A public radius (or scale) whose square is a normal, finite double, so that the sensitivity and the noise
     * scale are finite and positive.
     */
    static double radius(String name, double r) {
        if (!(r > 0) || !Double.isFinite(r)) {
            throw new IllegalArgumentException(name + "=" + r + " is outside (0, inf): it must be a finite positive"
                    + " number");
        }
        if (!(r * r >= Double.MIN_NORMAL) || Double.isInfinite(r * r * 0x1p16)) {
            throw new IllegalArgumentException(name + "=" + r + " is outside [1e-150, 1e150]: its square sets the"
                    + " noise scale and must be a normal double; rescale the data by a public factor");
        }
        return r;
    }

    /** A zCDP budget with finite positive rho. */
    static Zcdp budget(Zcdp budget) {
        Objects.requireNonNull(budget, "budget");
        if (!(budget.rho() > 0) || !Double.isFinite(budget.rho())) {
            throw new IllegalArgumentException("rho=" + budget.rho() + " is outside (0, inf): the zCDP budget must be"
                    + " finite and positive");
        }
        return budget;
    }

    /** At least one row. */
    static void rows(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " rows: the data must have at least one row");
        }
    }

    /** A public lower bound on {@code ||S||_2} (only accuracy statements use it): finite and positive. */
    static double normLowerBound(double s) {
        if (!(s > 0) || Double.isInfinite(s)) {
            throw new IllegalArgumentException("norm lower bound=" + s + " is outside (0, inf): it is a public lower"
                    + " bound on the spectral norm of the rows' second moment");
        }
        return s;
    }

    /**
     * An extra option that counts something: a whole number in {@code [1, max]}.
     *
     * @param range the range as the message states it (e.g. {@code "[1, 50]"}, {@code "[1, n]"})
     * @param why what the number counts, for the message
     */
    static int wholeExtra(String name, double value, long max, String range, String why) {
        if (value != Math.rint(value) || value < 1 || value > max) {
            throw new IllegalArgumentException(name + "=" + value + " is not an integer in " + range + ": " + why);
        }
        return (int) value;
    }
}
