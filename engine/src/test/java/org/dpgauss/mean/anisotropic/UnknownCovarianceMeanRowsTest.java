package org.dpgauss.mean.anisotropic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowReleases;
import org.dpgauss.testing.GaussianTestData;
import org.junit.jupiter.api.Test;

/**
 * Algorithm 2 as row passes: V from one pass equals V computed group by group on the whole matrix in layouts whose
 * blocks cut groups and pairs, and the release is the in-memory release bit for bit in any layout. N = 18000 is the
 * smallest round number the feasibility rule accepts at d = 3, epsilon = 8, delta = 1e-3, beta = 0.5 (k = 2); the
 * first coordinate's variance is far above the others', so TopVar picks it and both Algorithm 1 calls run (top:
 * coordinate 1; bottom: 2 and 3); far outliers make the filters drop rows.
 */
class UnknownCovarianceMeanRowsTest {

    private static final ComputeEngine CPU = CpuEngine.instance();
    private static final int N = 18000;
    private static final int D = 3;
    private static final double[] VARIANCES = {1e4, 1, 0.04};

    private static RowBlockMatrix data() {
        RowBlockMatrix x = GaussianTestData.diagonal(N, new double[] {3, -40, 7}, VARIANCES, 0x5eed2L);
        SplittableRandom r = new SplittableRandom(6);
        for (int c = 0; c < 30; c++) {
            int i = N / 2 + r.nextInt(N / 2); // in the second half, which the filters read
            double[] row = x.row(i);
            for (int j = 0; j < D; j++) {
                row[j] += 5000 * GaussianTestData.standardNormal(r);
            }
            x.setRow(i, row);
        }
        return x;
    }

    private static UnknownCovarianceMean mechanism() {
        return UnknownCovarianceMean.of(N, D, ApproxDp.of(8, 1e-3), 0.5);
    }

    @Test
    void varianceStatisticsDoNotDependOnTheLayout() {
        RowBlockMatrix x = data();
        UnknownCovarianceMean m = mechanism();
        assertEquals(2, m.k());
        double[][] whole = m.statistics(x);
        // 2l = 40: blocks of 1001 rows cut groups and pairs, blocks of 7 rows cut every group into several pieces
        for (RowLayout layout : new RowLayout[] {RowLayout.forDimension(D), RowLayout.of(1001, 3), RowLayout.of(7, 5),
            RowLayout.of(40, 1)}) {
            double[][] v = GroupVariances.of(LocalRows.of(x, CPU, layout), m.ell(), m.groups());
            assertEquals(whole.length, v.length);
            for (int j = 0; j < v.length; j++) {
                assertArrayEquals(whole[j], v[j], layout + ", group " + j);
            }
        }
        // the statistic itself, spec §4.2 (11), for group 5 and coordinate 1
        int ell = m.ell();
        double s = 0;
        for (int r = 0; r < ell; r++) {
            double diff = x.get(5 * 2 * ell + 2 * r, 1) - x.get(5 * 2 * ell + 2 * r + 1, 1);
            s += diff * diff;
        }
        assertEquals(s / (2 * ell), whole[5][1], 0.0);
        assertThrows(IllegalArgumentException.class,
                () -> GroupVariances.of(LocalRows.of(x, CPU), ell, N / (2 * ell) + 1));
    }

    @Test
    void releaseIsTheInMemoryReleaseBitForBitInAnyLayout() {
        RowBlockMatrix x = data();
        PrivateRelease memory = Releases.run(mechanism(), Dataset.of(x), 1e-3,
                ReleaseContext.of(CPU, RandomSource.insecureSeeded(9)));
        assertTrue(memory.isPass());
        // the algorithm on the rows in their own order (no secret order) is the release of the whole-matrix
        // implementation the row passes replaced (commit a7a2f40: V from the matrix, the second half's columns
        // copied out), on these rows with this seed
        assertArrayEquals(new double[] {0x1.57a9cp4, -0x1.3f9d644p5, 0x1.d244e8p2}, mechanism().releaseInOrder(
                LocalRows.of(x, CPU, RowLayout.of(N, 1)), RandomSource.insecureSeeded(9)).estimate());
        // a release first draws the secret order (issue 24), then runs that algorithm on the rows in that order
        RandomSource r = RandomSource.insecureSeeded(9);
        int[] order = org.dpgauss.rows.SecretPermutation.draw(N, r);
        assertArrayEquals(mechanism().releaseInOrder(LocalRows.of(x.selectRows(order), CPU, RowLayout.of(N, 1)), r)
                .estimate(), memory.vector("mean"));
        for (RowLayout layout : new RowLayout[] {RowLayout.of(1001, 3), RowLayout.of(4096, 2)}) {
            PrivateRelease rows = RowReleases.run(mechanism(), LocalRows.of(x, CPU, layout), 1e-3,
                    ReleaseContext.of(CPU, RandomSource.insecureSeeded(9)));
            assertArrayEquals(memory.vector("mean"), rows.vector("mean"), layout.toString());
        }
    }
}
