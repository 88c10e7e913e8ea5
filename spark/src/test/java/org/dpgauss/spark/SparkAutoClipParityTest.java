package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.AutoClippedGaussianMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.RowLayout;
import org.junit.jupiter.api.Test;

/**
 * The auto-clipped mean (a private radius from a noisy histogram of distances to the centre, then the clipped mean:
 * two passes of integer counts and exact sums) on Spark is the single-machine release bit for bit, in the default
 * layout and in a multi-block one, whatever the partitioning and the input order.
 */
class SparkAutoClipParityTest {

    private static final int N = 3000;
    private static final int D = 4;
    private static final double DELTA = 1e-6;
    private static final double[][] X = TestSpark.gaussian(N, D, 21);

    private static AutoClippedGaussianMean mechanism() {
        return AutoClippedGaussianMean.of(new double[D], Zcdp.of(2.0), 0.25);
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(77));
    }

    private static PrivateRelease spark(RowLayout layout, int inputPartitions, int blockPartitions, long shuffle) {
        return TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(100, DELTA),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, List.of(mechanism())).get(0);
    }

    @Test
    void autoClippedMeanIsTheLibraryBitForBitInAnyLayout() {
        PrivateRelease lib = Releases.run(mechanism(), Dataset.of(X), DELTA, seeded());
        assertTrue(lib.isPass(), "a radius stands out of the noise on these rows");
        for (PrivateRelease s : new PrivateRelease[] {spark(null, 2, 1, 1), spark(RowLayout.of(128, 2), 3, 3, 2),
            spark(RowLayout.of(128, 2), 1, 2, 3)}) {
            assertTrue(TestSpark.sameBits(lib.toMap(), s.toMap()), TestSpark.show(lib.toMap()) + "\n"
                    + TestSpark.show(s.toMap()));
        }
    }
}
