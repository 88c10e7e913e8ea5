package org.dpgauss.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.CholeskyVerdict;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The two helpers that keep one row from swamping LargestGoodSubset's singularity test (issue 24, item 3):
 * CertifiedViolators (rows certain to exceed lambda) and DominantRows (a basis where a few huge rows own their
 * coordinates), and the per-column pivot tolerance. Deterministic (fixed seeds).
 */
class ScaleFreePeelingTest {

    private static double[][] gaussian(int n, int d, long seed) {
        Random r = new Random(seed);
        double[][] y = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                y[i][j] = (1 + j) * r.nextGaussian();
            }
        }
        return y;
    }

    private static int[] all(int n) {
        return LargestGoodSubsetPeeling.identity(n);
    }

    private static double[] norms(RowBlockMatrix y, int m) {
        DMatrixRMaj a = WeightedGram.compute(y, null, null, m);
        CholeskyResult c = Cholesky.decompose(a);
        assertTrue(c.isPositiveDefinite());
        return MahalanobisNorms.compute(y, c.lower(), null);
    }

    @Test
    void certifiedViolatorsAreExactlyTheRowsAboveLambdaOverMOfACoordinateAtEveryScale() {
        for (double scale : new double[] {1e-300, 1, 1e150, 1e300}) {
            double[][] y = gaussian(100, 3, 1);
            for (double[] row : y) {
                for (int j = 0; j < 3; j++) {
                    row[j] *= scale;
                }
            }
            y[7] = new double[] {0, 0, 1e3 * scale}; // holds nearly all of coordinate 2: certified at lambda = 50
            boolean[] s = new boolean[100];
            java.util.Arrays.fill(s, true);
            int gone = CertifiedViolators.remove(RowBlockMatrix.of(y), s, all(100), 50, 100);
            assertEquals(1, gone, "at " + scale);
            assertFalse(s[7]);
            // nothing else holds 50/100 of a coordinate
            assertEquals(0, CertifiedViolators.remove(RowBlockMatrix.of(y), s, GoodSubset.indicesOf(s), 50, 100));
        }
    }

    @Test
    void aCertifiedViolatorsNormExceedsLambda() {
        // the bound q_i >= m y_ij^2 / sum_S y_lj^2 on data where the Gram is accurate
        double[][] y = gaussian(300, 4, 2);
        y[3] = new double[] {0, 30, 0, 0};
        RowBlockMatrix m = RowBlockMatrix.of(y);
        double[] q = norms(m, 300);
        CertifiedViolators.Columns c = CertifiedViolators.columns(m, all(300));
        for (int i = 0; i < 300; i++) {
            for (double lambda : new double[] {5, 20, 80, 250}) {
                if (c.isViolator(y[i], 0, lambda, 300)) {
                    assertTrue(q[i] > lambda, "row " + i + " certified at " + lambda + " has norm " + q[i]);
                }
            }
        }
        assertTrue(c.isViolator(y[3], 0, 80, 300));
    }

    @Test
    void theRotatedBasisKeepsTheNormsAndOnlyAppliesToSwampedSets() {
        double[][] y = gaussian(200, 3, 3);
        assertNull(DominantRows.deflate(RowBlockMatrix.of(y), all(200)), "Gaussian rows: not swamped");
        y[11] = new double[] {1e3, -2e3, 5e2}; // holds 0.9998 or more of every coordinate: swamped
        RowBlockMatrix m = RowBlockMatrix.of(y);
        RowBlockMatrix z = DominantRows.deflate(m, all(200));
        assertNotNull(z);
        double[] q = norms(m, 200); // the plain Gram is still accurate at 1e3 (condition about 1e6)
        double[] qz = norms(z, 200);
        for (int i = 0; i < 200; i++) {
            assertEquals(q[i], qz[i], 1e-8 * q[i], "norm of row " + i);
        }
        // the dominant row owns a coordinate: exact zeros elsewhere in the trailing ones
        double[] r11 = z.row(11);
        assertEquals(0.0, r11[1]);
        assertEquals(0.0, r11[2]);
    }

    @Test
    void oneHugeRowNoLongerEmptiesTheSetAtAnyScale() {
        for (double scale : new double[] {1e10, 1e100, 1e300}) {
            double[][] y = gaussian(200, 3, 4);
            y[0] = new double[] {scale, scale, -scale};
            RowBlockMatrix m = RowBlockMatrix.of(y);
            // lambda below m: the row leaves alone (a certified violator)
            assertEquals(199, LargestGoodSubsetPeeling.peel(m, 150, null, 200).size(), "lambda 150 at " + scale);
            // lambda above m: its norm (below m) stays under lambda and every row is kept (rotated basis)
            assertEquals(200, LargestGoodSubsetPeeling.peel(m, 250, null, 200).size(), "lambda 250 at " + scale);
        }
    }

    @Test
    void pivotToleranceIsRelativeToTheColumnsOwnDiagonal() {
        DMatrixRMaj a = new DMatrixRMaj(new double[][] {{1e30, 0, 0}, {0, 1, 0.5}, {0, 0.5, 1}});
        assertEquals(CholeskyVerdict.POSITIVE_DEFINITE, Cholesky.decompose(a).verdict());
        DMatrixRMaj b = new DMatrixRMaj(new double[][] {{1e30, 0, 0}, {0, 1, 1}, {0, 1, 1}});
        assertEquals(CholeskyVerdict.SINGULAR, Cholesky.decompose(b).verdict());
        assertEquals(2, Cholesky.decompose(b).failedPivot());
        assertEquals(4 * 3 * Math.ulp(1.0) * 2.0, CholeskyResult.pivotTolerance(3, -2.0));
    }
}
