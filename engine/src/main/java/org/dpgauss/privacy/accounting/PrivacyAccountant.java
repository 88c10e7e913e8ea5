package org.dpgauss.privacy.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.dpgauss.calibration.GaussianMechanismCurve;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.Zcdp;

/**
 * A privacy budget for one dataset: composes the releases made on it and refuses, with a
 * {@link BudgetExceededException}, any release that would take the total over the configured
 * {@code (epsilon, delta)} budget. A refused release is not recorded.
 *
 * <p><b>Two modes.</b> A session's releases are chosen <em>adaptively</em>: which mechanism runs next, and with
 * which privacy parameters, may depend on what earlier releases returned. The composition theorems for a sequence
 * whose parameters are fixed in advance (advanced composition, Kairouz–Oh–Viswanath and Dwork–Rothblum–Vadhan; the
 * stacked Gaussian pair; taking the smallest of several bounds) do not cover that case; only their
 * <em>privacy-filter</em> forms do (Rogers, Roth, Ullman &amp; Vadhan, "Privacy Odometers and Filters:
 * Pay-as-you-Go Composition", NeurIPS 2016). Hence:
 * <ul>
 *   <li>{@link #create(NeighbouringRelation, ApproxDp)} (what {@code PrivacySession} and the Spark session use) is a
 *       <b>privacy filter</b>: it refuses a release when the statement of the releases so far plus that one would
 *       leave the budget, and composes only by rules that stay valid with adaptively chosen parameters. Which
 *       rule is fixed by the first release (chosen before any output exists): after an {@code (epsilon, delta)}
 *       first release, the basic composition filter (Rogers, Roth, Ullman &amp; Vadhan, "Privacy Odometers and
 *       Filters: Pay-as-you-Go Composition", NeurIPS 2016), a zCDP release entering it converted at half the
 *       delta left; after a zCDP or Gaussian first release, the zCDP filter (Whitehouse, Ramdas, Rogers &amp; Wu,
 *       "Fully-Adaptive Composition in Differential Privacy", ICML 2023; Feldman &amp; Zrnic, "Individual Privacy
 *       Accounting via a Rényi Filter", NeurIPS 2021): {@code sum rho_i} converted once at the budget's delta by
 *       {@link org.dpgauss.privacy.ConversionPolicy}, pure releases entering as {@code epsilon^2/2}, releases
 *       with {@code delta > 0} refused. No advanced composition, no minimum over alternatives, no budget split
 *       chosen after outputs, and Gaussian pairs refused: each of these is a natural filter, which is not valid
 *       in general. See docs/design/adaptive-composition.md.</li>
 *   <li>{@link #forFixedSequence} and {@link #create(NeighbouringRelation, ApproxDp, double)} compose a sequence
 *       whose every privacy parameter is fixed before the first release runs (the mechanisms themselves may still
 *       be adaptive): every applicable theorem below is a valid bound for that one sequence, so their minimum
 *       is too. {@link #composeSteps} composes a mechanism's sub-steps this way.</li>
 * </ul>
 *
 * <p><b>Composition for a fixed sequence.</b> Every time, all applicable compositions are evaluated at the budget's
 * delta (the target delta) and the smallest epsilon is used; every candidate is a valid bound, so the minimum is too:
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
 *   <li>Gaussian-output releases given by a dominating pair ({@link Release#gaussianPair}): together with the
 *       Gaussian-mechanism releases they are stacked into one block-diagonal Gaussian pair
 *       ({@code GaussianPairComposition}; products of dominating pairs dominate the composition, Zhu, Dong &amp;
 *       Wang, AISTATS 2022) whose profile
 *       {@code max(delta_{P,Q}, delta_{Q,P})} is computed by {@code org.dpgauss.ndis.HockeyStickDivergence} and
 *       inverted by bisection; with zCDP releases present the two parts split the delta (1/2, 1/10 and 9/10 are
 *       tried). Cost: one {@code O(D^3)} decomposition per ordering for the stacked dimension {@code D} and a
 *       few dozen generalized chi-square evaluations per recorded release.</li>
 *   <li>mixtures: the two groups are composed separately and added by basic composition, the zCDP/Gaussian group
 *       receiving whatever delta the {@code (epsilon, delta)} group leaves.</li>
 * </ul>
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
    private final boolean adaptive;     // true: privacy filter (filter-valid rules only)
    private final List<Release> releases = new ArrayList<>();
    private AccountingReport current; // report of `releases`, recomputed on every recorded release

    private PrivacyAccountant(NeighbouringRelation relation, ApproxDp budget, double advancedSlack,
            boolean adaptive) {
        this.relation = relation;
        this.budget = budget;
        this.advancedSlack = advancedSlack;
        this.adaptive = adaptive;
    }

    /**
     * A privacy filter: an accountant for releases whose mechanisms <em>and privacy parameters</em> may be chosen
     * after seeing earlier outputs (a session). It composes by filter-valid rules only, chosen by the first
     * release (see the class comment): the basic composition filter, or the zCDP filter with one conversion.
     * Gaussian-pair releases are refused.
     *
     * @param relation the neighbouring relation of every release, not null
     * @param budget the total budget; its delta is the target delta of every conversion
     * @return the accountant
     */
    public static PrivacyAccountant create(NeighbouringRelation relation, ApproxDp budget) {
        Objects.requireNonNull(relation, "relation");
        Objects.requireNonNull(budget, "budget");
        return new PrivacyAccountant(relation, budget, 0, true);
    }

    /**
     * An accountant for a sequence of releases whose privacy parameters are all fixed before the first one runs,
     * with advanced-composition slack {@code delta' = budget.delta() / 2} (advanced composition is unused when
     * the budget's delta is 0). Not valid for a session whose later parameters depend on earlier outputs: use
     * {@link #create(NeighbouringRelation, ApproxDp)} there.
     *
     * @param relation the neighbouring relation of every release, not null
     * @param budget the total budget; its delta is the target delta of every conversion
     * @return the accountant
     */
    public static PrivacyAccountant forFixedSequence(NeighbouringRelation relation, ApproxDp budget) {
        Objects.requireNonNull(budget, "budget");
        return create(relation, budget, budget.delta() / 2);
    }

    /**
     * An accountant for a sequence of releases whose privacy parameters are all fixed before the first one runs
     * (see {@link #forFixedSequence}), with the given advanced-composition slack. Not valid for adaptively chosen
     * parameters: use {@link #create(NeighbouringRelation, ApproxDp)} there.
     *
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
        return new PrivacyAccountant(relation, budget, advancedSlack, false);
    }

    /**
     * @return whether this accountant is a privacy filter (valid for adaptively chosen privacy parameters,
     *         {@link #create(NeighbouringRelation, ApproxDp)}) rather than a composition of a fixed sequence
     */
    public boolean adaptive() {
        return adaptive;
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
        AccountingReport after = requireFits(release);
        releases.add(release);
        current = after;
        return after;
    }

    /**
     * Refuses a release that would not fit, without recording anything: for a caller that must know before it
     * starts work it cannot undo (e.g. a cluster job), and charges with {@link #spend} afterwards.
     *
     * @param release the release, not null
     * @return the report as if it were recorded
     * @throws BudgetExceededException if it does not fit
     * @throws IllegalArgumentException if its neighbouring relation differs from the accountant's
     */
    public synchronized AccountingReport requireFits(Release release) {
        AccountingReport after = preview(release);
        ApproxDp total = after.spent();
        if (!after.feasible() || total.epsilon() > budget.epsilon() || total.delta() > budget.delta()) {
            String reason = !after.feasible() || total.delta() > budget.delta()
                    ? "no composition keeps delta within the budget's delta (zCDP and Gaussian releases need"
                            + " delta > 0 left to be stated in (eps, delta))"
                    : "epsilon over the budget";
            throw new BudgetExceededException(release, report(), total, after.composition(), reason);
        }
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
        List<Release> with = new ArrayList<>(releases);
        with.add(admissible(release));
        return compose(with);
    }

    /**
     * Records releases already charged elsewhere (a durable ledger's stored costs, in the order they were charged),
     * composing once at the end instead of once per release. The result equals {@link #spend} called on each in
     * turn: every rule this accountant applies is monotone in the list (a release that does not fit at its turn
     * leaves the whole list over the budget or infeasible), so one check of the whole list refuses exactly what
     * the per-release checks would.
     *
     * @param stored the releases in their order, not null
     * @return the report including them
     * @throws BudgetExceededException if together with those already recorded they do not fit; nothing is recorded
     * @throws IllegalArgumentException if a release's neighbouring relation differs from the accountant's
     */
    public synchronized AccountingReport restore(List<Release> stored) {
        if (stored.isEmpty()) {
            return report();
        }
        List<Release> with = new ArrayList<>(releases);
        for (Release r : stored) {
            with.add(admissible(r));
        }
        AccountingReport after = compose(with);
        ApproxDp total = after.spent();
        if (!after.feasible() || total.epsilon() > budget.epsilon() || total.delta() > budget.delta()) {
            throw new BudgetExceededException(stored.get(stored.size() - 1), report(), total, after.composition(),
                    "the restored releases do not fit the budget under this composition rule");
        }
        releases.addAll(stored);
        current = after;
        return after;
    }

    private Release admissible(Release release) {
        Objects.requireNonNull(release, "release");
        if (release.relation() != relation) {
            throw new IllegalArgumentException("release '" + release.name() + "' is stated under "
                    + release.relation().description() + ", but this accountant composes releases under "
                    + relation.description() + ": guarantees under different neighbouring relations do not"
                    + " compose into one statement; use one accountant per relation or restate the release");
        }
        if (adaptive && release.kind() == Release.Kind.GAUSSIAN_PAIR) {
            throw new IllegalArgumentException("release '" + release.name() + "' is a Gaussian pair: a privacy"
                    + " filter has no valid composition for general Gaussian pairs chosen adaptively (a natural filter"
                    + " for general privacy profiles is invalid); state it by its (eps, delta) or use"
                    + " forFixedSequence for parameters fixed in advance");
        }
        return release;
    }

    /** @return the releases recorded so far and what they spend */
    public synchronized AccountingReport report() {
        if (current == null) {
            current = compose(releases);
        }
        return current;
    }

    /**
     * The guarantee of a mechanism made of several private sub-steps (a private count, a PTR test, a
     * min-eigenvalue estimate, a budget split), composed by the same rules the accountant applies to a session's
     * releases (the smallest valid epsilon at {@code delta}, advanced-composition slack {@code delta / 2}). This is
     * how mechanisms state a composed guarantee: never by adding epsilons by hand.
     *
     * <p>The fixed-sequence theorems (advanced composition, the minimum over bounds) are valid here because a
     * mechanism's steps are a fixed sequence: every step's privacy parameters are computed from public inputs
     * (the budget, d, n where public, the recipe) before the first step reads the data, even when a step's
     * <em>computation</em> uses earlier steps' outputs (adaptive composition with fixed parameters: Dwork,
     * Rothblum &amp; Vadhan 2010; Kairouz, Oh &amp; Viswanath 2017). A caller whose step parameters depend on an
     * earlier step's output must not compose them here (docs/design/adaptive-composition.md).
     *
     * @param relation the relation every step is stated under
     * @param steps the sub-steps, at least one, all under {@code relation}
     * @param delta the target delta of the composed statement, in {@code (0, 1)}
     * @param certified whether the recipe is certified (see {@link PrivacyGuarantee})
     * @param notes free text, may be null
     * @return the composed {@code (epsilon, delta)}-DP guarantee, naming the composition used
     * @throws IllegalArgumentException if no composition reaches {@code delta}, or a step's relation differs
     */
    public static PrivacyGuarantee composeSteps(NeighbouringRelation relation, List<Release> steps, double delta,
            boolean certified, String notes) {
        Objects.requireNonNull(relation, "relation");
        Objects.requireNonNull(steps, "steps");
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("a composed guarantee needs at least one step");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta=" + delta + " is outside (0, 1): the composed statement needs"
                    + " a delta to convert zCDP and Gaussian steps at");
        }
        for (Release r : steps) {
            if (r.relation() != relation) {
                throw new IllegalArgumentException("step '" + r.name() + "' is stated under " + r.relation().id()
                        + " but the mechanism under " + relation.id());
            }
        }
        Candidate c = bestComposition(steps, delta, delta / 2);
        if (!c.feasible) {
            throw new IllegalArgumentException("the steps' own deltas exceed delta=" + delta + ": " + c.method);
        }
        return PrivacyGuarantee.approxDp(relation, ApproxDp.of(c.epsilon, Math.min(c.delta, delta)), certified,
                notes, c.method);
    }

    // ------------------------------------------------------------------ composition

    private AccountingReport compose(List<Release> list) {
        Candidate best = adaptive ? filterComposition(list, budget.delta())
                : bestComposition(list, budget.delta(), advancedSlack);
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

    /** The releases that compose through zCDP, exact Gaussian or Gaussian-pair accounting. */
    private static final class ZGroup {
        final List<Double> taus = new ArrayList<>();
        final List<Release> pairs = new ArrayList<>();
        double rho;
        int zcdps;

        ZGroup copy() {
            ZGroup g = new ZGroup();
            g.taus.addAll(taus);
            g.pairs.addAll(pairs);
            g.rho = rho;
            g.zcdps = zcdps;
            return g;
        }

        boolean isEmpty() {
            return taus.isEmpty() && pairs.isEmpty() && zcdps == 0;
        }

        int size() {
            return taus.size() + pairs.size() + zcdps;
        }
    }

    /**
     * The smallest-epsilon valid composition with {@code delta <= targetDelta}; if none exists (the releases'
     * own deltas exceed the target), an infeasible candidate from basic composition.
     */
    static Candidate bestComposition(List<Release> list, double targetDelta, double slack) {
        if (list.isEmpty()) {
            return new Candidate(0, 0, "nothing released");
        }
        List<ApproxDp> approx = new ArrayList<>();
        List<ApproxDp> approxNotPure = new ArrayList<>();
        double pureRho = 0;
        ZGroup z = new ZGroup();
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
                    z.rho += r.zcdp().rho();
                    z.zcdps++;
                    break;
                case GAUSSIAN:
                    z.taus.add(r.tau());
                    break;
                default:
                    z.pairs.add(r);
                    break;
            }
        }
        double sumApproxDelta = 0;
        double sumApproxEps = 0;
        for (ApproxDp a : approx) {
            sumApproxDelta += a.delta();
            sumApproxEps += a.epsilon();
        }
        Cache cache = new Cache();
        // Variant 1: all (eps, delta) releases in the approx group.
        Candidate best = mixed(approx, sumApproxDelta, z, targetDelta, slack, cache);
        // Variant 2: pure releases join the zCDP group as eps^2/2-zCDP (Bun-Steinke Prop. 1.4).
        if (approxNotPure.size() < approx.size()) {
            double d = 0;
            for (ApproxDp a : approxNotPure) {
                d += a.delta();
            }
            ZGroup z2 = z.copy();
            z2.rho += pureRho;
            z2.zcdps += approx.size() - approxNotPure.size();
            best = better(best, mixed(approxNotPure, d, z2, targetDelta, slack, cache));
        }
        if (best == null) {
            return new Candidate(sumApproxEps, sumApproxDelta, "basic composition of the (eps, delta) releases"
                    + " (infeasible: no composition reaches the budget's delta " + fmt(targetDelta)
                    + (z.isEmpty() ? "" : " with delta > 0 left for the zCDP/Gaussian releases") + ")", false);
        }
        return best;
    }

    /**
     * The privacy filter's statement of {@code list} at {@code targetDelta} (docs/design/adaptive-composition.md).
     * The rule is fixed by the <em>first</em> release, which is chosen before any output exists:
     * <ul>
     *   <li>first release {@code (epsilon, delta)}: the basic composition filter (Rogers, Roth, Ullman &amp;
     *       Vadhan 2016) over all releases; a later zCDP or Gaussian release enters it as the
     *       {@code (epsilon_i, delta_i)} its own conversion gives at {@code delta_i} = half the delta left before
     *       it (a parameter fixed by the history before the release runs, as the basic filter allows);</li>
     *   <li>first release zCDP or Gaussian: the zCDP filter (Whitehouse, Ramdas, Rogers &amp; Wu 2023;
     *       Feldman &amp; Zrnic 2021) with the budget's rho: {@code sum rho_i} (a Gaussian mechanism as
     *       {@code tau^2/2}, a pure {@code epsilon}-DP release as {@code epsilon^2/2}, Bun &amp; Steinke 2016
     *       Prop. 1.4) converted once at the budget's delta by {@link ConversionPolicy}; a release with
     *       {@code delta > 0} cannot be charged to it (infeasible).</li>
     * </ul>
     * No minimum over alternative rules, no advanced composition, no budget split that depends on outputs (each
     * is a natural filter, invalid in general: design record).
     */
    static Candidate filterComposition(List<Release> list, double targetDelta) {
        if (list.isEmpty()) {
            return new Candidate(0, 0, "nothing released");
        }
        for (Release r : list) {
            if (r.kind() == Release.Kind.GAUSSIAN_PAIR) {
                throw new IllegalArgumentException("release '" + r.name() + "' is a Gaussian pair: no filter-valid"
                        + " composition");
            }
        }
        return list.get(0).kind() == Release.Kind.APPROX_DP ? basicFilter(list, targetDelta)
                : zcdpFilter(list, targetDelta);
    }

    private static Candidate basicFilter(List<Release> list, double targetDelta) {
        double eps = 0;
        double delta = 0;
        int converted = 0;
        for (Release r : list) {
            if (r.kind() == Release.Kind.APPROX_DP) {
                eps += r.approxDp().epsilon();
                delta += r.approxDp().delta();
                continue;
            }
            double share = 0.5 * (targetDelta - delta);
            if (!(share > 0)) {
                return new Candidate(eps, delta, "basic composition filter of " + list.size() + " release(s)"
                        + " (infeasible: no delta left of the budget's delta " + fmt(targetDelta) + " to convert"
                        + " zCDP release '" + r.name() + "')", false);
            }
            eps += ConversionPolicy.toApproxDp(r.zcdp(), share).epsilon(); // GAUSSIAN: its tau^2/2
            delta += share;
            converted++;
        }
        boolean ok = delta <= targetDelta && eps < Double.POSITIVE_INFINITY;
        String method = "basic composition filter of " + list.size() + " release(s)" + (converted == 0 ? ""
                : ", " + converted + " zCDP release(s) each converted at half the delta left before it (CKS20"
                        + " Cor. 13)");
        return new Candidate(ok ? eps : Math.min(eps, Double.MAX_VALUE), delta, ok ? method : method
                + " (infeasible: delta over the budget's delta " + fmt(targetDelta) + ")", ok);
    }

    private static Candidate zcdpFilter(List<Release> list, double targetDelta) {
        double rho = 0;
        for (Release r : list) {
            if (r.kind() != Release.Kind.APPROX_DP) {
                rho += r.zcdp().rho(); // ZCDP, or GAUSSIAN as tau^2/2
            } else if (r.approxDp().delta() == 0) {
                double e = r.approxDp().epsilon();
                rho += 0.5 * e * e; // pure eps-DP is eps^2/2-zCDP (Bun-Steinke Prop. 1.4)
            } else {
                return new Candidate(Double.MAX_VALUE, targetDelta, "zCDP filter (the session's first release was"
                        + " zCDP) (infeasible: release '" + r.name() + "' is (eps, delta)-DP with delta > 0, which a"
                        + " zCDP filter cannot charge; state it in zCDP, or make (eps, delta) releases first)", false);
            }
        }
        String method = "zCDP filter of " + list.size() + " release(s): rho=" + fmt(rho) + " converted at delta="
                + fmt(targetDelta) + " (CKS20 Cor. 13)";
        if (!(targetDelta > 0)) {
            return new Candidate(Double.MAX_VALUE, 0, method + " (infeasible: the budget's delta is 0)", false);
        }
        return new Candidate(ConversionPolicy.toApproxDp(Zcdp.of(rho), targetDelta).epsilon(), targetDelta, method);
    }

    /** The stacked pair of the Gaussian-pair group, built at most once per composition. */
    private static final class Cache {
        GaussianPairComposition pairs;
    }

    /** Best of: approx group by basic/advanced, plus the zCDP/Gaussian group at the delta left. */
    private static Candidate mixed(List<ApproxDp> approx, double sumApproxDelta, ZGroup z, double targetDelta,
            double slack, Cache cache) {
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
            if (z.isEmpty()) {
                if (a.delta <= targetDelta) {
                    best = better(best, a);
                }
                continue;
            }
            double left = targetDelta - a.delta;
            if (!(left > 0)) {
                continue; // the zCDP/Gaussian group needs some delta to convert at
            }
            Candidate zc = zGroup(z, left, cache);
            if (zc == null || !(zc.epsilon + a.epsilon < Double.POSITIVE_INFINITY)) {
                continue;
            }
            String method = a.method == null ? zc.method : a.method + " + (basic) " + zc.method;
            best = better(best, new Candidate(a.epsilon + zc.epsilon, targetDelta, method));
        }
        return best;
    }

    /**
     * The zCDP/Gaussian group converted at {@code delta}: exact Gaussian or Gaussian-pair composition when
     * possible, else zCDP; with both pairs and zCDP releases, the two parts split delta (a few splits are tried).
     * Null when no conversion reaches delta.
     */
    private static Candidate zGroup(ZGroup z, double delta, Cache cache) {
        if (z.pairs.isEmpty()) {
            double tau2 = 0;
            for (double t : z.taus) {
                tau2 += t * t;
            }
            double totalRho = z.rho + 0.5 * tau2;
            Candidate viaZcdp = new Candidate(Zcdp.of(totalRho).toApproxDpTight(delta).epsilon(), delta,
                    "zCDP composition of " + z.size() + " release(s): rho=" + fmt(totalRho)
                            + " converted at delta=" + fmt(delta) + " (CKS20 Cor. 13)");
            if (z.zcdps > 0) {
                return viaZcdp;
            }
            double tau = Math.sqrt(tau2);
            return better(viaZcdp, new Candidate(GaussianMechanismCurve.epsilon(delta, tau), delta,
                    "exact Gaussian composition of " + z.taus.size() + " Gaussian release(s): tau=sqrt(sum tau_i^2)="
                            + fmt(tau) + " at delta=" + fmt(delta) + " (ndis Prop. 1)"));
        }
        if (cache.pairs == null) {
            cache.pairs = GaussianPairComposition.of(z.pairs, z.taus);
        }
        GaussianPairComposition stacked = cache.pairs;
        String pairMethod = "exact composition of " + (z.pairs.size() + z.taus.size()) + " Gaussian-output"
                + " release(s) as one stacked Gaussian pair of dimension " + stacked.dimension()
                + " (max of both orderings, HockeyStickDivergence)";
        if (z.zcdps == 0) {
            double eps = stacked.epsilon(delta);
            return eps < Double.POSITIVE_INFINITY ? new Candidate(eps, delta, pairMethod + " at delta=" + fmt(delta))
                    : null;
        }
        Candidate best = null;
        for (double f : new double[] {0.5, 0.1, 0.9}) {
            double pairEps = stacked.epsilon(f * delta);
            if (!(pairEps < Double.POSITIVE_INFINITY)) {
                continue;
            }
            double zEps = Zcdp.of(z.rho).toApproxDpTight((1 - f) * delta).epsilon();
            best = better(best, new Candidate(pairEps + zEps, delta, pairMethod + " at delta=" + fmt(f * delta)
                    + " + (basic) zCDP composition of " + z.zcdps + " release(s): rho=" + fmt(z.rho)
                    + " at delta=" + fmt((1 - f) * delta)));
        }
        return best;
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
