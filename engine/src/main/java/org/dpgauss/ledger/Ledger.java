package org.dpgauss.ledger;

import java.util.List;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.accounting.AccountingReport;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.dpgauss.privacy.accounting.Release;

/**
 * A privacy ledger: datasets with budgets and the releases charged to them, kept in a store that outlives the
 * process (docs/ledger.md). Two stores: SQLite (a file path or {@code jdbc:sqlite:PATH}, the default) and
 * PostgreSQL ({@code jdbc:postgresql://HOST/DB}). Every method runs its own transaction; a charge is atomic and
 * serialised with every other charge on the same dataset, across processes and machines.
 *
 * <p>Composition: the spent total of a dataset is recomputed, at every charge and every report, by replaying the
 * stored costs into a fresh {@link org.dpgauss.privacy.accounting.PrivacyAccountant} with the dataset's relation
 * and budget, so the ledger applies exactly the accountant's rule.
 */
public interface Ledger extends AutoCloseable {

    /**
     * Opens an existing ledger; refuses a missing, foreign, damaged or newer-schema one.
     *
     * @param location a file path or {@code jdbc:sqlite:PATH} (SQLite), or {@code jdbc:postgresql:...}
     * @return the ledger
     * @throws LedgerException if it cannot be used (the message names the problem)
     */
    static Ledger open(String location) {
        return JdbcLedger.open(location, false);
    }

    /**
     * Opens a ledger, creating it first when absent: a new SQLite file with owner-only permissions, or the
     * tables in an empty PostgreSQL schema.
     *
     * @param location as {@link #open}
     * @return the ledger
     * @throws LedgerException if an existing store cannot be used
     */
    static Ledger openOrCreate(String location) {
        return JdbcLedger.open(location, true);
    }

    /** @return the store, in public words (a path, or a server and database without credentials) */
    String location();

    /**
     * Adds a dataset.
     *
     * @param name its name ({@link DatasetBudget#checkName})
     * @param relation the relation every release on it is stated under
     * @param budget its total budget; delta must be in (0, 1)
     * @return the dataset
     * @throws LedgerException if the name is taken
     */
    DatasetBudget createDataset(String name, NeighbouringRelation relation, ApproxDp budget);

    /**
     * @param name the dataset's name
     * @return the dataset
     * @throws LedgerException if there is none by that name
     */
    DatasetBudget dataset(String name);

    /** @return every dataset, by name */
    List<DatasetBudget> datasets();

    /**
     * @param dataset the dataset's name
     * @return its releases, in the order they were charged
     */
    List<LedgerEntry> entries(String dataset);

    /**
     * @param dataset the dataset's name
     * @return what its releases spend, composed by the accountant's rule from the stored costs
     */
    AccountingReport report(String dataset);

    /**
     * Charges one release in one transaction, or finds the stored release it repeats. Without {@code fresh}, a
     * completed release with the same mechanism, the same public parameters and the same noise security on this
     * dataset is returned as a replay and nothing is charged (asking again must not average the noise away). When
     * the only stored release of that query is still in flight (charged, not completed, charged less than the
     * replay wait ago: system property {@code dpgauss.ledger.replayWaitMs}, default 60 000), nothing is charged
     * yet: the call polls, outside any transaction, until that release completes and then replays it (PASS or
     * FAIL); if it does not complete within the wait it counts as abandoned and the query is charged afresh.
     *
     * @param dataset the dataset's name
     * @param mechanism the mechanism's name
     * @param parameters the public parameters in a canonical text form
     * @param insecure whether the noise comes from a seeded (insecure) source
     * @param cost the release's cost; its relation must be the dataset's
     * @param fresh charge again even if a stored release repeats the query
     * @return the charge, or the replay
     * @throws BudgetExceededException if it does not fit (nothing is recorded)
     * @throws LedgerException if the ledger cannot be used or the relation differs
     */
    Charge charge(String dataset, String mechanism, String parameters, boolean insecure, Release cost, boolean fresh);

    /**
     * Records the outcome of a charged release (public once released); the charge itself stands either way.
     *
     * @param charge a charge from {@link #charge} that is not a replay
     * @param status {@code PASS} or {@code FAIL}
     * @param outcome the released values in a text form the caller reads back on a replay
     */
    void complete(Charge charge, String status, String outcome);

    /**
     * Checks the store: the database's own integrity check, the schema, and for every dataset that its releases
     * are numbered without gaps, their statuses are valid, and that they compose within the budget.
     *
     * @return the problems found; empty when the ledger is sound
     */
    List<String> verify();

    @Override
    void close();
}
