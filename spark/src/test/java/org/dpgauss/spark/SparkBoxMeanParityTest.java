package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.BoxMean;
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
 * The box mean (one pass of exact clamped column sums, then noise on the driver) on Spark is the single-machine
 * release bit for bit, with either noise, in the default layout and in a multi-block one, whatever the
 * partitioning and the input order; rows outside the box are clamped on the executors as on one machine.
 */
class SparkBoxMeanParityTest {

    private static final int N = 3000;
    private static final int D = 4;
    private static final double DELTA = 1e-6;
    private static final double[][] X = TestSpark.gaussian(N, D, 23);
    private static final double[] LO = {-1, -1, -2, -0.5};
    private static final double[] HI = {1, 1, 2, 0.5};

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(78));
    }

    private static PrivateRelease spark(BoxMean m, RowLayout layout, int inputPartitions, int blockPartitions,
            long shuffle) {
        return TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(100, DELTA),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, List.of(m)).get(0);
    }

    @Test
    void boxMeanIsTheLibraryBitForBitInAnyLayout() {
        for (BoxMean m : new BoxMean[] {BoxMean.gaussian(LO, HI, Zcdp.of(0.5)), BoxMean.pure(LO, HI, 1.0)}) {
            PrivateRelease lib = Releases.run(m, Dataset.of(X), DELTA, seeded());
            assertTrue(lib.isPass());
            for (PrivateRelease s : new PrivateRelease[] {spark(m, null, 2, 1, 1), spark(m, RowLayout.of(128, 2), 3, 3, 2),
                spark(m, RowLayout.of(128, 2), 1, 2, 3)}) {
                assertTrue(TestSpark.sameBits(lib.toMap(), s.toMap()), TestSpark.show(lib.toMap()) + "\n"
                        + TestSpark.show(s.toMap()));
            }
        }
    }
}
