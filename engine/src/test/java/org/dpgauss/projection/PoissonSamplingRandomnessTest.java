package org.dpgauss.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The Poisson wrapper's privacy amplification needs every row kept independently with probability q. These tests
 * check the sampler as a random process over many seeds, not one draw: the sample size has the Binomial(n, q)
 * mean and variance, and every row is kept equally often (so a sampler that keeps a random number of rows from the
 * front, or any fixed subset, fails). Each test fails with probability below 1e-5 for a correct sampler.
 */
class PoissonSamplingRandomnessTest {

    /** Rows 0..n-1 whose single value is the row index, so a sample says which rows it kept. */
    private static RowBlockMatrix indexed(int n) {
        double[][] rows = new double[n][1];
        for (int i = 0; i < n; i++) {
            rows[i][0] = i;
        }
        return RowBlockMatrix.of(rows);
    }

    @Test
    void sampleSizesHaveTheBinomialMeanAndVariance() {
        int n = 1000;
        double q = 0.3;
        int seeds = 400;
        double[] sizes = new double[seeds];
        for (int s = 0; s < seeds; s++) {
            RowBlockMatrix kept = PoissonSubsampledProjection.sample(indexed(n), q, RandomSource.insecureSeeded(1000 + s));
            sizes[s] = kept == null ? 0 : kept.rows();
        }
        double mean = 0;
        for (double v : sizes) {
            mean += v / seeds;
        }
        double ss = 0;
        for (double v : sizes) {
            ss += (v - mean) * (v - mean);
        }
        double variance = n * q * (1 - q);
        // mean: normal approximation, 5 standard errors (two-sided 6e-7)
        assertEquals(n * q, mean, 5 * Math.sqrt(variance / seeds), "mean sample size");
        // variance: (seeds - 1) S^2 / variance ~ chi2_(seeds-1), two-sided at 1e-6 per tail
        ChiSquaredDistribution chi = ChiSquaredDistribution.of(seeds - 1);
        double statistic = ss / variance;
        assertTrue(statistic > chi.inverseCumulativeProbability(1e-6) && statistic < chi.inverseSurvivalProbability(1e-6),
                "sample-size variance " + ss / (seeds - 1) + " against n q (1-q) = " + variance);
    }

    @Test
    void everyRowIsKeptEquallyOften() {
        int n = 200;
        double q = 0.25;
        int seeds = 400;
        int[] count = new int[n];
        for (int s = 0; s < seeds; s++) {
            RowBlockMatrix kept = PoissonSubsampledProjection.sample(indexed(n), q, RandomSource.insecureSeeded(5000 + s));
            int previous = -1;
            for (int i = 0; kept != null && i < kept.rows(); i++) {
                int row = (int) kept.get(i, 0);
                assertTrue(row > previous, "rows are kept once each, in order");
                previous = row;
                count[row]++;
            }
        }
        // each count is Binomial(seeds, q); Pearson's statistic over the n rows is about chi2_n (independent rows)
        double expected = seeds * q;
        double statistic = 0;
        for (int c : count) {
            statistic += (c - expected) * (c - expected) / (expected * (1 - q));
        }
        double limit = ChiSquaredDistribution.of(n).inverseSurvivalProbability(1e-6);
        assertTrue(statistic < limit, "row inclusion is not uniform: chi2 = " + statistic + " > " + limit);
        // and not too uniform either (a sampler that rotates through the rows deterministically)
        assertTrue(statistic > ChiSquaredDistribution.of(n).inverseCumulativeProbability(1e-6),
                "row inclusion is too regular for independent draws: chi2 = " + statistic);
    }
}
