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
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/** M_RP (spec ndis §6.1, §6.2, §9.1 item 13) and the LSV baseline (§7 item 1). */
class RandomProjectionMechanismTest {

    private static final CpuEngine CPU = CpuEngine.instance();

    /** Spec ndis §8.2 (docs/references/ndis-values.md §3.2): r=100, eps=1, delta=1e-6, l=1 gives lambda_NDIS = 36.54 and lambda_LSV = 281.37. */
    @Test
    void ridgesMatchTheSpecReferenceValues() {
        RandomProjectionMechanism m = RandomProjectionMechanism.of(100, ApproxDp.of(1, 1e-6), 1);
        assertEquals(0.0273671, m.leverage(), 1e-6);
        assertEquals(36.54, m.ridge(), 0.01);
        RandomProjectionMechanism lsv = RandomProjectionMechanism.lsvBaseline(100, ApproxDp.of(1, 1e-6), 1);
        assertEquals(281.37, lsv.ridge(), 0.01);
        assertEquals(RandomProjectionMechanism.Calibration.LSV, lsv.calibration());
        // the ridge scales with l^2
        assertEquals(4 * m.ridge(), RandomProjectionMechanism.of(100, ApproxDp.of(1, 1e-6), 2).ridge(), 1e-9 * m.ridge());
    }

    /** The streamed D^T G1 + sqrt(lambda) G2 is exactly gRP_r of the stacked D̄ = [D; sqrt(lambda) I] (spec §6.1). */
    @Test
    void outputIsTheProjectionOfTheRidgeAugmentedData() {
        RowBlockMatrix d = unitBall(37, 4, 5);
        RandomProjectionMechanism m = RandomProjectionMechanism.of(6, ApproxDp.of(1, 1e-5), 1);
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
        RandomProjectionMechanism m = RandomProjectionMechanism.of(50, ApproxDp.of(0.5, 1e-6), 2);
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
        RandomProjectionMechanism m = RandomProjectionMechanism.of(20, ApproxDp.of(1, 1e-5), 1);
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

    /**
     * Issue 24, item 5 (was finding 8 of issue 14): a row above the bound is not an error that one neighbour
     * triggers but is scaled onto the ball, with or without clipRows: the release on the data equals, bit for bit
     * under one seed, the release on the data with that row replaced by its clipped image. Failed on the code before
     * issue 24 (the release threw "row 3 has an L2 norm above the public row bound").
     */
    @Test
    void rowsAboveTheBoundAreClippedNeverRefused() {
        double[][] x = {{0.1, 0.2}, {0.3, 0.4}, {3, 4}, {0, 0}};
        double[][] clipped = x.clone();
        clipped[2] = BoundedRows.clip(RowBlockMatrix.of(x), 1).row(2);
        RandomProjectionMechanism m = RandomProjectionMechanism.of(5, ApproxDp.of(1, 1e-6), 1);
        for (PrivateMechanism mech : new PrivateMechanism[] {m,
            RandomProjectionMechanism.lsvBaseline(5, ApproxDp.of(1, 1e-6), 1),
            PoissonSubsampledProjection.builder().rank(5).budget(ApproxDp.of(1, 1e-6)).samplingRate(0.5).rowBound(1)
                    .build(),
            PtrProjection.builder().rank(5).budget(ApproxDp.of(1, 1e-6)).testNoise(10).rowBound(1).build()}) {
            PrivateRelease a = Releases.run(mech, Dataset.of(x), 1e-6,
                    ReleaseContext.of(CPU, RandomSource.insecureSeeded(7)));
            PrivateRelease b = Releases.run(mech, Dataset.of(clipped), 1e-6,
                    ReleaseContext.of(CPU, RandomSource.insecureSeeded(7)));
            assertEquals(a.status(), b.status());
            assertEquals(a.parameters(), b.parameters());
            assertTrue(java.util.Arrays.deepEquals(a.matrix("projection"), b.matrix("projection")),
                    "the row above the bound is used as its clipped image");
        }

        RowBlockMatrix b = BoundedRows.clip(RowBlockMatrix.of(x), 1);
        double[] row = b.row(2);
        assertTrue(Math.hypot(row[0], row[1]) <= BoundedRows.effectiveBound(1), "within l' = l (1 + 2^-40)");
        assertEquals(0.6, row[0], 1e-12);
        assertArrayEquals(new double[] {0.3, 0.4}, b.row(1)); // untouched

        double[][] nan = {{0.1, Double.NaN}};
        IllegalArgumentException n = assertThrows(IllegalArgumentException.class,
                () -> m.clippingRows(true).release(RowBlockMatrix.of(nan), CPU, RandomSource.insecureSeeded(1)));
        assertTrue(n.getMessage().startsWith("row 1, column 2 is not a finite"), n.getMessage());
        assertFalse(n.getMessage().contains("NaN,") || n.getMessage().contains(" is NaN"), n.getMessage());
    }

    /** Clipping is overflow-safe: a row whose squared norm overflows is scaled onto the ball, not to zero. */
    @Test
    void clippingAHugeRowKeepsItsDirection() {
        double[][] x = {{1e300, -1e300, 0}, {1e-300, 0, 0}};
        RowBlockMatrix b = BoundedRows.clip(RowBlockMatrix.of(x), 2);
        double[] row = b.row(0);
        assertEquals(Math.sqrt(2), row[0], 1e-11); // onto the ball of radius l' (1 - 4 (d + 2) u), l' = l (1 + 2^-40)
        assertEquals(-Math.sqrt(2), row[1], 1e-11);
        assertEquals(0.0, row[2]);
        assertArrayEquals(new double[] {1e-300, 0, 0}, b.row(1));
    }

    /**
     * Finding 9 of issue 14: rows normalised to the unit ball (norms like 1.0000000000000002) are accepted at
     * l = 1, and the guarantee is calibrated for l' = l (1 + 2^-40); rows beyond that slack are still rejected.
     */
    @Test
    void rowsWithinTheSlackAreAcceptedAndAccountedFor() {
        double over = Math.nextUp(1.0); // 1.0000000000000002
        double[][] x = {{over, 0}, {0, 1}, {0.6, 0.8}};
        RandomProjectionMechanism m = RandomProjectionMechanism.of(5, ApproxDp.of(1, 1e-6), 1);
        PrivateRelease r = Releases.run(m, Dataset.of(x), 1e-6, ReleaseContext.of(CPU, RandomSource.insecureSeeded(2)));
        assertTrue(r.isPass());
        assertEquals(2, r.matrix("projection").length);
        // the ridge is calibrated for the bound plus the slack, and says so
        double lPrime = BoundedRows.effectiveBound(1);
        assertTrue(lPrime >= 1 + 0x1p-40);
        assertEquals(RandomProjectionCurve.ridge(1, 1e-6, 5, lPrime), m.ridge());
        assertTrue(m.ridge() > RandomProjectionCurve.ridge(1, 1e-6, 5, 1));
        assertEquals(lPrime, r.parameters().number("effectiveRowBound"));
        assertEquals(0x1p-40, r.parameters().number("rowBoundSlack"));
        assertTrue(r.guarantee().notes().contains("l(1 + 2^-40)"), r.guarantee().notes());
        // beyond the slack: clipped onto the ball (issue 24), not refused
        double[][] y = {{1 + 0x1p-30, 0}};
        double clipped = BoundedRows.clip(RowBlockMatrix.of(y), 1).row(0)[0];
        assertTrue(clipped < 1 + 0x1p-30 && clipped <= lPrime, "clipped to l' (1 - 4 (d + 2) u): " + clipped);
        assertTrue(Releases.run(m, Dataset.of(y), 1e-6, ReleaseContext.of(CPU, RandomSource.insecureSeeded(2)))
                .isPass());
    }

    /**
     * The slack is accounted for exactly: rows just inside the acceptance limit (for several d, with many ulps of
     * rounding in their computed norm) have an exact squared norm, in BigDecimal, at most l'^2.
     */
    @Test
    void everyAcceptedRowIsWithinTheCalibratedBoundExactly() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(5);
        for (double l : new double[] {1, 3.7, 1e-90, 1e90}) {
            double lPrime = BoundedRows.effectiveBound(l);
            java.math.BigDecimal bound2 = new java.math.BigDecimal(lPrime).multiply(new java.math.BigDecimal(lPrime));
            for (int d : new int[] {1, 2, 7, 100, 5000}) {
                for (int t = 0; t < 20; t++) {
                    double[] row = new double[d];
                    for (int j = 0; j < d; j++) {
                        row[j] = rnd.nextGaussian();
                    }
                    // scale to (about) the largest multiple the clip leaves unchanged
                    double f = BoundedRows.target(l, d) * (1 + 0x1p-45) / org.dpgauss.linalg.Norms.euclidean(row);
                    for (int j = 0; j < d; j++) {
                        row[j] *= f;
                    }
                    int guard = 0;
                    while (BoundedRows.clip(RowBlockMatrix.of(new double[][] {row}), l).row(0)[0] != row[0]) {
                        assertTrue(guard++ < 1000, "reaches the acceptance limit");
                        for (int j = 0; j < d; j++) {
                            row[j] = row[j] > 0 ? Math.nextDown(row[j]) : Math.nextUp(row[j]); // towards 0
                        }
                    }
                    java.math.BigDecimal exact = java.math.BigDecimal.ZERO;
                    for (double v : row) {
                        java.math.BigDecimal b = new java.math.BigDecimal(v);
                        exact = exact.add(b.multiply(b));
                    }
                    assertTrue(exact.compareTo(bound2) <= 0, "l=" + l + " d=" + d);
                    // and for d <= 2000 the accepted row really is above l: the slack is used
                    java.math.BigDecimal l2 = new java.math.BigDecimal(l).multiply(new java.math.BigDecimal(l));
                    assertTrue(d > 2000 || exact.compareTo(l2) > 0, "l=" + l + " d=" + d + ": the test reaches the"
                            + " slack");
                }
            }
        }
    }

    /** The release contract: one field set, camelCase parameters, no count and no timing. */
    @Test
    void releaseFollowsTheContract() {
        RandomProjectionMechanism m = RandomProjectionMechanism.of(4, ApproxDp.of(1, 1e-6), 1);
        PrivateRelease r = Releases.run(m, Dataset.of(unitBall(30, 3, 4).toArray()), 1e-6,
                ReleaseContext.of(CPU, RandomSource.insecureSeeded(9)));
        assertEquals(java.util.List.of("status", "mechanism", "projection", "parameters", "accuracy", "guarantee",
                "insecure", "randomness"), new java.util.ArrayList<>(r.toMap().keySet()));
        assertEquals("projection.rp", r.mechanism());
        assertEquals(java.util.List.of("d", "rank", "rowBound", "rowBoundSlack", "effectiveRowBound", "clipRows",
                "leverage", "ridge"), new java.util.ArrayList<>(r.parameters().names()));
        assertEquals(m.ridge(), ProjectionRelease.of(r).ridge());
        assertEquals(1.0, ProjectionRelease.of(r).gramScale());
        assertEquals("", r.failMeaning(), "M_RP never FAILs");
        RandomProjectionMechanism lsv = RandomProjectionMechanism.lsvBaseline(4, ApproxDp.of(1, 1e-6), 1);
        assertEquals("projection.lsv", Releases.run(lsv, Dataset.of(unitBall(30, 3, 4).toArray()), 1e-6,
                ReleaseContext.of(CPU, RandomSource.insecureSeeded(9))).mechanism());
    }

    /**
     * Finding 1 of issue 14 (library side): D and D plus one row of norm 5 at l = 1 with clipping give releases
     * whose every public field (mechanism, parameters, guarantee, field set) is identical: nothing counts the
     * clipped rows.
     */
    @Test
    void neighboursWithAClippedRowGiveTheSamePublicFields() {
        double[][] d = {{0.1, 0.2}, {0.3, 0.4}, {0, 0.9}};
        double[][] dPlus = {{0.1, 0.2}, {0.3, 0.4}, {0, 0.9}, {3, 4}};
        for (PrivateMechanism m : new PrivateMechanism[] {
            RandomProjectionMechanism.of(5, ApproxDp.of(1, 1e-6), 1).clippingRows(true),
            RandomProjectionMechanism.lsvBaseline(5, ApproxDp.of(1, 1e-6), 1).clippingRows(true),
            PoissonSubsampledProjection.builder().rank(5).budget(ApproxDp.of(1, 1e-6)).samplingRate(0.5).rowBound(1)
                    .clipRows(true).build(),
            PtrProjection.builder().rank(5).budget(ApproxDp.of(1, 1e-6)).testNoise(10).rowBound(1).clipRows(true)
                    .build()}) {
            PrivateRelease a = Releases.run(m, Dataset.of(d), 1e-6, ReleaseContext.of(CPU, RandomSource.secure()));
            PrivateRelease b = Releases.run(m, Dataset.of(dPlus), 1e-6, ReleaseContext.of(CPU, RandomSource.secure()));
            assertEquals(a.toMap().keySet(), b.toMap().keySet(), a.mechanism());
            assertEquals(a.values().keySet(), b.values().keySet(), a.mechanism());
            assertEquals(a.parameters(), b.parameters(), a.mechanism());
            assertEquals(a.guarantee(), b.guarantee(), a.mechanism());
            assertTrue(a.guarantee().certified(), a.mechanism());
            for (String k : a.parameters().names()) {
                assertFalse(k.toLowerCase(java.util.Locale.ROOT).contains("clipped"), k);
            }
        }
    }

    @Test
    void guaranteeIsAddRemoveApproxDpAndSaysWhatItDoesNotCover() {
        RandomProjectionMechanism m = RandomProjectionMechanism.of(10, ApproxDp.of(0.7, 1e-7), 1);
        PrivacyGuarantee g = Releases.run(m, Dataset.of(unitBall(20, 3, 1).toArray()), 1e-7,
                ReleaseContext.of(CPU, RandomSource.insecureSeeded(3))).guarantee();
        assertEquals(NeighbouringRelation.ADD_REMOVE, g.relation());
        assertEquals(0.7, g.approxDp().orElseThrow().epsilon());
        assertEquals(1e-7, g.approxDp().orElseThrow().delta());
        assertFalse(g.certified(), "insecure seed: not certified");
        assertTrue(g.notes().contains("floating-point"));
        assertTrue(g.notes().contains(Releases.INSECURE_NOTE));
        assertTrue(m.guarantee().certified());
        assertTrue(Releases.run(m, Dataset.of(unitBall(20, 3, 1).toArray()), 1e-7,
                ReleaseContext.of(CPU, RandomSource.secure())).guarantee().certified());
    }

    @Test
    void parametersAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> RandomProjectionMechanism.of(0, ApproxDp.of(1, 1e-6), 1));
        assertThrows(IllegalArgumentException.class, () -> RandomProjectionMechanism.of(5, ApproxDp.of(1, 0), 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RandomProjectionMechanism.of(5, ApproxDp.of(1, 1e-6), 0));
        assertTrue(e.getMessage().startsWith("rowBound=0.0"), e.getMessage());
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
                () -> RandomProjectionMechanism.of(5, ApproxDp.of(1, 1e-6), 1e200));
        assertTrue(big.getMessage().contains("[1e-100, 1e100]"), big.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> RandomProjectionMechanism.lsvBaseline(5, ApproxDp.of(0, 1e-6), 1));
    }

    /** The projection mechanisms release through a budgeted session like any other mechanism. */
    @Test
    void projectionsReleaseThroughAPrivacySession() {
        org.dpgauss.release.PrivacySession session = org.dpgauss.release.PrivacySession
                .builder(Dataset.of(unitBall(50, 3, 6).toArray()))
                .relation(NeighbouringRelation.ADD_REMOVE).budget(ApproxDp.of(2.5, 1e-5))
                .context(ReleaseContext.of(CPU, RandomSource.insecureSeeded(4))).open();
        PrivateRelease a = session.release(RandomProjectionMechanism.of(4, ApproxDp.of(1, 1e-6), 1));
        PrivateRelease b = session.release(PtrProjection.builder().rank(4).budget(ApproxDp.of(1, 1e-6)).testNoise(10)
                .rowBound(1).build());
        assertEquals(3, a.matrix("projection").length);
        assertEquals(3, b.matrix("projection").length);
        assertEquals(2.0, session.spent().epsilon(), 1e-12);
        assertThrows(org.dpgauss.privacy.accounting.BudgetExceededException.class, () -> session.release(
                RandomProjectionMechanism.of(4, ApproxDp.of(1, 1e-6), 1)));
        assertEquals(2.0, session.spent().epsilon(), 1e-12, "a refused release is not charged");
    }

    /** Counts the draws of a random source (to show a rejection happens before any randomness is used). */
    static final class CountingSource implements RandomSource {
        int draws;
        private final RandomSource inner = RandomSource.insecureSeeded(1);

        @Override
        public long nextLong() {
            draws++;
            return inner.nextLong();
        }

        @Override
        public boolean isInsecure() {
            return true;
        }

        @Override
        public String describe() {
            return "counting";
        }
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
