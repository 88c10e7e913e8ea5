package org.dpgauss.release;

import java.util.Objects;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.accounting.AccountingReport;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.dpgauss.privacy.accounting.PrivacyAccountant;

/**
 * A dataset opened with a total privacy budget and a neighbouring relation: every release made through it is
 * stated from public facts (d, and n where the relation makes it public), charged to the budget, and only then
 * computed: nothing reads a row before the charge (issue 24, item 6). A release that would exceed the budget is
 * refused with a {@link BudgetExceededException} before any data are read, and nothing is recorded (atomic). A
 * release that was charged stays charged even if it fails or throws afterwards (it may have read the data).
 * Thread-safe.
 *
 * <p>The releases of a session are chosen adaptively (a caller picks the next mechanism and its budget after
 * seeing earlier outputs), so the session's accountant is a privacy filter
 * ({@link PrivacyAccountant#create(NeighbouringRelation, ApproxDp)}): basic composition for {@code (epsilon,
 * delta)} releases and one zCDP sum converted once, never the fixed-sequence advanced-composition theorems
 * (docs/design/adaptive-composition.md).
 *
 * <pre>{@code
 * PrivacySession s = PrivacySession.builder(Dataset.of(rows))
 *         .relation(NeighbouringRelation.REPLACE_ONE).budget(ApproxDp.of(1.0, 1e-6)).open();
 * PrivateRelease mean = s.release(ClippedGaussianMean.builder().clipRadius(5).rho(0.1).build());
 * System.out.println("spent " + s.spent());
 * }</pre>
 */
public final class PrivacySession {

    private final Dataset data;
    private final PrivacyAccountant accountant;
    private final ReleaseContext context;
    private final org.dpgauss.ledger.Ledger ledger; // null: the budget lives in this session only
    private final String ledgerDataset;

    private PrivacySession(Dataset data, PrivacyAccountant accountant, ReleaseContext context,
            org.dpgauss.ledger.Ledger ledger, String ledgerDataset) {
        this.data = data;
        this.accountant = accountant;
        this.context = context;
        this.ledger = ledger;
        this.ledgerDataset = ledgerDataset;
    }

    /**
     * @param data the dataset
     * @return a builder; relation and budget are required
     */
    public static Builder builder(Dataset data) {
        return new Builder(data);
    }

    /**
     * States, charges and computes one release.
     *
     * @param mechanism the mechanism; its relation must be the session's
     * @return the release
     * @throws BudgetExceededException if the release would exceed the budget (nothing is charged or read)
     * @throws IllegalArgumentException if the mechanism's relation or public parameters do not suit the session
     *         (raised while stating, before the charge; the data are never checked before the charge)
     */
    public synchronized PrivateRelease release(PrivateMechanism mechanism) {
        Objects.requireNonNull(mechanism, "mechanism");
        if (mechanism.relation() != accountant.relation()) {
            throw new IllegalArgumentException("the mechanism is stated under " + mechanism.relation().description()
                    + " but this session under " + accountant.relation().description()
                    + ": open a session with the mechanism's relation");
        }
        // state (public facts only) -> charge (refused over budget, before any read) -> compute (reads the rows;
        // a failure there stays charged). No data-dependent check runs before the charge (issue 24, item 6).
        Statement stated = Releases.state(mechanism, data, accountant.budget().delta());
        // the durable charge beside the in-memory one (docs/ledger.md): one transaction, before anything is computed
        LedgerCharge charged = ledger == null ? null
                : LedgerCharge.charge(ledger, ledgerDataset, stated, context.random(), false);
        if (charged != null && charged.replay().isPresent()) {
            return charged.replay().get(); // the same query again: the stored release, at no cost
        }
        accountant.spend(stated.accounting());
        PrivateRelease released = Releases.compute(mechanism, data, stated, context);
        if (charged != null) {
            charged.record(released);
        }
        return released;
    }

    /**
     * What a release would cost, without charging or running it.
     *
     * @param mechanism the mechanism
     * @return the report as if it were released
     */
    public synchronized AccountingReport preview(PrivateMechanism mechanism) {
        Statement stated = Releases.state(mechanism, data, accountant.budget().delta());
        return accountant.preview(stated.accounting());
    }

    /**
     * @return the total spent so far, composed by the session's privacy filter (see
     *         {@link PrivacyAccountant#create(NeighbouringRelation, ApproxDp)})
     */
    public ApproxDp spent() {
        return accountant.report().spent();
    }

    /** @return the total budget */
    public ApproxDp budget() {
        return accountant.budget();
    }

    /** @return the releases recorded and how they compose */
    public AccountingReport report() {
        return accountant.report();
    }

    /** @return the neighbouring relation */
    public NeighbouringRelation relation() {
        return accountant.relation();
    }

    /** Opens a session. */
    public static final class Builder {
        private final Dataset data;
        private NeighbouringRelation relation;
        private ApproxDp budget;
        private ReleaseContext context;
        private org.dpgauss.ledger.Ledger ledger;
        private String ledgerDataset;

        private Builder(Dataset data) {
            this.data = Objects.requireNonNull(data, "data");
        }

        /**
         * @param r the neighbouring relation of every release
         * @return this builder
         */
        public Builder relation(NeighbouringRelation r) {
            this.relation = Objects.requireNonNull(r, "relation");
            return this;
        }

        /**
         * @param total the total budget; its delta is the delta every zCDP release is stated at
         * @return this builder
         */
        public Builder budget(ApproxDp total) {
            this.budget = Objects.requireNonNull(total, "budget");
            return this;
        }

        /**
         * @param c backend and noise source (default: {@link ReleaseContext#secure()})
         * @return this builder
         */
        public Builder context(ReleaseContext c) {
            this.context = Objects.requireNonNull(c, "context");
            return this;
        }

        /**
         * Charges every release also to a dataset of a durable ledger (docs/ledger.md), across processes: the
         * relation and budget default to the dataset's (a relation given must match it), a repeated query returns
         * the stored release at no cost, and over the dataset's budget a release is refused before it is computed.
         *
         * @param l the ledger (the caller closes it)
         * @param dataset the dataset's name in the ledger
         * @return this builder
         * @throws org.dpgauss.ledger.LedgerException if the ledger has no such dataset
         */
        public Builder ledger(org.dpgauss.ledger.Ledger l, String dataset) {
            org.dpgauss.ledger.DatasetBudget b = Objects.requireNonNull(l, "ledger").dataset(dataset);
            this.ledger = l;
            this.ledgerDataset = dataset;
            if (relation == null) {
                relation = b.relation();
            }
            if (budget == null) {
                budget = b.budget();
            }
            return this;
        }

        /** @return the session */
        public PrivacySession open() {
            if (ledger != null && ledger.dataset(ledgerDataset).relation() != relation) {
                throw new IllegalArgumentException("the session is opened under " + relation.description()
                        + " but dataset '" + ledgerDataset + "' of the ledger under "
                        + ledger.dataset(ledgerDataset).relation().description());
            }
            if (relation == null) {
                throw new IllegalStateException("a session needs a neighbouring relation: call relation(..)");
            }
            if (budget == null) {
                throw new IllegalStateException("a session needs a total budget: call budget(ApproxDp.of(eps, delta))");
            }
            if (!(budget.delta() > 0)) {
                throw new IllegalArgumentException("the budget's delta must be > 0: zCDP and Gaussian releases are"
                        + " stated in (epsilon, delta) at that delta");
            }
            return new PrivacySession(data, PrivacyAccountant.create(relation, budget),
                    context != null ? context : ReleaseContext.secure(), ledger, ledgerDataset);
        }
    }
}
