package org.dpgauss.sampling;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.Optional;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/** Mechanism-level tests of the sampler: spec §6 T1, T3, T9 at mechanism level, FAIL cases, labels, primitives. */
class UnboundedGaussianSamplerTest {

    static final ComputeEngine CPU = CpuEngine.instance();
    static final double[] MU = {100, -50, 7};
    /** Sigma = L L^T with variances spanning about four orders of magnitude. */
    static final double[][] L = {{30, 0, 0}, {-4, 2, 0}, {0.05, 0.1, 0.3}};

    static SamplerParameters small() {
        // uncertified sizes: eps=1, delta=0.1 gives k=31, M=412 <= n1
        return SamplerParameters.withConstants(1700, 3, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND,
                SizeConstants.partSizes(500, 600));
    }

    /** T1 and T3: on Gaussian data both scores are 0, weights uniform, and Z is the exact-Gaussian construction. */
    @Test
    void outputIdentityWhenScoresAreZero() {
        SamplerParameters p = small();
        assertEquals(31, p.k());
        RowBlockMatrix data = GaussianTestData.correlated(1700, MU, L, new SplittableRandom(1));
        UnboundedGaussianSampler.Trace t = UnboundedGaussianSampler.of(p).run(data, CPU,
                RandomSource.insecureSeeded(2));
        // the algorithm's rows are the data's in the secret order (issue 24): positions below are in that order
        RowBlockMatrix x = data.selectRows(t.order);
        assertEquals(0, t.score1);
        assertEquals(0, t.score2);
        assertTrue(t.passed);
        // T9 with Score = 0: uniform weights by nesting
        for (double w : t.w) {
            assertEquals(1.0 / 600, w, 1e-18);
        }
        for (double v : t.v) {
            assertEquals(1.0 / 500, v, 1e-18);
        }
        // T1: Score1 = 0 iff max_i Y_i^T Sbar^{-1} Y_i <= lambda0, Sbar = (1/n2) sum Y Y^T
        double[][] y = new double[600][3];
        for (int i = 0; i < 600; i++) {
            for (int j = 0; j < 3; j++) {
                y[i][j] = (x.get(500 + i, j) - x.get(1100 + i, j)) / Math.sqrt(2);
            }
        }
        assertTrue(maxNorm(y, gram(y, 600)) <= p.lambda0());
        // T1: Score2 = 0 iff max_{i, j in R} ||X_i - X_j||^2_SigmaHat <= lambda0
        DMatrixRMaj inv = t.sigmaHat.copy();
        CommonOps_DDRM.invert(inv);
        double worst = 0;
        for (int i = 0; i < 500; i++) {
            for (int j : t.reference) {
                double[] diff = new double[3];
                for (int c = 0; c < 3; c++) {
                    diff[c] = x.get(i, c) - x.get(j, c);
                }
                worst = Math.max(worst, quad(inv, diff));
            }
        }
        assertTrue(worst <= p.lambda0(), worst + " vs " + p.lambda0());
        // T3: Z = mean of X_{<=n1} + sqrt(1 - 1/n1) sum_i z_i Y_i
        double[] z = t.release.orElseThrow();
        for (int c = 0; c < 3; c++) {
            double mean = 0;
            for (int i = 0; i < 500; i++) {
                mean += x.get(i, c);
            }
            mean /= 500;
            double comb = 0;
            for (int i = 0; i < 600; i++) {
                comb += t.z[i] * y[i][c];
            }
            double expected = mean + Math.sqrt(1 - 1.0 / 500) * comb;
            assertEquals(expected, z[c], 1e-9 * (1 + Math.abs(expected)));
        }
        double zz = 0;
        for (double v : t.z) {
            zz += v * v;
        }
        assertEquals(1.0, zz, 1e-12);
    }

    /** T1 converse: a single far outlier among the pairs makes Score1 exactly 1 (S_0 loses only that pair). */
    @Test
    void oneOutlierGivesScoreOne() {
        SamplerParameters p = small();
        RowBlockMatrix x = GaussianTestData.correlated(1700, MU, L, new SplittableRandom(3));
        // the row the secret order puts at position 700 (the order is the run's first draw from the seeded source)
        x.set(org.dpgauss.rows.SecretPermutation.draw(1700, RandomSource.insecureSeeded(4))[700], 0, 1e7);
        UnboundedGaussianSampler.Trace t = UnboundedGaussianSampler.of(p).run(x, CPU, RandomSource.insecureSeeded(4));
        assertEquals(1, t.score1);
        // its leverage caps its norm at m = 600 < e^2 lambda0, so it is kept at the top thresholds, with a reduced weight
        assertTrue(t.w[200] < 1.0 / 600, "the outlier pair loses weight: " + t.w[200]);
        assertEquals(1.0 / 600, t.w[199], 1e-18);
    }

    /**
     * FAIL where the spec says it must be: a singular covariance part (§9 edge cases: Score1 = k), and a mean part
     * split into two far clusters (no row has M - l reference rows within e^{l/k} lambda0 for any l <= 2k, so every
     * S_l is empty and Score2 = k).
     */
    @Test
    void failsWithCertaintyOnDegenerateOrContaminatedData() {
        SamplerParameters p = small();
        UnboundedGaussianSampler s = UnboundedGaussianSampler.of(p);
        RowBlockMatrix constant = RowBlockMatrix.zeros(1700, 3);
        RowBlockMatrix flat = GaussianTestData.correlated(1700, MU, L, new SplittableRandom(5));
        for (int i = 0; i < 1700; i++) {
            constant.setRow(i, new double[] {1, 2, 3});
            flat.set(i, 2, 2 * flat.get(i, 0) - flat.get(i, 1)); // rank 2 in R^3
        }
        for (RowBlockMatrix x : new RowBlockMatrix[] {constant, flat}) {
            for (long seed = 0; seed < 3; seed++) {
                UnboundedGaussianSampler.Trace t = s.run(x, CPU, RandomSource.insecureSeeded(seed));
                assertEquals(p.k(), t.score1);
                assertTrue(t.release.isEmpty());
            }
        }
        for (long seed = 0; seed < 3; seed++) {
            // the mean part is the first 500 rows of the secret order (the run's first draw from the seeded source)
            int[] order = org.dpgauss.rows.SecretPermutation.draw(1700, RandomSource.insecureSeeded(seed));
            RowBlockMatrix bimodal = GaussianTestData.correlated(1700, MU, L, new SplittableRandom(6));
            for (int i = 0; i < 500; i += 2) {
                bimodal.set(order[i], 1, bimodal.get(order[i], 1) + 1e5);
            }
            UnboundedGaussianSampler.Trace t = s.run(bimodal, CPU, RandomSource.insecureSeeded(seed));
            assertEquals(0, t.score1);
            assertEquals(p.k(), t.score2);
            assertTrue(t.release.isEmpty());
        }
        assertTrue(s.sample(constant, CPU, RandomSource.insecureSeeded(9)).isEmpty(), "FAIL carries nothing");
    }

    @Test
    void guaranteeIsReplaceOneAndSaysWhyItIsUncertified() {
        RowBlockMatrix x = GaussianTestData.correlated(1700, MU, L, new SplittableRandom(8));
        UnboundedGaussianSampler sampler = UnboundedGaussianSampler.of(small());
        assertTrue(sampler.sample(x, CPU, RandomSource.insecureSeeded(1)).isPresent());
        PrivacyGuarantee g = sampler.guarantee();
        assertEquals(NeighbouringRelation.REPLACE_ONE, g.relation());
        assertEquals(1.0, g.approxDp().orElseThrow().epsilon());
        assertEquals(0.1, g.approxDp().orElseThrow().delta());
        assertFalse(g.certified());
        assertTrue(g.notes().contains("--constants"), g.notes());
        SamplerParameters b = SamplerParameters.withConstants(1700, 3, ApproxDp.of(1, 0.1), 0.05,
                PtrMechanism.BHS23_AS_PUBLISHED, SizeConstants.partSizes(500, 600));
        PrivacyGuarantee gb = UnboundedGaussianSampler.of(b).guarantee();
        assertFalse(gb.certified());
        assertTrue(gb.notes().contains("NOT differentially private"), gb.notes());
    }

    /** A certified run end to end (d = 1, eps = 1, delta = 0.1: about 1.5e6 rows). */
    @Test
    void certifiedRunPassesOnGaussianData() {
        long need = SamplerParameters.requiredRows(1, 1, 0.1, 0.05, PtrMechanism.SOUND);
        assertTrue(need < 3_000_000, "required n " + need);
        SamplerParameters p = SamplerParameters.certified((int) need, 1, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND);
        RowBlockMatrix x = GaussianTestData.correlated((int) need, new double[] {-3}, new double[][] {{0.01}},
                new SplittableRandom(11));
        UnboundedGaussianSampler sampler = UnboundedGaussianSampler.of(p);
        Optional<double[]> r = sampler.sample(x, CPU, RandomSource.secure());
        assertFalse(r.isEmpty());
        assertTrue(sampler.guarantee().certified(), sampler.guarantee().notes());
        // Z ~ N(-3, 1e-4): a 6-sigma band fails with probability 2e-9
        assertEquals(-3, r.orElseThrow()[0], 0.06);
    }

    @Test
    void rejectsBadData() {
        UnboundedGaussianSampler s = UnboundedGaussianSampler.of(small());
        RowBlockMatrix x = GaussianTestData.correlated(1700, MU, L, new SplittableRandom(8));
        x.set(17, 1, Double.NaN);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> s.sample(x, CPU, RandomSource.insecureSeeded(1)));
        assertTrue(e.getMessage().contains("row 17"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> s.sample(RowBlockMatrix.zeros(1700, 2), CPU, RandomSource.insecureSeeded(1)));
        assertThrows(IllegalArgumentException.class,
                () -> s.sample(RowBlockMatrix.zeros(1699, 3), CPU, RandomSource.insecureSeeded(1)));
    }

    /**
     * R is a uniform M-subset: 2-subsets of [5] over 20000 draws, chi-square against uniform (9 degrees of
     * freedom) at failure probability 1e-6.
     */
    @Test
    void referenceSetIsUniform() {
        RandomSource r = RandomSource.insecureSeeded(12);
        long[] counts = new long[25];
        int draws = 20_000;
        for (int t = 0; t < draws; t++) {
            int[] s = UnboundedGaussianSampler.uniformSubset(5, 2, r);
            assertTrue(s[0] < s[1]);
            counts[5 * s[0] + s[1]]++;
        }
        double chi2 = 0;
        for (int a = 0; a < 5; a++) {
            for (int b = a + 1; b < 5; b++) {
                double e = draws / 10.0;
                chi2 += (counts[5 * a + b] - e) * (counts[5 * a + b] - e) / e;
            }
        }
        assertTrue(chi2 < ChiSquaredDistribution.of(9).inverseSurvivalProbability(1e-6), "chi2 = " + chi2);
        int[] all = UnboundedGaussianSampler.uniformSubset(7, 7, r);
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6}, all);
        assertThrows(IllegalArgumentException.class, () -> UnboundedGaussianSampler.uniformSubset(3, 4, r));
    }

    /**
     * Def 3.2 (spec §5): R is degree-representative, | |N_i cap R|/|R| - |N_i|/n1 | <= 1/6 for every i, with
     * N_i = {j : ||X_i - X_j||^2 <= e^2 lambda0}. Two clusters make |N_i|/n1 about 1/2 (the hardest case). n1 = 3000,
     * M = 412, 20 draws of R: by Hoeffding for sampling without replacement each (i, R) violates with probability
     * at most 2 exp(-2 M / 36) = 2.3e-10; the union over 60000 pairs is below 2e-5.
     */
    @Test
    void referenceSetIsDegreeRepresentative() {
        int n1 = 3000;
        int m = 412;
        double radius2 = SamplerParameters.E2 * 30; // e^2 lambda0 with lambda0 = 30, Sigma = I
        SplittableRandom g = new SplittableRandom(14);
        double[][] x = new double[n1][2];
        for (int i = 0; i < n1; i++) {
            x[i][0] = GaussianTestData.standardNormal(g) + (i % 2 == 0 ? 0 : 100);
            x[i][1] = GaussianTestData.standardNormal(g);
        }
        boolean[][] near = new boolean[n1][n1];
        int[] degree = new int[n1];
        for (int i = 0; i < n1; i++) {
            for (int j = 0; j < n1; j++) {
                double a = x[i][0] - x[j][0];
                double b = x[i][1] - x[j][1];
                near[i][j] = a * a + b * b <= radius2;
                degree[i] += near[i][j] ? 1 : 0;
            }
        }
        RandomSource r = RandomSource.insecureSeeded(15);
        double worst = 0;
        for (int draw = 0; draw < 20; draw++) {
            int[] ref = UnboundedGaussianSampler.uniformSubset(n1, m, r);
            for (int i = 0; i < n1; i++) {
                int hits = 0;
                for (int j : ref) {
                    hits += near[i][j] ? 1 : 0;
                }
                worst = Math.max(worst, Math.abs(hits / (double) m - degree[i] / (double) n1));
            }
        }
        assertTrue(worst <= 1.0 / 6, "worst deviation " + worst);
        assertTrue(worst > 0, "the check is not vacuous");
    }

    /** z is uniform on S^{49}: z_1^2 ~ Beta(1/2, 49/2); 4000 draws, DKW at failure probability 1e-4. */
    @Test
    void sphereDirectionIsUniform() {
        RandomSource r = RandomSource.insecureSeeded(13);
        double[] first = new double[4000];
        for (int t = 0; t < first.length; t++) {
            double[] z = UnboundedGaussianSampler.uniformOnSphere(50, r);
            double ss = 0;
            for (double v : z) {
                ss += v * v;
            }
            assertEquals(1.0, ss, 1e-12);
            first[t] = z[7] * z[7];
        }
        BetaDistribution beta = BetaDistribution.of(0.5, 24.5);
        SamplingTestData.assertKs("z_8^2", first, beta::cumulativeProbability, 1e-4);
    }

    static DMatrixRMaj gram(double[][] y, double divisor) {
        int d = y[0].length;
        DMatrixRMaj a = new DMatrixRMaj(d, d);
        for (double[] row : y) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    a.add(i, j, row[i] * row[j] / divisor);
                }
            }
        }
        return a;
    }

    static double maxNorm(double[][] y, DMatrixRMaj a) {
        DMatrixRMaj inv = a.copy();
        CommonOps_DDRM.invert(inv);
        double m = 0;
        for (double[] row : y) {
            m = Math.max(m, quad(inv, row));
        }
        return m;
    }

    static double quad(DMatrixRMaj inv, double[] v) {
        double s = 0;
        for (int i = 0; i < v.length; i++) {
            for (int j = 0; j < v.length; j++) {
                s += v[i] * inv.get(i, j) * v[j];
            }
        }
        return s;
    }
}
