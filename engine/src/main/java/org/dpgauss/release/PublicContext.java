package org.dpgauss.release;

import java.util.Objects;
import org.dpgauss.privacy.NeighbouringRelation;

/**
 * The public facts a mechanism may use to state its guarantee and parameters before it reads the data: the
 * dimension d, the neighbouring relation, the delta at which zCDP statements are converted, and n when the
 * relation makes it public (replace-one). Under add/remove, n is private and {@link #rows()} refuses.
 */
public final class PublicContext {

    private final int dimension;
    private final int rows;
    private final NeighbouringRelation relation;
    private final double delta;

    private PublicContext(int dimension, int rows, NeighbouringRelation relation, double delta) {
        this.dimension = dimension;
        this.rows = rows;
        this.relation = relation;
        this.delta = delta;
    }

    /**
     * @param data the dataset (only its public shape is kept: d, and n under replace-one)
     * @param relation the mechanism's neighbouring relation
     * @param delta the delta of stated {@code (epsilon, delta)} conversions, in {@code (0, 1)}
     * @return the context
     */
    public static PublicContext of(Dataset data, NeighbouringRelation relation, double delta) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(relation, "relation");
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta=" + delta + " is outside (0, 1)");
        }
        return new PublicContext(data.dimension(), relation == NeighbouringRelation.REPLACE_ONE ? data.size() : -1,
                relation, delta);
    }

    /**
     * The public facts of a dataset that has not been read: for planning and for stating a mechanism before the
     * data exist. Under add/remove, {@code rows} is not exposed (pass a public upper bound to the mechanism
     * instead).
     *
     * @param rows n (used only under replace-one)
     * @param dimension d
     * @param relation the mechanism's relation
     * @param delta the delta of stated conversions
     * @return the context
     */
    public static PublicContext forPlanning(int rows, int dimension, NeighbouringRelation relation, double delta) {
        Objects.requireNonNull(relation, "relation");
        if (rows < 1 || dimension < 1) {
            throw new IllegalArgumentException("n=" + rows + " and d=" + dimension + " must be >= 1");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta=" + delta + " is outside (0, 1)");
        }
        return new PublicContext(dimension, relation == NeighbouringRelation.REPLACE_ONE ? rows : -1, relation,
                delta);
    }

    /** @return the number of columns d */
    public int dimension() {
        return dimension;
    }

    /**
     * @return n, public under replace-one neighbours
     * @throws IllegalStateException under add/remove neighbours, where n is private
     */
    public int rows() {
        if (rows < 0) {
            throw new IllegalStateException("n is private under add/remove neighbours: a mechanism under that"
                    + " relation must not use it in its statement (use a public bound on n instead)");
        }
        return rows;
    }

    /** @return the neighbouring relation */
    public NeighbouringRelation relation() {
        return relation;
    }

    /** @return the delta at which zCDP statements are converted to {@code (epsilon, delta)} */
    public double delta() {
        return delta;
    }
}
