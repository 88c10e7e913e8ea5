package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSourceMechanism;
import org.dpgauss.sampling.CovarianceAwareMean;
import org.dpgauss.sampling.PtrMechanism;
import org.junit.jupiter.api.Test;

/**
 * The covariance-aware mean (StableCov on rows paired by id order, StableMean with the reference set drawn from the
 * id order, PTR) on Spark is the single-machine release: bit for bit against the library on one block, and against
 * the library in the same multi-block layout whatever the partitioning and the input order. The rows carry
 * outliers, so LargestGoodSubset removes rows at several thresholds (the per-row state matters).
 */
class SparkStableParityTest {

    private static final int N = 4000;
    private static final int D = 3;
    private static final double DELTA = 0.5;
    private static final long SEED = 20261125L;
    private static final double[][] X = withOutliers(TestSpark.gaussian(N, D, 11));
    /** 4000 rows (2000 pairs) in blocks of 256: 16 blocks (8 of pairs), groups of 3. */
    private static final RowLayout SMALL = RowLayout.of(256, 3);

    private static double[][] withOutliers(double[][] x) {
        Random r = new Random(12);
        for (int c = 0; c < 12; c++) {
            int i = r.nextInt(x.length);
            for (int j = 0; j < x[i].length; j++) {
                x[i][j] += 6 * r.nextGaussian();
            }
        }
        return x;
    }

    private static RowSourceMechanism bhs() {
        return CovarianceAwareMean.of(N, D, ApproxDp.of(1, 0.1), 0.05, Double.NaN, PtrMechanism.SOUND, true);
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(SEED));
    }

    private static PrivateRelease spark(RowLayout layout, int inputPartitions, int blockPartitions, long shuffle) {
        SparkPrivacySession.Builder b = SparkPrivacySession.builder(TestSpark.table(X, inputPartitions, shuffle))
                .valueColumns(TestSpark.columns(D)).idColumn("id").relation(NeighbouringRelation.REPLACE_ONE)
                .budget(ApproxDp.of(10, DELTA)).context(seeded()).partitions(blockPartitions);
        if (layout != null) {
            b.layout(layout);
        }
        try (SparkPrivacySession s = b.open()) {
            return s.release(bhs());
        }
    }

    private static void assertSame(PrivateRelease expected, PrivateRelease actual, String what) {
        assertTrue(TestSpark.sameBits(expected.toMap(), actual.toMap()), what + ": differs from the single-machine"
                + " release:\n" + TestSpark.show(expected.toMap()) + "\n" + TestSpark.show(actual.toMap()));
    }

    @Test
    void defaultLayoutIsTheLibraryBitForBit() {
        PrivateRelease lib = Releases.run(bhs(), Dataset.of(X), DELTA, seeded());
        assertTrue(lib.isPass(), "the release passes on these rows");
        assertSame(lib, spark(null, 3, 2, 1), "default layout");
    }

    @Test
    void multiBlockLayoutIsTheLibraryInThatLayoutWhateverThePartitioning() {
        PrivateRelease lib = TestSpark.local(bhs(), X, SMALL, seeded(), DELTA);
        assertTrue(lib.isPass());
        assertSame(lib, spark(SMALL, 1, 1, 3), "1 partition");
        assertSame(lib, spark(SMALL, 3, 3, 4), "3 partitions");
        // and the layout changes the release by rounding only
        double[] a = Releases.run(bhs(), Dataset.of(X), DELTA, seeded()).vector("mean");
        double[] b = lib.vector("mean");
        for (int j = 0; j < D; j++) {
            assertEquals(a[j], b[j], 1e-12 * Math.abs(a[j]));
        }
        assertFalse(java.util.Arrays.equals(a, new double[D]));
    }
}
