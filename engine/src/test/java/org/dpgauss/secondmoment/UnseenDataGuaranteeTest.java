package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;

/**
 * P1 (Thm 3.3) on data no other test uses: a rotated multivariate Student t with 5 degrees of freedom (heavy tails,
 * so P_tail is not empty), scale eigenvalues 1, 1e-2, 1e-4 (condition number 1e4), d = 3, n = 500000, clipped to
 * R = 4, public oracle lambda = 0.9 lambda_min(Sigma), m = 8, alpha = 1/2, rho = 4, secure-style discrete Gaussian
 * noise (seeded). The test first checks the theorem's checkable hypotheses on this dataset: Sigma_eff >=
 * (1 - alpha) Sigma (Lemma 3.8's conclusion, P3) and the §4.1 condition for event E at xi = 1e-3. It then asserts the
 * conclusion with the accuracy gamma = {@link LevelSchedule#leafAccuracy} the spec's bound gives at this n:
 * {@code (1 - gamma) Sigma_eff <= output <= (1 + gamma) Sigma}, hence a positive definite (PSD-correctable without
 * change) estimate. Failure probability at most xi = 1e-3 (the §3.3 noise bound, union over the L levels; the
 * remaining steps of the proof are deterministic given the checked hypotheses).
 */
class UnseenDataGuaranteeTest {

    private static final ComputeEngine CPU = CpuEngine.instance();

    @Test
    void outputIsWithinTheTheoremsSandwichOnHeavyTailedBadlyConditionedData() {
        int n = 500_000;
        int d = 3;
        int m = 8;
        double alpha = 0.5;
        double rho = 4;
        double radius = 4;
        double xi = 1e-3;
        RowBlockMatrix raw = SecondMomentTestData.studentT(n, new double[] {1, 1e-2, 1e-4}, 5, 0x7D15EA5EL);
        RowBlockMatrix x = SecondMomentTestData.clipped(raw, radius);
        DMatrixRMaj sigma = SpectralMetrics.secondMoment(x, CPU);
        double lambda = 0.9 * SpectralMetrics.eigenvalues(sigma)[0];
        boolean[] tail = StatisticalPropertiesTest.tail(x, sigma, m * (1 + alpha));
        int tailCount = 0;
        for (boolean b : tail) {
            tailCount += b ? 1 : 0;
        }
        assertTrue(tailCount > 0, "heavy tails: P_tail is not empty");
        DMatrixRMaj sigmaEff = StatisticalPropertiesTest.effective(x, tail);
        assertTrue(SpectralMetrics.generalizedEigenvalues(sigmaEff, sigma)[0] >= 1 - alpha, "P3 hypothesis");

        SecondMomentParams p = SecondMomentParams.builder().budget(Zcdp.of(rho)).radius(radius).m(m).alpha(alpha).minEigenvalue(lambda).build();
        SymmetricNoise noise = SymmetricNoise.secure(RandomSource.insecureSeeded(0xC0FFEEL));
        SecondMomentEstimate est = SecondMomentEstimate.run(SecondMomentEstimate.withNoise(p, noise), raw,
                RandomSource.insecureSeeded(0xC0FFEEL), CPU);
        double kappa0 = (Double) est.parameters().get("kappa0");
        LevelSchedule schedule = LevelSchedule.of(kappa0, m, n, d, rho, NoiseScaling.LEVELS, noise);
        assertEquals((long) schedule.levels(), est.parameters().get("levels"));
        assertTrue(schedule.levels() >= 4, "the recursion runs: L=" + schedule.levels());
        assertTrue(schedule.eventEConditionHolds(xi), "the §4.1 condition for E holds at n=" + n);
        double gamma = schedule.leafAccuracy(xi);
        assertTrue(gamma < 0.5, "a meaningful bound: gamma=" + gamma);

        DMatrixRMaj out = est.matrix();
        double lower = SpectralMetrics.generalizedEigenvalues(out, sigmaEff)[0];
        double[] muSigma = SpectralMetrics.generalizedEigenvalues(out, sigma);
        assertTrue(lower >= 1 - gamma, "(1-gamma) Sigma_eff <= output: " + lower + " vs gamma=" + gamma);
        assertTrue(muSigma[d - 1] <= 1 + gamma, "output <= (1+gamma) Sigma: " + muSigma[d - 1]);
        assertTrue(SpectralMetrics.isPositiveDefinite(out), "positive definite, its PSD projection is itself");
        double err = SpectralMetrics.relativeSpectralError(sigma, out);
        assertTrue(err <= Math.max(gamma, 1 - (1 - gamma) * SpectralMetrics.generalizedEigenvalues(sigmaEff, sigma)[0]));
    }
}
