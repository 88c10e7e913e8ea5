package org.dpgauss.linalg;

import java.util.Arrays;

/**
 * The set returned by LargestGoodSubset peeling, with the number of peeling rounds it took
 * (a round computes one Gram, one Cholesky and the norms of the active rows).
 */
public final class GoodSubset {

    private final boolean[] members;
    private final int size;
    private final int rounds;

    public GoodSubset(boolean[] members, int rounds) {
        this.members = members.clone();
        int s = 0;
        for (boolean b : members) {
            if (b) {
                s++;
            }
        }
        this.size = s;
        this.rounds = rounds;
    }

    /** Membership by row (a copy). */
    public boolean[] members() {
        return members.clone();
    }

    public boolean contains(int row) {
        return members[row];
    }

    public int size() {
        return size;
    }

    public int rounds() {
        return rounds;
    }

    /** Member rows in increasing order. */
    public int[] indices() {
        return indicesOf(members);
    }

    /** The indices i with {@code s[i]} true, in increasing order (the active rows of a peeling round). */
    public static int[] indicesOf(boolean[] s) {
        int c = 0;
        for (boolean b : s) {
            if (b) {
                c++;
            }
        }
        int[] idx = new int[c];
        int k = 0;
        for (int i = 0; i < s.length; i++) {
            if (s[i]) {
                idx[k++] = i;
            }
        }
        return idx;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GoodSubset && Arrays.equals(members, ((GoodSubset) o).members);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(members);
    }

    @Override
    public String toString() {
        return "GoodSubset[" + size + " of " + members.length + " rows, " + rounds + " rounds]";
    }
}
