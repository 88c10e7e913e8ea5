package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.anisotropic.UnknownCovarianceMean;
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
 * The anisotropic mean without a covariance proxy (Algorithm 2: V from groups of 2l rows, the private variance
 * histograms on the driver, then Algorithm 1 on the second half's top and bottom coordinates) on Spark is the
 * single-machine release bit for bit: in the default layout (one block) and in layouts whose blocks cut V's groups
 * and pairs and put the second half's first row mid-block, for several partitionings and input orders. N = 18000
 * is the smallest round number the feasibility rule accepts at d = 3, epsilon = 8, delta = 1e-3, beta = 0.5 (k = 2);
 * the first coordinate's variance is far above the others', so both Algorithm 1 calls run (top: the first
 * coordinate); far outliers in the second half make the filters drop rows.
 */
class SparkUnknownCovarianceParityTest {

    private static final int N = 18000;
    private static final int D = 3;
    private static final double DELTA = 1e-3;
    private static final double[][] X = data();

    private static double[][] data() {
        Random r = new Random(71);
        double[] sd = {100, 1, 0.2};
        double[][] x = new double[N][D];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < D; j++) {
                x[i][j] = 10 * j - 4 + sd[j] * r.nextGaussian();
            }
        }
        for (int c = 0; c < 30; c++) {
            int i = N / 2 + r.nextInt(N / 2);
            for (int j = 0; j < D; j++) {
                x[i][j] += 5000 * r.nextGaussian();
            }
        }
        return x;
    }

    private static UnknownCovarianceMean mechanism() {
        return UnknownCovarianceMean.of(N, D, ApproxDp.of(8, DELTA), 0.5);
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(43));
    }

    private static PrivateRelease spark(RowLayout layout, int inputPartitions, int blockPartitions, long shuffle) {
        return TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(100, DELTA),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, List.of(mechanism())).get(0);
    }

    @Test
    void unknownCovarianceMeanIsTheLibraryBitForBitInAnyLayout() {
        assertEquals(2, mechanism().k());
        PrivateRelease lib = Releases.run(mechanism(), Dataset.of(X), DELTA, seeded());
        assertTrue(lib.isPass());
        // 2l = 40 rows per group of V; blocks of 2999 rows cut groups and pairs, and the second half starts mid-block
        for (PrivateRelease s : new PrivateRelease[] {spark(null, 2, 1, 1), spark(RowLayout.of(2999, 2), 3, 3, 2)}) {
            assertTrue(TestSpark.sameBits(lib.toMap(), s.toMap()), TestSpark.show(lib.toMap()) + "\n"
                    + TestSpark.show(s.toMap()));
        }
    }
}
