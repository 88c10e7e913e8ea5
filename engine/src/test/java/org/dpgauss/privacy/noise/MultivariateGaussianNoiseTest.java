package org.dpgauss.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class MultivariateGaussianNoiseTest {

    private static double[][] empiricalCovariance(MultivariateGaussianNoise noise, int n) {
        int d = noise.dimension();
        double[][] c = new double[d][d];
        for (int r = 0; r < n; r++) {
            double[] x = noise.sample();
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    c[i][j] += x[i] * x[j] / n;
                }
            }
        }
        return c;
    }

    @Test
    void covarianceFactorGivesTheRequestedCovariance() {
        DMatrixRMaj cov = new DMatrixRMaj(new double[][] {{4, 1.2, 0}, {1.2, 1, -0.3}, {0, -0.3, 0.5}});
        MultivariateGaussianNoise noise = MultivariateGaussianNoise.ofCovariance(cov, RandomSource.insecureSeeded(5));
        int n = 100_000;
        double[][] c = empiricalCovariance(noise, n);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                // Var of x_i x_j is cov_ii cov_jj + cov_ij^2 (Isserlis); 6 standard errors per entry, 9 entries:
                // failure probability below 2e-8 for a correct sampler
                double se = Math.sqrt((cov.get(i, i) * cov.get(j, j) + cov.get(i, j) * cov.get(i, j)) / n);
                assertEquals(cov.get(i, j), c[i][j], 6 * se, "entry " + i + "," + j);
            }
        }
    }

    @Test
    void singularPsdCovarianceIsAcceptedAndRespectsItsNullSpace() {
        // rank one: all noise lies along (1, 1)
        DMatrixRMaj cov = new DMatrixRMaj(new double[][] {{1, 1}, {1, 1}});
        MultivariateGaussianNoise noise = MultivariateGaussianNoise.ofCovariance(cov, RandomSource.insecureSeeded(6));
        for (int i = 0; i < 100; i++) {
            double[] x = noise.sample();
            assertEquals(x[0], x[1], 1e-9 * (1 + Math.abs(x[0])));
        }
    }

    @Test
    void factorGivesCovarianceAAt() {
        DMatrixRMaj a = new DMatrixRMaj(new double[][] {{2, 0}, {1, 1}});
        MultivariateGaussianNoise noise = MultivariateGaussianNoise.of(a, RandomSource.insecureSeeded(8));
        double[][] c = empiricalCovariance(noise, 100_000);
        // A A^T = [[4, 2], [2, 2]]; tolerances as above (6 standard errors)
        assertEquals(4, c[0][0], 6 * Math.sqrt(32.0 / 100_000));
        assertEquals(2, c[0][1], 6 * Math.sqrt(12.0 / 100_000));
        assertEquals(2, c[1][1], 6 * Math.sqrt(8.0 / 100_000));
    }

    @Test
    void invalidCovariancesAreRejectedClearly() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MultivariateGaussianNoise.ofCovariance(new DMatrixRMaj(new double[][] {{1, 2}, {2, 1}})));
        // the eigenvalue -1 and the entries are not printed: the covariance can be computed from private data
        // (issue 24, item 2)
        assertTrue(e.getMessage().contains("not positive semidefinite") && !e.getMessage().contains("-1.0")
                && !e.getMessage().contains("2.0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> MultivariateGaussianNoise.ofCovariance(new DMatrixRMaj(new double[][] {{1, 0.5}, {0, 1}})));
        assertTrue(e.getMessage().contains("not symmetric") && !e.getMessage().contains("0.5"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> MultivariateGaussianNoise.ofCovariance(new DMatrixRMaj(new double[][] {{1, 0}})));
        assertThrows(IllegalArgumentException.class,
                () -> MultivariateGaussianNoise.of(new DMatrixRMaj(new double[][] {{Double.NaN}})));
    }
}
