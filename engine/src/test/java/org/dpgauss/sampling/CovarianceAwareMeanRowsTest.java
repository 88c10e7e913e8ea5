package org.dpgauss.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowReleases;
import org.dpgauss.rows.RowSource;
import org.dpgauss.sampling.stable.StableCov;
import org.dpgauss.sampling.stable.StableCovResult;
import org.dpgauss.sampling.stable.StableRows;
import org.dpgauss.testing.GaussianTestData;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The covariance-aware mean as row passes ({@link StableRows}) is the in-memory estimator: on one block the same
 * release bit for bit (same sets, same engine calls, same noise draws), in a multi-block layout the same release up
 * to the order of the sums (1e-12 relative). The data carry outliers, so LargestGoodSubset removes rows at several
 * thresholds and the weights are not uniform.
 */
class CovarianceAwareMeanRowsTest {

    private static final ComputeEngine CPU = CpuEngine.instance();
    private static final int N = 4000;
    private static final int D = 3;
    private static final RowLayout SMALL = RowLayout.of(128, 3);

    private static RowBlockMatrix data(long seed) {
        RowBlockMatrix x = GaussianTestData.correlated(N, UnboundedGaussianSamplerTest.MU,
                UnboundedGaussianSamplerTest.L, new SplittableRandom(seed));
        SplittableRandom r = new SplittableRandom(seed + 1);
        for (int c = 0; c < 12; c++) { // 12 outliers at random positions
            int i = r.nextInt(N);
            double[] row = x.row(i);
            for (int j = 0; j < D; j++) {
                row[j] += 8 * GaussianTestData.standardNormal(r);
            }
            x.setRow(i, row);
        }
        return x;
    }

    private static CovarianceAwareMean mechanism() {
        return CovarianceAwareMean.of(N, D, ApproxDp.of(1, 0.1), 0.05, Double.NaN, PtrMechanism.SOUND, true);
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CPU, RandomSource.insecureSeeded(91));
    }

    @Test
    void oneBlockIsTheInMemoryReleaseBitForBit() {
        RowBlockMatrix x = data(5);
        PrivateRelease memory = Releases.run(mechanism(), Dataset.of(x), 1e-6, seeded());
        PrivateRelease rows = RowReleases.run(mechanism(), LocalRows.of(x, CPU), 1e-6, seeded());
        assertTrue(memory.isPass(), "the release passes on these data");
        assertEquals(memory.toMap().get("parameters"), rows.toMap().get("parameters"));
        assertArrayEquals(memory.vector("mean"), rows.vector("mean"));
    }

    @Test
    void multiBlockAgreesToRounding() {
        RowBlockMatrix x = data(6);
        PrivateRelease one = RowReleases.run(mechanism(), LocalRows.of(x, CPU), 1e-6, seeded());
        PrivateRelease many = RowReleases.run(mechanism(), LocalRows.of(x, CPU, SMALL), 1e-6, seeded());
        assertTrue(one.isPass() && many.isPass());
        double[] a = one.vector("mean");
        double[] b = many.vector("mean");
        for (int j = 0; j < D; j++) {
            assertEquals(a[j], b[j], 1e-12 * Math.abs(a[j]));
        }
    }

    /** StableCov's passes give the in-memory score and Sigma-hat (and the weights through W z). */
    @Test
    void stableCovPassesMatchStableCov() {
        RowBlockMatrix x = data(7);
        CovarianceAwareMean m = mechanism();
        StableCovResult memory = StableCov.of(m.lambda0(), m.k()).apply(x, CPU);
        RowSource pairs = LocalRows.of(x, CPU).pairs();
        StableRows.Cov rows = StableRows.stableCov(pairs, m.lambda0(), m.k(), CPU);
        assertTrue(memory.score() > 0, "the outliers move the score");
        assertEquals(memory.score(), rows.score());
        assertArrayEquals(memory.sigmaHat().data, rows.sigmaHat().data);
        double[] z = new double[memory.m()];
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < z.length; i++) {
            z[i] = r.nextGaussian();
        }
        assertArrayEquals(memory.combine(z), rows.combine(z));
        StableRows.Cov blocked = StableRows.stableCov(LocalRows.of(x, CPU, SMALL).pairs(), m.lambda0(), m.k(), CPU);
        assertEquals(memory.score(), blocked.score());
        DMatrixRMaj s = memory.sigmaHat();
        DMatrixRMaj t = blocked.sigmaHat();
        for (int i = 0; i < s.data.length; i++) {
            assertEquals(s.data[i], t.data[i], 1e-12 * Math.abs(s.data[0]));
        }
    }

    /** Rows on a line: every Gram is singular, the whole set leaves at the top threshold, Score = k: FAIL. */
    @Test
    void singularRowsFailAsInMemory() {
        RowBlockMatrix x = RowBlockMatrix.zeros(N, D);
        for (int i = 0; i < N; i++) {
            x.setRow(i, new double[] {i, 2.0 * i, -i});
        }
        CovarianceAwareMean m = mechanism();
        StableRows.Cov rows = StableRows.stableCov(LocalRows.of(x, CPU, SMALL).pairs(), m.lambda0(), m.k(), CPU);
        assertEquals(m.k(), rows.score());
        assertEquals(StableCov.of(m.lambda0(), m.k()).apply(x, CPU).score(), rows.score());
        PrivateRelease r = RowReleases.run(m, LocalRows.of(x, CPU, SMALL), 1e-6, seeded());
        assertTrue(!r.isPass());
    }

    /** The sampler: mean part rows 0..n1-1, covariance part the next 2 n2 rows (100 rows unused). */
    static UnboundedGaussianSampler sampler() {
        return UnboundedGaussianSampler.of(SamplerParameters.withConstants(N, D, ApproxDp.of(1, 0.1), 0.05,
                PtrMechanism.SOUND, SizeConstants.partSizes(1500, 1200)));
    }

    @Test
    void samplerOnOneBlockIsTheInMemoryReleaseBitForBitAndAgreesToRoundingInBlocks() {
        RowBlockMatrix x = data(8);
        PrivateRelease memory = Releases.run(sampler(), Dataset.of(x), 1e-6, seeded());
        PrivateRelease rows = RowReleases.run(sampler(), LocalRows.of(x, CPU), 1e-6, seeded());
        assertTrue(memory.isPass(), "the release passes on these data");
        assertArrayEquals(memory.vector("sample"), rows.vector("sample"));
        double[] a = memory.vector("sample");
        double[] b = RowReleases.run(sampler(), LocalRows.of(x, CPU, SMALL), 1e-6, seeded()).vector("sample");
        for (int j = 0; j < D; j++) {
            assertEquals(a[j], b[j], 1e-12 * Math.abs(a[j]));
        }
    }

    /**
     * Passes: StableCov on Gaussian rows with 12 outliers costs one pass for the first Gram, one per round that
     * removes rows and one to confirm each new set (norms above lambda_0 answer the other thresholds); here far
     * fewer than the 2k+1 = 63 thresholds.
     */
    @Test
    void stableCovPassCount() {
        RowBlockMatrix x = data(7);
        CovarianceAwareMean m = mechanism();
        int[] passes = new int[1];
        RowSource counted = new Counting(LocalRows.of(x, CPU).pairs(), passes);
        StableRows.Cov cov = StableRows.stableCov(counted, m.lambda0(), m.k(), CPU);
        assertTrue(cov.score() > 0);
        assertTrue(passes[0] >= 3 && passes[0] < 2 * m.k() + 1, "passes " + passes[0]);
    }

    /** Counts the general passes of a row source. */
    private static final class Counting implements RowSource {
        private final RowSource inner;
        private final int[] passes;

        Counting(RowSource inner, int[] passes) {
            this.inner = inner;
            this.passes = passes;
        }

        @Override
        public long rows() {
            return inner.rows();
        }

        @Override
        public int cols() {
            return inner.cols();
        }

        @Override
        public RowLayout layout() {
            return inner.layout();
        }

        @Override
        public RowSource map(org.dpgauss.rows.BlockMap f) {
            return new Counting(inner.map(f), passes);
        }

        @Override
        public RowSource map(org.dpgauss.rows.BlockMap f, int cols) {
            return new Counting(inner.map(f, cols), passes);
        }

        @Override
        public DMatrixRMaj gram(double divisor) {
            passes[0]++;
            return inner.gram(divisor);
        }

        @Override
        public DMatrixRMaj gram(org.dpgauss.linalg.RowChunkMap f, double divisor) {
            passes[0]++;
            return inner.gram(f, divisor);
        }

        @Override
        public DMatrixRMaj gaussianProjection(int r, org.dpgauss.random.ChaCha20 generator) {
            passes[0]++;
            return inner.gaussianProjection(r, generator);
        }

        @Override
        public org.dpgauss.rows.ExactColumnSums exactColumnSums() {
            passes[0]++;
            return inner.exactColumnSums();
        }

        @Override
        public long firstRejected(org.dpgauss.rows.RowTest test) {
            passes[0]++;
            return inner.firstRejected(test);
        }

        @Override
        public <P> P reduce(org.dpgauss.rows.BlockPass<P> pass, org.dpgauss.rows.PartialFold<P> fold) {
            passes[0]++;
            return inner.reduce(pass, fold);
        }

        @Override
        public RowSource pairs(long from, long to) {
            return new Counting(inner.pairs(from, to), passes);
        }

        @Override
        public RowSource slice(long from, long to) {
            return new Counting(inner.slice(from, to), passes);
        }

        @Override
        public RowSource select(int[] positions, RowLayout layout) {
            return new Counting(inner.select(positions, layout), passes);
        }

        @Override
        public RowSource columns(int[] selected) {
            return new Counting(inner.columns(selected), passes);
        }

        @Override
        public org.ejml.data.DMatrixRMaj[] groupGrams(int[] order, int groupSize) {
            passes[0]++;
            return inner.groupGrams(order, groupSize);
        }

        @Override
        public int[] neighbourCounts(double radius) {
            passes[0]++;
            return inner.neighbourCounts(radius);
        }
    }
}
