package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.secondmoment.RecursiveSecondMoment;
import org.dpgauss.secondmoment.SecondMomentParams;
import org.junit.jupiter.api.Test;

/**
 * The recursive second moment with a private lambda_min (Algorithm 4: a driver-drawn shuffle, the groups moved by a
 * selection, one pass of group eigenvalues) gives the single-machine release on Spark: bit for bit in the default
 * layout, and bit for bit against the library in a multi-block layout whose blocks do not hold whole groups,
 * whatever the partitioning.
 */
class SparkMinEigenvalueParityTest {

    private static final int N = 2000;
    private static final int D = 3;
    private static final double DELTA = 1e-6;
    private static final long SEED = 20261126L;
    private static final double[][] X = TestSpark.gaussian(N, D, 13);
    /** Blocks of 64 rows, 3 per group: the groups of 15 rows are moved into blocks of 60. */
    private static final RowLayout SMALL = RowLayout.of(64, 3);

    /** Algorithm 4 on 133 groups of 15 rows at (4, 5e-7)-DP, then the recursion at rho = 0.5. */
    private static RecursiveSecondMoment mechanism() {
        return RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(0.5)).radius(2.0)
                .delta(DELTA).lambdaBudget(4.0, null).lambdaGroupSize(15).build());
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(SEED));
    }

    private static PrivateRelease spark(RowLayout layout, int inputPartitions, int blockPartitions, long shuffle) {
        return TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(1000, DELTA),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, List.of(mechanism())).get(0);
    }

    private static void assertSame(PrivateRelease expected, PrivateRelease actual, String what) {
        assertTrue(expected.isPass(), "Algorithm 4 releases a bucket");
        assertTrue(expected.parameters().has("lambdaGroupSize"), "the release estimated lambda_min");
        assertTrue(TestSpark.sameBits(expected.toMap(), actual.toMap()), what + " differs from the single-machine"
                + " release:\n" + TestSpark.show(expected.toMap()) + "\n" + TestSpark.show(actual.toMap()));
    }

    @Test
    void defaultLayoutIsTheLibraryBitForBit() {
        PrivateRelease lib = Releases.run(mechanism(), Dataset.of(X), DELTA, seeded());
        assertSame(lib, spark(null, 3, 2, 1), "default layout");
    }

    @Test
    void multiBlockLayoutIsTheLibraryInThatLayoutWhateverThePartitioning() {
        PrivateRelease lib = TestSpark.local(mechanism(), X, SMALL, seeded(), DELTA);
        assertSame(lib, spark(SMALL, 3, 3, 4), "3 partitions");
        assertSame(lib, spark(SMALL, 1, 2, 5), "2 partitions");
        assertEquals(lib.parameters().number("lambdaGroupSize"), 15.0);
    }
}
