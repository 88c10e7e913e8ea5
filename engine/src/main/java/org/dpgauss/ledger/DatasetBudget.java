package org.dpgauss.ledger;

import java.util.Objects;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;

/**
 * A protected dataset as the ledger knows it: its name, the neighbouring relation every release on it is stated
 * under, and its total budget. Public facts only. Immutable.
 */
public final class DatasetBudget {

    private final String name;
    private final NeighbouringRelation relation;
    private final ApproxDp budget;
    private final String createdAt;

    DatasetBudget(String name, NeighbouringRelation relation, ApproxDp budget, String createdAt) {
        this.name = Objects.requireNonNull(name, "name");
        this.relation = Objects.requireNonNull(relation, "relation");
        this.budget = Objects.requireNonNull(budget, "budget");
        this.createdAt = Objects.requireNonNull(createdAt, "createdAt");
    }

    /** @return the dataset's name in the ledger */
    public String name() {
        return name;
    }

    /** @return the relation every release on it is stated under */
    public NeighbouringRelation relation() {
        return relation;
    }

    /** @return the total budget */
    public ApproxDp budget() {
        return budget;
    }

    /** @return when the dataset was created (ISO-8601 instant, UTC) */
    public String createdAt() {
        return createdAt;
    }

    /**
     * Checks a dataset name: 1 to 128 characters, letters, digits, {@code . _ -}, starting with a letter or digit.
     *
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException if it is not one
     */
    public static String checkName(String name) {
        if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}")) {
            throw new IllegalArgumentException("dataset name '" + name + "' is not valid: 1 to 128 letters, digits,"
                    + " '.', '_' or '-', starting with a letter or digit");
        }
        return name;
    }

    @Override
    public String toString() {
        return name + " [" + relation.id() + ", budget " + budget + "]";
    }
}
