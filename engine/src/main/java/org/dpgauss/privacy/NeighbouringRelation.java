package org.dpgauss.privacy;

import java.util.Locale;

/**
 * Which pairs of datasets count as neighbours. A privacy guarantee is meaningless without it: the same mechanism
 * can have different parameters under the two relations (for example a mean over a known {@code n} has half the
 * L2 sensitivity under add/remove of what it has under replace-one, while a mean whose {@code n} is itself
 * private needs add/remove reasoning). Every reported guarantee therefore carries its relation.
 */
public enum NeighbouringRelation {

    /** Datasets of equal size that differ in exactly one row ("bounded" DP). */
    REPLACE_ONE("replace-one", "replace-one: datasets of equal size differing in one row"),

    /** One dataset equals the other with one extra row ("unbounded" DP). */
    ADD_REMOVE("add-remove", "add/remove: one dataset has one extra row");

    private final String id;
    private final String description;

    NeighbouringRelation(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** @return the stable identifier used in JSON output and on the command line, e.g. {@code replace-one} */
    public String id() {
        return id;
    }

    /** @return a one-line human description, e.g. {@code replace-one: datasets of equal size differing in one row} */
    public String description() {
        return description;
    }

    /**
     * Parses an identifier as produced by {@link #id()}; the enum constant name ({@code REPLACE_ONE}) and
     * underscores/case variants are accepted too.
     *
     * @param text the identifier
     * @return the relation
     * @throws IllegalArgumentException listing the accepted values if {@code text} matches none
     */
    public static NeighbouringRelation fromId(String text) {
        if (text != null) {
            String norm = text.trim().toLowerCase(Locale.ROOT).replace('_', '-').replace('/', '-');
            for (NeighbouringRelation r : values()) {
                if (r.id.equals(norm)) {
                    return r;
                }
            }
        }
        throw new IllegalArgumentException("neighbouring relation '" + text
                + "' is unknown: expected one of replace-one, add-remove");
    }
}
