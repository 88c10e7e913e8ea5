package org.dpgauss.privacy.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.Zcdp;

/**
 * A privacy budget for one dataset: composes the releases made on it and refuses, with a
 * {@link BudgetExceededException}, any release that would take the total over the configured
 * {@code (epsilon, delta)} budget. A refused release is not recorded.
 *
 * <p><b>Composition.</b> Every time, all applicable compositions are evaluated at the budget's delta (the target
 * delta) and the smallest epsilon is used; every candidate is a valid bound, so the minimum is too:
 * <ul>
 *   <li>{@code (epsilon, delta)} releases: basic composition, and with at least two of them advanced
 *       composition with slack {@code delta'} ({@link Composition#advancedHeterogeneous}, Kairouz–Oh–Viswanath,
 *       and {@link Composition#advancedDrv} when all are equal); pure ({@code delta = 0}) releases may instead
 *       join the zCDP group as {@code eps^2/2}-zCDP (Bun &amp; Steinke 2016, Prop. 1.4);</li>
 *   <li>zCDP and Gaussian releases: their rho add up (Bun &amp; Steinke 2016, Lemma 2.3) and are converted once
 *       with {@link Zcdp#toApproxDpTight} (CKS20 Cor. 13); when the group holds only Gaussian releases it is
 *       composed <em>exactly</em> into one Gaussian mechanism with {@code tau = sqrt(sum tau_i^2)} (a
 *       Gaussian mechanism with {@code tau_i = Delta_i / sigma_i} is {@code tau_i}-GDP, and GDP composes exactly,
 *       adaptively included: Dong, Roth &amp; Su, "Gaussian Differential Privacy", JRSS-B 2022, Cor. 3.3; for fixed
 *       queries the stacked outputs are one Gaussian whose means differ by {@code (tau_i)_i}) and converted
 *       with the exact
 *       curve {@code delta(eps) = Phi(-eps/tau + tau/2) - e^eps Phi(-eps/tau - tau/2)} (spec ndis §5.1,
 *       Prop. 1; Balle &amp; Wang 2018), via {@link GaussianMechanismCurve#epsilon};</li>
 *   <li>mixtures: the two groups are composed separately and added by basic composition, the zCDP/Gaussian group
 *       receiving whatever delta the {@code (epsilon, delta)} group leaves.</li>
 * </ul>
 * General Gaussian-output releases given by a dominating pair of Gaussians (the NDIS path of spec ndis) are not
 * supported yet; state their {@code (epsilon, delta)} or zCDP instead.
 *
 * <p><b>Neighbouring relation.</b> An accountant composes releases stated under one relation, fixed at
 * creation; a release under another relation is rejected ({@link IllegalArgumentException}), since the
 * guarantees would not compose into any single statement.
 *
 * <p>Thread-safe: all methods are synchronized, so concurrent analytics jobs can share one accountant and a
 * check-and-record ({@link #spend}) is atomic.
 */
public final class PrivacyAccountant {

    private final NeighbouringRelation relation;
    private final ApproxDp budget;
    private final double advancedSlack; // 0: advanced composition disabled
    private final List<Release> releases = new ArrayList<>();

    private PrivacyAccountant(NeighbouringRelation relation, ApproxDp budget, double advancedSlack) {
        this.relation = relation;
        this.budget = budget;
        this.advancedSlack = advancedSlack;
    }

    /**
     * An accountant with advanced-composition slack {@code delta' = budget.delta() / 2} (advanced composition is
     * unused when the budget's delta is 0).
     *
     * @param relation the neighbouring relation of every release, not null
     * @param budget the total budget; its delta is the target delta of every conversion
     * @return the accountant
     */
    public static PrivacyAccountant create(NeighbouringRelation relation, ApproxDp budget) {
        Objects.requireNonNull(budget, "budget");
        return create(relation, budget, budget.delta() / 2);
    }

    /**
     * @param relation the neighbouring relation of every release, not null
     * @param budget the total budget; its delta is the target delta of every conversion
     * @param advancedSlack the {@code delta'} of advanced composition, in {@code [0, budget.delta()]}; 0 disables
     *        advanced composition
     * @return the accountant
     * @throws IllegalArgumentException if the slack is out of range
     */
    public static PrivacyAccountant create(NeighbouringRelation relation, ApproxDp budget, double advancedSlack) {
        Objects.requireNonNull(relation, "relation");
        Objects.requireNonNull(budget, "budget");
        if (!(advancedSlack >= 0 && advancedSlack <= budget.delta())) {
            throw new IllegalArgumentException("advancedSlack=" + advancedSlack + " is outside [0, "
                    + budget.delta() + "]: the slack delta' of advanced composition is part of the budget's delta");
        }
        return new PrivacyAccountant(relation, budget, advancedSlack);
    }

    /** @return the neighbouring relation of every release */
    public NeighbouringRelation relation() {
        return relation;
    }

    /** @return the configured budget */
    public ApproxDp budget() {
        return budget;
    }

    /**
     * Records the release if, composed with those already recorded, it stays within the budget.
     *
     * @param release the release, not null
     * @return the report including the release
     * @throws BudgetExceededException if it does not fit; nothing is recorded
     * @throws IllegalArgumentException if its neighbouring relation differs from the accountant's
     */
    public synchronized AccountingReport spend(Release release) {
        AccountingReport before = report();
        AccountingReport after = preview(release);
        ApproxDp total = after.spent();
        if (!after.feasible() || total.epsilon() > budget.epsilon() || total.delta() > budget.delta()) {
            String reason = !after.feasible() || total.delta() > budget.delta()
                    ? "no composition keeps delta within the budget's delta (zCDP and Gaussian releases need"
                            + " delta > 0 left to be stated in (eps, delta))"
                    : "epsilon over the budget";
            throw new BudgetExceededException(release, before, total, after.composition(), reason);
        }
        releases.add(release);
        return after;
    }

    /**
     * What the releases would spend with {@code release} added, without recording it.
     *
     * @param release the release, not null
     * @return the hypothetical report; its {@code spent()} may exceed the budget
     * @throws IllegalArgumentException if its neighbouring relation differs from the accountant's
     */
    public synchronized AccountingReport preview(Release release) {
        Objects.requireNonNull(release, "release");
        if (release.relation() != relation) {
            throw new IllegalArgumentException("release '" + release.name() + "' is stated under "
                    + release.relation().description() + ", but this accountant composes releases under "
                    + relation.description() + ": guarantees under different neighbouring relations do not"
                    + " compose into one statement; use one accountant per relation or restate the release");
        }
        List<Release> with = new ArrayList<>(releases);
        with.add(release);
        return compose(with);
    }

    /** @return the releases recorded so far and what they spend */
    public synchronized AccountingReport report() {
        return compose(releases);
    }

    // ------------------------------------------------------------------ composition

    private AccountingReport compose(List<Release> list) {
        Candidate best = bestComposition(list, budget.delta(), advancedSlack);
        return new AccountingReport(relation, budget, list, ApproxDp.of(best.epsilon, Math.min(best.delta,
                Math.nextDown(1.0))), best.method, best.feasible);
    }

    /** One valid composition bound. */
    static final class Candidate {
        final double epsilon;
        final double delta;
        final String method;
        final boolean feasible;

        Candidate(double epsilon, double delta, String method) {
            this(epsilon, delta, method, true);
        }

        Candidate(double epsilon, double delta, String method, boolean feasible) {
            this.epsilon = epsilon;
            this.delta = delta;
            this.method = method;
            this.feasible = feasible;
        }
    }

    /**
     * The smallest-epsilon valid composition with {@code delta <= targetDelta}; if none exists (the releases'
     * own deltas exceed the target), basic composition, whose delta then exceeds the target.
     */
    static Candidate bestComposition(List<Release> list, double targetDelta, double slack) {
        List<ApproxDp> approx = new ArrayList<>();
        List<ApproxDp> approxNotPure = new ArrayList<>();
        double pureRho = 0;
        double gaussianTau2 = 0;
        double zcdpRho = 0;
        int gaussians = 0;
        int zcdps = 0;
        for (Release r : list) {
            switch (r.kind()) {
                case APPROX_DP:
                    approx.add(r.approxDp());
                    if (r.approxDp().delta() > 0) {
                        approxNotPure.add(r.approxDp());
                    } else {
                        pureRho += 0.5 * r.approxDp().epsilon() * r.approxDp().epsilon();
                    }
                    break;
                case ZCDP:
                    zcdpRho += r.zcdp().rho();
                    zcdps++;
                    break;
                default:
                    gaussianTau2 += r.tau() * r.tau();
                    gaussians++;
                    break;
            }
        }
        if (list.isEmpty()) {
            return new Candidate(0, 0, "nothing released");
        }
        double sumApproxDelta = 0;
        double sumApproxEps = 0;
        for (ApproxDp a : approx) {
            sumApproxDelta += a.delta();
            sumApproxEps += a.epsilon();
        }
        Candidate best = null;
        // Variant 1: all (eps, delta) releases in the approx group.
        best = better(best, mixed(approx, sumApproxDelta, gaussianTau2, gaussians, zcdpRho, zcdps, targetDelta,
                slack));
        // Variant 2: pure releases join the zCDP group as eps^2/2-zCDP (then no exact Gaussian path).
        if (approxNotPure.size() < approx.size()) {
            double d = 0;
            for (ApproxDp a : approxNotPure) {
                d += a.delta();
            }
            int pure = approx.size() - approxNotPure.size();
            best = better(best, mixed(approxNotPure, d, gaussianTau2, gaussians, zcdpRho + pureRho, zcdps + pure,
                    targetDelta, slack));
        }
        if (best == null) {
            return new Candidate(sumApproxEps, sumApproxDelta, "basic composition of the (eps, delta) releases"
                    + " (infeasible: their deltas leave no delta of the budget's " + fmt(targetDelta) + (gaussians
                    + zcdps > 0 ? " for the zCDP/Gaussian releases" : "") + ")", false);
        }
        return best;
    }

    /** Best of: approx group by basic/advanced, plus the zCDP/Gaussian group at the delta left. */
    private static Candidate mixed(List<ApproxDp> approx, double sumApproxDelta, double tau2, int gaussians,
            double rho, int zcdps, double targetDelta, double slack) {
        boolean zGroup = gaussians + zcdps > 0;
        List<Candidate> approxOptions = new ArrayList<>();
        if (approx.isEmpty()) {
            approxOptions.add(new Candidate(0, 0, null));
        } else {
            if (sumApproxDelta >= 1) {
                return null; // basic composition of these deltas already gives no guarantee
            }
            ApproxDp basic = Composition.basic(approx);
            approxOptions.add(new Candidate(basic.epsilon(), basic.delta(), "basic composition of " + approx.size()
                    + " (eps, delta) release(s)"));
            if (approx.size() >= 2 && slack > 0 && sumApproxDelta + slack < 1) {
                ApproxDp kov = Composition.advancedHeterogeneous(approx, slack);
                approxOptions.add(new Candidate(kov.epsilon(), kov.delta(), "advanced composition (Kairouz-Oh-"
                        + "Viswanath) of " + approx.size() + " (eps, delta) releases with delta'=" + fmt(slack)));
                if (allEqual(approx)) {
                    ApproxDp drv = Composition.advancedDrv(approx.get(0), approx.size(), slack);
                    approxOptions.add(new Candidate(drv.epsilon(), drv.delta(), "advanced composition (Dwork-"
                            + "Rothblum-Vadhan) of " + approx.size() + " equal releases with delta'=" + fmt(slack)));
                }
            }
        }
        Candidate best = null;
        for (Candidate a : approxOptions) {
            if (!zGroup) {
                if (a.delta <= targetDelta) {
                    best = better(best, a);
                }
                continue;
            }
            double left = targetDelta - a.delta;
            if (!(left > 0)) {
                continue; // the zCDP/Gaussian group needs some delta to convert at
            }
            Candidate z = zGroup(tau2, gaussians, rho, zcdps, left);
            String method = a.method == null ? z.method : a.method + " + (basic) " + z.method;
            best = better(best, new Candidate(a.epsilon + z.epsilon, targetDelta, method));
        }
        return best;
    }

    /** The zCDP/Gaussian group converted at {@code delta}: exact Gaussian when possible, else zCDP. */
    private static Candidate zGroup(double tau2, int gaussians, double rho, int zcdps, double delta) {
        double totalRho = rho + 0.5 * tau2;
        Candidate viaZcdp = new Candidate(Zcdp.of(totalRho).toApproxDpTight(delta).epsilon(), delta,
                "zCDP composition of " + (gaussians + zcdps) + " release(s): rho=" + fmt(totalRho)
                        + " converted at delta=" + fmt(delta) + " (CKS20 Cor. 13)");
        if (zcdps > 0) {
            return viaZcdp;
        }
        double tau = Math.sqrt(tau2);
        Candidate exact = new Candidate(GaussianMechanismCurve.epsilon(delta, tau), delta,
                "exact Gaussian composition of " + gaussians + " Gaussian release(s): tau=sqrt(sum tau_i^2)="
                        + fmt(tau) + " at delta=" + fmt(delta) + " (ndis Prop. 1)");
        return better(viaZcdp, exact);
    }

    private static Candidate better(Candidate a, Candidate b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return b.epsilon < a.epsilon ? b : a;
    }

    private static boolean allEqual(List<ApproxDp> list) {
        for (ApproxDp a : list) {
            if (!a.equals(list.get(0))) {
                return false;
            }
        }
        return true;
    }

    private static String fmt(double x) {
        return String.format(Locale.ROOT, "%.6g", x);
    }
}
