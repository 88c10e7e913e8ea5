package org.dpgauss.ledger;

import java.util.Optional;

/**
 * The result of {@link Ledger#charge}: either a new entry, charged and waiting for its outcome
 * ({@link Ledger#complete}), or a replay of a stored release of the same query, at no cost. Immutable.
 */
public final class Charge {

    private final String dataset;
    private final long entryId;
    private final LedgerEntry replayOf;

    Charge(String dataset, long entryId, LedgerEntry replayOf) {
        this.dataset = dataset;
        this.entryId = entryId;
        this.replayOf = replayOf;
    }

    /** @return the dataset charged */
    public String dataset() {
        return dataset;
    }

    /** @return the new entry's id; -1 for a replay */
    public long entryId() {
        return entryId;
    }

    /** @return the stored release this query repeats, if it is a replay (nothing was charged) */
    public Optional<LedgerEntry> replayOf() {
        return Optional.ofNullable(replayOf);
    }
}
