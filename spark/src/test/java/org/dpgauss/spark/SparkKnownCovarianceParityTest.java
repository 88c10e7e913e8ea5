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
import org.dpgauss.sampling.KnownCovarianceSampler;
import org.dpgauss.sampling.PtrMechanism;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The known-covariance sampler (StableMean on all rows with the given Sigma, the reference set drawn from the id
 * order, PTR, Gaussian noise) on Spark is the single-machine release: bit for bit against the library on one block,
 * and against the library in the same multi-block layout whatever the partitioning.
 */
class SparkKnownCovarianceParityTest {

    private static final int N = 7500;
    private static final int D = 3;
    private static final double DELTA = 0.5;
    private static final long SEED = 20261128L;
    private static final double[][] X = TestSpark.gaussian(N, D, 19);
    private static final RowLayout SMALL = RowLayout.of(512, 3);

    /** The rows' own covariance (TestSpark.gaussian: independent columns of standard deviation 0.2 + 0.15 j). */
    private static KnownCovarianceSampler sampler() {
        DMatrixRMaj sigma = new DMatrixRMaj(D, D);
        for (int j = 0; j < D; j++) {
            sigma.set(j, j, (0.2 + 0.15 * j) * (0.2 + 0.15 * j));
        }
        return KnownCovarianceSampler.of(N, D, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND, sigma);
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(SEED));
    }

    private static PrivateRelease spark(RowLayout layout, int inputPartitions, int blockPartitions, long shuffle) {
        return TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(10, DELTA),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, List.of(sampler())).get(0);
    }

    private static void assertSame(PrivateRelease expected, PrivateRelease actual, String what) {
        assertTrue(expected.isPass(), "the sketch passes on these rows");
        assertTrue(TestSpark.sameBits(expected.toMap(), actual.toMap()), what + ": differs from the single-machine"
                + " release:\n" + TestSpark.show(expected.toMap()) + "\n" + TestSpark.show(actual.toMap()));
    }

    @Test
    void oneBlockIsTheLibraryBitForBit() {
        assertSame(Releases.run(sampler(), Dataset.of(X), DELTA, seeded()), spark(null, 3, 2, 1), "default layout");
    }

    @Test
    void multiBlockLayoutIsTheLibraryInThatLayoutWhateverThePartitioning() {
        PrivateRelease lib = TestSpark.local(sampler(), X, SMALL, seeded(), DELTA);
        assertSame(lib, spark(SMALL, 3, 3, 4), "3 partitions");
        assertSame(lib, spark(SMALL, 1, 2, 5), "2 partitions");
    }
}
