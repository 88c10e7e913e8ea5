package org.dpgauss.mean.anisotropic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.TreeMap;
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
 * The coordinate-wise mean as row passes (bin counts per coordinate added over the blocks, then exact sums of the
 * clipped rows) is the in-memory release bit for bit in any layout; far outliers are clipped.
 */
class CoordinateWiseMeanRowsTest {

    private static final ComputeEngine CPU = CpuEngine.instance();
    private static final int N = 3000;
    private static final int D = 4;
    private static final double[] VARIANCES = {4, 1, 0.25, 0.01};

    private static RowBlockMatrix data() {
        RowBlockMatrix x = GaussianTestData.diagonal(N, new double[] {-7, 0.3, 12, 1}, VARIANCES, 0xc0dL);
        SplittableRandom r = new SplittableRandom(8);
        for (int c = 0; c < 10; c++) {
            int i = r.nextInt(N);
            double[] row = x.row(i);
            for (int j = 0; j < D; j++) {
                row[j] += 50 * GaussianTestData.standardNormal(r);
            }
            x.setRow(i, row);
        }
        return x;
    }

    private static CoordinateWiseMean mechanism() {
        return CoordinateWiseMean.of(VARIANCES, N, 0.01, ApproxDp.of(4, 1e-6));
    }

    @Test
    void releaseIsTheInMemoryReleaseBitForBitInAnyLayout() {
        RowBlockMatrix x = data();
        PrivateRelease memory = Releases.run(mechanism(), Dataset.of(x), 1e-6,
                ReleaseContext.of(CPU, RandomSource.insecureSeeded(12)));
        assertTrue(memory.isPass());
        // the release of the whole-matrix implementation the row passes replaced (commit a7a2f40: bins of every
        // value sorted per coordinate, the clipped rows summed in one loop), on these rows with this seed
        assertArrayEquals(new double[] {-0x1.bbcb5cp2, 0x1.2d3617p-2, 0x1.804a4b38p3, 0x1.012db58p0},
                memory.vector("mean"));
        for (RowLayout layout : new RowLayout[] {RowLayout.of(7, 3), RowLayout.of(1000, 2)}) {
            PrivateRelease rows = RowReleases.run(mechanism(), LocalRows.of(x, CPU, layout), 1e-6,
                    ReleaseContext.of(CPU, RandomSource.insecureSeeded(12)));
            assertArrayEquals(memory.vector("mean"), rows.vector("mean"), layout.toString());
        }
    }

    /** The histogram of the counts draws the same noise, in the same order, as the histogram of the labels. */
    @Test
    void histogramOfCountsIsTheHistogramOfLabels() {
        StableHistogram h = StableHistogram.of(0.5, 1e-6);
        long[] labels = new long[400];
        TreeMap<Long, Long> counts = new TreeMap<>();
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < labels.length; i++) {
            labels[i] = Math.round(3 * GaussianTestData.standardNormal(r)) - 5;
            counts.merge(labels[i], 1L, Long::sum);
        }
        for (long seed = 0; seed < 20; seed++) {
            StableHistogram.Result a = h.release(labels, RandomSource.insecureSeeded(seed));
            StableHistogram.Result b = h.release(counts, RandomSource.insecureSeeded(seed));
            assertEquals(a.isFail(), b.isFail());
            if (!a.isFail()) {
                assertEquals(a.bin(), b.bin());
            }
        }
        assertThrows(IllegalArgumentException.class, () -> h.release(new TreeMap<Long, Long>(),
                RandomSource.insecureSeeded(1)));
        TreeMap<Long, Long> zero = new TreeMap<>(counts);
        zero.put(100L, 0L);
        assertThrows(IllegalArgumentException.class, () -> h.release(zero, RandomSource.insecureSeeded(1)));
    }
}
