package org.dpgauss.mean.anisotropic;

import java.util.Arrays;
import java.util.Objects;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.DiscreteLaplace;
import org.dpgauss.privacy.noise.NoiseGrid;

/**
 * Algorithm 6 of spec anisotropic-mean-estimation §4.6, the stability-based histogram: count the values per bin,
 * add Laplace noise to the NON-EMPTY bins only, return the bin with the largest noisy count if it reaches the
 * threshold {@code tau}, otherwise {@link Result#FAIL} (bottom). Ties go to the smallest bin (§9 A14).
 *
 * <p><b>Privacy.</b> {@code (epsilon, delta)}-DP under {@link NeighbouringRelation#REPLACE_ONE}: datasets of
 * {@code m} labelled values (public {@code m}) that differ in one value (Lemma A.2). Replacing one value moves one
 * unit of count between two bins (L1 sensitivity 2, hence scale {@code 2/epsilon}); a bin that exists on one side
 * only has count 1 and passes the threshold with probability at most {@code delta/2}.
 *
 * <p><b>Noise.</b> Discrete Laplace (CKS20, {@link DiscreteLaplace}) on the power-of-two grid
 * {@code g = min(1, NoiseGrid.spacing(2/epsilon))}: counts are exact grid points, {@code t = ceil((2/epsilon)/g)},
 * so the effective scale {@code g t >= 2/epsilon} (shift of 2 counts costs {@code 2/(g t) <= epsilon}). The
 * threshold is {@code tau' = 1 + g K} with {@code K = ceil(t ln(2/(delta(1+q)))) + 1}, {@code q = e^{-1/t}}, so
 * that {@code Pr[Z >= K] = q^K/(1+q) < delta/2} for the discrete noise (the +1 absorbs rounding of the logarithm);
 * for large {@code t} this is the paper's {@code tau = 1 + 2 log(1/delta)/epsilon} up to one grid step. All comparisons are exact integer comparisons. Immutable.
 */
public final class StableHistogram {

    private final double epsilon;
    private final double delta;
    private final double grid;
    private final long unit;
    private final long scale;
    private final long thresholdIndex;

    private StableHistogram(double epsilon, double delta) {
        this.epsilon = epsilon;
        this.delta = delta;
        double b = 2.0 / epsilon;
        this.grid = Math.min(1.0, NoiseGrid.spacing("2/epsilon", b));
        this.unit = Math.round(1.0 / grid); // exact: grid is a power of two <= 1
        this.scale = NoiseGrid.integerScale("2/epsilon", b, grid);
        double q = Math.exp(-1.0 / scale);
        long k = (long) Math.ceil(scale * Math.log(2.0 / (delta * (1 + q)))) + 1;
        this.thresholdIndex = unit + k;
    }

    /**
     * @param epsilon privacy parameter, in {@code [2^-26, 2^16]}
     * @param delta privacy parameter, in {@code (0, 1)}
     * @return the mechanism
     */
    public static StableHistogram of(double epsilon, double delta) {
        return new StableHistogram(SubroutineParams.epsilon("epsilon", epsilon),
                SubroutineParams.delta("delta", delta));
    }

    /** @return the effective Laplace scale {@code g t >= 2/epsilon}, in counts */
    public double noiseScale() {
        return grid * scale;
    }

    /** @return the effective threshold {@code tau' = 1 + g K}, in counts */
    public double threshold() {
        return grid * thresholdIndex;
    }

    /**
     * The concrete sufficient condition of §4.6 [R] for the accuracy of Lemma A.2, with the effective scale
     * {@code b} and threshold {@code tau'}: {@code m/5 >= 2 b ln(m/beta)} and {@code 2m/5 >= tau' + b ln(m/beta)}.
     * Under it, if one bin holds {@code >= 2m/5} of the values and every bin outside the (at most two) bins of the
     * good interval holds {@code <= m/5}, then with probability {@code >= 1 - beta} the output is one of the good
     * bins. Public {@code m}, so checking costs no privacy.
     *
     * @param m the number of values, {@code >= 1}
     * @param beta failure probability in {@code (0, 1)}
     * @return whether the condition holds
     */
    public boolean meetsAccuracyCondition(int m, double beta) {
        if (m < 1) {
            throw new IllegalArgumentException("m=" + m + " must be >= 1: the histogram needs values");
        }
        SubroutineParams.beta(beta);
        double b = noiseScale();
        double tail = b * Math.log(m / beta);
        return m / 5.0 >= 2 * tail && 2.0 * m / 5.0 >= threshold() + tail;
    }

    /**
     * Runs Algorithm 6 on the bin labels of the {@code m} values.
     *
     * @param bins the bin of each value (e.g. {@link Base4Bins#index}), length {@code m >= 1}; any longs
     * @param random the noise source, not null ({@link RandomSource#insecureSeeded} only in tests)
     * @return the released bin, or {@link Result#FAIL}
     */
    public Result release(long[] bins, RandomSource random) {
        Objects.requireNonNull(random, "random");
        if (bins == null || bins.length == 0) {
            throw new IllegalArgumentException("bins has length " + (bins == null ? "null" : "0")
                    + ": the histogram needs m >= 1 values");
        }
        long[] sorted = bins.clone();
        Arrays.sort(sorted);
        // runs of equal labels = the non-empty bins, in ascending order
        java.util.TreeMap<Long, Long> counts = new java.util.TreeMap<>();
        for (int i = 0; i < sorted.length;) {
            int j = i;
            while (j < sorted.length && sorted[j] == sorted[i]) {
                j++;
            }
            counts.put(sorted[i], (long) (j - i));
            i = j;
        }
        return release(counts, random);
    }

    /**
     * Algorithm 6 on the counts of the non-empty bins (what {@link #release(long[], RandomSource)} computes from the
     * labels; a row pass adds them up per block), with the same noise draws in the same order.
     *
     * @param counts the count of each non-empty bin (each {@code >= 1}), at least one bin
     * @param random the noise source, not null
     * @return the released bin, or {@link Result#FAIL}
     */
    public Result release(java.util.SortedMap<Long, Long> counts, RandomSource random) {
        Objects.requireNonNull(random, "random");
        if (counts == null || counts.isEmpty()) {
            throw new IllegalArgumentException("the histogram needs m >= 1 values, got no bins");
        }
        DiscreteLaplace noise = DiscreteLaplace.withScale(scale);
        long best = 0;
        long bestNoisy = Long.MIN_VALUE;
        // the non-empty bins in ascending order: strict '>' keeps the smallest on ties
        for (java.util.Map.Entry<Long, Long> e : counts.entrySet()) {
            long c = e.getValue();
            if (c < 1) {
                throw new IllegalArgumentException("a bin has a count below 1: only non-empty bins are listed");
            }
            long noisy = c * unit + noise.sample(random);
            if (noisy > bestNoisy) {
                bestNoisy = noisy;
                best = e.getKey();
            }
        }
        return bestNoisy >= thresholdIndex ? new Result(best) : Result.FAIL;
    }

    /**
     * @return {@code (epsilon, delta)}-DP, replace-one on the values (the recipe's certification; the random
     *         source is judged where a release is assembled, {@link org.dpgauss.release.Releases})
     */
    public PrivacyGuarantee guarantee() {
        return PrivacyGuarantee.approxDp(NeighbouringRelation.REPLACE_ONE, ApproxDp.of(epsilon, delta),
                true, "stable histogram (Algorithm 6, spec anisotropic-mean-estimation §4.6,"
                        + " Lemma A.2), replace-one of one value, discrete Laplace scale " + noiseScale()
                        + ", threshold " + threshold());
    }

    /** The output of {@link #release}: a bin, or {@link #FAIL} carrying nothing. Immutable. */
    public static final class Result {

        /** Bottom: no bin, no counts. */
        public static final Result FAIL = new Result(0);

        private final long bin;

        private Result(long bin) {
            this.bin = bin;
        }

        /** @return true for bottom */
        public boolean isFail() {
            return this == FAIL;
        }

        /**
         * @return the released bin
         * @throws IllegalStateException on {@link #FAIL}
         */
        public long bin() {
            if (isFail()) {
                throw new IllegalStateException("the stable histogram failed (bottom): there is no bin");
            }
            return bin;
        }

        @Override
        public String toString() {
            return isFail() ? "FAIL" : "bin " + bin;
        }
    }
}
