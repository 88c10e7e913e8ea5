package org.dpgauss.mean.anisotropic;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.NoiseGrid;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/**
 * Monte Carlo failure rates of spec anisotropic-mean-estimation §6 (U1, U2, U6, U7) and the exact bottom rate of
 * Algorithm 1. Each test compares an observed count of failures over T independent trials with the claimed
 * probability p: it asserts {@code count <= p T + 4 sqrt(T p (1 - p))}, which a correct implementation violates with
 * probability below 1e-4 (normal approximation to the binomial; the true rates are far below the claims here).
 */
@Tag("slow")
class MonteCarloFailureRatesTest {

    private static int allowed(double p, int trials) {
        return (int) Math.floor(p * trials + 4 * Math.sqrt(trials * p * (1 - p)));
    }

    @Test
    void u6EmpiricalMeanErrorExceedsLemma214RarelyEnough() {
        // U6 (Lemma 2.14): ||mean - mu|| <= sqrt(tr S/n) + sqrt(2 ||S|| ln(1/beta)/n) w.p. >= 1 - beta.
        int n = 50;
        int d = 20;
        double beta = 0.05;
        int trials = 2000;
        double[] v = AnisotropicTestData.polynomialSpectrum(d);
        double[] mu = AnisotropicTestData.farMean(d);
        double tr = Arrays.stream(v).sum();
        double bound = Math.sqrt(tr / n) + Math.sqrt(2 * v[0] * Math.log(1 / beta) / n);
        int failures = 0;
        for (int t = 0; t < trials; t++) {
            RowBlockMatrix x = GaussianTestData.diagonal(n, mu, v, 0x06000000L + t);
            failures += AnisotropicTestData.distance(x.columnMeans(), mu) > bound ? 1 : 0;
        }
        assertTrue(failures <= allowed(beta, trials), failures + " of " + trials + " above " + bound);
    }

    @Test
    void u1AndU2FilterKeepsEverythingAndTheorem33BoundHolds() {
        // U1 (Lemma 3.2): Pr[C != X] <= beta at lambda*(beta); U2 (Thm 3.3): Pr[FAIL or err > B] <= 3.5 beta when
        // n >= 2 ln(1/(delta beta))/epsilon (internal values). n = 400, d = 10, eps* = 8 (internal 8/42), beta = 0.05.
        int n = 400;
        int d = 10;
        double beta = 0.05;
        int trials = 200;
        double[] v = AnisotropicTestData.polynomialSpectrum(d);
        double[] mu = AnisotropicTestData.farMean(d);
        ShapeMatrix sigma = ShapeMatrix.diagonal(v);
        RescaledAveraging known = RescaledAveraging.knownCovariance(sigma, n, beta, ApproxDp.of(8, 1e-6));
        RescaledAveraging folk = AnisotropicMethod.FOLKLORE.estimator(sigma, n, beta, ApproxDp.of(8, 1e-6));
        assertTrue(n >= known.minimumRowsForAccuracy(beta), "Thm 3.3 precondition " + known.minimumRowsForAccuracy(beta));
        double tr = sigma.tracePower(1);
        double bKnown = known.accuracyBound(tr, v[0], n, beta);
        double bFolk = folk.accuracyBound(tr, v[0], n, beta);
        int notAllKept = 0;
        int u2Failures = 0;
        double[] row = new double[d];
        double[] out = new double[d];
        for (int t = 0; t < trials; t++) {
            RowBlockMatrix x = GaussianTestData.diagonal(n, mu, v, 0x01020000L + t);
            RowBlockMatrix y = RowBlockMatrix.zeros(n, d);
            for (int i = 0; i < n; i++) {
                x.copyRow(i, row, 0);
                sigma.applyPower(-0.25, row, out);
                y.setRow(i, out);
            }
            int minSigma = Arrays.stream(CpuEngine.instance().neighbourCounts(y, known.lambda())).min().orElseThrow();
            int minI = Arrays.stream(CpuEngine.instance().neighbourCounts(x, folk.lambda())).min().orElseThrow();
            notAllKept += minSigma < n ? 1 : 0;
            notAllKept += minI < n ? 1 : 0;
            AnisotropicMeanResult a = known.release(x, RandomSource.insecureSeeded(0x0200 + t));
            AnisotropicMeanResult b = folk.release(x, RandomSource.insecureSeeded(0x0300 + t));
            u2Failures += a.isFail() || AnisotropicTestData.distance(a.estimate(), mu) > bKnown ? 1 : 0;
            u2Failures += b.isFail() || AnisotropicTestData.distance(b.estimate(), mu) > bFolk ? 1 : 0;
        }
        // 2 * trials trials each (M = Sigma and M = I)
        assertTrue(notAllKept <= allowed(beta, 2 * trials), "C != X in " + notAllKept + " of " + 2 * trials);
        assertTrue(u2Failures <= allowed(3.5 * beta, 2 * trials), "U2 failed " + u2Failures + " of " + 2 * trials);
    }

    @Test
    void u7VarianceStatisticsAreValidWithTheChiSquareRule() {
        // U7 (Lemma 4.3): with l from the chi^2 rule, each group has all d coordinates in [S_ii/2, 2 S_ii] w.p. >= 7/8,
        // and V is valid (>= 4m/5 good groups) w.p. >= 1 - exp(-0.01125 m) (Hoeffding, §4.3).
        int d = 10;
        UnknownCovarianceMean alg2 = UnknownCovarianceMean.of(30000, d, ApproxDp.of(20, 1e-3), 0.5);
        int ell = alg2.ell();
        int m = alg2.groups();
        assertEquals(30, ell);
        double[] v = AnisotropicTestData.polynomialSpectrum(d);
        double[] mu = AnisotropicTestData.farMean(d);
        int trials = 100;
        long goodGroups = 0;
        int invalid = 0;
        for (int t = 0; t < trials; t++) {
            double[][] stats = alg2.statistics(GaussianTestData.diagonal(2 * ell * m, mu, v, 0x07000000L + t));
            for (double[] g : stats) {
                boolean ok = true;
                for (int i = 0; i < d; i++) {
                    ok &= g[i] >= v[i] / 2 && g[i] <= 2 * v[i];
                }
                goodGroups += ok ? 1 : 0;
            }
            invalid += VarianceTestData.isValid(stats, v) ? 0 : 1;
        }
        long groups = (long) trials * m;
        double rate = goodGroups / (double) groups;
        assertTrue(rate >= 7.0 / 8 - 4 * Math.sqrt(0.875 * 0.125 / groups), "per-group success " + rate);
        assertTrue(invalid <= allowed(Math.exp(-0.01125 * m), trials), "invalid V in " + invalid + " of " + trials);
    }

    @Test
    void bottomIsReturnedExactlyAtTheNoisyCountsRate() {
        // Step 5 of Algorithm 1: with every pair within lambda (|C| = n), FAIL <=> n^ <= 0 <=> Z <= K - n/g_L, whose
        // probability for the discrete Laplace (q = e^{-1/t}) is q^{n/g_L - K} / (1 + q). NOMINAL eps = 1, delta = 0.01
        // gives a shift of ~4.6 rows; with n = 5 the rate is ~0.34. 4000 releases: sd 0.0075, tolerance 5 sd.
        double eps = 1;
        double delta = 0.01;
        int n = 5;
        RescaledAveraging a = RescaledAveraging.of(ShapeMatrix.identity(2), 1.0, ApproxDp.of(eps, delta),
                NeighbouringRelation.REPLACE_ONE, Calibration.NOMINAL_UNCERTIFIED);
        double g = NoiseGrid.spacing("b", 1 / eps);
        long t = NoiseGrid.integerScale("b", 1 / eps, g);
        long k = (long) Math.ceil(t * Math.log(1 / delta)) + 1;
        long a0 = Math.round(n / g) - k;
        assertTrue(a0 > 0);
        double q = Math.exp(-1.0 / t);
        double exact = Math.exp(a0 * Math.log(q)) / (1 + q);
        RowBlockMatrix x = RowBlockMatrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            x.setRow(i, new double[] {3 + 0.01 * i, -2});
        }
        RandomSource r = RandomSource.insecureSeeded(0xB07);
        int trials = 4000;
        int fails = 0;
        for (int i = 0; i < trials; i++) {
            fails += a.release(x, r).isFail() ? 1 : 0;
        }
        double rate = fails / (double) trials;
        assertEquals(exact, rate, 5 * Math.sqrt(exact * (1 - exact) / trials), "exact FAIL probability " + exact);
    }
}
