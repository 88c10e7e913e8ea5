package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.projection.RandomProjectionMechanism;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.ReleasedValue;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSourceMechanism;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.dpgauss.secondmoment.CoinPress;
import org.dpgauss.secondmoment.RecursiveSecondMoment;
import org.dpgauss.secondmoment.SecondMomentParams;
import org.junit.jupiter.api.Test;

/**
 * With the same insecure seed, every mechanism that runs on Spark returns the release of the single-machine library
 * on the same rows: bit for bit in the library's default layout, and bit for bit against the library run in the
 * same multi-block layout, whatever the Spark partitioning and the input order (the id column alone orders the
 * rows). Mechanisms are released in sequence from one session, so their noise draws follow one another exactly as
 * in one local run.
 */
class SparkParityTest {

    private static final int N = 1500;
    private static final int D = 4;
    private static final double DELTA = 1e-6;
    private static final long SEED = 20261125L;
    private static final double[][] X = TestSpark.gaussian(N, D, 7);
    /** 1500 rows in blocks of 64: 24 blocks, 8 groups of 3 (the last block is short). */
    private static final RowLayout SMALL = RowLayout.of(64, 3);

    /** The replace-one mechanisms, fresh each time (immutable; listed in release order). */
    private static List<RowSourceMechanism> replaceOne() {
        List<RowSourceMechanism> m = new ArrayList<>();
        m.add(ClippedGaussianMean.builder().clipRadius(1.0).rho(0.5).build(D));
        m.add(AnalyzeGauss.of(1.5, Zcdp.of(0.5)));
        m.add(CoinPress.of(1.0, Zcdp.of(0.5)));
        // R = 2, lambda >= 5e-4, m = 2: four levels, so three shrink-and-clip maps run on the executors
        m.add(RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(0.5)).radius(2.0).m(2)
                .minEigenvalue(0.5e-3).build()));
        return m;
    }

    private static RowSourceMechanism projection() {
        return RandomProjectionMechanism.of(3, ApproxDp.of(1.0, DELTA), 2.0).clippingRows(true);
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(SEED));
    }

    /** The library's own path ({@code Releases.run} on a {@code Dataset}), one noise stream across mechanisms. */
    private static List<PrivateRelease> library(List<RowSourceMechanism> ms) {
        ReleaseContext ctx = seeded();
        List<PrivateRelease> out = new ArrayList<>();
        for (RowSourceMechanism m : ms) {
            out.add(Releases.run(m, Dataset.of(X), DELTA, ctx));
        }
        return out;
    }

    private static List<PrivateRelease> libraryInLayout(List<RowSourceMechanism> ms, RowLayout layout) {
        ReleaseContext ctx = seeded();
        List<PrivateRelease> out = new ArrayList<>();
        for (RowSourceMechanism m : ms) {
            out.add(TestSpark.local(m, X, layout, ctx, DELTA));
        }
        return out;
    }

    private static List<PrivateRelease> spark(List<RowSourceMechanism> ms, NeighbouringRelation rel, RowLayout layout,
            int inputPartitions, int blockPartitions, long shuffle) {
        return TestSpark.releases(X, rel, ApproxDp.of(1000, DELTA),
                seeded(), layout, inputPartitions, blockPartitions, shuffle, ms);
    }

    private static void assertSameReleases(List<PrivateRelease> expected, List<PrivateRelease> actual, String what) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            PrivateRelease e = expected.get(i);
            assertTrue(e.isPass(), e.mechanism() + " passes");
            assertTrue(TestSpark.sameBits(e.toMap(), actual.get(i).toMap()),
                    what + ": " + e.mechanism() + " differs from the single-machine release:\n"
                            + TestSpark.show(e.toMap()) + "\n" + TestSpark.show(actual.get(i).toMap()));
        }
    }

    @Test
    void defaultLayoutIsTheLibraryBitForBit() {
        List<PrivateRelease> lib = library(replaceOne());
        assertEquals(4.0, lib.get(3).parameters().number("levels"), "the recursion's levels (coverage of its maps)");
        assertSameReleases(lib, spark(replaceOne(), NeighbouringRelation.REPLACE_ONE, null, 3, 2, 1), "default layout");
        assertSameReleases(library(List.of(projection())),
                spark(List.of(projection()), NeighbouringRelation.ADD_REMOVE, null, 2, 1, 2), "default layout");
    }

    @Test
    void multiBlockLayoutIsTheLibraryInThatLayoutWhateverThePartitioning() {
        List<PrivateRelease> lib = libraryInLayout(replaceOne(), SMALL);
        assertSameReleases(lib, spark(replaceOne(), NeighbouringRelation.REPLACE_ONE, SMALL, 1, 1, 3), "1 partition");
        assertSameReleases(lib, spark(replaceOne(), NeighbouringRelation.REPLACE_ONE, SMALL, 3, 3, 4), "3 partitions");
        List<PrivateRelease> proj = libraryInLayout(List.of(projection()), SMALL);
        assertSameReleases(proj, spark(List.of(projection()), NeighbouringRelation.ADD_REMOVE, SMALL, 3, 3, 5),
                "3 partitions");
        assertSameReleases(proj, spark(List.of(projection()), NeighbouringRelation.ADD_REMOVE, SMALL, 1, 2, 6),
                "2 partitions");
    }

    /**
     * A multi-block layout adds the same terms in another order than the library's one-block default: the releases
     * then agree to rounding (the noise draws are the same).
     */
    @Test
    void multiBlockLayoutAgreesWithTheDefaultToRounding() {
        List<PrivateRelease> lib = library(replaceOne());
        List<PrivateRelease> small = libraryInLayout(replaceOne(), SMALL);
        for (int i = 0; i < lib.size(); i++) {
            double worst = 0;
            for (Map.Entry<String, ReleasedValue> v : lib.get(i).values().entrySet()) {
                double[] a = flat(v.getValue());
                double[] b = flat(small.get(i).value(v.getKey()));
                double scale = 0;
                for (double t : a) {
                    scale = Math.max(scale, Math.abs(t));
                }
                for (int k = 0; k < a.length; k++) {
                    worst = Math.max(worst, Math.abs(a[k] - b[k]) / scale);
                }
            }
            assertTrue(worst <= 1e-12, lib.get(i).mechanism() + ": relative difference " + worst);
        }
    }

    private static double[] flat(ReleasedValue v) {
        switch (v.kind()) {
            case VECTOR:
                return v.asVector();
            case MATRIX:
                return java.util.Arrays.stream(v.asMatrix()).flatMapToDouble(java.util.Arrays::stream).toArray();
            default:
                return new double[] {v.asScalar()};
        }
    }
}
