package org.dpgauss.mean.anisotropic;

import org.dpgauss.privacy.ApproxDp;
import static org.dpgauss.mean.anisotropic.AnisotropicTestData.distance;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/**
 * Algorithm 1 (spec anisotropic-mean-estimation §3) against the properties of spec §6. Every statistical assertion
 * uses a fixed seed; the stated failure probability is that of a fresh seed.
 */
class RescaledAveragingTest {

    private static final double EPS = 4.0;       // target, replace-one; internal epsilon = 4/42
    private static final double DELTA = 1e-6;
    private static final double BETA = 0.01;

    /** Mean squared error of T releases on the same data. */
    private static double meanSquaredError(RescaledAveraging m, RowBlockMatrix x, double[] mu, int trials,
            RandomSource r, double bound) {
        double s = 0;
        for (int t = 0; t < trials; t++) {
            AnisotropicMeanResult res = m.release(x, r);
            assertFalse(res.isFail(), "n is above Thm 3.3's minimum, FAIL has probability <= beta/2");
            double err = distance(res.estimate(), mu);
            assertTrue(err <= bound, "error " + err + " above the Thm 3.3 bound " + bound);
            s += err * err;
        }
        return s / trials;
    }

    /** The expected squared noise norm {@code sigma(n^)^2 tr M^{1/2}} at the typical count {@code n - log(1/delta)/eps}. */
    private static double predictedNoise2(RescaledAveraging m, int n, int d) {
        double nHat = n - Math.log(1 / m.internalDelta()) / m.internalEpsilon();
        double s = m.meanSigma(nHat, d);
        return s * s * m.shape().tracePower(0.5);
    }

    @Test
    void knownCovarianceBeatsFolkloreOnPolynomiallyDecayingSpectrum() {
        // U2/U12/§10: Sigma_ii = i^-2, d = 50, n = 1000 (> 2 log(1/(delta beta))/eps = 616 at the internal values).
        // Predicted noise: M = Sigma gives lambda^2 tr Sigma^{1/2} (tr = 4.5), M = I gives lambda^2 d (d = 50):
        // ratio ~ 9. Tolerances: the mean of 15 squared norms has relative sd ~ 0.1 (M = Sigma, ~12.5 effective
        // degrees of freedom each) and ~ 0.05 (M = I); plus +-4% from the Laplace count. A +-35% window is > 3 sd:
        // failure probability < 0.01 for a fresh seed; the ordering check (ratio > 4) fails with far less.
        int n = 1000;
        int d = 50;
        double[] spec = AnisotropicTestData.polynomialSpectrum(d);
        double[] mu = AnisotropicTestData.farMean(d);
        RowBlockMatrix x = GaussianTestData.diagonal(n, mu, spec, 2024);
        ShapeMatrix sigma = ShapeMatrix.diagonal(spec);
        double trace = sigma.tracePower(1.0);
        RescaledAveraging known = RescaledAveraging.knownCovariance(sigma, n, BETA, ApproxDp.of(EPS, DELTA));
        RescaledAveraging folk = RescaledAveraging.folklore(d, trace, 1.0, n, BETA, ApproxDp.of(EPS, DELTA));
        assertTrue(n >= known.minimumRowsForAccuracy(BETA));
        RandomSource r = RandomSource.insecureSeeded(42);
        int trials = 15;
        double mseKnown = meanSquaredError(known, x, mu, trials, r, known.accuracyBound(trace, 1.0, n, BETA));
        double mseFolk = meanSquaredError(folk, x, mu, trials, r, folk.accuracyBound(trace, 1.0, n, BETA));
        double sampling = trace / n; // E||mean - mu||^2
        double predKnown = predictedNoise2(known, n, d) + sampling;
        double predFolk = predictedNoise2(folk, n, d) + sampling;
        assertEquals(1.0, mseKnown / predKnown, 0.35, "M = Sigma: mse " + mseKnown + " vs predicted " + predKnown);
        assertEquals(1.0, mseFolk / predFolk, 0.35, "M = I: mse " + mseFolk + " vs predicted " + predFolk);
        assertTrue(predFolk / predKnown > 6, "spec §10 predicts ~9x, got " + predFolk / predKnown);
        assertTrue(mseFolk > 4 * mseKnown, "known-covariance mse " + mseKnown + " vs folklore " + mseFolk);
    }

    @Test
    void rotatedDenseCovarianceMatchesPrediction() {
        // Same property with a dense (rotated) Sigma, exercising the eigendecomposition path; d = 20, n = 800
        // (> 616). Window +-40% on the mean of 30 squared norms (effective dof ~ 8 each, relative sd ~ 0.09):
        // failure probability < 0.001. (A 150-release run of this seed gives mse/predicted = 1.001.)
        int n = 800;
        int d = 20;
        double[] spec = AnisotropicTestData.polynomialSpectrum(d);
        DMatrixRMaj q = randomRotation(d, 77);
        RowBlockMatrix z = GaussianTestData.diagonal(n, new double[d], spec, 99);
        double[] mu = AnisotropicTestData.farMean(d);
        RowBlockMatrix x = RowBlockMatrix.zeros(n, d);
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            z.copyRow(i, row, 0);
            for (int a = 0; a < d; a++) {
                double s = mu[a];
                for (int b = 0; b < d; b++) {
                    s += q.get(a, b) * row[b];
                }
                x.set(i, a, s);
            }
        }
        DMatrixRMaj sig = new DMatrixRMaj(d, d);
        DMatrixRMaj tmp = new DMatrixRMaj(d, d);
        CommonOps_DDRM.mult(q, CommonOps_DDRM.diag(spec), tmp);
        CommonOps_DDRM.multTransB(tmp, q, sig);
        for (int a = 0; a < d; a++) {       // symmetrise exactly
            for (int b = a + 1; b < d; b++) {
                double s = 0.5 * (sig.get(a, b) + sig.get(b, a));
                sig.set(a, b, s);
                sig.set(b, a, s);
            }
        }
        ShapeMatrix sigma = ShapeMatrix.of(sig);
        double trace = sigma.tracePower(1.0);
        RescaledAveraging known = RescaledAveraging.knownCovariance(sigma, n, BETA, ApproxDp.of(EPS, DELTA));
        RescaledAveraging folk = RescaledAveraging.folklore(d, trace, 1.0, n, BETA, ApproxDp.of(EPS, DELTA));
        RandomSource r = RandomSource.insecureSeeded(5);
        double mseKnown = meanSquaredError(known, x, mu, 30, r, known.accuracyBound(trace, 1.0, n, BETA));
        double predKnown = predictedNoise2(known, n, d) + trace / n;
        assertEquals(1.0, mseKnown / predKnown, 0.4, "mse " + mseKnown + " vs predicted " + predKnown);
        assertTrue(predictedNoise2(folk, n, d) > 2.5 * predictedNoise2(known, n, d));
    }

    @Test
    void diagonalAndDenseFormsOfTheSameMGiveTheSameRelease() {
        int n = 300;
        int d = 8;
        double[] spec = AnisotropicTestData.polynomialSpectrum(d);
        RowBlockMatrix x = GaussianTestData.diagonal(n, AnisotropicTestData.farMean(d), spec, 3);
        ShapeMatrix diag = ShapeMatrix.diagonal(spec);
        ShapeMatrix dense = ShapeMatrix.of(CommonOps_DDRM.diag(spec));
        double lambda = LambdaRule.knownCovariance(diag, n, BETA);
        RescaledAveraging a = RescaledAveraging.of(diag, lambda, ApproxDp.of(1.0, 0.1), NeighbouringRelation.REPLACE_ONE,
                Calibration.NOMINAL_UNCERTIFIED);
        RescaledAveraging b = RescaledAveraging.of(dense, lambda, ApproxDp.of(1.0, 0.1), NeighbouringRelation.REPLACE_ONE,
                Calibration.NOMINAL_UNCERTIFIED);
        double[] ea = a.release(x, RandomSource.insecureSeeded(8)).estimate();
        double[] eb = b.release(x, RandomSource.insecureSeeded(8)).estimate();
        // Same random stream; whitening differs only by rounding, so the grid index may move by one spacing.
        double tol = 4 * a.meanGrid(n / 2.0) * Math.sqrt(spec[0]);
        for (int j = 0; j < d; j++) {
            assertEquals(ea[j], eb[j], tol + 1e-12 * Math.abs(ea[j]));
        }
    }

    @Test
    void failsWhenTheNoisyCountIsBelowZero() {
        // §3.1 step 5 / §9: n = 50 < log(1/delta)/eps = 264 (internal values): FAIL unless a Laplace draw of scale
        // 10.5 exceeds 214, probability e^-20.4 / 2 < 1e-9 per release.
        int d = 10;
        double[] spec = AnisotropicTestData.polynomialSpectrum(d);
        RowBlockMatrix x = GaussianTestData.diagonal(50, new double[d], spec, 1);
        RescaledAveraging m = RescaledAveraging.knownCovariance(ShapeMatrix.diagonal(spec), 50, BETA, ApproxDp.of(EPS, DELTA));
        RandomSource r = RandomSource.insecureSeeded(6);
        for (int t = 0; t < 10; t++) {
            AnisotropicMeanResult res = m.release(x, r);
            assertTrue(res.isFail());
            assertTrue(res == AnisotropicMeanResult.FAIL, "FAIL carries nothing: it is the single bottom value");
            assertThrows(IllegalStateException.class, res::estimate);
            assertThrows(IllegalStateException.class, res::guarantee);
        }
    }

    @Test
    void failsWhenTheFilterKeepsNothing() {
        // Points pairwise farther apart than lambda: every c_j = 1 <= n/2, p_j = 0, |C| = 0: FAIL deterministically,
        // even with a nominal epsilon so large that the count would otherwise pass. The same data with a radius
        // covering all points is released.
        int n = 200;
        RowBlockMatrix x = RowBlockMatrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            x.set(i, 0, 10.0 * i);
        }
        RescaledAveraging tight = RescaledAveraging.of(ShapeMatrix.identity(2), 1.0, ApproxDp.of(1000, 0.5),
                NeighbouringRelation.REPLACE_ONE, Calibration.NOMINAL_UNCERTIFIED);
        RescaledAveraging wide = RescaledAveraging.of(ShapeMatrix.identity(2), 3000.0, ApproxDp.of(1000, 0.5),
                NeighbouringRelation.REPLACE_ONE, Calibration.NOMINAL_UNCERTIFIED);
        RandomSource r = RandomSource.insecureSeeded(12);
        assertTrue(tight.release(x, r).isFail());
        AnisotropicMeanResult ok = wide.release(x, r);
        assertFalse(ok.isFail());
        assertFalse(ok.guarantee().certified(), "nominal calibration is uncertified");
    }

    @Test
    void outlierDoesNotMoveTheEstimate() {
        // Privacy sanity (a), spec §6: a row at 1e6 is dropped by the filter (p = 0), so the estimate of the
        // cluster stays within the Thm 3.3 bound (failure probability <= 3.5 beta per release).
        int n = 1001;
        int d = 10;
        double[] spec = AnisotropicTestData.polynomialSpectrum(d);
        double[] mu = AnisotropicTestData.farMean(d);
        RowBlockMatrix x = GaussianTestData.diagonal(n, mu, spec, 21);
        x.set(n - 1, 0, 1e6);
        ShapeMatrix sigma = ShapeMatrix.diagonal(spec);
        RescaledAveraging m = RescaledAveraging.knownCovariance(sigma, n, BETA, ApproxDp.of(EPS, DELTA));
        double bound = m.accuracyBound(sigma.tracePower(1), 1.0, n, BETA);
        AnisotropicMeanResult res = m.release(x, CpuEngine.instance(), RandomSource.insecureSeeded(4));
        assertFalse(res.isFail());
        assertTrue(distance(res.estimate(), mu) <= bound);
    }

    @Test
    void noisyCountExceedsTheTrueCountWithProbabilityAtMostHalfDelta() {
        // U4 (Lemma 3.4): Pr[n^ >= |C|] = delta/2 for continuous Laplace; our grid version is <= delta/2 and within
        // a relative 1e-5 of it. Nominal (eps, delta) = (1, 0.2): rate 0.1; 200000 draws, sd 6.7e-4, window 4 sd
        // (failure probability < 1e-4).
        RescaledAveraging m = RescaledAveraging.of(ShapeMatrix.identity(1), 1.0, ApproxDp.of(1.0, 0.2),
                NeighbouringRelation.REPLACE_ONE, Calibration.NOMINAL_UNCERTIFIED);
        RandomSource r = RandomSource.insecureSeeded(31);
        int kept = 100;
        long exact = Math.round(kept / m.countGrid());
        int trials = 200_000;
        int above = 0;
        for (int t = 0; t < trials; t++) {
            if (m.noisyCountIndex(kept, r) >= exact) {
                above++;
            }
        }
        assertEquals(0.1, above / (double) trials, 0.0027);
    }

    @Test
    void noisyCountRarelyFallsBelowHalfTheRowsAtTheMinimumSampleSize() {
        // U3 (Thm 3.3 failure budget): with C = X and n >= 2 log(1/(delta beta))/eps, Pr[n^ < n/2] <= beta/2. At
        // n = ceil(minimum) the event is Lap(1/eps) < -log(1/beta)/eps (up to one grid step), probability ~ beta/2
        // = 0.005. 40000 draws: sd 3.5e-4; window [0.0035, 0.0065] is > 4 sd (failure probability < 1e-4).
        RescaledAveraging m = RescaledAveraging.provable(ShapeMatrix.identity(1), 1.0, ApproxDp.of(EPS, DELTA));
        int n = (int) Math.ceil(m.minimumRowsForAccuracy(BETA));
        RandomSource r = RandomSource.insecureSeeded(17);
        long half = Math.round(n / 2.0 / m.countGrid());
        int trials = 40_000;
        int below = 0;
        for (int t = 0; t < trials; t++) {
            if (m.noisyCountIndex(n, r) < half) {
                below++;
            }
        }
        double rate = below / (double) trials;
        assertTrue(rate <= 0.0065 && rate >= 0.0035, "Pr[n^ < n/2] = " + rate + ", expected about beta/2 = 0.005");
    }

    @Test
    void provableCalibrationAchievesTheTargetAndNominalIsMarked() {
        RescaledAveraging p = RescaledAveraging.provable(ShapeMatrix.identity(3), 5.0, ApproxDp.of(2.0, 1e-6));
        double e = p.internalEpsilon();
        double dl = p.internalDelta();
        // replace-one from Thm 3.5 by group privacy 2: (42 eps, (1 + e^{21 eps}) e^10 delta) <= target
        assertTrue(42 * e <= 2.0 && 42 * e > 2.0 * (1 - 1e-12));
        assertTrue((1 + Math.exp(21 * e)) * Math.exp(10) * dl <= 1e-6);
        PrivacyGuarantee secure = p.guarantee();
        assertTrue(secure.certified());
        assertEquals(NeighbouringRelation.REPLACE_ONE, secure.relation());
        assertEquals(2.0, secure.approxDp().orElseThrow().epsilon());
        assertEquals(1e-6, secure.approxDp().orElseThrow().delta());
        RescaledAveraging add = RescaledAveraging.of(ShapeMatrix.identity(3), 5.0, ApproxDp.of(2.0, 1e-6),
                NeighbouringRelation.ADD_REMOVE, Calibration.PROVABLE);
        assertTrue(21 * add.internalEpsilon() <= 2.0 && Math.exp(10) * add.internalDelta() <= 1e-6);
        RescaledAveraging nominal = RescaledAveraging.of(ShapeMatrix.identity(3), 5.0, ApproxDp.of(2.0, 1e-6),
                NeighbouringRelation.REPLACE_ONE, Calibration.NOMINAL_UNCERTIFIED);
        PrivacyGuarantee g = nominal.guarantee();
        assertFalse(g.certified());
        assertTrue(g.notes().contains("NOMINAL") && g.notes().contains("NO proof"), g.notes());
        assertEquals(2.0, nominal.internalEpsilon());
    }

    @Test
    void invalidParametersAreRejectedWithNameValueRangeAndReason() {
        ShapeMatrix m = ShapeMatrix.identity(2);
        assertMessage(() -> RescaledAveraging.provable(m, 0.0, ApproxDp.of(1, 1e-6)), "lambda=0.0", "(0, inf)", "radius");
        assertMessage(() -> RescaledAveraging.provable(m, Double.NaN, ApproxDp.of(1, 1e-6)), "lambda=NaN", "(0, inf)", "radius");
        assertMessage(() -> RescaledAveraging.provable(m, 1, ApproxDp.of(0.0, 1e-6)), "epsilon=0.0", "(0, 21.0)", "1/2");
        assertMessage(() -> RescaledAveraging.provable(m, 1, ApproxDp.of(21.0, 1e-6)), "epsilon=21.0", "(0, 21.0)", "1/2");
        assertMessage(() -> RescaledAveraging.of(m, 1, ApproxDp.of(10.5, 1e-6), NeighbouringRelation.ADD_REMOVE,
                Calibration.PROVABLE), "epsilon=10.5", "(0, 10.5)", "Thm 3.5");
        assertMessage(() -> RescaledAveraging.provable(m, 1, ApproxDp.of(1, 0.0)), "delta=0.0", "(0, 1)", "approximate DP");
        // delta = 1 cannot even be stated: the typed budget refuses it
        assertMessage(() -> RescaledAveraging.provable(m, 1, ApproxDp.of(1, 1.0)), "delta=1.0", "[0, 1)", "no guarantee");
        assertMessage(() -> RescaledAveraging.provable(m, 1, ApproxDp.of(1e-6, 1e-6)), "epsilon=1.0E-6", "2^-21", "grid");
        assertMessage(() -> RescaledAveraging.of(m, 1, ApproxDp.of(2000, 0.1), NeighbouringRelation.REPLACE_ONE,
                Calibration.NOMINAL_UNCERTIFIED), "epsilon=2000.0", "(0, 1024.0]", "overflow");
        RescaledAveraging ok = RescaledAveraging.provable(m, 1, ApproxDp.of(1, 1e-6));
        RandomSource r = RandomSource.insecureSeeded(0);
        assertMessage(() -> ok.release(RowBlockMatrix.zeros(5, 3), r), "3 columns", "2 x 2", "M is");
        RowBlockMatrix nan = RowBlockMatrix.zeros(5, 2);
        nan.set(3, 1, Double.NaN);
        assertMessage(() -> ok.release(nan, r), "row 4, column 2 is not finite", "finite", "drop");
        assertMessage(() -> ok.release(RowBlockMatrix.zeros(0, 2), r), "no rows", "n >= 1", "needs");
    }

    private static void assertMessage(org.junit.jupiter.api.function.Executable call, String... parts) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), "'" + p + "' missing from: " + e.getMessage());
        }
    }

    private static DMatrixRMaj randomRotation(int d, long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        DMatrixRMaj a = new DMatrixRMaj(d, d);
        for (int i = 0; i < d * d; i++) {
            a.data[i] = r.nextDouble() - 0.5;
        }
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(d, d);
        qr.decompose(a);
        return qr.getQ(null, false);
    }
}
