package org.dpgauss.privacy.accounting;

import java.util.List;
import java.util.Objects;
import org.dpgauss.privacy.ApproxDp;

/**
 * Composition theorems for {@code (epsilon, delta)}-DP releases on one dataset, valid under adaptive
 * composition with privacy parameters fixed in advance (the mechanisms may depend on earlier outputs, their
 * parameters may not; basic composition also holds when they do, advanced composition does not: see
 * {@link PrivacyAccountant#create(org.dpgauss.privacy.NeighbouringRelation, ApproxDp)}). Each method returns the guarantee of running all the given mechanisms; callers that can choose
 * should take the smallest epsilon among the applicable ones ({@link PrivacyAccountant} does).
 *
 * <p>References: basic composition, Dwork, Kenthapadi, McSherry, Mironov &amp; Naor 2006 (Dwork &amp; Roth 2014,
 * Thm. 3.16); advanced composition, Dwork, Rothblum &amp; Vadhan, FOCS 2010 (Dwork &amp; Roth 2014, Thm. 3.20);
 * heterogeneous advanced composition, Kairouz, Oh &amp; Viswanath, "The Composition Theorem for Differential
 * Privacy", ICML 2015 / IEEE Trans. IT 2017, Thm. 3.5.
 */
public final class Composition {

    private Composition() {
    }

    /**
     * Basic composition: {@code (sum eps_i, sum delta_i)}.
     *
     * @param releases the guarantees, not null, no null elements
     * @return the composed guarantee ({@link ApproxDp#ZERO} for none)
     * @throws IllegalArgumentException if the composed delta reaches 1 or epsilon overflows
     */
    public static ApproxDp basic(List<ApproxDp> releases) {
        ApproxDp total = ApproxDp.ZERO;
        for (ApproxDp r : Objects.requireNonNull(releases, "releases")) {
            total = total.plus(Objects.requireNonNull(r, "release guarantee"));
        }
        return total;
    }

    /**
     * Advanced composition of {@code k} releases that are each {@code (eps, delta)}-DP (Dwork–Rothblum–Vadhan):
     * {@code (sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1), k delta + delta')}.
     *
     * @param each the guarantee of every release
     * @param k the number of releases, {@code >= 1}
     * @param slack {@code delta'}, in {@code (0, 1)}
     * @return the composed guarantee
     * @throws IllegalArgumentException if an argument is out of range or the composed delta reaches 1
     */
    public static ApproxDp advancedDrv(ApproxDp each, int k, double slack) {
        Objects.requireNonNull(each, "each");
        checkCount(k);
        checkSlack(slack);
        double e = each.epsilon();
        double eps = Math.sqrt(2.0 * k * -Math.log(slack)) * e + k * e * Math.expm1(e);
        return ApproxDp.of(eps, checkedDelta(k * each.delta() + slack));
    }

    /**
     * Advanced composition of heterogeneous releases (Kairouz–Oh–Viswanath 2017, Thm. 3.5): with
     * {@code S = sum eps_i^2} and {@code B = sum eps_i (e^eps_i - 1) / (e^eps_i + 1)},
     * <pre>
     *   eps = min( sum eps_i,  B + sqrt(2 S ln(e + sqrt(S) / delta')),  B + sqrt(2 S ln(1 / delta')) )
     * </pre>
     * at {@code delta = 1 - (1 - delta') prod (1 - delta_i)}, reported here as the upper bound
     * {@code sum delta_i + delta'}. For equal releases it is never worse than {@link #advancedDrv} (its linear
     * term has the extra factor {@code 1/(e^eps + 1)}).
     *
     * @param releases the guarantees, at least one
     * @param slack {@code delta'}, in {@code (0, 1)}
     * @return the composed guarantee
     * @throws IllegalArgumentException if an argument is out of range or the composed delta reaches 1
     */
    public static ApproxDp advancedHeterogeneous(List<ApproxDp> releases, double slack) {
        Objects.requireNonNull(releases, "releases");
        checkCount(releases.size());
        checkSlack(slack);
        double sumEps = 0;
        double s = 0;
        double b = 0;
        double sumDelta = 0;
        for (ApproxDp r : releases) {
            double e = Objects.requireNonNull(r, "release guarantee").epsilon();
            sumEps += e;
            s += e * e;
            b += e * Math.tanh(e / 2); // (e^eps - 1) / (e^eps + 1) = tanh(eps / 2), stable for small eps
            sumDelta += r.delta();
        }
        double viaE = b + Math.sqrt(2 * s * Math.log(Math.E + Math.sqrt(s) / slack));
        double viaLog = b + Math.sqrt(2 * s * -Math.log(slack));
        double eps = Math.min(sumEps, Math.min(viaE, viaLog));
        return ApproxDp.of(eps, checkedDelta(sumDelta + slack));
    }

    private static void checkCount(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k=" + k + " releases is outside [1, inf): nothing to compose");
        }
    }

    static void checkSlack(double slack) {
        if (!(slack > 0 && slack < 1)) {
            throw new IllegalArgumentException("slack delta'=" + slack + " is outside (0, 1): advanced composition"
                    + " needs ln(1/delta') finite and a meaningful failure probability");
        }
    }

    private static double checkedDelta(double delta) {
        if (!(delta < 1)) {
            throw new IllegalArgumentException("composed delta=" + delta + " is outside [0, 1): delta >= 1 gives no"
                    + " guarantee");
        }
        return delta;
    }
}
