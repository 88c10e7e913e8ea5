package org.dpgauss.secondmoment;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.mean.anisotropic.StableHistogram;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSource;

/**
 * Algorithm 4 of spec second-moment-estimation §2.5, the DP minimum-eigenvalue estimator: shuffle, split into
 * {@code T_sub = floor(n/m)} groups of {@code m} rows (the {@code n - m T_sub} leftover rows are dropped, §7.1 item
 * 10), compute each group's {@code lambda^t = lambda_min((1/m) sum_{x in group} x x^T)}, label it with its
 * geometric bucket {@code j = floor(ln lambda / ln q)}, {@code q = 1/(1-alpha)} (bucket {@code [q^j, q^(j+1))}; the
 * bucket {0} for {@code lambda <= 0}), release the bucket with the largest noisy count through the stability-based
 * histogram ({@link StableHistogram}: discrete Laplace of scale {@code 2/epsilon} on non-empty buckets, threshold
 * about {@code 1 + (2/epsilon) ln(1/delta)}) and return its lower edge {@code q^j}.
 *
 * <p><b>Guarantee:</b> {@code (epsilon, delta)}-DP under <b>replace-one</b> neighbours with public {@code n}: one
 * replaced row changes one group, hence one label (Thm B.3; the histogram's replace-one guarantee on labels).
 *
 * <p><b>Failure (bottom).</b> FAIL when no bucket passes the threshold, and also (spec §7.2 (a)) when the released
 * bucket is {0}: a zero lower bound cannot normalise the data. Accuracy (P9): with probability {@code >= 1 - xi}
 * under Thm B.3's conditions, the result lies in {@code [(1-alpha)^2 lambda_min, (1+alpha) lambda_min]} (the
 * bucket's lower edge can be a factor {@code 1-alpha} below the bucket of a {@code (1-alpha)}-accurate value, §2.5).
 *
 * <p><b>As passes.</b> The shuffle is drawn before the data are read and the groups are formed by a selection of
 * the rows ({@link RowSource#select}), so the estimate is the same on rows in memory and on a cluster
 * ({@link #estimate(RowSource, RandomSource)}).
 *
 * <p>It is a sub-step of {@link RecursiveSecondMoment}, whose guarantee composes {@link #step} with the main
 * mechanism through the accountant; its output is released only through that method. Immutable.
 */
public final class MinEigenvalueEstimator {

    /** Label of the {0} bucket. */
    static final long ZERO_BUCKET = Long.MIN_VALUE;

    private final int m;
    private final double alpha;
    private final double epsilon;
    private final double delta;
    private final StableHistogram histogram;

    private MinEigenvalueEstimator(int m, double alpha, double epsilon, double delta) {
        this.m = m;
        this.alpha = alpha;
        this.epsilon = epsilon;
        this.delta = delta;
        this.histogram = StableHistogram.of(epsilon, delta);
    }

    /**
     * @param m group size, {@code >= 1} (use {@code m >= d}: smaller groups are singular and fall in bucket {0})
     * @param alpha bucket ratio parameter, {@code q = 1/(1-alpha)}, in {@code (0, 1/2]}
     * @param epsilon privacy parameter, in {@code [2^-26, 2^16]}
     * @param delta privacy parameter, in {@code (0, 1)}
     * @return the estimator
     */
    public static MinEigenvalueEstimator of(int m, double alpha, double epsilon, double delta) {
        if (m < 1) {
            throw new IllegalArgumentException("group size m=" + m + " is outside [1, inf): each group's second"
                    + " moment needs rows");
        }
        if (!(alpha > 0 && alpha <= 0.5)) {
            throw new IllegalArgumentException("alpha=" + alpha + " is outside (0, 1/2]: the buckets are"
                    + " [q^j, q^(j+1)) with q = 1/(1-alpha)");
        }
        ApproxDp.of(epsilon, delta); // validates the pair
        return new MinEigenvalueEstimator(m, alpha, epsilon, delta);
    }

    /** @return the bucket ratio {@code q = 1/(1-alpha)} */
    public double ratio() {
        return 1.0 / (1.0 - alpha);
    }

    /**
     * @param lambda a group's minimum eigenvalue
     * @return its bucket label: {@code floor(ln lambda / ln q)}, or {@link #ZERO_BUCKET} for {@code lambda <= 0}
     *         (or below the smallest normal double)
     */
    long bucket(double lambda) {
        if (!(lambda >= Double.MIN_NORMAL)) {
            return ZERO_BUCKET;
        }
        double q = ratio();
        long j = (long) Math.floor(Math.log(lambda) / Math.log(q));
        // the logarithms are rounded: move j so that q^j <= lambda < q^(j+1) holds for the computed powers
        while (Math.pow(q, j) > lambda) {
            j--;
        }
        while (Math.pow(q, j + 1) <= lambda) {
            j++;
        }
        return j;
    }

    /**
     * @param j a bucket label
     * @return its lower edge {@code q^j} (0 for {@link #ZERO_BUCKET})
     */
    double lowerEdge(long j) {
        return j == ZERO_BUCKET ? 0.0 : Math.pow(ratio(), j);
    }

    /**
     * Runs Algorithm 4 on rows in memory ({@link #estimate(RowSource, RandomSource)} in their default layout).
     *
     * @param x the rows, finite, {@code n >= m}
     * @param random shuffle and noise randomness
     * @param engine the compute engine (group Grams, eigenvalues)
     * @return {@code lambda~ > 0}, or NaN for FAIL (bottom)
     */
    double estimate(RowBlockMatrix x, RandomSource random, ComputeEngine engine) {
        return estimate(LocalRows.of(x, engine), random);
    }

    /**
     * Runs Algorithm 4 as one selection and one pass: the caller's machine draws the shuffle (Fisher-Yates over the
     * positions, before any data are read), the first {@code m T_sub} shuffled rows are moved into blocks of whole
     * groups ({@link #groupLayout}), each block computes its groups' {@code lambda^t} with the engine's Gram of the
     * group's rows in shuffled order and its eigensolver (the values the engine computes on the rows in memory), and
     * the caller's machine labels them and draws the histogram's noise.
     *
     * @param x the rows, finite (already clipped to the public radius by the caller if required for privacy; Alg 4
     *        itself needs no bound), {@code n >= m} (public; the caller checks it before reading the data)
     * @param random shuffle and noise randomness
     * @return {@code lambda~ > 0}, or NaN for FAIL (bottom)
     */
    double estimate(RowSource x, RandomSource random) {
        Objects.requireNonNull(random, "random");
        int n = Math.toIntExact(x.rows());
        int groups = n / m;
        if (groups < 1) {
            throw new IllegalArgumentException("n=" + n + " rows is below the group size m=" + m + ": Algorithm 4"
                    + " needs at least one group of m rows");
        }
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        for (int i = n - 1; i > 0; i--) { // Fisher-Yates
            int k = random.nextInt(i + 1);
            int tmp = perm[i];
            perm[i] = perm[k];
            perm[k] = tmp;
        }
        double[] lambdas = groupMinima(x, perm, groups);
        long[] labels = new long[groups];
        for (int t = 0; t < groups; t++) {
            labels[t] = bucket(lambdas[t]);
        }
        StableHistogram.Result r = histogram.release(labels, random);
        if (r.isFail() || r.bin() == ZERO_BUCKET) {
            return Double.NaN;
        }
        return lowerEdge(r.bin());
    }

    /**
     * @param x the rows
     * @param order the shuffled positions (the first {@code groups m} form the groups, m at a time)
     * @param groups {@code T_sub}
     * @return {@code lambda_min((1/m) sum_{x in group} x x^T)} of each group, in group order
     */
    double[] groupMinima(RowSource x, int[] order, int groups) {
        int size = m;
        RowSource grouped = x.select(java.util.Arrays.copyOf(order, groups * m), groupLayout(x.layout(), m));
        try {
            return grouped.reduce((index, block, engine) -> groupMinima(block, size, engine),
                    MinEigenvalueEstimator::concat);
        } finally {
            grouped.discard();
        }
    }

    /**
     * @param layout the rows' layout
     * @param m the group size
     * @return blocks of whole groups: the largest multiple of m rows within a block of {@code layout} (at least m),
     *         the same blocks per group
     */
    static RowLayout groupLayout(RowLayout layout, int m) {
        return RowLayout.of(Math.max(1, layout.blockRows() / m) * m, layout.blocksPerGroup());
    }

    /** {@code lambda_min((1/m) sum_{x in group} x x^T)} of each group of m consecutive rows of a block. */
    private static double[] groupMinima(RowBlockMatrix block, int m, ComputeEngine engine) {
        double[] out = new double[block.rows() / m];
        int[] rows = new int[m];
        for (int t = 0; t < out.length; t++) {
            for (int k = 0; k < m; k++) {
                rows[k] = t * m + k;
            }
            out[t] = engine.symmetricEigen(engine.weightedGram(block, rows, null, m)).value(0);
        }
        return out;
    }

    private static double[] concat(double[] acc, double[] next) {
        if (acc == null) {
            return next;
        }
        double[] out = java.util.Arrays.copyOf(acc, acc.length + next.length);
        System.arraycopy(next, 0, out, acc.length, next.length);
        return out;
    }

    /** @return {@code (epsilon, delta)}-DP, replace-one */
    public ApproxDp approxDp() {
        return ApproxDp.of(epsilon, delta);
    }

    /**
     * @param name the step's name in the composed statement
     * @return this estimator as one sub-step of a composition: {@code (epsilon, delta)}-DP, replace-one
     */
    public Release step(String name) {
        return Release.approxDp(name, NeighbouringRelation.REPLACE_ONE, approxDp());
    }

    /** @return the group size m */
    public int groupSize() {
        return m;
    }
}
