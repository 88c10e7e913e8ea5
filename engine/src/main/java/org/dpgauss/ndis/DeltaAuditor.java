package org.dpgauss.ndis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The white-box auditor of spec ndis §6.8 (Sec. 7, Def. 9, Theorem 7.1): given the Gaussian outputs of a mechanism
 * on D and on a neighbour D', a claimed (eps, delta) and an accuracy eta, it computes for both orderings and every
 * eps of a grid (the claimed eps always included) a CERTIFIED upper estimate {@code deltaBar = clamp(deltaHat +
 * eta/2, 0, 1)} with {@code delta <= deltaBar <= delta + eta} and the certified lower bound {@code deltaBar - eta}.
 *
 * <p>Oracle accuracy (Def. 9): {@code eta0 = eta / (2 (1 + e^eps))}. Each of the two probabilities must carry an
 * absolute error bound {@code <= eta0}, so that {@code |deltaHat - delta| <= (1 + e^eps) eta0 = eta/2}; otherwise the
 * audit is refused with an {@link IllegalStateException} naming the ordering, eps and the bounds.
 *
 * <p>The claim is REFUTED iff at the claimed eps, for some ordering, {@code deltaBar - eta > claimedDelta} (this is
 * certified: the true delta is at least {@code deltaBar - eta}, spec §6.8 [X]).
 */
public final class DeltaAuditor {

    private final HockeyStickDivergence divergence;

    private DeltaAuditor(HockeyStickDivergence divergence) {
        this.divergence = divergence;
    }

    public static DeltaAuditor using(HockeyStickDivergence divergence) {
        return new DeltaAuditor(Objects.requireNonNull(divergence, "divergence"));
    }

    public static DeltaAuditor cpu() {
        return new DeltaAuditor(HockeyStickDivergence.cpu());
    }

    /** Which ordered pair a row refers to. */
    public enum Ordering {
        /** delta_{M(D), M(D')} */
        D_FIRST,
        /** delta_{M(D'), M(D)} */
        D_PRIME_FIRST
    }

    /**
     * One audited (ordering, eps).
     *
     * @param ordering          which ordered pair
     * @param epsilon           the eps
     * @param deltaHat          the unclamped oracle estimate {@code p0 - e^eps p1}
     * @param deltaUpper        certified {@code deltaBar = clamp(deltaHat + eta/2)}: the true delta is &lt;= this
     * @param deltaLower        certified lower bound {@code max(0, deltaBar - eta)}: the true delta is >= this
     * @param oracleAccuracy    the required {@code eta0 = eta / (2(1 + e^eps))}
     * @param p0ErrorBound      the oracle's bound on |p0 error| (&lt;= eta0)
     * @param p1ErrorBound      the oracle's bound on |p1 error| (&lt;= eta0)
     * @param method            how delta was computed
     */
    public record Row(Ordering ordering, double epsilon, double deltaHat, double deltaUpper, double deltaLower,
            double oracleAccuracy, double p0ErrorBound, double p1ErrorBound, String method) {
    }

    /**
     * The audit result: immutable, plain values (serialisable to JSON as it is).
     *
     * @param claimedEpsilon the claimed eps
     * @param claimedDelta   the claimed delta
     * @param eta            the accuracy
     * @param refuted        true iff at the claimed eps some ordering has {@code deltaLower > claimedDelta}
     * @param worstLowerBound the largest certified lower bound at the claimed eps (over both orderings)
     * @param worstUpperBound the largest certified upper estimate at the claimed eps
     * @param rows           every (ordering, eps) audited, grid order, D_FIRST before D_PRIME_FIRST
     */
    public record Report(double claimedEpsilon, double claimedDelta, double eta, boolean refuted,
            double worstLowerBound, double worstUpperBound, List<Row> rows) {

        public Report {
            rows = List.copyOf(rows);
        }
    }

    /**
     * @param outputOnD       the mechanism's output distribution on D
     * @param outputOnDPrime  on the neighbour D'
     * @param claimedEpsilon  claimed eps, finite (negative allowed)
     * @param claimedDelta    claimed delta in [0, 1]
     * @param eta             accuracy, in (0, 1]
     * @param epsilonGrid     further eps values to audit (may be null or empty); the claimed eps is added
     * @throws IllegalStateException when the oracle cannot certify accuracy eta0 at some eps
     */
    public Report audit(Gaussian outputOnD, Gaussian outputOnDPrime, double claimedEpsilon, double claimedDelta,
            double eta, double[] epsilonGrid) {
        if (!Double.isFinite(claimedEpsilon)) {
            throw new IllegalArgumentException("claimedEpsilon = " + claimedEpsilon + " must be finite");
        }
        if (!(claimedDelta >= 0 && claimedDelta <= 1)) {
            throw new IllegalArgumentException("claimedDelta = " + claimedDelta + " must lie in [0, 1]");
        }
        if (!(eta > 0 && eta <= 1)) {
            throw new IllegalArgumentException("eta = " + eta + " must lie in (0, 1] (the audit accuracy)");
        }
        double[] grid = epsilonGrid == null ? new double[0] : epsilonGrid.clone();
        for (double e : grid) {
            if (!Double.isFinite(e)) {
                throw new IllegalArgumentException("epsilonGrid contains " + e + "; every eps must be finite");
            }
        }
        double[] all = Arrays.copyOf(grid, grid.length + 1);
        all[grid.length] = claimedEpsilon;
        all = Arrays.stream(all).sorted().distinct().toArray();
        HockeyStickDivergence.Prepared forward = divergence.prepare(outputOnD, outputOnDPrime);
        HockeyStickDivergence.Prepared backward = divergence.prepare(outputOnDPrime, outputOnD);
        List<Row> rows = new ArrayList<>();
        boolean refuted = false;
        double worstLower = 0;
        double worstUpper = 0;
        for (double eps : all) {
            for (Ordering o : Ordering.values()) {
                Row row = audit(o == Ordering.D_FIRST ? forward : backward, o, eps, eta);
                rows.add(row);
                if (eps == claimedEpsilon) {
                    worstLower = Math.max(worstLower, row.deltaLower());
                    worstUpper = Math.max(worstUpper, row.deltaUpper());
                    if (row.deltaUpper() - eta > claimedDelta) {
                        refuted = true;
                    }
                }
            }
        }
        return new Report(claimedEpsilon, claimedDelta, eta, refuted, worstLower, worstUpper, rows);
    }

    private static Row audit(HockeyStickDivergence.Prepared pair, Ordering ordering, double eps, double eta) {
        double eta0 = eta / (2 * (1 + Math.exp(eps)));
        HockeyStickDivergence.Terms t = pair.terms(eps);
        if (!(t.p0ErrorBound() <= eta0) || !(t.p1ErrorBound() <= eta0)) {
            throw new IllegalStateException("the generalized chi-square oracle cannot certify accuracy eta0 = " + eta0
                    + " = eta/(2(1+e^eps)) at eps = " + eps + " for ordering " + ordering + ": its error bounds are "
                    + t.p0ErrorBound() + " (p0) and " + t.p1ErrorBound() + " (p1) via " + t.method()
                    + "; increase eta (spec ndis §6.8, Def. 9)");
        }
        double deltaHat = t.p0() - HockeyStickDivergence.scaled(eps, t.p1());
        double upper = HockeyStickDivergence.clamp(deltaHat + eta / 2);
        double lower = Math.max(0, upper - eta);
        return new Row(ordering, eps, deltaHat, upper, lower, eta0, t.p0ErrorBound(), t.p1ErrorBound(), t.method());
    }
}
