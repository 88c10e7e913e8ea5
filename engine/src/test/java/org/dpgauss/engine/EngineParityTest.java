package org.dpgauss.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.stream.IntStream;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.mean.anisotropic.BasicFilter;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.HockeyStickDivergence;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.projection.ProjectionRelease;
import org.dpgauss.projection.RandomProjectionMechanism;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.random.CounterBasedGenerator;
import org.dpgauss.random.Philox4x32;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * End-to-end parity of a candidate backend with {@link CpuEngine}: the same inputs and seeds give identical
 * integer results and sets (neighbour counts, LargestGoodSubset at several thresholds, BasicFilter), matrices
 * and vectors within 1e-10 relative, projection outputs within 1e-12 relative. Sizes span several row
 * blocks so block boundaries and the per-block reductions are exercised. Subclassed for the GPU (skipped
 * without one) and for the CPU itself (which checks that the test logic runs and that seeded runs repeat).
 * Nothing here is statistical.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class EngineParityTest {

    /** The backend compared with the CPU. */
    protected abstract ComputeEngine candidate();

    private final ComputeEngine cpu = CpuEngine.instance();

    protected static RowBlockMatrix data(int n, int d, int blockRows, long seed) {
        return RowBlockMatrix.of(ComputeEngineContractTest.gaussian(n, d, seed), blockRows);
    }

    protected static void assertRelative(double[] expected, double[] actual, double tol, String what) {
        assertEquals(expected.length, actual.length, what + ": length");
        double scale = 0;
        for (double v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tol * Math.max(scale, 1e-300), what + " [" + i + "]");
        }
    }

    @Test
    void gramNormsWhiteningAndDistancesAgree() {
        RowBlockMatrix x = data(20_000, 24, 6_001, 1);
        ComputeEngine g = candidate();
        double[] w = IntStream.range(0, x.rows()).mapToDouble(i -> (i % 7) / 3.0).toArray();
        int[] subset = IntStream.range(0, x.rows()).filter(i -> i % 5 != 2).toArray();
        assertRelative(cpu.weightedGram(x, subset, w, 1.5 * x.rows()).data,
                g.weightedGram(x, subset, w, 1.5 * x.rows()).data, 1e-10, "weighted Gram");
        DMatrixRMaj a = cpu.weightedGram(x, null, null, x.rows());
        DMatrixRMaj l = cpu.cholesky(a).lower();
        int[] listed = {19_999, 0, 6_001, 6_000, 12_345, 6_000};
        assertRelative(cpu.mahalanobisNorms(x, l, null), g.mahalanobisNorms(x, l, null), 1e-10, "norms");
        assertRelative(cpu.mahalanobisNorms(x, l, listed), g.mahalanobisNorms(x, l, listed), 1e-10, "listed norms");
        assertRelative(cpu.whiten(x, l).block(1), g.whiten(x, l).block(1), 1e-10, "whitened block 1");
        RowBlockMatrix ref = data(41, 24, 41, 2);
        RowBlockMatrix dc = cpu.largestReferenceDistances(x, ref, 9);
        RowBlockMatrix dg = g.largestReferenceDistances(x, ref, 9);
        for (int b = 0; b < dc.blockCount(); b++) {
            assertRelative(dc.block(b), dg.block(b), 1e-10, "reference distances block " + b);
        }
    }

    @Test
    void neighbourCountsAreIdentical() {
        RowBlockMatrix x = data(5_000, 8, 1_700, 3);
        ComputeEngine g = candidate();
        for (double radius : new double[] {0.5, 3.0, 6.0}) {
            assertArrayEquals(cpu.neighbourCounts(x, radius), g.neighbourCounts(x, radius), "radius " + radius);
        }
    }

    @Test
    void projectionAgreesWithinOneE12() {
        RowBlockMatrix x = data(30_000, 16, 10_007, 4);
        ComputeEngine g = candidate();
        for (CounterBasedGenerator gen : new CounterBasedGenerator[] {
            ChaCha20.withKey(new int[] {11, 12, 13, 14, 15, 16, 17, 18}, 3L), Philox4x32.withKey(99L, 1L)}) {
            for (long first : new long[] {0, 7}) {
                assertRelative(cpu.gaussianProjection(x, 12, gen, first).data,
                        g.gaussianProjection(x, 12, gen, first).data, 1e-12, gen.name() + " first=" + first);
            }
        }
    }

    @Test
    void largestGoodSubsetIsIdenticalAcrossThresholds() {
        int m = 12_000;
        int d = 6;
        double[][] y = ComputeEngineContractTest.gaussian(m, d, 5);
        for (int i = 0; i < 300; i++) {
            for (int j = 0; j < d; j++) {
                y[i * 37][j] *= 3 + (i % 11); // planted outliers of several sizes
            }
        }
        RowBlockMatrix ym = RowBlockMatrix.of(y, 5_000);
        ComputeEngine g = candidate();
        GoodSubset previous = null;
        for (double lambda : new double[] {400, 100, 40, 20, 12}) {
            GoodSubset c = cpu.largestGoodSubset(ym, lambda, null, m);
            GoodSubset gg = g.largestGoodSubset(ym, lambda, null, m);
            assertEquals(c, gg, "set at lambda " + lambda);
            assertEquals(c.rounds(), gg.rounds(), "rounds at lambda " + lambda);
            if (previous != null) {
                assertEquals(c, g.largestGoodSubset(ym, lambda, previous.members(), m), "warm start at " + lambda);
            }
            previous = c;
        }
        assertFalse(previous.size() == m, "the thresholds peel something");
    }

    @Test
    void algorithmsGiveIdenticalResultsWithTheSameSeed() {
        ComputeEngine g = candidate();
        // BasicFilter (anisotropic mean): counts decide the kept set
        RowBlockMatrix y = data(3_000, 5, 1_000, 6);
        assertArrayEquals(BasicFilter.run(y, 6.0, cpu, RandomSource.insecureSeeded(17)),
                BasicFilter.run(y, 6.0, g, RandomSource.insecureSeeded(17)), "BasicFilter");
        // random projection mechanism: one Gaussian projection of clipped rows
        RowBlockMatrix x = data(4_000, 10, 1_500, 7);
        RandomProjectionMechanism mech = RandomProjectionMechanism.of(6, org.dpgauss.privacy.ApproxDp.of(1.0, 1e-6),
                200.0);
        org.dpgauss.release.Dataset data = org.dpgauss.release.Dataset.of(x);
        ProjectionRelease pc = ProjectionRelease.of(org.dpgauss.release.Releases.run(mech, data, 1e-6,
                org.dpgauss.release.ReleaseContext.of(cpu, RandomSource.insecureSeeded(23))));
        ProjectionRelease pg = ProjectionRelease.of(org.dpgauss.release.Releases.run(mech, data, 1e-6,
                org.dpgauss.release.ReleaseContext.of(g, RandomSource.insecureSeeded(23))));
        assertRelative(pc.output().data, pg.output().data, 1e-12, "projection release");
        // NDIS hockey-stick divergence between two Gaussians (Cholesky, solves, eigen on the engine)
        double[][] c1 = {{2, 0.3, 0}, {0.3, 1, 0.1}, {0, 0.1, 0.5}};
        double[][] c2 = {{1.5, 0.2, 0}, {0.2, 1.2, 0}, {0, 0, 0.7}};
        Gaussian a = Gaussian.of(new double[] {0, 0.5, 1}, c1);
        Gaussian b = Gaussian.of(new double[] {0.2, 0.1, 0.9}, c2);
        double[] eps = {0.1, 0.5, 1.0};
        assertRelative(HockeyStickDivergence.using(cpu).delta(a, b, eps),
                HockeyStickDivergence.using(g).delta(a, b, eps), 1e-10, "hockey-stick delta");
    }
}
