package org.dpgauss.mechanism;

import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;

/**
 * The public maximum N of rows both NDIS mechanisms' sensitivities rest on (spec ndis §11.2: n in Props. 7–8 is a
 * public upper bound on the dataset size), enforced by construction (issue 24, item 5): a dataset of more than N
 * rows is brought into the domain by keeping a <b>secret, uniformly random subset of N rows</b>, drawn from the
 * release's own noise source; a dataset of at most N rows is used whole. No error ever depends on the number of
 * rows, and neither the subset nor whether one was drawn leaves the mechanism.
 *
 * <p><b>What the guarantee covers.</b> For two add/remove neighbours of at most N rows each, the map is the identity
 * and the mechanism's (epsilon, delta) holds as stated. If the larger neighbour has more than N rows, the two kept
 * subsets can be coupled so that they are equal or differ by one replaced row (drop the added row if it was kept,
 * and one uniformly random other row of the smaller dataset otherwise), i.e. by two add/remove steps within the
 * domain; group privacy then gives {@code (2 epsilon, (1 + e^epsilon) delta)} for such pairs. No map into datasets
 * of at most N rows can do better for every pair: for a dataset of N + 1 distinct rows, a map whose image is always
 * an add/remove neighbour of each of its N + 1 subsets of size N would have to keep a row common to all of them,
 * and there is none. The guarantee's description says so; choose N above the largest dataset you may hold.
 *
 * <p>The column count is a public fact checked in the mechanisms' statements, not here.
 */
final class LabelledRows {

    private LabelledRows() {
    }

    /**
     * The rows a release uses: all of them in order when there are at most N, else a uniformly random N of them
     * (partial Fisher–Yates on the row indices, from {@code random}), in increasing index order.
     *
     * @param m the data
     * @param maxRows the public maximum N
     * @param random the release's noise source (a secret subset); used only when there are more than N rows
     * @return the indices of the rows to use
     */
    static int[] kept(RowBlockMatrix m, int maxRows, RandomSource random) {
        int n = m.rows();
        if (n <= maxRows) {
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            return all;
        }
        Objects.requireNonNull(random, "random");
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        for (int i = 0; i < maxRows; i++) {
            int j = i + random.nextInt(n - i);
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        int[] keep = java.util.Arrays.copyOf(idx, maxRows);
        java.util.Arrays.sort(keep); // the kept rows in their original order (the set is what is random)
        return keep;
    }

    /** The guarantee's note on the row maximum, for both mechanisms' descriptions. */
    static String note(int maxRows) {
        return "a dataset of more than N=" + maxRows + " rows is reduced to a secret uniformly random N of them;"
                + " for neighbours one of which has more than N rows the bound is that of two add/remove steps,"
                + " (2 epsilon, (1 + e^epsilon) delta)";
    }
}
