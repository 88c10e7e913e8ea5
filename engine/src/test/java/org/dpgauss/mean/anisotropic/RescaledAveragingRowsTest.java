package org.dpgauss.mean.anisotropic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
 * Algorithm 1 as row passes is the in-memory release bit for bit in any layout: the neighbour counts of the blocked
 * self-join are the engine's counts on the whole matrix (integers), the kept rows are summed exactly. The data carry
 * far outliers, so the filter drops rows.
 */
class RescaledAveragingRowsTest {

    private static final ComputeEngine CPU = CpuEngine.instance();
    private static final int N = 1200;
    private static final int D = 4;
    private static final RowLayout SMALL = RowLayout.of(128, 2);

    private static RowBlockMatrix data() {
        double[] v = AnisotropicTestData.polynomialSpectrum(D);
        RowBlockMatrix x = GaussianTestData.diagonal(N, AnisotropicTestData.farMean(D), v, 0x5eedL);
        SplittableRandom r = new SplittableRandom(4);
        for (int c = 0; c < 20; c++) {
            int i = r.nextInt(N);
            double[] row = x.row(i);
            for (int j = 0; j < D; j++) {
                row[j] += 60 * GaussianTestData.standardNormal(r);
            }
            x.setRow(i, row);
        }
        return x;
    }

    private static RescaledAveraging mechanism() {
        return RescaledAveraging.knownCovariance(ShapeMatrix.diagonal(AnisotropicTestData.polynomialSpectrum(D)), N,
                0.05, ApproxDp.of(8, 1e-6));
    }

    @Test
    void blockedSelfJoinCountsAreTheEngineCounts() {
        RowBlockMatrix x = data();
        double radius = mechanism().lambda();
        int[] whole = CPU.neighbourCounts(x, radius);
        assertArrayEquals(whole, LocalRows.of(x, CPU, SMALL).neighbourCounts(radius));
        int min = N;
        for (int c : whole) {
            min = Math.min(min, c);
        }
        assertTrue(min < N / 2, "some rows have too few neighbours to be kept");
    }

    @Test
    void releaseIsTheInMemoryReleaseBitForBitInAnyLayout() {
        RowBlockMatrix x = data();
        PrivateRelease memory = Releases.run(mechanism(), Dataset.of(x), 1e-6,
                ReleaseContext.of(CPU, RandomSource.insecureSeeded(5)));
        assertTrue(memory.isPass());
        for (RowLayout layout : new RowLayout[] {RowLayout.forDimension(D), SMALL}) {
            PrivateRelease rows = RowReleases.run(mechanism(), LocalRows.of(x, CPU, layout), 1e-6,
                    ReleaseContext.of(CPU, RandomSource.insecureSeeded(5)));
            assertArrayEquals(memory.vector("mean"), rows.vector("mean"), layout.toString());
        }
    }
}
