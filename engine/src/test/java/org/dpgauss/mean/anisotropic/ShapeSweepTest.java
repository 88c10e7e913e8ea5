package org.dpgauss.mean.anisotropic;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/**
 * U12 (shape sweep, baseline B2) and U13 (dimension-free error at fixed {@code tr Sigma^{1/2}}) of spec
 * anisotropic-mean-estimation §6, with Algorithm 1 in its provable calibration (eps* = 8, delta* = 1e-6).
 */
@Tag("slow")
class ShapeSweepTest {

    private static final double EPS = 8;
    private static final double DELTA = 1e-6;
    private static final double BETA = 0.05;
    private static final int N = 600;

    private static double[] powers(double[] v, double p) {
        return Arrays.stream(v).map(x -> Math.pow(x, p)).toArray();
    }

    /** Mean squared error of {@code runs} releases on datasets {@code key0 + r}. */
    private static double mse(RescaledAveraging a, double[] mu, double[] v, int runs, long key0) {
        double s = 0;
        for (int r = 0; r < runs; r++) {
            RowBlockMatrix x = GaussianTestData.diagonal(N, mu, v, key0 + r);
            AnisotropicMeanResult res = a.release(x, RandomSource.insecureSeeded(key0 * 31 + r));
            assertTrue(!res.isFail(), "FAIL at n=" + N + ", far above the count shift");
            double e = AnisotropicTestData.distance(res.estimate(), mu);
            s += e * e / runs;
        }
        return s;
    }

    @Test
    void u12ShapeSigmaBeatsIdentityAndMahalanobisShapes() {
        // M = Sigma^{2t}: noise^2 = s_t^2 tr Sigma^t with s_t ~ lambda_t = lambda*(beta) for A = Sigma^{1-t}.
        // Sigma_ii = i^-2, d = 400: predicted noise^2 ratios t=0 : t=1/2 : t=1 ~ 20 : 1 : 2.3 (with the log term
        // of lambda; without it, Cauchy-Schwarz puts the minimum at t = 1/2, spec §6 U12).
        int d = 400;
        double[] v = AnisotropicTestData.polynomialSpectrum(d);
        double[] mu = AnisotropicTestData.farMean(d);
        DMatrixRMaj sigma = CommonOps_DDRM.diag(v);
        double tr = Arrays.stream(v).sum();
        double[] ts = {0, 0.5, 1};
        int[] runs = {3, 16, 16};
        double[] predicted = new double[3];
        double[] measured = new double[3];
        for (int k = 0; k < 3; k++) {
            ShapeMatrix m = ts[k] == 0 ? ShapeMatrix.identity(d) : ShapeMatrix.diagonal(powers(v, 2 * ts[k]));
            RescaledAveraging a = RescaledAveraging.provable(m, LambdaRule.general(sigma, m, N, BETA), ApproxDp.of(EPS, DELTA));
            predicted[k] = Algorithm1Predictions.meanSquaredError(a, N, tr);
            measured[k] = mse(a, mu, v, runs[k], 0x12000000L + 1000 * k);
            // noise weights are the eigenvalues of M^{1/2} = Sigma^t; tolerance 4.5 sd of the average (failure < 1e-4)
            double sd = Algorithm1Predictions.relativeSdOfMse(powers(v, ts[k]), runs[k]);
            if (ts[k] != 1) { // t = 1 has ~2.5 effective degrees of freedom: too noisy for a 16-run level check
                assertEquals(1.0, measured[k] / predicted[k], 4.5 * sd + 0.03,
                        "t=" + ts[k] + ": mse " + measured[k] + " vs predicted " + predicted[k]);
            }
        }
        assertTrue(predicted[1] < predicted[2] && predicted[2] < predicted[0], Arrays.toString(predicted));
        assertTrue(predicted[2] / predicted[1] > 2, Arrays.toString(predicted));
        // measured ordering: t = 1/2 vs t = 1 has log-ratio sd ~0.23 at 16 runs each, predicted log-ratio 0.83
        // (3.6 sd, failure < 2e-4); vs t = 0 the gap is 20x
        assertTrue(measured[1] < measured[2] && measured[1] < measured[0], Arrays.toString(measured));
    }

    @Test
    void u13KnownCovarianceErrorIsDimensionFreeWhileFolkloreGrowsLikeSqrtD() {
        // Spike spectrum: sigma_1..5 = 1, sigma_i = 1/d beyond: tr Sigma^{1/2} = 5 + (d-5)/d stays ~6 as d grows.
        double[] rmsKnown = new double[2];
        double[] rmsFolk = new double[2];
        double[] predKnown = new double[2];
        double[] predFolk = new double[2];
        int[] dims = {50, 400};
        for (int k = 0; k < 2; k++) {
            int d = dims[k];
            double[] v = new double[d];
            for (int i = 0; i < d; i++) {
                v[i] = i < 5 ? 1 : 1.0 / ((double) d * d);
            }
            double tr = Arrays.stream(v).sum();
            double[] mu = AnisotropicTestData.farMean(d);
            ShapeMatrix s = ShapeMatrix.diagonal(v);
            RescaledAveraging known = RescaledAveraging.knownCovariance(s, N, BETA, ApproxDp.of(EPS, DELTA));
            RescaledAveraging folk = AnisotropicMethod.FOLKLORE.estimator(s, N, BETA, ApproxDp.of(EPS, DELTA));
            predKnown[k] = Math.sqrt(Algorithm1Predictions.meanSquaredError(known, N, tr));
            predFolk[k] = Math.sqrt(Algorithm1Predictions.meanSquaredError(folk, N, tr));
            rmsKnown[k] = Math.sqrt(mse(known, mu, v, 12, 0x13000000L + 100 * k));
            rmsFolk[k] = Math.sqrt(mse(folk, mu, v, 6, 0x13100000L + 100 * k));
        }
        double pk = predKnown[1] / predKnown[0];
        double pf = predFolk[1] / predFolk[0];
        assertTrue(pk < 1.1, "known: predicted growth " + pk);
        assertTrue(pf > 2.6, "folklore: predicted growth " + pf + " (sqrt(8) = 2.83)");
        // known: ~7 effective dof x 12 runs, RMS sd ~7.7% each, ratio sd ~11%: 1.35 is > 3.2 sd above pk (< 7e-4);
        // folklore: d dof x 6 runs, ratio sd < 5%: 0.82 pf is > 3.6 sd below (< 2e-4)
        assertTrue(rmsKnown[1] / rmsKnown[0] < 1.35, "known grew " + rmsKnown[1] / rmsKnown[0]);
        assertTrue(rmsFolk[1] / rmsFolk[0] > 0.82 * pf, "folklore grew " + rmsFolk[1] / rmsFolk[0] + " vs " + pf);
    }
}
