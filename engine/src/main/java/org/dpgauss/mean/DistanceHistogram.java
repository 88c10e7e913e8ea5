package org.dpgauss.mean;

import java.io.Serializable;
import org.dpgauss.linalg.Norms;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.rows.RowSource;

/**
 * The noisy histogram of distances to a centre that both private radius finders use ({@link AutoClippedGaussianMean}
 * on dyadic buckets, {@link PrivateRadius} on a finer grid below a cap): one row pass counting each row's bucket,
 * then Gaussian noise on every bucket and the largest bucket whose noisy count exceeds a threshold. Only the bucket
 * rule differs between them, so it is the one argument that does.
 */
final class DistanceHistogram {

    /** A row's bucket from its distance to the centre; a public function (it travels to a cluster's executors). */
    interface Bucketing extends Serializable {
        int bucket(double distance);
    }

    private DistanceHistogram() {
    }

    /**
     * One pass over the rows: the exact count per bucket of {@code ||row - centre||}.
     *
     * @param rows the rows (any layout: the counts are integers)
     * @param centre the public or released centre (length d)
     * @param buckets the number of buckets
     * @param rule the bucket of a distance, in {@code [0, buckets)}
     * @return the counts
     */
    static long[] counts(RowSource rows, double[] centre, int buckets, Bucketing rule) {
        int d = rows.cols();
        double[] c = centre.clone();
        return rows.reduce((blk, x, e) -> {
            long[] h = new long[buckets];
            double[] row = new double[d];
            for (int i = 0; i < x.rows(); i++) {
                x.copyRow(i, row, 0);
                for (int j = 0; j < d; j++) {
                    row[j] -= c[j];
                }
                h[rule.bucket(Norms.euclidean(row))]++; // overflow-safe norm
            }
            return h;
        }, (acc, p) -> {
            if (acc == null) {
                return p;
            }
            for (int t = 0; t < acc.length; t++) {
                acc[t] += p[t];
            }
            return acc;
        });
    }

    /**
     * Noises every bucket (taken or not, so the draws do not depend on the data) and returns the largest bucket whose
     * noisy count exceeds the threshold.
     *
     * @param counts the exact counts
     * @param sigma the noise's standard deviation on each count
     * @param threshold the public threshold
     * @param random the noise source
     * @return the bucket, or -1 when none stands out
     */
    static int largestAbove(long[] counts, double sigma, double threshold, RandomSource random) {
        SecureGaussianSampler sampler = SecureGaussianSampler.using(random);
        int best = -1;
        for (int b = 0; b < counts.length; b++) {
            double noisy = counts[b] + sampler.sampleIndex(sigma, 1.0);
            if (noisy > threshold) {
                best = b;
            }
        }
        return best;
    }
}
