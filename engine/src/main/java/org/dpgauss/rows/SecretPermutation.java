package org.dpgauss.rows;

import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;

/**
 * The secret, uniformly random order in which a mechanism that pairs, splits or groups rows by position reads them
 * (issue 24, item 4; docs/design/secret-row-order.md). The rows' own order (the file's, or the id order on Spark) is
 * a function of the data: a replaced record that sorts elsewhere shifts every later row, so pairing rows
 * {@code i} and {@code i + m} of that order pairs different rows on two neighbours, and the replace-one analysis of
 * the papers (neighbours differ in <em>one position</em>) does not apply. Reading the rows through a uniform
 * permutation {@code pi} drawn from the release's noise source first makes the release a function of the
 * <em>multiset</em> of rows: for any two orders of the same rows the permuted tuples have the same law, and for two
 * datasets that differ in one record (wherever it sorts) a coupling of the permutations gives permuted tuples that
 * differ in exactly one position, so the papers' replace-one guarantee holds for "differ in one record, in any
 * position".
 *
 * <p><b>Draw.</b> Fisher-Yates over {@code 0..n-1} with exact uniform integers ({@link RandomSource#nextInt(int)}:
 * no modulo bias), so every one of the {@code n!} orders has probability exactly {@code 1/n!} given the keystream.
 * The integers come from a ChaCha20 keystream keyed with 256 bits read from the release's source (SecureRandom in
 * production; a seeded source only behind {@code --insecure-seed}, which makes the order reproducible): n - 1
 * draws straight from SecureRandom would cost seconds at n = 1e7 (design record chacha20-keystream). The key is
 * zeroed after the draw and the order is never logged.
 *
 * <p><b>On a cluster.</b> The order is applied with {@link RowSource#select(int[], RowLayout)} in the rows' own
 * layout, the selection both implementations already share bit for bit (one shuffle on Spark; the driver holds the
 * n positions, as for subsample-and-aggregate's partition), so a release on Spark has the single-machine bits for a
 * seed.
 */
public final class SecretPermutation {

    private SecretPermutation() {
    }

    /**
     * A uniform permutation of {@code 0..n-1}.
     *
     * @param n the number of rows, {@code 1 <= n <= 2^31 - 1}
     * @param random the release's noise source (4 longs are read from it: the keystream's key)
     * @return {@code pi}: the permuted rows are the rows at positions {@code pi[0], pi[1], ...}
     * @throws IllegalArgumentException if n is outside {@code [1, 2^31 - 1]}
     */
    public static int[] draw(long n, RandomSource random) {
        Objects.requireNonNull(random, "random");
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a row order is drawn for 1 to 2^31-1 rows, not " + n);
        }
        RandomSource stream = RandomSource.chaCha20KeyedFrom(random);
        int[] perm = new int[(int) n];
        for (int i = 0; i < perm.length; i++) {
            perm[i] = i;
        }
        for (int i = perm.length - 1; i > 0; i--) {
            int j = stream.nextInt(i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        return perm;
    }

    /**
     * The rows in a secret order: {@code rows.select(draw(n, random), rows.layout())}.
     *
     * @param rows the rows (in their own, data-dependent order)
     * @param random the release's noise source
     * @return the permuted rows in the same layout (held like a selection; {@link RowSource#discard} frees them)
     */
    public static RowSource apply(RowSource rows, RandomSource random) {
        Objects.requireNonNull(rows, "rows");
        return rows.select(draw(rows.rows(), random), rows.layout());
    }

    /**
     * The rows of a matrix in a secret order, with the draws of {@link #apply(RowSource, RandomSource)}.
     *
     * @param x the rows
     * @param random the release's noise source
     * @return a new matrix holding the rows at positions {@code pi[0], pi[1], ...}
     */
    public static RowBlockMatrix apply(RowBlockMatrix x, RandomSource random) {
        Objects.requireNonNull(x, "x");
        return x.selectRows(draw(x.rows(), random));
    }
}
