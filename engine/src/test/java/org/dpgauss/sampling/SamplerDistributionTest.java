package org.dpgauss.sampling;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.Optional;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.dpgauss.testing.GaussianTestData;

/**
 * Spec §6 T4 (distributional utility) and the conditional law of spec §4, with uncertified small sizes so that the
 * runs stay fast: d = 3, eps = 1, delta = 0.1 (k = 31), mean mu = (100, -50, 7) and a covariance whose variances
 * span four orders of magnitude (nothing about them is known to the sampler).
 */
@Tag("slow")
class SamplerDistributionTest {

    private static final double[] MU = UnboundedGaussianSamplerTest.MU;
    private static final double[][] L = UnboundedGaussianSamplerTest.L;
    private static final NormalDistribution STD = NormalDistribution.of(0, 1);

    /**
     * T4 over fresh datasets: 300 trials, each a new dataset of 1050 rows (n1 = 450, n2 = 300) and one sample;
     * {@code u = L^{-1}(Z - mu)} must look like N(0, I_3):
     * <ul>
     *   <li>{@code ||u||^2} against chi-square(3) and {@code u . e} for three fixed unit directions against N(0, 1):
     *       KS with the DKW threshold at failure probability 1e-4 each (the law of Z is exactly N(mu, Sigma) on
     *       the event "both scores 0", whose complement is below alpha = 0.05 and in practice never seen);</li>
     *   <li>the empirical covariance of u: each entry within 6 standard errors of I (normal approximation; about
     *       2e-9 each);</li>
     *   <li>FAIL frequency: at most 36 of 300 (P[Bin(300, alpha = 0.05) > 36] < 2e-6).</li>
     * </ul>
     * Power check: the same outputs whitened with 1.3 L (a 69% covariance error) must fail the chi-square KS test.
     * Total failure probability below 1e-3.
     */
    @Test
    void freshDatasetSamplesAreGaussian() {
        int trials = 300;
        SamplerParameters p = SamplerParameters.withConstants(1050, 3, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND,
                SizeConstants.partSizes(450, 300));
        UnboundedGaussianSampler s = UnboundedGaussianSampler.of(p);
        SplittableRandom data = new SplittableRandom(2026);
        RandomSource noise = RandomSource.insecureSeeded(1121);
        double[][] u = new double[trials][];
        int fails = 0;
        int kept = 0;
        for (int t = 0; t < trials; t++) {
            RowBlockMatrix x = GaussianTestData.correlated(1050, MU, L, data);
            Optional<double[]> r = s.sample(x, UnboundedGaussianSamplerTest.CPU, noise);
            if (r.isEmpty()) {
                fails++;
                continue;
            }
            u[kept++] = SamplingTestData.whiten(r.orElseThrow(), MU, L);
        }
        assertTrue(fails <= 36, fails + " FAILs");
        double[] sq = new double[kept];
        double[] sqWrong = new double[kept];
        double[][] dirs = {{1, 0, 0}, {0.6, -0.8, 0}, {1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)}};
        double[][] proj = new double[dirs.length][kept];
        double[][] cov = new double[3][3];
        for (int t = 0; t < kept; t++) {
            for (int i = 0; i < 3; i++) {
                sq[t] += u[t][i] * u[t][i];
                for (int j = 0; j < 3; j++) {
                    cov[i][j] += u[t][i] * u[t][j] / kept;
                }
            }
            sqWrong[t] = sq[t] / 1.69;
            for (int k = 0; k < dirs.length; k++) {
                for (int i = 0; i < 3; i++) {
                    proj[k][t] += dirs[k][i] * u[t][i];
                }
            }
        }
        ChiSquaredDistribution chi3 = ChiSquaredDistribution.of(3);
        SamplingTestData.assertKs("||u||^2 vs chi2_3", sq, chi3::cumulativeProbability, 1e-4);
        for (int k = 0; k < dirs.length; k++) {
            SamplingTestData.assertKs("projection " + k, proj[k], STD::cumulativeProbability, 1e-4);
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                // standard error of a sample second moment of N(0, I): sqrt(2/T) on the diagonal, sqrt(1/T) off it
                double se = Math.sqrt((i == j ? 2.0 : 1.0) / kept);
                assertEquals(i == j ? 1.0 : 0.0, cov[i][j], 6 * se, "covariance entry " + i + "," + j);
            }
        }
        assertTrue(SamplingTestData.ksDistance(sqWrong, chi3::cumulativeProbability)
                > SamplingTestData.dkwThreshold(kept, 1e-4), "the KS check must detect a 69% covariance error");
    }

    /**
     * The conditional law given one dataset (spec §4): Z = mu^ + c W z has bounded support and
     * {@code q = (Z - mu^)^T (c^2 Sigma^)^{-1} (Z - mu^) ~ Beta(d/2, (n2 - d)/2)} exactly. With n2 = 4 pairs (d = 3)
     * this Beta(1.5, 0.5) law is far from Gaussian: 300 repeated runs on one dataset pass the KS test against
     * the Beta (DKW at 1e-4), all q lie below 1, and (spec T4: "re-using one dataset must fail") the same samples
     * whitened with the true (mu, Sigma) fail the chi-square(3) KS test that fresh datasets pass.
     */
    @Test
    void oneDatasetGivesThePearsonTypeTwoLawNotTheGaussian() {
        SamplerParameters p = SamplerParameters.withConstants(458, 3, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND,
                SizeConstants.partSizes(450, 4));
        UnboundedGaussianSampler s = UnboundedGaussianSampler.of(p);
        RowBlockMatrix x = GaussianTestData.correlated(458, MU, L, new SplittableRandom(77));
        RandomSource noise = RandomSource.insecureSeeded(78);
        int trials = 300;
        double[] q = new double[trials];
        double[] sqTrue = new double[trials];
        DMatrixRMaj inv = null;
        double[] muHat = null;
        double c2 = p.releaseScale() * p.releaseScale();
        for (int t = 0; t < trials; t++) {
            // given one ordered tuple: the law of spec §4 conditions on the rows in the algorithm's order
            UnboundedGaussianSampler.Trace tr = s.runInOrder(x, UnboundedGaussianSamplerTest.CPU, noise);
            assertFalse(tr.release.isEmpty());
            if (inv == null) {
                inv = tr.sigmaHat.copy();
                CommonOps_DDRM.scale(c2, inv);
                CommonOps_DDRM.invert(inv);
                muHat = tr.muHat;
            }
            double[] z = tr.release.orElseThrow();
            double[] diff = new double[3];
            for (int i = 0; i < 3; i++) {
                diff[i] = z[i] - muHat[i];
            }
            q[t] = UnboundedGaussianSamplerTest.quad(inv, diff);
            assertTrue(q[t] < 1 + 1e-9, "outside the support ellipsoid: q = " + q[t]);
            double[] u = SamplingTestData.whiten(z, MU, L);
            sqTrue[t] = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
        }
        BetaDistribution beta = BetaDistribution.of(1.5, 0.5);
        SamplingTestData.assertKs("q vs Beta(3/2, 1/2)", q, beta::cumulativeProbability, 1e-4);
        assertTrue(SamplingTestData.ksDistance(sqTrue, ChiSquaredDistribution.of(3)::cumulativeProbability)
                > SamplingTestData.dkwThreshold(trials, 1e-4), "re-using one dataset must fail the fresh-data test");
    }
}
