package org.dpgauss.sampling;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.ContinuousDistribution;
import org.apache.commons.statistics.distribution.GammaDistribution;
import org.junit.jupiter.api.Test;

/**
 * Spec §6 T10, the release step numerically: the hockey-stick divergence between the conditional output laws
 * (the Pearson type II densities of spec §4) on two neighbouring datasets whose (mu^, Sigma^) differ as much as
 * the stability facts S1/S2 of spec §5 allow, with the sizes of the certified recipe (d = 2, eps = 1,
 * delta = 0.1). WLOG Sigma^ = I, mu^ = 0 (the release is affine-equivariant). The neighbour has
 * <ul>
 *   <li>mean term: {@code mu^' = s e_1}, {@code s = sqrt((1 + 2 gamma) 38 e^2 lambda0)/n1} (S2's bound, in the
 *       Sigma^ norm);</li>
 *   <li>covariance term: {@code Sigma^' = diag(rho, 1)} with {@code rho = 1/(1 - gamma)} or {@code 1 - gamma} (S1
 *       allows eigenvalues in {@code [1 - gamma, 1/(1 - gamma)]}, total deviation {@code (1 + 2 gamma) gamma}).</li>
 * </ul>
 * {@code D_{e^eps0}(f || f') = E_f[(1 - e^{eps0 - L})_+]} with {@code L = ln f - ln f'} ({@code +inf} outside the
 * support of f') is estimated by Monte Carlo over x ~ f in both orders. The sub-terms must be at most delta/6 at
 * e^{eps/3}, the whole release at most 2 delta/3 at e^{2 eps/3} (Cor 4.22). Negative control: a mean-part size
 * 500 times smaller than certified must exceed the bound, so the estimator can fail.
 *
 * <p>Sampling: x = c t, t = r theta, r^2 = A/(A + B), A ~ chi2_d, B ~ chi2_{n2-d} (so r^2 ~ Beta(d/2, (n2-d)/2)),
 * theta uniform on the circle: exactly the law of the first d coordinates of a uniform point of S^{n2-1}.
 * 100000 draws per estimate: each estimated D is a mean of [0, 1] values, so by Hoeffding it exceeds the true D
 * by more than 0.006 with probability below 1e-3; the margins below are larger than that.
 */
class ReleasePrivacyTest {

    private static final int DRAWS = 100_000;

    @Test
    void certifiedSizesKeepTheReleaseWithinItsBudget() {
        double eps = 1;
        double delta = 0.1;
        long n = SamplerParameters.requiredRows(2, eps, delta, 0.05, PtrMechanism.SOUND);
        SamplerParameters p = SamplerParameters.certified((int) n, 2, ApproxDp.of(eps, delta), 0.05, PtrMechanism.SOUND);
        double gamma = 8 * SamplerParameters.E2 * p.lambda0() / p.n2();
        double shift = Math.sqrt((1 + 2 * gamma) * 38 * SamplerParameters.E2 * p.lambda0()) / p.n1();
        SplittableRandom r = new SplittableRandom(10);
        for (double rho : new double[] {1 / (1 - gamma), 1 - gamma}) {
            double meanTerm = divergenceBothWays(p.n1(), p.n2(), shift, 1, eps / 3, r);
            double covTerm = divergenceBothWays(p.n1(), p.n2(), 0, rho, eps / 3, r);
            double whole = divergenceBothWays(p.n1(), p.n2(), shift, rho, 2 * eps / 3, r);
            assertTrue(meanTerm <= delta / 6 - 0.006, "mean term " + meanTerm);
            assertTrue(covTerm <= delta / 6 - 0.006, "covariance term " + covTerm);
            assertTrue(whole <= 2 * delta / 3 - 0.006, "release " + whole);
        }
        // negative control: n1 500 times too small makes the mean shift visible (D near 1)
        double bad = divergenceBothWays(p.n1() / 500, p.n2(), shift * 500, 1, eps / 3, r);
        assertTrue(bad > delta / 6 + 0.006, "undersized n1 must violate the budget, got " + bad);
    }

    /** max of D(f || f') and D(f' || f) at e^{eps0}. */
    private static double divergenceBothWays(int n1, int n2, double shift, double rho, double eps0,
            SplittableRandom r) {
        return Math.max(divergence(n1, n2, 0, 1, shift, rho, eps0, r), divergence(n1, n2, shift, rho, 0, 1, eps0, r));
    }

    /**
     * D_{e^eps0}(f || f') for f = Pearson II(mu = m e_1, c^2 diag(rho, 1)), f' = Pearson II(m' e_1,
     * c^2 diag(rho', 1)), d = 2, both with n2 and c = sqrt((1 - 1/n1) n2); shifts in units of Sigma^ = I.
     */
    private static double divergence(int n1, int n2, double m, double rho, double m2, double rho2, double eps0,
            SplittableRandom r) {
        int d = 2;
        double c = Math.sqrt((1 - 1.0 / n1) * n2);
        double a = (n2 - d) / 2.0 - 1;
        UniformRandomProvider rng = r::nextLong;
        ContinuousDistribution.Sampler chiD = GammaDistribution.of(d / 2.0, 2).createSampler(rng);
        ContinuousDistribution.Sampler chiRest = GammaDistribution.of((n2 - d) / 2.0, 2).createSampler(rng);
        // ln f(x) - ln f'(x) = -1/2 ln det(Sigma) + 1/2 ln det(Sigma') + a [ln(1 - q) - ln(1 - q')]
        double logDet = -0.5 * Math.log(rho) + 0.5 * Math.log(rho2);
        double sum = 0;
        for (int i = 0; i < DRAWS; i++) {
            double aa = chiD.sample();
            double r2 = aa / (aa + chiRest.sample());
            double angle = 2 * Math.PI * r.nextDouble();
            // t = r theta is the whitened offset under f: x = m e_1 + c (sqrt(rho) t_1, t_2); x_2 is unshifted
            double t1 = Math.sqrt(r2) * Math.cos(angle);
            double t2 = Math.sqrt(r2) * Math.sin(angle);
            double q = r2;
            double x1 = m + c * Math.sqrt(rho) * t1;
            double u1 = (x1 - m2) / c;
            double q2 = u1 * u1 / rho2 + t2 * t2;
            if (q2 >= 1) {
                sum += 1; // outside the support of f': L = +inf
                continue;
            }
            double loss = logDet + a * (Math.log1p(-q) - Math.log1p(-q2));
            sum += Math.max(0, -Math.expm1(eps0 - loss));
        }
        return sum / DRAWS;
    }
}
