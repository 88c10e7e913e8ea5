package org.dpgauss.cpu.openblas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.cpu.NeighbourCounts;
import org.dpgauss.linalg.RowBlockMatrix;
import org.junit.jupiter.api.Test;

/**
 * The pruned counts equal the EJML tiled kernel's counts exactly, on the path actually taken: the band path (checked
 * through its statistics) on data where the triangle-inequality bounds decide most pairs, on data where they decide
 * none (the dgemm tiled kernel then runs), and on lattice data whose squared distances hit the radius exactly
 * (ties). The dgemm tiled kernel is also checked on its own. Fixed seeds; nothing statistical.
 */
class PrunedNeighbourCountsTest {

    static RowBlockMatrix gaussian(int n, int d, long seed, int blockRows) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                row[j] = r.nextGaussian() * (1 + j % 3) + 5; // off-centre, anisotropic
            }
        }
        return RowBlockMatrix.of(x, blockRows);
    }

    /** lambda* of the anisotropic mean for covariance diag((1 + j % 3)^2) (spec §3.2), beta = 0.1. */
    static double lambdaStar(int n, int d) {
        double trace = 0;
        double norm = 0;
        for (int j = 0; j < d; j++) {
            double v = (1 + j % 3) * (1 + j % 3);
            trace += v;
            norm = Math.max(norm, v);
        }
        return Math.sqrt(2 * trace) + 2 * Math.sqrt(2 * norm * Math.log(n / 0.1));
    }

    @Test
    void anisotropicMeanRadiusPrunesAlmostEverythingAndCountsAgree() {
        int n = 3000;
        int d = 100;
        RowBlockMatrix x = gaussian(n, d, 1, 1024);
        // plant outliers far away so the counts are not all n
        for (int i = 0; i < 60; i++) {
            double[] row = x.row(i * 41);
            for (int j = 0; j < d; j++) {
                row[j] += (i % 2 == 0 ? 6 : -6) * (1 + i % 5);
            }
            x.setRow(i * 41, row);
        }
        double lambda = lambdaStar(n, d);
        long[] band = new long[2];
        int[] pruned = PrunedNeighbourCounts.count(x, lambda, PrunedNeighbourCounts.MAX_BAND_FRACTION, band);
        assertEquals(0, band[1], "the band path ran");
        assertTrue(band[0] < 0.02 * n * (n - 1) / 2.0, "band pairs " + band[0]);
        int[] kernel = NeighbourCounts.count(x, lambda);
        assertArrayEquals(kernel, pruned);
        int distinct = (int) java.util.Arrays.stream(kernel).distinct().count();
        assertTrue(distinct > 5, "counts vary (outliers have fewer neighbours): " + distinct + " distinct values");
    }

    @Test
    void everyRadiusGivesTheKernelsCountsOnTheBandPath() {
        RowBlockMatrix x = gaussian(700, 7, 2, 97);
        for (double radius : new double[] {1e-3, 0.5, 2, 4, 6, 9, 15, 1e9}) {
            long[] band = new long[2];
            int[] pruned = PrunedNeighbourCounts.count(x, radius, 1.0, band); // band path whatever its size
            assertEquals(0, band[1], "band path at radius " + radius);
            assertArrayEquals(NeighbourCounts.count(x, radius), pruned, "radius " + radius);
            assertArrayEquals(pruned, PrunedNeighbourCounts.count(x, radius), "default threshold, radius " + radius);
        }
    }

    @Test
    void latticeTiesAndDuplicatesAreCountedAsTheKernelDoes() {
        // integer lattice: squared distances are exact integers, radius^2 hits them exactly
        int side = 15;
        double[][] x = new double[side * side + 3][];
        for (int i = 0; i < side * side; i++) {
            x[i] = new double[] {i / side, i % side};
        }
        x[side * side] = new double[] {7, 7}; // the centre of the lattice, twice (rho = 0)
        x[side * side + 1] = new double[] {7, 7};
        x[side * side + 2] = new double[] {0, 0};
        RowBlockMatrix m = RowBlockMatrix.of(x, 50);
        for (double radius : new double[] {0, 1e-9, 1, Math.sqrt(2), 2, 5, Math.sqrt(50), 10, 30}) {
            long[] band = new long[2];
            assertArrayEquals(NeighbourCounts.count(m, radius), PrunedNeighbourCounts.count(m, radius, 1.0, band),
                    "radius " + radius);
            assertEquals(radius == 0 ? 1 : 0, band[1], "band path except at radius 0, radius " + radius);
        }
        assertEquals(3, PrunedNeighbourCounts.count(m, 1e-9, 1.0, null)[side * side], "the centre and its copy");
    }

    @Test
    void dgemmTiledKernelMatchesTheEjmlKernelAcrossTilesTiesAndRadii() {
        // 1300 rows: three 512-row tiles, the last partial; integer coordinates make ties exact
        SplittableRandom r = new SplittableRandom(4);
        double[][] x = new double[1300][3];
        for (double[] row : x) {
            for (int j = 0; j < 3; j++) {
                row[j] = r.nextInt(9) + 1e6; // far from the origin: centring matters
            }
        }
        RowBlockMatrix m = RowBlockMatrix.of(x, 333);
        for (double radius : new double[] {0, 1, Math.sqrt(2), Math.sqrt(3), 2, 3.5, 100}) {
            assertArrayEquals(NeighbourCounts.count(m, radius), OpenBlasPrimitives.neighbourCounts(m, radius),
                    "radius " + radius);
        }
        RowBlockMatrix g = gaussian(1100, 30, 5, 400);
        for (double radius : new double[] {5, 10, 14, 20}) {
            assertArrayEquals(NeighbourCounts.count(g, radius), OpenBlasPrimitives.neighbourCounts(g, radius),
                    "gaussian, radius " + radius);
        }
    }

    @Test
    void highDimensionalConcentrationFallsBackToTheKernel() {
        // d = 400: rho_i + rho_k ~ 2 sqrt(tr) exceeds a radius just above the typical distance sqrt(2 tr)
        int n = 600;
        int d = 400;
        RowBlockMatrix x = gaussian(n, d, 3, 200);
        double radius = 1.05 * Math.sqrt(2 * 4.67 * d);
        long[] band = new long[2];
        int[] pruned = PrunedNeighbourCounts.count(x, radius, PrunedNeighbourCounts.MAX_BAND_FRACTION, band);
        assertEquals(1, band[1], "the band is most pairs: the tiled kernel ran");
        assertArrayEquals(NeighbourCounts.count(x, radius), pruned);
    }
}
