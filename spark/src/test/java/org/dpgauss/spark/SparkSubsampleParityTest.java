package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.secondmoment.SubsampleAndAggregate;
import org.junit.jupiter.api.Test;

/**
 * Subsample-and-aggregate (the random partition drawn by the driver in the single-machine order, one shuffle moving
 * each row to its group, the groups' second moments by the engine on their rows in partition order) on Spark is the
 * single-machine release bit for bit, in the default layout and a multi-block one, whatever the partitioning and
 * the input order. n = 4010 rows in groups of 100: 40 groups, 10 rows dropped; uncertified at this size.
 */
class SparkSubsampleParityTest {

    private static final int N = 4010;
    private static final int D = 3;
    private static final double DELTA = 1e-2;
    private static final double[][] X = TestSpark.gaussian(N, D, 61);

    private static SubsampleAndAggregate mechanism() {
        return SubsampleAndAggregate.builder().groupSize(100).alpha(0.5).xi(0.1).stepBudget(ApproxDp.of(5, 1e-6))
                .allowUncertified(true).build();
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(53));
    }

    private static PrivateRelease spark(RowLayout layout, int inputPartitions, int blockPartitions, long shuffle) {
        return TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(100, DELTA),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, List.of(mechanism())).get(0);
    }

    @Test
    void subsampleAndAggregateIsTheLibraryBitForBitInAnyLayout() {
        PrivateRelease lib = Releases.run(mechanism(), Dataset.of(X), DELTA, seeded());
        assertTrue(lib.isPass());
        for (PrivateRelease s : new PrivateRelease[] {spark(null, 2, 1, 1), spark(RowLayout.of(128, 2), 3, 3, 2)}) {
            assertTrue(TestSpark.sameBits(lib.toMap(), s.toMap()), TestSpark.show(lib.toMap()) + "\n"
                    + TestSpark.show(s.toMap()));
        }
    }
}
