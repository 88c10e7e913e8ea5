package org.dpgauss.mean;

import java.util.Objects;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.dpgauss.linalg.L2Clip;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.rows.RowSource;

/**
 * A private radius below a public cap, by the noisy histogram of distances of {@link AutoClippedGaussianMean} (the
 * engine of {@code mean --clip auto}), on a finer geometric grid: used where a clipping radius decides the noise
 * (private PCA, whose noise scales with R^2, issue 26).
 *
 * <p><b>Rule.</b> The grid has {@code B = octaves * steps + 1} buckets; bucket b holds the distances in
 * {@code (e_{b-1}, e_b]} with edges {@code e_b = cap * 2^((b - B + 1) / steps)} (bucket 0 also holds every distance
 * up to its edge, the last every distance above {@code e_{B-2}}, the cap's bucket, so a row beyond the cap, even an
 * infinite distance, counts there). Replacing one row moves one count down and another up: L2 sensitivity
 * {@code sqrt 2}; discrete Gaussian noise of integer scale {@code s = ceil(max(1, 1/sqrt(rho)))} on every count is
 * {@code 1/s^2 <= rho}-zCDP (Canonne, Kamath &amp; Steinke 2020, Thm. 14). The radius is the edge {@code e_b*} of
 * the largest bucket whose noisy count exceeds {@code T = s z}, z the {@code 1 - beta/B} normal quantile (an empty
 * bucket passes with probability at most {@code beta/B}); if none does, no radius (NaN, a DP outcome: the caller
 * states what follows). The radius is a function of the noisy counts only: a released value.
 *
 * <p>Immutable; the public parameters are the cap, the grid and rho.
 */
public final class PrivateRadius {

    /** Probability that an empty bucket is taken for data, summed over the buckets. */
    public static final double BETA = AutoClippedGaussianMean.BETA;

    private final double cap;
    private final int octaves;
    private final int steps;
    private final Zcdp rho;

    private PrivateRadius(double cap, int octaves, int steps, Zcdp rho) {
        this.cap = cap;
        this.octaves = octaves;
        this.steps = steps;
        this.rho = rho;
    }

    /**
     * @param cap the public cap: the largest radius, finite and &gt; 0
     * @param octaves the grid spans {@code cap * 2^-octaves .. cap}, 1..200
     * @param steps buckets per octave (factor {@code 2^(1/steps)} between edges), 1..64
     * @param rho the zCDP budget of the histogram, rho &gt; 0
     * @return the finder
     */
    public static PrivateRadius of(double cap, int octaves, int steps, Zcdp rho) {
        L2Clip.checkRadius("radius cap", cap);
        Objects.requireNonNull(rho, "rho");
        if (!(rho.rho() > 0)) {
            throw new IllegalArgumentException("rho=" + rho.rho() + " must be > 0");
        }
        if (octaves < 1 || octaves > 200 || steps < 1 || steps > 64) {
            throw new IllegalArgumentException("the radius grid needs 1 <= octaves <= 200 and 1 <= steps <= 64");
        }
        return new PrivateRadius(cap, octaves, steps, rho);
    }

    /** @return the number of buckets B */
    public int buckets() {
        return octaves * steps + 1;
    }

    /** @return the integer noise scale s of every count */
    public double sigma() {
        return Math.ceil(Math.max(1.0, 1.0 / Math.sqrt(rho.rho())));
    }

    /** @return the count T a bucket's noisy count must exceed to be taken as data */
    public double threshold() {
        double z = NormalDistribution.of(0, 1).inverseSurvivalProbability(BETA / buckets());
        return sigma() * z;
    }

    /** @return the cap */
    public double cap() {
        return cap;
    }

    /** @param b a bucket index @return its upper edge, {@code cap * 2^((b - B + 1) / steps)} */
    public double edge(int b) {
        return edge(b, cap, steps, buckets() - 1);
    }

    private static double edge(int b, double cap, int steps, int last) {
        return cap * Math.pow(2.0, (b - last) / (double) steps);
    }

    /** @param r a distance (any double) @return its bucket, in [0, B) */
    int bucket(double r) {
        return bucket(r, cap, steps, buckets() - 1);
    }

    // static, capturing only numbers: the row pass may travel to a cluster's executors
    private static int bucket(double r, double cap, int steps, int last) {
        if (!(r > 0)) {
            return 0;
        }
        if (!(r < cap)) {
            return last;
        }
        // smallest b with r <= e_b; the logarithm's rounding only moves a row at an edge by one bucket, a public
        // deterministic function of the row either way
        double t = Math.ceil(steps * (Math.log(r) - Math.log(cap)) / Math.log(2.0));
        int b = (int) Math.max(0, Math.min(last, t + last));
        while (b < last && r > edge(b, cap, steps, last)) {
            b++;
        }
        return b;
    }

    /**
     * One pass over the rows: the histogram of distances to the centre, noised on every bucket.
     *
     * @param rows the rows (any layout: the counts are integers)
     * @param centre the public or released centre (length d)
     * @param random the noise source
     * @return the private radius, or NaN when no bucket stands out of the noise
     */
    public double find(RowSource rows, double[] centre, RandomSource random) {
        int d = rows.cols();
        if (centre.length != d) {
            throw new IllegalArgumentException("the centre has " + centre.length + " coordinates but the data have "
                    + d + " columns");
        }
        int nb = buckets();
        double cp = cap;
        int st = steps;
        long[] counts = DistanceHistogram.counts(rows, centre, nb, r -> bucket(r, cp, st, nb - 1));
        return fromCounts(counts, random);
    }

    /** The noisy rule on exact counts (package-private for tests). */
    double fromCounts(long[] counts, RandomSource random) {
        int best = DistanceHistogram.largestAbove(counts, sigma(), threshold(), random);
        return best < 0 ? Double.NaN : edge(best);
    }
}
