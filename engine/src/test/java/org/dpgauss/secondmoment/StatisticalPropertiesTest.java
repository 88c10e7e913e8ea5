package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/**
 * Statistical properties P4-P7 of spec second-moment-estimation §4.3 on Gaussian data (d = 3, n = 20000,
 * condition number 1e4 plus three outliers of norm R, public oracle lambda = 0.9 lambda_min, R = 3 so the largest rows are clipped, m = 6,
 * rho = 10). The sample size meets the §4.1 condition for event E with xi = 1e-5, checked first; then P7 (event E)
 * fails with probability at most 1e-5 per run by the §3.3 bound, and P4-P6 follow deterministically from E (Lemmas
 * 3.4/3.9, Cor 3.5/3.10). 8 seeds: failure probability of the test at most 8e-5.
 */
class StatisticalPropertiesTest {

    private static final ComputeEngine CPU = CpuEngine.instance();
    private static final double XI = 1e-5;
    private static final int M = 6;
    private static final double ALPHA = 0.5;

    @Test
    void eventEAndLemmas34To310HoldAtEveryLevel() {
        RowBlockMatrix raw = GaussianTestData.centred(20_000, new double[] {1, 1e-2, 1e-4}, 2025);
        double radius = 3;
        // three outliers of norm R along the middle eigen-direction: leverage ~900, in P_tail, yet light enough that
        // Sigma_eff >= (1 - alpha) Sigma (Lemma 3.8's conclusion, checked below). Along the smallest direction they
        // would break that hypothesis (the data would not be subsamplable) and P5 fails, as it should.
        raw.setRow(0, new double[] {0, 3, 0});
        raw.setRow(1, new double[] {0, -3, 0});
        raw.setRow(2, new double[] {0.3, 2.9, 0.1});
        RowBlockMatrix x = SecondMomentTestData.clipped(raw, radius);
        DMatrixRMaj sigma = SpectralMetrics.secondMoment(x, CPU);
        double lambda = 0.9 * SpectralMetrics.eigenvalues(sigma)[0];
        boolean[] tail = tail(x, sigma, M * (1 + ALPHA));
        // P3 (Lemma 3.8) as a checked precondition: lambda_min(GenEig(Sigma_eff, Sigma)) >= 1 - alpha
        assertTrue(SpectralMetrics.generalizedEigenvalues(effective(x, tail), sigma)[0] >= 1 - ALPHA);
        SecondMomentParams p = SecondMomentParams.builder().budget(Zcdp.of(10)).radius(radius).m(M).alpha(ALPHA).minEigenvalue(lambda).build();
        int recursionClipped = 0;
        for (long seed = 1; seed <= 8; seed++) {
            Trace trace = new Trace();
            SymmetricNoise noise = SymmetricNoise.secure(RandomSource.insecureSeeded(seed));
            SecondMomentEstimate.withNoise(p, noise).run(raw, RandomSource.insecureSeeded(seed), CPU, trace);
            int levels = trace.levels.size();
            assertTrue(levels >= 3, "several levels: " + levels);
            if (seed == 1) {
                double kappa0 = trace.levels.get(0).kappa;
                LevelSchedule s = LevelSchedule.of(kappa0, M, 20_000, 3, 10, NoiseScaling.LEVELS, noise);
                assertTrue(s.eventEConditionHolds(XI), "the §4.1 condition for E holds at this n");
            }
            for (int t = 0; t < levels; t++) {
                Trace.Level lv = trace.levels.get(t);
                // P5 (Cor 3.10): lambda_min(Sigma(X_t)) >= 1
                assertTrue(SpectralMetrics.eigenvalues(lv.gram)[0] >= 1, "P5 at level " + t);
                if (t == levels - 1) {
                    continue;
                }
                // P7 (event E): ||N_t|| <= kappa_t / (80 m)
                DMatrixRMaj noiseT = CommonOps_DDRM.subtract(lv.noisy, lv.gram, null);
                assertTrue(SpectralMetrics.spectralNorm(noiseT) <= lv.kappa / (80.0 * M), "P7 at level " + t);
                // P6 (Cor 3.5): I <= (8/7) Pi Sigma_t Pi <= (3/7) kappa_t I, before clipping
                double[] ev = SpectralMetrics.eigenvalues(lv.transformedGramBeforeClip);
                assertTrue(ev[0] >= 1 && ev[ev.length - 1] <= 3.0 / 7 * lv.kappa, "P6 at level " + t);
            }
            // P4 (Lemma 3.9): every row clipped by the recursion is in P_tail
            for (int i = 0; i < tail.length; i++) {
                if (trace.productClipFactors[i] < 1) {
                    recursionClipped++;
                    assertTrue(tail[i], "P4: row " + i + " clipped but not in P_tail");
                }
            }
        }
        assertTrue(recursionClipped > 0, "the recursion clips some (tail) rows, so P4 is exercised");
    }

    /** Sigma_eff = (1/n) sum over rows outside P_tail of x x^T (spec §1.4). */
    static DMatrixRMaj effective(RowBlockMatrix x, boolean[] tail) {
        int d = x.cols();
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        double[] row = new double[d];
        for (int i = 0; i < x.rows(); i++) {
            if (tail[i]) {
                continue;
            }
            x.copyRow(i, row, 0);
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    s.add(a, b, row[a] * row[b] / x.rows());
                }
            }
        }
        return s;
    }

    /** P_tail = {x : x^T Sigma^-1 x > m (1 + alpha)} (spec §1.4, computable form). */
    static boolean[] tail(RowBlockMatrix x, DMatrixRMaj sigma, double threshold) {
        DMatrixRMaj inv = sigma.copy();
        if (!CommonOps_DDRM.invert(inv)) {
            throw new AssertionError("Sigma is singular");
        }
        int d = x.cols();
        boolean[] out = new boolean[x.rows()];
        double[] row = new double[d];
        for (int i = 0; i < x.rows(); i++) {
            x.copyRow(i, row, 0);
            double q = 0;
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    q += row[a] * inv.get(a, b) * row[b];
                }
            }
            out[i] = q > threshold;
        }
        return out;
    }
}
