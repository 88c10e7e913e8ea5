package org.dpgauss.privacy.accounting;

import org.dpgauss.privacy.ApproxDp;

/**
 * A release was refused because, composed with the releases already recorded, it would exceed the accountant's
 * budget. Nothing was recorded. The message names the release, what it needs, what is left and the
 * composition used.
 */
public final class BudgetExceededException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String releaseName;
    private final transient ApproxDp wouldSpend;
    private final transient ApproxDp spent;
    private final transient ApproxDp budget;
    private final String composition;

    BudgetExceededException(Release release, AccountingReport before, ApproxDp wouldSpend, String composition,
            String reason) {
        super("release '" + release.name() + "' (" + release.describeGuarantee() + ") refused: " + reason
                + "; with it the " + (before.releases().size() + 1) + " releases would spend " + wouldSpend
                + " by " + composition + ", over the budget " + before.budget() + "; spent so far "
                + before.spent() + " by " + before.composition() + ", epsilon left "
                + format(before.epsilonLeft()) + " at delta <= "
                + format(before.budget().delta()) + " [" + before.relation().id() + "]");
        this.releaseName = release.name();
        this.wouldSpend = wouldSpend;
        this.spent = before.spent();
        this.budget = before.budget();
        this.composition = composition;
    }

    /** @return the name of the refused release */
    public String releaseName() {
        return releaseName;
    }

    /** @return the total the releases would spend with the refused one, by the tightest composition */
    public ApproxDp wouldSpend() {
        return wouldSpend;
    }

    /** @return the total spent before (and after) the refusal */
    public ApproxDp spent() {
        return spent;
    }

    /** @return the configured budget */
    public ApproxDp budget() {
        return budget;
    }

    /** @return the composition that gave {@link #wouldSpend()} */
    public String composition() {
        return composition;
    }

    private static String format(double x) {
        return String.format(java.util.Locale.ROOT, "%.6g", x);
    }
}
