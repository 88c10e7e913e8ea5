package org.dpgauss.projection;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/** M_RP (spec ndis §6.1, §6.2, §9.1 item 13) and the LSV baseline (§7 item 1). */
class RandomProjectionMechanismTest {

    private static final CpuEngine CPU = CpuEngine.instance();

    /** Spec §8.2: r=100, eps=1, delta=1e-6, l=1 gives lambda_NDIS = 36.54 and lambda_LSV = 281.37. */
    @Test
    void ridgesMatchTheSpecReferenceValues() {
        RandomProjectionMechanism m = RandomProjectionMechanism.of(100, 1, 1e-6, 1);
        assertEquals(0.0273671, m.leverage(), 1e-6);
        assertEquals(36.54, m.ridge(), 0.01);
        RandomProjectionMechanism lsv = RandomProjectionMechanism.lsvBaseline(100, 1, 1e-6, 1);
        assertEquals(281.37, lsv.ridge(), 0.01);
        assertEquals(RandomProjectionMechanism.Calibration.LSV, lsv.calibration());
        // the ridge scales with l^2
        assertEquals(4 * m.ridge(), RandomProjectionMechanism.of(100, 1, 1e-6, 2).ridge(), 1e-9 * m.ridge());
    }

    /** The streamed D^T G1 + sqrt(lambda) G2 is exactly gRP_r of the stacked D̄ = [D; sqrt(lambda) I] (spec §6.1). */
    @Test
    void outputIsTheProjectionOfTheRidgeAugmentedData() {
        RowBlockMatrix d = unitBall(37, 4, 5);
        RandomProjectionMechanism m = RandomProjectionMechanism.of(6, 1, 1e-5, 1);
        ProjectionRelease rel = m.release(d, CPU, RandomSource.insecureSeeded(11));

        double s = Math.sqrt(m.ridge());
        double[][] bar = new double[37 + 4][];
        for (int i = 0; i < 37; i++) {
            bar[i] = d.row(i);
        }
        for (int i = 0; i < 4; i++) {
            bar[37 + i] = new double[4];
            bar[37 + i][i] = s;
        }
        DMatrixRMaj expected = CPU.gaussianProjection(RowBlockMatrix.of(bar, 7), 6,
                RandomProjectionMechanism.generator(RandomSource.insecureSeeded(11)), 0);
        DMatrixRMaj got = rel.output();
        assertEquals(4, got.numRows);
        assertEquals(6, got.numCols);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 6; j++) {
                assertEquals(expected.get(i, j), got.get(i, j), 1e-12 * (1 + Math.abs(expected.get(i, j))));
            }
        }
        // a different seed gives a different projection
        assertFalse(got.get(0, 0) == m.release(d, CPU, RandomSource.insecureSeeded(12)).output().get(0, 0));
    }

    /** Spec §9.1 item 13: every row of D̄ has leverage <= p*, for data on the boundary of the ball. */
    @Test
    void leverageOfEveryRowIsBelowTheCalibratedBound() {
        RandomProjectionMechanism m = RandomProjectionMechanism.of(50, 0.5, 1e-6, 2);
        RowBlockMatrix d = unitBall(200, 5, 3);
        DMatrixRMaj gram = CPU.weightedGram(d, null, null, 1.0);
        // rows scaled to norm exactly l = 2
        for (int i = 0; i < 5; i++) {
            gram.add(i, i, m.ridge());
        }
        DMatrixRMaj inv = new DMatrixRMaj(5, 5);
        CommonOps_DDRM.invert(gram, inv);
        for (int i = 0; i < 200; i++) {
            double[] v = d.row(i);
            double lev = 0;
            for (int a = 0; a < 5; a++) {
                for (int b = 0; b < 5; b++) {
                    lev += v[a] * inv.get(a, b) * v[b];
                }
            }
            assertTrue(lev <= m.leverage(), "row " + i + " leverage " + lev);
        }
        assertTrue(RandomProjectionCurve.delta(0.5, m.leverage(), 50) <= 1e-6);
    }

    /**
     * Spec §6.2: E[Sigma^] = D^T D. 400 releases, each entry of the mean estimate within 5 standard errors
     * ({@code SE^2 = (S_aa S_bb + S_ab^2)/(r K)}, S = D^T D + lambda I); failure probability < 1e-5 for a fresh
     * seed (9 entries, normal approximation). Forgetting "- lambda I" would be off by ~50 SE.
     */
    @Test
    void gramEstimatorIsUnbiased() {
        RowBlockMatrix d = unitBall(60, 3, 21);
        RandomProjectionMechanism m = RandomProjectionMechanism.of(20, 1, 1e-5, 1);
        DMatrixRMaj truth = CPU.weightedGram(d, null, null, 1.0);
        DMatrixRMaj sBar = truth.copy();
        for (int i = 0; i < 3; i++) {
            sBar.add(i, i, m.ridge());
        }
        int k = 400;
        DMatrixRMaj sum = new DMatrixRMaj(3, 3);
        RandomSource rnd = RandomSource.insecureSeeded(2026);
        for (int t = 0; t < k; t++) {
            CommonOps_DDRM.addEquals(sum, m.release(d, CPU, rnd).gramEstimate());
        }
        CommonOps_DDRM.scale(1.0 / k, sum);
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) {
                double se = Math.sqrt((sBar.get(a, a) * sBar.get(b, b) + sBar.get(a, b) * sBar.get(a, b)) / (20.0 * k));
                assertEquals(truth.get(a, b), sum.get(a, b), 5 * se, "entry " + a + "," + b);
            }
        }
    }

    @Test
    void rowsAboveTheBoundAreRejectedNamingTheRow() {
        double[][] x = {{0.1, 0.2}, {0.3, 0.4}, {3, 4}, {0, 0}};
        RandomProjectionMechanism m = RandomProjectionMechanism.of(5, 1, 1e-6, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.release(RowBlockMatrix.of(x), CPU, RandomSource.insecureSeeded(1)));
        assertTrue(e.getMessage().contains("row 2 (0-based)"), e.getMessage());
        assertTrue(e.getMessage().contains("norm 5.0"), e.getMessage());
        assertTrue(e.getMessage().contains("clip"), e.getMessage());

        ProjectionRelease rel = m.clippingRows(true).release(RowBlockMatrix.of(x), CPU, RandomSource.insecureSeeded(1));
        assertEquals(1, rel.clippedRows());
        assertEquals(1, rel.details().get("clipped_rows"));
        BoundedRows b = BoundedRows.check(RowBlockMatrix.of(x), 1, true);
        double[] row = b.data().row(2);
        assertTrue(row[0] * row[0] + row[1] * row[1] <= 1);
        assertEquals(0.6, row[0], 1e-12);
        assertArrayEquals(new double[] {0.3, 0.4}, b.data().row(1)); // untouched

        double[][] nan = {{0.1, Double.NaN}};
        assertThrows(IllegalArgumentException.class,
                () -> m.clippingRows(true).release(RowBlockMatrix.of(nan), CPU, RandomSource.insecureSeeded(1)));
    }

    @Test
    void guaranteeIsAddRemoveApproxDpAndSaysWhatItDoesNotCover() {
        RandomProjectionMechanism m = RandomProjectionMechanism.of(10, 0.7, 1e-7, 1);
        PrivacyGuarantee g = m.release(unitBall(20, 3, 1), CPU, RandomSource.insecureSeeded(3)).guarantee();
        assertEquals(NeighbouringRelation.ADD_REMOVE, g.relation());
        assertEquals(0.7, g.approxDp().orElseThrow().epsilon());
        assertEquals(1e-7, g.approxDp().orElseThrow().delta());
        assertFalse(g.certified(), "insecure seed: not certified");
        assertTrue(g.notes().contains("floating-point"));
        assertTrue(g.notes().contains("INSECURE"));
        assertTrue(m.guarantee(RandomSource.secure()).certified());
    }

    @Test
    void parametersAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> RandomProjectionMechanism.of(0, 1, 1e-6, 1));
        assertThrows(IllegalArgumentException.class, () -> RandomProjectionMechanism.of(5, -1, 1e-6, 1));
        assertThrows(IllegalArgumentException.class, () -> RandomProjectionMechanism.of(5, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> RandomProjectionMechanism.of(5, 1, 1, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RandomProjectionMechanism.of(5, 1, 1e-6, 0));
        assertTrue(e.getMessage().startsWith("rowBound=0.0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RandomProjectionMechanism.lsvBaseline(5, 0, 1e-6, 1));
    }

    /** Rows drawn from N(0, I), scaled to norm exactly l = 1 (up to rounding) for half of them. */
    static RowBlockMatrix unitBall(int n, int d, long key) {
        RowBlockMatrix x = SyntheticData.standardNormal(n, d, key);
        for (int i = 0; i < n; i++) {
            double[] row = x.row(i);
            double norm = 0;
            for (double v : row) {
                norm += v * v;
            }
            double f = (i % 2 == 0 ? 1 : 0.5) / Math.sqrt(norm) * (1 - 1e-15);
            for (int j = 0; j < d; j++) {
                row[j] *= f;
            }
            x.setRow(i, row);
        }
        return x;
    }
}
