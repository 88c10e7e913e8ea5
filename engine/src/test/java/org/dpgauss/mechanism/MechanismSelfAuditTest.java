package org.dpgauss.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.HockeyStickDivergence;
import org.junit.jupiter.api.Test;

/**
 * Self-audit of the NDIS-calibrated BLR and GPR mechanisms (spec ndis §6.6-6.8, §11.1): the exact hockey-stick
 * divergence between the output distributions on neighbouring datasets, in BOTH orderings, at the claimed epsilon,
 * is at most the claimed delta. One-dimensional outputs use the independent closed form of
 * {@link OneDimensionalDivergence}; d-dimensional BLR uses {@link HockeyStickDivergence} (Theorem 4.1 through the
 * generalized chi-square of branch gx2; the test aborts visibly if that is unavailable). Each audit also shows the pair is
 * informative: with the noise variance divided by a large factor the same pair violates the claim.
 */
class MechanismSelfAuditTest {

    private static final double EPS = 1;
    private static final double DELTA = 1e-5;

    /** GPR: spec §11.1's pair D' = {} vs D = {(x*, B)} (n = 1), and random n = 20 data minus each row. */
    @Test
    void gprWorstCasePairsStayWithinTheClaim() {
        double[] q = {0.2};
        GaussianProcessRegression.Kernel k = GaussianProcessRegression.rbf(1, 0.5);
        GaussianProcessRegression g1 = NdisMechanismTest.gpr(k, 1, 1, 1, q, EPS, DELTA,
                NdisGaussianMechanism.DEFAULT_VARIANT);
        double[] single = audit1(g1.outputDistribution(new double[][] {q}, new double[] {1}),
                g1.outputDistribution(new double[0][], new double[0]));
        assertTrue(single[0] <= DELTA && single[1] <= DELTA, Arrays.toString(single));

        int n = 20;
        GaussianProcessRegression g = NdisMechanismTest.gpr(k, 0.25, 1, n, q, EPS, DELTA,
                NdisGaussianMechanism.DEFAULT_VARIANT);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = q[0] + 0.05 * (i - n / 2);
            y[i] = i % 3 == 0 ? -1 : 1;
        }
        x[0][0] = q[0]; // a record at the query point with |y| = B
        double worst = 0;
        for (int drop = 0; drop < n; drop++) {
            double[] r = audit1(g.outputDistribution(x, y), g.outputDistribution(without(x, drop), without(y, drop)));
            assertTrue(r[0] <= DELTA && r[1] <= DELTA, "drop " + drop + ": " + Arrays.toString(r));
            worst = Math.max(worst, Math.max(r[0], r[1]));
        }
        assertTrue(worst <= DELTA);
        // informative pair: spec §11.1's pair with a tenth of the calibrated noise variance breaks the claim
        Gaussian a = g1.outputDistribution(new double[][] {q}, new double[] {1});
        Gaussian b = g1.outputDistribution(new double[0][], new double[0]);
        double cut = 0.9 * g1.mechanism().variance();
        double under = Math.max(
                OneDimensionalDivergence.delta(a.mean()[0], var(a) - cut, b.mean()[0], var(b) - cut, EPS),
                OneDimensionalDivergence.delta(b.mean()[0], var(b) - cut, a.mean()[0], var(a) - cut, EPS));
        assertTrue(under > DELTA, "under-noised audit " + under + " (calibrated " + Arrays.toString(single) + ")");
    }

    /** BLR with d = 1: every single-row removal from random data plus the extreme records x = +-l. */
    @Test
    void blrOneDimensionalPairsStayWithinTheClaim() {
        int n = 40;
        BayesianLogisticRegression m = NdisMechanismTest.blr(1, 1, 1, n, EPS, DELTA,
                NdisGaussianMechanism.DEFAULT_VARIANT);
        double[][] x = NdisMechanismTest.data(n, 1, 77);
        double[] y = NdisMechanismTest.labels(x, new double[] {3}, 78);
        x[0][0] = 1;
        y[0] = -1; // misclassified record on the boundary: largest gradient
        x[1][0] = -1;
        y[1] = -1;
        double worst = 0;
        for (int drop = 0; drop < n; drop++) {
            double[] r = audit1(m.outputDistribution(x, y), m.outputDistribution(without(x, drop), without(y, drop)));
            assertTrue(r[0] <= DELTA && r[1] <= DELTA, "drop " + drop + ": " + Arrays.toString(r));
            worst = Math.max(worst, Math.max(r[0], r[1]));
        }
        double[] empty = audit1(m.outputDistribution(new double[][] {{1}}, new double[] {-1}),
                m.outputDistribution(new double[0][], new double[0]));
        assertTrue(empty[0] <= DELTA && empty[1] <= DELTA, Arrays.toString(empty));
        assertTrue(worst > 0, "the pairs are distinguishable at all");
        // power: the record (1, -1) against the empty set with a hundredth of the calibrated noise violates the claim
        Gaussian a = m.outputDistribution(new double[][] {{1}}, new double[] {-1});
        Gaussian b = m.outputDistribution(new double[0][], new double[0]);
        double cut = 0.99 * m.mechanism().variance();
        double under = Math.max(
                OneDimensionalDivergence.delta(a.mean()[0], var(a) - cut, b.mean()[0], var(b) - cut, EPS),
                OneDimensionalDivergence.delta(b.mean()[0], var(b) - cut, a.mean()[0], var(a) - cut, EPS));
        assertTrue(under > DELTA, "under-noised audit " + under);
    }

    /** BLR with d = 3 through the general NDIS (Theorem 4.1). */
    @Test
    void blrMultivariatePairsStayWithinTheClaim() {
        int n = 30;
        int d = 3;
        BayesianLogisticRegression m = NdisMechanismTest.blr(d, 1, 1, n, EPS, DELTA,
                NdisGaussianMechanism.DEFAULT_VARIANT);
        double[][] x = NdisMechanismTest.data(n, d, 5);
        double[] y = NdisMechanismTest.labels(x, new double[] {2, -1, 1}, 6);
        x[0] = new double[] {0.6, 0.8, 0};
        y[0] = -1;
        HockeyStickDivergence hs = HockeyStickDivergence.cpu();
        Gaussian a = m.outputDistribution(x, y);
        Gaussian b = m.outputDistribution(without(x, 0), without(y, 0));
        double forward = hs.delta(a, b, EPS);
        double backward = hs.delta(b, a, EPS);
        assertTrue(forward <= DELTA && backward <= DELTA, forward + ", " + backward);
    }

    /** The general NDIS and the 1-D oracle agree on a GPR pair. */
    @Test
    void oracleAgreesWithTheGeneralDivergence() {
        Gaussian a = Gaussian.of(new double[] {0.3}, new double[][] {{30.5}});
        Gaussian b = Gaussian.of(new double[] {0.0}, new double[][] {{31.2}});
        double exact = HockeyStickDivergence.cpu().delta(a, b, 0.01);
        assertEquals(OneDimensionalDivergence.delta(0.3, 30.5, 0, 31.2, 0.01), exact, 1e-9);
    }

    private static double[] audit1(Gaussian a, Gaussian b) {
        return new double[] {
            OneDimensionalDivergence.delta(a.mean()[0], var(a), b.mean()[0], var(b), EPS),
            OneDimensionalDivergence.delta(b.mean()[0], var(b), a.mean()[0], var(a), EPS)};
    }

    private static double var(Gaussian g) {
        return g.covariance().get(0, 0);
    }

    private static double[][] without(double[][] x, int i) {
        double[][] o = new double[x.length - 1][];
        for (int j = 0, k = 0; j < x.length; j++) {
            if (j != i) {
                o[k++] = x[j];
            }
        }
        return o;
    }

    private static double[] without(double[] x, int i) {
        double[] o = new double[x.length - 1];
        for (int j = 0, k = 0; j < x.length; j++) {
            if (j != i) {
                o[k++] = x[j];
            }
        }
        return o;
    }
}
