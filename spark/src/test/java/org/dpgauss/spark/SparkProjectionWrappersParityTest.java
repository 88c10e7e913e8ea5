package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.projection.PoissonSubsampledProjection;
import org.dpgauss.projection.PtrProjection;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSourceMechanism;
import org.junit.jupiter.api.Test;

/**
 * The projection's PTR wrapper (a Gram for lambda_min, then the projection) and Poisson-subsampling wrapper (the
 * driver's sampling bits, the sample moved by a selection, then the projection) give the single-machine release on
 * Spark: bit for bit in the default layout, and bit for bit against the library in a multi-block layout, whatever
 * the partitioning. Released in sequence from one session, so the noise draws follow one another as in one local
 * run.
 */
class SparkProjectionWrappersParityTest {

    private static final int N = 1500;
    private static final int D = 4;
    private static final double DELTA = 1e-6;
    private static final long SEED = 20261127L;
    private static final double[][] X = TestSpark.gaussian(N, D, 17);
    private static final RowLayout SMALL = RowLayout.of(64, 3);

    /** PTR in public-bound mode and clipping, Poisson at q = 0.3 (a sample of about 450 rows) and q = 1 (all). */
    private static List<RowSourceMechanism> wrappers() {
        List<RowSourceMechanism> m = new ArrayList<>();
        m.add(PtrProjection.builder().rank(3).budget(ApproxDp.of(8.0, DELTA)).testNoise(20).rowBound(5.0).build());
        m.add(PtrProjection.builder().rank(2).budget(ApproxDp.of(2.0, DELTA)).testNoise(5).rowBound(1.0)
                .clipRows(true).build());
        m.add(PoissonSubsampledProjection.builder().rank(3).budget(ApproxDp.of(1.0, DELTA)).samplingRate(0.3)
                .rowBound(1.0).clipRows(true).build());
        m.add(PoissonSubsampledProjection.builder().rank(2).budget(ApproxDp.of(1.0, DELTA)).samplingRate(1.0)
                .rowBound(5.0).build());
        return m;
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(SEED));
    }

    private static List<PrivateRelease> spark(RowLayout layout, int inputPartitions, int blockPartitions,
            long shuffle) {
        return TestSpark.releases(X, NeighbouringRelation.ADD_REMOVE, ApproxDp.of(1000, 0.5),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, wrappers());
    }

    private static void assertSame(List<PrivateRelease> expected, List<PrivateRelease> actual, String what) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertTrue(expected.get(i).isPass());
            assertTrue(TestSpark.sameBits(expected.get(i).toMap(), actual.get(i).toMap()), what + ": "
                    + expected.get(i).mechanism() + " differs from the single-machine release:\n"
                    + TestSpark.show(expected.get(i).toMap()) + "\n" + TestSpark.show(actual.get(i).toMap()));
        }
    }

    @Test
    void defaultLayoutIsTheLibraryBitForBit() {
        ReleaseContext ctx = seeded();
        List<PrivateRelease> lib = new ArrayList<>();
        for (RowSourceMechanism m : wrappers()) {
            lib.add(Releases.run(m, Dataset.of(X), DELTA, ctx));
        }
        // PTR found a positive lower bound on lambda_min (its Gram pass mattered)
        assertTrue(lib.get(1).scalar("lambdaLowerBound") > 0, TestSpark.show(lib.get(1).toMap()));
        assertSame(lib, spark(null, 3, 2, 1), "default layout");
    }

    @Test
    void multiBlockLayoutIsTheLibraryInThatLayoutWhateverThePartitioning() {
        ReleaseContext ctx = seeded();
        List<PrivateRelease> lib = new ArrayList<>();
        for (RowSourceMechanism m : wrappers()) {
            lib.add(TestSpark.local(m, X, SMALL, ctx, DELTA));
        }
        assertSame(lib, spark(SMALL, 3, 3, 4), "3 partitions");
        assertSame(lib, spark(SMALL, 1, 1, 5), "1 partition");
    }
}
