package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.anisotropic.RescaledAveraging;
import org.dpgauss.mean.anisotropic.ShapeMatrix;
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
 * The anisotropic mean with a known covariance proxy (Algorithm 1: neighbour counts as a blocked self-join over the
 * cached blocks, the filter's draws on the driver, exact sums of the kept rows) on Spark is the single-machine
 * release bit for bit, in the default layout and in a multi-block one, whatever the partitioning and the input
 * order. The rows carry far outliers, so the filter drops rows.
 */
class SparkAnisotropicParityTest {

    private static final int N = 1200;
    private static final int D = 4;
    private static final double DELTA = 1e-6;
    private static final double[][] X = withOutliers(TestSpark.gaussian(N, D, 31));

    private static double[][] withOutliers(double[][] x) {
        Random r = new Random(32);
        for (int c = 0; c < 20; c++) {
            int i = r.nextInt(x.length);
            for (int j = 0; j < x[i].length; j++) {
                x[i][j] += 20 * r.nextGaussian();
            }
        }
        return x;
    }

    private static RescaledAveraging mechanism() {
        double[] v = new double[D];
        for (int j = 0; j < D; j++) {
            v[j] = (0.2 + 0.15 * j) * (0.2 + 0.15 * j); // TestSpark.gaussian's variances
        }
        return RescaledAveraging.knownCovariance(ShapeMatrix.diagonal(v), N, 0.05, ApproxDp.of(8, DELTA));
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(41));
    }

    private static PrivateRelease spark(RowLayout layout, int inputPartitions, int blockPartitions, long shuffle) {
        return TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(100, DELTA),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, List.of(mechanism())).get(0);
    }

    @Test
    void knownCovarianceMeanIsTheLibraryBitForBitInAnyLayout() {
        PrivateRelease lib = Releases.run(mechanism(), Dataset.of(X), DELTA, seeded());
        assertTrue(lib.isPass());
        for (PrivateRelease s : new PrivateRelease[] {spark(null, 2, 1, 1), spark(RowLayout.of(128, 2), 3, 3, 2),
            spark(RowLayout.of(128, 2), 1, 2, 3)}) {
            assertTrue(TestSpark.sameBits(lib.toMap(), s.toMap()), TestSpark.show(lib.toMap()) + "\n"
                    + TestSpark.show(s.toMap()));
        }
    }
}
