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
}
