package org.dpgauss.ledger;

import java.util.Objects;
import org.dpgauss.privacy.accounting.Release;

/**
 * One release recorded on a dataset: when it was charged, which mechanism with which public parameters, its cost
 * in the form the accountant composes, and its status ({@code charged} until it completes, then {@code PASS} or
 * {@code FAIL}; a charge whose process died stays {@code charged}: it may have read the data). Immutable.
 */
public final class LedgerEntry {

    /** Status of a charge whose release has not completed (running, failed with an error, or killed). */
    public static final String CHARGED = "charged";

    private final long id;
    private final long sequence;
    private final String chargedAt;
    private final String mechanism;
    private final String parameters;
    private final boolean insecure;
    private final Release cost;
    private final String status;
    private final String outcome;

    LedgerEntry(long id, long sequence, String chargedAt, String mechanism, String parameters, boolean insecure,
            Release cost, String status, String outcome) {
        this.id = id;
        this.sequence = sequence;
        this.chargedAt = Objects.requireNonNull(chargedAt);
        this.mechanism = Objects.requireNonNull(mechanism);
        this.parameters = Objects.requireNonNull(parameters);
        this.insecure = insecure;
        this.cost = Objects.requireNonNull(cost);
        this.status = Objects.requireNonNull(status);
        this.outcome = outcome;
    }

    /** @return the entry's key in the store */
    public long id() {
        return id;
    }

    /** @return its position among the dataset's releases, from 1 */
    public long sequence() {
        return sequence;
    }

    /** @return when it was charged (ISO-8601 instant, UTC; the time of the charge, not of the computation) */
    public String chargedAt() {
        return chargedAt;
    }

    /** @return the mechanism's name */
    public String mechanism() {
        return mechanism;
    }

    /** @return the public parameters, in their canonical text form */
    public String parameters() {
        return parameters;
    }

    /** @return whether the noise came from a seeded (insecure) source */
    public boolean insecure() {
        return insecure;
    }

    /** @return the cost, as the accountant composes it */
    public Release cost() {
        return cost;
    }

    /** @return {@link #CHARGED}, {@code PASS} or {@code FAIL} */
    public String status() {
        return status;
    }

    /** @return the released values in the store's text form (public once released), null while charged */
    public String outcome() {
        return outcome;
    }
}
