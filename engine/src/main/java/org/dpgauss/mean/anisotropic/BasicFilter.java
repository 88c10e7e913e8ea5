package org.dpgauss.mean.anisotropic;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;

/**
 * FriendlyCore's BasicFilter with slack {@code alpha = 0} (spec anisotropic-mean-estimation §3.1, [62] Alg. 4.3)
 * for the predicate {@code f(y, y') = 1{||y - y'||_2 <= lambda}} on already-mapped rows
 * ({@code y = M^{-1/4} x}, see {@link RescaledAveraging}).
 *
 * <p>With {@code c_j = #{k in [n] : ||y_j - y_k|| <= lambda}} (self included) the keep probability is
 * {@code p_j = clamp(2 c_j / n - 1, 0, 1)} (spec §3.1 [D]); {@code v_j ~ Bernoulli(p_j)} independently. The
 * Bernoulli draws are exact: {@code v_j = 1} iff a uniform integer on {@code [0, n)} is below {@code 2 c_j - n}.
 *
 * <p>The counts come from {@link ComputeEngine#neighbourCounts(RowBlockMatrix, double)} (tiled, never n x n in
 * memory; spec §8), so a GPU backend accelerates the dominant {@code O(n^2 d)} kernel. Stateless.
 */
public final class BasicFilter {

    private BasicFilter() {
    }

    /**
     * The exact keep probability {@code p_j = clamp(2 c_j - n, 0, n) / n} as its numerator over n.
     *
     * @param count {@code c_j}, in {@code [1, n]} (self included)
     * @param n the number of rows, {@code >= 1}
     * @return {@code clamp(2 c_j - n, 0, n)}
     */
    public static long keepNumerator(int count, int n) {
        LambdaRule.checkRows(n);
        if (count < 1 || count > n) {
            // the count is private: not in the message (issue 24, item 2)
            throw new IllegalArgumentException("a neighbour count is outside [1, n=" + n + "]: every row"
                    + " is its own neighbour and there are n rows");
        }
        long z = 2L * count - n;
        return Math.max(0L, Math.min(z, n));
    }

    /**
     * @param count {@code c_j}
     * @param n the number of rows
     * @return {@code p_j = clamp(2 c_j / n - 1, 0, 1)} as a double (informational; sampling is exact)
     */
    public static double keepProbability(int count, int n) {
        return keepNumerator(count, n) / (double) n;
    }

    /**
     * Runs the filter.
     *
     * @param y the mapped rows (n x d), finite
     * @param lambda the radius, finite and {@code >= 0}
     * @param engine the compute engine for the neighbour counts
     * @param random the source of the Bernoulli draws
     * @return {@code v}: {@code v[j]} true iff row j is kept
     */
    public static boolean[] run(RowBlockMatrix y, double lambda, ComputeEngine engine, RandomSource random) {
        Objects.requireNonNull(y, "rows");
        Objects.requireNonNull(engine, "compute engine");
        Objects.requireNonNull(random, "random source");
        int[] counts = engine.neighbourCounts(y, lambda);
        return sample(counts, random);
    }

    /** The Bernoulli step for given counts (one draw per row, in row order, also when p_j is 0 or 1). */
    static boolean[] sample(int[] counts, RandomSource random) {
        int n = counts.length;
        boolean[] keep = new boolean[n];
        for (int j = 0; j < n; j++) {
            long num = keepNumerator(counts[j], n);
            keep[j] = random.nextInt(n) < num;
        }
        return keep;
    }
}
