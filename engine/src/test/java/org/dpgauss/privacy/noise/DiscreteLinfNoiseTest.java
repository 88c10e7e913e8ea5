package org.dpgauss.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

class DiscreteLinfNoiseTest {

    /** m(z) = max_j ceil(|z_j| / c_j). */
    private static long level(long[] z, long[] c) {
        long m = 0;
        for (int j = 0; j < z.length; j++) {
            m = Math.max(m, (Math.abs(z[j]) + c[j] - 1) / c[j]);
        }
        return m;
    }

    @Test
    void drawsHaveTheProbabilitiesOfTheKNormDensity() {
        // c = (1, 2), t = 2: P[z] = exp(-m(z)/2) / N. 200,000 draws; for each of the cells checked the count is
        // binomial, and 5 standard deviations are exceeded by one of the 12 checked cells with probability below
        // 12 * 6e-7 (fixed seed: deterministic). A draw that skips the acceptance step (S = a sum of 3 geometrics
        // alone) puts visibly less mass at the centre and fails.
        long[] c = {1, 2};
        long t = 2;
        DiscreteLinfNoise noise = DiscreteLinfNoise.of(c, t);
        double norm = 0;
        for (long a = -200; a <= 200; a++) {
            for (long b = -400; b <= 400; b++) {
                norm += Math.exp(-level(new long[] {a, b}, c) / (double) t);
            }
        }
        int draws = 200_000;
        long[][] cellsChecked = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {-1, -2}, {0, 3}, {2, 0}, {-2, 4}, {3, -1}, {0, -6},
            {5, 5}, {1, 1}};
        int[] hits = new int[cellsChecked.length];
        RandomSource random = RandomSource.insecureSeeded(11);
        for (int i = 0; i < draws; i++) {
            long[] z = noise.sample(random);
            for (int k = 0; k < cellsChecked.length; k++) {
                if (z[0] == cellsChecked[k][0] && z[1] == cellsChecked[k][1]) {
                    hits[k]++;
                }
            }
        }
        for (int k = 0; k < cellsChecked.length; k++) {
            double p = Math.exp(-level(cellsChecked[k], c) / (double) t) / norm;
            double sd = Math.sqrt(draws * p * (1 - p));
            assertTrue(Math.abs(hits[k] - draws * p) <= 5 * sd + 1, "cell " + k + ": " + hits[k] + " hits, expected "
                    + draws * p);
        }
    }

    @Test
    void statedMomentsMatchTheDraws() {
        // E[S] and E[S^2] of the level from levelMoments against 20,000 draws of max_j ceil(|Z_j|/c_j) = S only
        // in distribution of Z's box; we check E[Z_j^2] = (c^2 E S^2 + c E S)/3 instead (the accuracy statement's
        // formula). At d = 3, t = 64 the relative standard error of the sample second moment is about 1.3%; 6%
        // (4.5 standard errors) fails with probability below 1e-5 (fixed seed).
        long[] c = {5, 7, 9};
        DiscreteLinfNoise noise = DiscreteLinfNoise.of(c, 64);
        double[] m = noise.levelMoments(0.95);
        RandomSource random = RandomSource.insecureSeeded(5);
        int draws = 20_000;
        double[] sq = new double[3];
        int over = 0;
        for (int i = 0; i < draws; i++) {
            long[] z = noise.sample(random);
            for (int j = 0; j < 3; j++) {
                sq[j] += (double) z[j] * z[j] / draws;
            }
            if (level(z, c) > m[2]) {
                over++;
            }
        }
        for (int j = 0; j < 3; j++) {
            double stated = (c[j] * c[j] * m[1] + c[j] * m[0]) / 3;
            assertEquals(1.0, sq[j] / stated, 0.06, "coordinate " + j);
        }
        // the level quantile at 0.95: at most 5% + 4.4 standard deviations (0.0015 each) of draws above it
        assertTrue(over <= draws * (0.05 + 0.0068), over + " draws above the 95% level");
        // the continuous K-norm's E[R] = (d + 1) t: the discrete level is within one cell of it
        assertEquals(4 * 64, m[0], 2.0);
    }
}
