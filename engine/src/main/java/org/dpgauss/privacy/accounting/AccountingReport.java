package org.dpgauss.privacy.accounting;

import java.util.List;
import java.util.Objects;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;

/**
 * What a set of releases on one dataset has spent: the release log, the total {@code (epsilon, delta)} by the
 * tightest applicable composition, and that composition in words. Immutable.
 */
public final class AccountingReport {

    private final NeighbouringRelation relation;
    private final ApproxDp budget;
    private final List<Release> releases;
    private final ApproxDp spent;
    private final String composition;
    private final boolean feasible;

    AccountingReport(NeighbouringRelation relation, ApproxDp budget, List<Release> releases, ApproxDp spent,
            String composition, boolean feasible) {
        this.feasible = feasible;
        this.relation = relation;
        this.budget = budget;
        this.releases = List.copyOf(releases);
        this.spent = Objects.requireNonNull(spent, "spent");
        this.composition = composition;
    }

    /** @return the neighbouring relation every release is stated under */
    public NeighbouringRelation relation() {
        return relation;
    }

    /** @return the configured total budget; its delta is the target delta of every conversion */
    public ApproxDp budget() {
        return budget;
    }

    /** @return the recorded releases in order (unmodifiable) */
    public List<Release> releases() {
        return releases;
    }

    /**
     * @return whether some valid composition states the releases within the budget's delta; false only for a
     *         {@link PrivacyAccountant#preview} of a release that would be refused for its delta
     */
    public boolean feasible() {
        return feasible;
    }

    /**
     * @return the total guarantee of the releases; for a {@link #feasible()} report {@code delta <= budget().delta()}
     *         (for an infeasible preview, the basic composition of the {@code (eps, delta)} releases alone)
     */
    public ApproxDp spent() {
        return spent;
    }

    /** @return the composition that gave {@link #spent()}, in words */
    public String composition() {
        return composition;
    }

    /**
     * @return {@code budget epsilon - spent epsilon}, clamped at 0. Composition is not additive in general
     *         (advanced, zCDP and exact Gaussian composition are sublinear), so a release needing more than this
     *         may still fit and one needing less may not; ask {@link PrivacyAccountant#preview} to know.
     */
    public double epsilonLeft() {
        return Math.max(0, budget.epsilon() - spent.epsilon());
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append("spent ").append(spent).append(" of ").append(budget).append(" [").append(relation.id())
                .append("] by ").append(composition).append("; ").append(releases.size()).append(" release(s)");
        for (Release r : releases) {
            sb.append("\n  ").append(r);
        }
        return sb.toString();
    }
}
