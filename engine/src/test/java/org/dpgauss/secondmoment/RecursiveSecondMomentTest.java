package org.dpgauss.secondmoment;

import java.util.List;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.Norms;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/** Deterministic invariants of spec second-moment-estimation §4.2 and the privacy statement of §1.2 / §2.4. */
class RecursiveSecondMomentTest {

    private static final ComputeEngine CPU = CpuEngine.instance();
    private static final double[] SCALES = {1, 0.1, 0.01, 1e-3};
    private static final double RADIUS = 2.0;
    private static final double LAMBDA = 0.5e-3;

    /** d = 4, n = 3000, condition number 1e3, R = 2 (some rows clipped), m = 2: L = 4 levels. */
    private static RowBlockMatrix data() {
        return GaussianTestData.centred(3000, SCALES, 42);
    }

    private static SecondMomentParams.Builder params() {
        return SecondMomentParams.builder().budget(Zcdp.of(1.0)).radius(RADIUS).m(2).minEigenvalue(LAMBDA);
    }

    /** Output of Algorithm 1 (pipeline units) minus the closed-form clipping term, and the trace. */
    private static DMatrixRMaj clippingTerm(Trace trace, double lambda, double alpha) {
        double[][] x0 = trace.input;
        int n = x0.length;
        int d = x0[0].length;
        DMatrixRMaj c = new DMatrixRMaj(d, d);
        for (int i = 0; i < n; i++) {
            double s2 = trace.productClipFactors[i] * trace.productClipFactors[i];
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    c.add(a, b, s2 * x0[i][a] * x0[i][b] / n);
                }
            }
        }
        CommonOps_DDRM.scale(lambda * (1 - alpha), c);
        return c;
    }

    @Test
    void scheduleHasSeveralLevelsAndRecursionClipsSomeRows() {
        Trace trace = new Trace();
        SecondMomentEstimate.withNoise(params().build(), new SecondMomentTestData.RecordingNoise(1, 1))
                .run(data(), RandomSource.insecureSeeded(1), CPU, trace);
        assertEquals(4, trace.levels.size());
        int clipped = 0;
        for (double s : trace.productClipFactors) {
            clipped += s < 1 ? 1 : 0;
        }
        assertTrue(clipped > 0 && clipped < 3000, "clipped " + clipped);
    }

    /** §4.2 item 5: with sigma = 0 the output is (1/n) sum s_i^2 x_i x_i^T exactly, and below Sigma. */
    @Test
    void noiseFreeOracleEqualsTheClippedSecondMomentAndLiesBelowSigma() {
        RowBlockMatrix x = data();
        Trace trace = new Trace();
        DMatrixRMaj est = SecondMomentEstimate.withNoise(params().build(),
                new SecondMomentTestData.RecordingNoise(1, 0)).run(x, RandomSource.insecureSeeded(1), CPU, trace);
        DMatrixRMaj out = est;
        DMatrixRMaj closed = clippingTerm(trace, LAMBDA, 0.5);
        DMatrixRMaj sigma = SpectralMetrics.secondMoment(SecondMomentTestData.clipped(x, RADIUS), CPU);
        assertTrue(NormOps_DDRM.normF(CommonOps_DDRM.subtract(out, closed, null)) <= 1e-10 * NormOps_DDRM.normF(sigma));
        double[] mu = SpectralMetrics.generalizedEigenvalues(out, sigma);
        assertTrue(mu[mu.length - 1] <= 1 + 1e-9, "output <= Sigma: " + mu[mu.length - 1]);
        assertTrue(mu[0] < 1 - 1e-6, "clipping bias is visible: " + mu[0]);
    }

    /** §4.2 item 5, second half: when nothing is clipped the noise-free output is Sigma to FP precision. */
    @Test
    void noiseFreeOracleWithoutClippingReturnsSigma() {
        // Isotropic data far inside a large radius: one level would shrink nothing... use a public lambda that makes
        // kappa_0 small enough for a single level, where nothing is ever clipped.
        RowBlockMatrix x = GaussianTestData.centred(500, new double[] {1, 2, 3}, 5);
        Trace trace = new Trace();
        DMatrixRMaj est = SecondMomentEstimate.withNoise(
                SecondMomentParams.builder().budget(Zcdp.of(1)).radius(100).m(50).minEigenvalue(0.5).build(),
                new SecondMomentTestData.RecordingNoise(1, 0)).run(x, RandomSource.insecureSeeded(1), CPU, trace);
        assertTrue(trace.levels.size() >= 2, "levels " + trace.levels.size());
        for (double s : trace.productClipFactors) {
            assertEquals(1.0, s, 0.0);
        }
        DMatrixRMaj sigma = SpectralMetrics.secondMoment(x, CPU);
        assertEquals(0, SpectralMetrics.relativeSpectralError(sigma, est), 1e-12);
    }

    /** §4.2 item 6 / §2.3 closed form: output - (1/n) sum s_i^2 x_i x_i^T = (1-alpha) lambda M N_leaf M^T. */
    @Test
    void closedFormWithInjectedNoise() {
        SecondMomentTestData.RecordingNoise noise = new SecondMomentTestData.RecordingNoise(99, 1);
        Trace trace = new Trace();
        DMatrixRMaj est = SecondMomentEstimate.withNoise(params().build(), noise)
                .run(data(), RandomSource.insecureSeeded(1), CPU, trace);
        assertEquals(trace.levels.size(), noise.added.size(), "one noise draw per level, L in total");
        DMatrixRMaj nLeaf = noise.added.get(noise.added.size() - 1);
        DMatrixRMaj m = trace.unwhitening;
        DMatrixRMaj t = new DMatrixRMaj(4, 4);
        CommonOps_DDRM.mult(m, nLeaf, t);
        DMatrixRMaj whitened = new DMatrixRMaj(4, 4);
        CommonOps_DDRM.multTransB(t, m, whitened);
        CommonOps_DDRM.scale(LAMBDA * 0.5, whitened);
        DMatrixRMaj lhs = CommonOps_DDRM.subtract(est, clippingTerm(trace, LAMBDA, 0.5), null);
        double scale = NormOps_DDRM.normF(whitened);
        assertTrue(scale > 0);
        assertTrue(NormOps_DDRM.normF(CommonOps_DDRM.subtract(lhs, whitened, null)) <= 1e-9 * scale);
        // M = (7/8)^{t/2} Pi_0^-1 ... Pi_{t-1}^-1
        DMatrixRMaj expectM = CommonOps_DDRM.identity(4);
        for (int l = 0; l < trace.levels.size() - 1; l++) {
            DMatrixRMaj inv = CommonOps_DDRM.identity(4);
            DMatrixRMaj u = trace.levels.get(l).subspace;
            CommonOps_DDRM.multAddTransB(u, u, inv);
            DMatrixRMaj next = new DMatrixRMaj(4, 4);
            CommonOps_DDRM.mult(Math.sqrt(7.0 / 8), expectM, inv, next);
            expectM = next;
        }
        assertTrue(NormOps_DDRM.normF(CommonOps_DDRM.subtract(expectM, m, null)) < 1e-12);
    }

    /**
     * Check: the iterative implementation equals Algorithm 1 around a literal transcription of
     * the recursive Algorithm 2 (spec §2.2 steps 2-5, §2.3 steps 1-12: noisy Gram, V = eigenvectors >= psi kappa,
     * Pi = eta Pi_V + Pi_{V perp}, rows sqrt(8/7) Pi x clipped to sqrt(3/7) R, recurse on (3/7) kappa,
     * return (7/8) Pi^-1 S_rec Pi^-1), written with EJML's own eigensolver, fed the same recorded noise
     * matrices in the same order. Rotated Student-t rows (d = 4, n = 3000, R = 2: rows clipped at the start and at
     * the inner levels, V of varying dimension). Deterministic.
     */
    @Test
    void matchesALiteralRecursiveTranscriptionOfAlgorithm2() {
        RowBlockMatrix x = SecondMomentTestData.studentT(3000, SCALES, 5, 11);
        SecondMomentTestData.RecordingNoise noise = new SecondMomentTestData.RecordingNoise(17, 1);
        Trace trace = new Trace();
        DMatrixRMaj est = SecondMomentEstimate.withNoise(params().build(), noise)
                .run(x, RandomSource.insecureSeeded(1), CPU, trace);
        int clippedInside = 0;
        int splitDims = 0;
        for (Trace.Level lv : trace.levels) {
            if (lv.clipFactors != null) {
                for (double c : lv.clipFactors) {
                    clippedInside += c < 1 ? 1 : 0;
                }
                splitDims += lv.subspace.numCols;
            }
        }
        assertTrue(clippedInside > 0 && splitDims > 0, "the recursion clips and splits");

        double alpha = 0.5;
        int m = 2;
        double[][] rows = x.toArray();
        for (double[] row : rows) { // Alg 1 step 2: ClipRow(x, R)
            double nrm = Norms.euclidean(row);
            if (nrm > RADIUS) {
                for (int j = 0; j < row.length; j++) {
                    row[j] *= RADIUS / nrm;
                }
            }
        }
        double scale = 1 / Math.sqrt(LAMBDA * (1 - alpha)); // §2.4 step 5 and Alg 1 step 3
        for (double[] row : rows) {
            for (int j = 0; j < row.length; j++) {
                row[j] *= scale;
            }
        }
        double r0 = RADIUS * scale;
        java.util.Iterator<DMatrixRMaj> draws = noise.added.iterator();
        DMatrixRMaj rec = literalRecDpsme(rows, 0.5, 1.0 / (10 * m), 640.0 * m, r0 * r0, r0, draws);
        assertFalse(draws.hasNext(), "the literal recursion consumed every recorded draw");
        CommonOps_DDRM.scale(LAMBDA * (1 - alpha), rec); // Alg 1 step 5, §2.4 step 7
        double err = NormOps_DDRM.normF(CommonOps_DDRM.subtract(rec, est, null));
        assertTrue(err <= 1e-9 * NormOps_DDRM.normF(rec), "difference " + err);
    }

    /** Spec §2.3, recursive form, on rows as arrays; {@code noise} yields N_0, N_1, ... in order. */
    private static DMatrixRMaj literalRecDpsme(double[][] x, double eta, double psi, double cStop, double kappa,
            double radius, java.util.Iterator<DMatrixRMaj> noise) {
        int n = x.length;
        int d = x[0].length;
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        for (double[] row : x) {
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    s.add(a, b, row[a] * row[b] / n);
                }
            }
        }
        CommonOps_DDRM.addEquals(s, noise.next()); // steps 1-3
        if (kappa <= cStop) { // step 4
            return s;
        }
        org.ejml.interfaces.decomposition.EigenDecomposition_F64<DMatrixRMaj> eig =
                org.ejml.dense.row.factory.DecompositionFactory_DDRM.eig(d, true, true);
        assertTrue(eig.decompose(s.copy()));
        DMatrixRMaj projV = new DMatrixRMaj(d, d); // step 6: Pi_V over the eigenvalues >= psi kappa
        for (int c = 0; c < d; c++) {
            if (eig.getEigenvalue(c).getReal() >= psi * kappa) {
                DMatrixRMaj v = eig.getEigenVector(c);
                CommonOps_DDRM.divide(v, NormOps_DDRM.normF(v));
                CommonOps_DDRM.multAddTransB(v, v, projV);
            }
        }
        DMatrixRMaj pi = CommonOps_DDRM.identity(d); // step 7: eta Pi_V + Pi_{V perp}
        CommonOps_DDRM.addEquals(pi, eta - 1, projV);
        double[][] next = new double[n][d];
        double r = Math.sqrt(3.0 / 7) * radius;
        for (int i = 0; i < n; i++) { // steps 8-9
            double nrm2 = 0;
            for (int a = 0; a < d; a++) {
                double y = 0;
                for (int b = 0; b < d; b++) {
                    y += pi.get(a, b) * x[i][b];
                }
                next[i][a] = Math.sqrt(8.0 / 7) * y;
                nrm2 += next[i][a] * next[i][a];
            }
            double nrm = Math.sqrt(nrm2);
            if (nrm > r) {
                for (int a = 0; a < d; a++) {
                    next[i][a] *= r / nrm;
                }
            }
        }
        DMatrixRMaj sRec = literalRecDpsme(next, eta, psi, cStop, 3.0 / 7 * kappa, r, noise); // step 10
        DMatrixRMaj piInv = CommonOps_DDRM.identity(d); // step 11: (1/eta) Pi_V + Pi_{V perp}
        CommonOps_DDRM.addEquals(piInv, 1 / eta - 1, projV);
        DMatrixRMaj t = new DMatrixRMaj(d, d);
        CommonOps_DDRM.mult(piInv, sRec, t);
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        CommonOps_DDRM.mult(7.0 / 8, t, piInv, out); // step 12
        return out;
    }

    /** §4.2 items 2-4: clipped norms, exact symmetry of every noisy Gram, Pi Pi^-1 = I with eigenvalues 1/2 and 1. */
    @Test
    void perLevelInvariants() {
        Trace trace = new Trace();
        SecondMomentEstimate.withNoise(params().build(), SymmetricNoise.secure(RandomSource.insecureSeeded(7)))
                .run(data(), RandomSource.insecureSeeded(7), CPU, trace);
        double[][] x0 = trace.input;
        double r0 = trace.levels.get(0).radius;
        for (double[] row : x0) {
            assertTrue(Norms.euclidean(row) <= r0 * (1 + 1e-12));
        }
        for (int l = 0; l < trace.levels.size(); l++) {
            Trace.Level lv = trace.levels.get(l);
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    assertEquals(lv.noisy.get(i, j), lv.noisy.get(j, i), 0.0);
                }
            }
            if (l == trace.levels.size() - 1) {
                assertTrue(lv.pi == null, "the leaf has no eigendecomposition");
                continue;
            }
            assertTrue(lv.maxNormAfterClip <= Math.sqrt(3.0 / 7) * lv.radius * (1 + 1e-12));
            int k = lv.subspace.numCols;
            DMatrixRMaj inv = CommonOps_DDRM.identity(4);
            CommonOps_DDRM.multAddTransB(lv.subspace, lv.subspace, inv);
            DMatrixRMaj prod = new DMatrixRMaj(4, 4);
            CommonOps_DDRM.mult(lv.pi, inv, prod);
            assertTrue(NormOps_DDRM.normF(CommonOps_DDRM.subtract(prod, CommonOps_DDRM.identity(4), null)) < 1e-12);
            double[] ev = SpectralMetrics.eigenvalues(lv.pi);
            for (int j = 0; j < 4; j++) {
                assertEquals(j < k ? 0.5 : 1.0, ev[j], 1e-12);
            }
            // V_t holds exactly the eigenvalues >= psi kappa_t of the noisy Gram
            double[] noisyEv = SpectralMetrics.eigenvalues(lv.noisy);
            int above = 0;
            for (double e : noisyEv) {
                above += e >= lv.kappa / (10.0 * 2) ? 1 : 0;
            }
            assertEquals(above, k);
        }
    }

    /** §4.2 item 7: one replaced row moves the upper triangle of SecondMoment by <= sqrt(2) R^2 / n in L2. */
    @Test
    void levelZeroSensitivityBound() {
        int n = 50;
        double r = 3;
        double[][] base = new double[n][3];
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
        for (double[] row : base) {
            for (int j = 0; j < 3; j++) {
                row[j] = rnd.nextGaussian();
            }
        }
        double worst = 0;
        for (int trial = 0; trial < 200; trial++) {
            double[][] a = copy(base);
            double[][] b = copy(base);
            for (int j = 0; j < 3; j++) {
                a[0][j] = rnd.nextGaussian() * 5;
                b[0][j] = rnd.nextGaussian() * 5;
            }
            if (trial == 0) { // the extremal pair R e1, R e2
                a[0] = new double[] {r, 0, 0};
                b[0] = new double[] {0, r, 0};
            }
            DMatrixRMaj ga = SpectralMetrics.secondMoment(SecondMomentTestData.clipped(RowBlockMatrix.of(a), r), CPU);
            DMatrixRMaj gb = SpectralMetrics.secondMoment(SecondMomentTestData.clipped(RowBlockMatrix.of(b), r), CPU);
            double ss = 0;
            for (int i = 0; i < 3; i++) {
                for (int j = i; j < 3; j++) {
                    double diff = ga.get(i, j) - gb.get(i, j);
                    ss += diff * diff;
                }
            }
            worst = Math.max(worst, Math.sqrt(ss));
        }
        assertTrue(worst <= Math.sqrt(2) * r * r / n * (1 + 1e-12), "worst " + worst);
        assertTrue(worst >= Math.sqrt(2) * r * r / n * (1 - 1e-9), "the bound is attained by R e1 vs R e2");
    }

    @Test
    void guaranteeWithPublicLambdaIsRhoZcdpWithTheTightConversion() {
        SecondMomentEstimate est = SecondMomentEstimate.run(RecursiveSecondMoment.fromParams(params().build()), 1e-7,
                data(), RandomSource.secure(), CPU);
        PrivacyGuarantee g = est.guarantee();
        assertEquals(NeighbouringRelation.REPLACE_ONE, g.relation());
        assertTrue(g.isZcdp());
        assertEquals(1.0, g.zcdp().orElseThrow().rho());
        ApproxDp tight = Zcdp.of(1.0).toApproxDpTight(1e-7);
        assertEquals(tight, g.approxDp().orElseThrow());
        assertTrue(tight.epsilon() < Zcdp.of(1.0).toApproxDp(1e-7).epsilon(), "tighter than Bun-Steinke");
        assertEquals(ConversionPolicy.NAME, g.conversion());
        assertTrue(g.certified() && est.certified());
        assertEquals("second-moment.recursive", est.mechanism());
        assertEquals(4L, est.parameters().get("levels"));
        assertEquals(LAMBDA, (Double) est.parameters().get("minEigenvalueBound"), 0.0);
        assertEquals("", est.release().failMeaning(), "a public lambda bound never FAILs");

        SecondMomentEstimate seeded = SecondMomentEstimate.run(RecursiveSecondMoment.fromParams(params().build()),
                data(), RandomSource.insecureSeeded(5), CPU);
        assertFalse(seeded.certified());
        assertTrue(seeded.guarantee().notes().contains("insecure"), seeded.guarantee().notes());
    }

    /**
     * §2.4 budget split: Algorithm 4's (eps_l, delta_l) and the rho-zCDP part composed by the accountant
     * ({@code PrivacyAccountant.composeSteps}), not summed by hand; at least as tight as the hand-summed basic
     * composition eps_l + eps_rho(delta - delta_l) the method stated before.
     */
    @Test
    void guaranteeWithPrivateLambdaComposesAlgorithm4AndTheZcdpPart() {
        SecondMomentParams p = SecondMomentParams.builder().budget(Zcdp.of(0.5)).radius(RADIUS).m(2)
                .lambdaBudget(0.5, 2e-7).delta(1e-6).lambdaGroupSize(40).build();
        SecondMomentEstimate est = SecondMomentEstimate.run(RecursiveSecondMoment.fromParams(p),
                GaussianTestData.centred(4000, new double[] {1, 0.5, 0.2}, 8), RandomSource.secure(), CPU);
        assertTrue(est.passed());
        PrivacyGuarantee g = est.guarantee();
        assertEquals(PrivacyGuarantee.TYPE_APPROX_DP, g.type());
        PrivacyGuarantee composed = PrivacyAccountant.composeSteps(NeighbouringRelation.REPLACE_ONE, List.of(
                Release.approxDp("a", NeighbouringRelation.REPLACE_ONE, ApproxDp.of(0.5, 2e-7)),
                Release.zcdp("b", NeighbouringRelation.REPLACE_ONE, Zcdp.of(0.5))), 1e-6, true, null);
        assertEquals(composed.approxDp().orElseThrow(), g.approxDp().orElseThrow());
        assertEquals(composed.conversion(), g.conversion());
        double handSummed = 0.5 + Zcdp.of(0.5).toApproxDpTight(8e-7).epsilon();
        assertTrue(g.approxDp().orElseThrow().epsilon() <= handSummed + 1e-12, g.describe());
        assertTrue(g.approxDp().orElseThrow().delta() <= 1e-6);
        assertEquals(NeighbouringRelation.REPLACE_ONE, g.relation());
        assertEquals(0.5, (Double) est.parameters().get("lambdaEpsilon"), 0.0);
        assertFalse(est.parameters().containsKey("levels"), "the schedule depends on the private lambda~: not stated");
        assertTrue(est.release().failMeaning().contains("Algorithm 4"));
        // default lambda delta: half of delta
        assertEquals(5e-7, SecondMomentParams.builder().budget(Zcdp.of(0.5)).radius(1).lambdaBudget(1.0, null).build().lambdaDelta());
    }

    /** Spec §7.2 (a): rank-deficient data put Algorithm 4 in the {0} bucket, and the pipeline returns FAIL only. */
    @Test
    void rankDeficientDataWithPrivateLambdaFails() {
        double[][] a = new double[2000][3];
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(4);
        for (double[] row : a) {
            row[0] = rnd.nextGaussian();
            row[1] = rnd.nextGaussian();
        }
        SecondMomentEstimate est = SecondMomentEstimate.run(RecursiveSecondMoment.fromParams(
                SecondMomentParams.builder().budget(Zcdp.of(1)).radius(5).lambdaBudget(1.0, null).build()),
                RowBlockMatrix.of(a), RandomSource.insecureSeeded(2), CPU);
        assertFalse(est.passed());
        assertThrows(IllegalStateException.class, est::matrix);
        assertTrue(est.release().values().isEmpty(), "a FAIL releases nothing");
        assertTrue(est.release().toMap().containsKey("failMeaning"));
    }

    @Test
    void publicBoundModeClipsLongRowsLikeClipMode() {
        // issue 24, item 5: a row beyond R is clipped in both modes, never an error (failed before issue 24: the
        // public-bound mode threw "covering radius R=2.0")
        RowBlockMatrix x = data();
        SecondMomentEstimate bound = SecondMomentEstimate.run(
                RecursiveSecondMoment.fromParams(params().clipToRadius(false).build()), x,
                RandomSource.insecureSeeded(1), CPU);
        SecondMomentEstimate clip = SecondMomentEstimate.run(RecursiveSecondMoment.fromParams(params().build()), x,
                RandomSource.insecureSeeded(1), CPU);
        assertEquals(clip.passed(), bound.passed());
        if (clip.passed()) {
            assertArrayEquals(clip.matrix().data, bound.matrix().data, 0.0, "the same clipped rows, the same bits");
        }
    }

    @Test
    void rejectsInvalidParametersAndInput() {
        assertThrows(IllegalArgumentException.class, () -> SecondMomentParams.builder().budget(Zcdp.of(0)).radius(1).build());
        assertThrows(IllegalArgumentException.class, () -> SecondMomentParams.builder().budget(Zcdp.of(Double.POSITIVE_INFINITY)).radius(1).build());
        assertThrows(IllegalArgumentException.class, () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(-1).build());
        assertThrows(IllegalArgumentException.class, () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).alpha(0.6).build());
        assertThrows(IllegalArgumentException.class, () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).alpha(0).build());
        assertThrows(IllegalArgumentException.class, () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).m(0).build());
        assertThrows(IllegalArgumentException.class, () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).delta(1).build());
        assertThrows(IllegalArgumentException.class, () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).xi(0).build());
        assertThrows(IllegalArgumentException.class, () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).minEigenvalue(0.0).build());
        assertThrows(IllegalArgumentException.class,
                () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).minEigenvalue(0.1).lambdaBudget(1.0, null).build());
        assertThrows(IllegalArgumentException.class,
                () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).lambdaBudget(1.0, 1e-6).delta(1e-6).build());
        assertThrows(IllegalArgumentException.class,
                () -> SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).lambdaBudget(null, 1e-7).build());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).build()));
        assertTrue(missing.getMessage().contains("--min-eigenvalue"));
        RecursiveSecondMoment ok = RecursiveSecondMoment.fromParams(params().build());
        RowBlockMatrix nan = RowBlockMatrix.of(new double[][] {{1, 2, 3, 4}, {1, Double.NaN, 0, 0}});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SecondMomentEstimate.run(ok, nan, RandomSource.insecureSeeded(1), CPU));
        assertTrue(e.getMessage().contains("row 2"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> SecondMomentEstimate.run(ok, RowBlockMatrix.zeros(0, 4), RandomSource.insecureSeeded(1), CPU));
        assertThrows(IllegalArgumentException.class, () -> RecursiveSecondMoment.fromParams(
                SecondMomentParams.builder().budget(Zcdp.of(1)).radius(1).minEigenvalue(2.0).build()));
        assertThrows(IllegalArgumentException.class, () -> SecondMomentMethods.create("nope", params().build()));
    }

    @Test
    void registryCreatesTheDefaultMethod() {
        assertEquals("recursive", SecondMomentMethods.DEFAULT);
        assertTrue(SecondMomentMethods.all().containsKey("recursive"));
        assertEquals("recursive", SecondMomentMethods.create(" Recursive ", params().build()).name());
    }

    private static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }
}
