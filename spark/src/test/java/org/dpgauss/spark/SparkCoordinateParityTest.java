package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.anisotropic.CoordinateWiseMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.RowLayout;
import org.junit.jupiter.api.Test;

/**
 * The coordinate-wise mean (bin counts of every coordinate added over the blocks, the d histograms on the driver,
 * then exact sums of the rows clipped to the released box) on Spark is the single-machine release bit for bit, in
 * the default layout and in a multi-block one, whatever the partitioning and the input order. Far outliers are
 * clipped.
 */
class SparkCoordinateParityTest {

    private static final int N = 3000;
    private static final int D = 4;
    private static final double DELTA = 1e-6;
    private static final double[] VARIANCES = {4, 1, 0.25, 0.01};
    private static final double[][] X = data();

    private static double[][] data() {
        Random r = new Random(91);
        double[][] x = new double[N][D];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < D; j++) {
                x[i][j] = 3 * j - 2 + Math.sqrt(VARIANCES[j]) * r.nextGaussian();
            }
        }
        for (int c = 0; c < 10; c++) {
            int i = r.nextInt(N);
            for (int j = 0; j < D; j++) {
                x[i][j] += 50 * r.nextGaussian();
            }
        }
        return x;
    }

    private static CoordinateWiseMean mechanism() {
        return CoordinateWiseMean.of(VARIANCES, N, 0.01, ApproxDp.of(4, DELTA));
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(47));
    }

    private static PrivateRelease spark(RowLayout layout, int inputPartitions, int blockPartitions, long shuffle) {
        return TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(100, DELTA),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, List.of(mechanism())).get(0);
    }

    @Test
    void coordinateWiseMeanIsTheLibraryBitForBitInAnyLayout() {
        PrivateRelease lib = Releases.run(mechanism(), Dataset.of(X), DELTA, seeded());
        assertTrue(lib.isPass());
        for (PrivateRelease s : new PrivateRelease[] {spark(null, 2, 1, 1), spark(RowLayout.of(128, 2), 3, 3, 2)}) {
            assertTrue(TestSpark.sameBits(lib.toMap(), s.toMap()), TestSpark.show(lib.toMap()) + "\n"
                    + TestSpark.show(s.toMap()));
        }
    }
}
