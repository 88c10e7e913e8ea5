package org.dpgauss.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

class ZcdpTest {

    // ------------------------------------------------------------------ validation

    private static String message(org.junit.jupiter.api.function.Executable ex) {
        return assertThrows(IllegalArgumentException.class, ex).getMessage();
    }

    @Test
    void rejectsBadRho() {
        assertEquals("rho=-1.0 is outside [0, inf): a privacy loss cannot be negative", message(() -> Zcdp.of(-1.0)));
        assertEquals("rho=NaN is not a number: a privacy loss must be a finite value in [0, inf)",
                message(() -> Zcdp.of(Double.NaN)));
        assertEquals("rho=Infinity is outside [0, inf): an infinite privacy loss gives no guarantee",
                message(() -> Zcdp.of(Double.POSITIVE_INFINITY)));
        assertEquals(0.0, Zcdp.of(0.0).rho());
        assertEquals(Zcdp.ZERO, Zcdp.of(-0.0));
    }

    @Test
    void rejectsBadConversionDelta() {
        Zcdp z = Zcdp.of(0.5);
        for (org.junit.jupiter.api.function.Executable ex : new org.junit.jupiter.api.function.Executable[] {
                () -> z.toApproxDp(0.0), () -> z.toApproxDpTight(0.0), () -> Zcdp.forApproxDp(1.0, 0.0)}) {
            assertEquals("delta=0.0 is outside (0, 1): converting zCDP to (epsilon, delta)-DP needs delta > 0,"
                    + " ln(1/delta) is infinite at 0", message(ex));
        }
        assertEquals("delta=-1.0E-6 is outside (0, 1): converting zCDP to (epsilon, delta)-DP needs delta > 0,"
                + " ln(1/delta) is infinite at 0", message(() -> z.toApproxDp(-1e-6)));
        assertEquals("delta=1.0 is outside (0, 1): delta >= 1 gives no guarantee", message(() -> z.toApproxDp(1.0)));
        assertEquals("delta=1.0 is outside (0, 1): delta >= 1 gives no guarantee",
                message(() -> z.toApproxDpTight(1.0)));
        assertEquals("delta=NaN is not a number: delta must be a probability in (0, 1)",
                message(() -> z.toApproxDp(Double.NaN)));
        assertEquals("delta=Infinity is outside (0, 1): delta >= 1 gives no guarantee",
                message(() -> Zcdp.forApproxDp(1.0, Double.POSITIVE_INFINITY)));
    }

    @Test
    void rejectsBadForApproxDpEpsilon() {
        assertEquals("epsilon=-1.0 is outside [0, inf): a privacy loss cannot be negative",
                message(() -> Zcdp.forApproxDp(-1.0, 1e-6)));
        assertEquals("epsilon=NaN is not a number: a privacy loss must be a finite value in [0, inf)",
                message(() -> Zcdp.forApproxDp(Double.NaN, 1e-6)));
        assertEquals("epsilon=Infinity is outside [0, inf): an infinite privacy loss gives no guarantee",
                message(() -> Zcdp.forApproxDp(Double.POSITIVE_INFINITY, 1e-6)));
    }

    @Test
    void rejectsBadGaussianParameters() {
        assertEquals("l2Sensitivity=-1.0 is outside [0, inf): a sensitivity (a norm) cannot be negative",
                message(() -> Zcdp.gaussianMechanism(-1.0, 1.0)));
        assertEquals("l2Sensitivity=NaN is not a number: a sensitivity must be a finite value in [0, inf)",
                message(() -> Zcdp.gaussianMechanism(Double.NaN, 1.0)));
        assertEquals("l2Sensitivity=Infinity is outside [0, inf): an unbounded sensitivity cannot be masked by"
                + " finite noise (clip the data first)", message(() -> Zcdp.gaussianMechanism(Double.POSITIVE_INFINITY, 1.0)));
        assertEquals("sigma=0.0 is outside (0, inf): without noise there is no privacy guarantee",
                message(() -> Zcdp.gaussianMechanism(1.0, 0.0)));
        assertEquals("sigma=-2.0 is outside (0, inf): a standard deviation cannot be negative",
                message(() -> Zcdp.gaussianMechanism(1.0, -2.0)));
        assertEquals("sigma=NaN is not a number: a noise standard deviation must be a finite value in (0, inf)",
                message(() -> Zcdp.gaussianMechanism(1.0, Double.NaN)));
        assertEquals("sigma=Infinity is outside (0, inf): infinite noise is not a mechanism",
                message(() -> Zcdp.gaussianMechanism(1.0, Double.POSITIVE_INFINITY)));
        assertTrue(message(() -> Zcdp.gaussianMechanism(1e300, 1e-300)).contains("gives rho=Infinity"));

        assertEquals("rho=0.0 is outside (0, inf): a zero privacy loss needs infinite noise, no finite sigma"
                + " achieves it", message(() -> Zcdp.sigmaFor(0.0, 1.0)));
        assertEquals("rho=-0.5 is outside [0, inf): a privacy loss cannot be negative",
                message(() -> Zcdp.sigmaFor(-0.5, 1.0)));
        assertEquals("l2Sensitivity=0.0 is outside (0, inf): a zero sensitivity needs no noise, there is no sigma"
                + " to calibrate", message(() -> Zcdp.sigmaFor(0.5, 0.0)));
        assertEquals("l2Sensitivity=-1.0 is outside (0, inf): a sensitivity (a norm) cannot be negative",
                message(() -> Zcdp.sigmaFor(0.5, -1.0)));
        assertTrue(message(() -> Zcdp.sigmaFor(Double.MIN_VALUE, 1e300)).contains("not a finite positive double"));
    }

    // ------------------------------------------------------------------ composition

    @Test
    void compositionAddsRho() {
        assertEquals(0.75, Zcdp.of(0.5).plus(Zcdp.of(0.25)).rho());
        assertEquals(Zcdp.of(0.3), Zcdp.ZERO.plus(Zcdp.of(0.3)));
        Zcdp total = Zcdp.ZERO;
        for (int i = 0; i < 8; i++) {
            total = total.plus(Zcdp.gaussianMechanism(1.0, 2.0)); // 1/8 each
        }
        assertEquals(1.0, total.rho());
        assertTrue(message(() -> Zcdp.of(Double.MAX_VALUE).plus(Zcdp.of(Double.MAX_VALUE)))
                .startsWith("composed rho="));
        assertThrows(NullPointerException.class, () -> Zcdp.ZERO.plus(null));
    }

    @Test
    void zcdpCompositionThenConversionBeatsBasicComposition() {
        // 10 Gaussian releases at rho=0.05 each, delta=1e-6 overall.
        Zcdp each = Zcdp.of(0.05);
        Zcdp total = Zcdp.ZERO;
        ApproxDp basic = ApproxDp.ZERO;
        for (int i = 0; i < 10; i++) {
            total = total.plus(each);
            basic = basic.plus(each.toApproxDp(1e-7));
        }
        assertTrue(total.toApproxDp(1e-6).epsilon() < basic.epsilon());
    }

    // ------------------------------------------------------------------ Bun–Steinke conversion

    @Test
    void bunSteinkeGoldenValue() {
        // rho = 0.5, delta = 1e-6, L = ln(1e6) = 13.8155105579642741041...
        // rho * L = 6.90775527898213705205..., sqrt(rho * L) = 2.62826088487846598931...
        // eps = 0.5 + 2 * 2.62826088487846598931... = 5.75652176975693197863... (bc -l, scale=40)
        ApproxDp dp = Zcdp.of(0.5).toApproxDp(1e-6);
        assertEquals(5.756521769756932, dp.epsilon(), 1e-12);
        assertEquals(1e-6, dp.delta());
        // The misprint in spec second-moment-estimation.md §1.2 (docs/references/second-moment-values.md §1), rho + sqrt(2 rho L) = 4.2170...
        assertNotEquals(0.5 + Math.sqrt(2 * 0.5 * Math.log(1e6)), dp.epsilon(), 1.0);
    }

    @Test
    void bunSteinkeMoreGoldenValues() {
        // Values from mpmath at 40 digits, delta taken as the exact double.
        assertEquals(0.68861404244151118465, Zcdp.of(0.01).toApproxDp(1e-5).epsilon(), 1e-12);
        assertEquals(10.104562776310878091, Zcdp.of(1.0).toApproxDp(1e-9).epsilon(), 1e-12);
        assertEquals(26.622581362691099225, Zcdp.of(10.0).toApproxDp(1e-3).epsilon(), 1e-12);
        assertEquals(0.0, Zcdp.ZERO.toApproxDp(1e-6).epsilon());
    }

    @Test
    void bunSteinkeIsTheMinimumOverAlphaOfTheRdpBound() {
        // eps = min over alpha > 1 of alpha rho + L / (alpha - 1); check against a dense scan.
        double rho = 0.3;
        double l = -Math.log(1e-8);
        double best = Double.POSITIVE_INFINITY;
        for (double t = 1e-3; t < 1e3; t *= 1.0001) {
            best = Math.min(best, (1 + t) * rho + l / t);
        }
        assertEquals(best, Zcdp.of(rho).toApproxDp(1e-8).epsilon(), 1e-6);
    }

    // ------------------------------------------------------------------ CKS20 conversion

    @Test
    void tightGoldenValues() {
        // CKS20 Cor. 13 minimised with mpmath (40 digits, root of the derivative):
        // (rho, delta) -> eps, argmin alpha
        assertEquals(5.2215344445301690534, Zcdp.of(0.5).toApproxDpTight(1e-6).epsilon(), 1e-11);   // 5.907
        assertEquals(0.54572554827400240256, Zcdp.of(0.01).toApproxDpTight(1e-5).epsilon(), 1e-11); // 29.51
        assertEquals(9.5214636717922322352, Zcdp.of(1.0).toApproxDpTight(1e-9).epsilon(), 1e-11);  // 5.364
        assertEquals(25.088726490694638007, Zcdp.of(10.0).toApproxDpTight(1e-3).epsilon(), 1e-11); // 1.795
        assertEquals(0.053727120634859869557, Zcdp.of(1e-4).toApproxDpTight(1e-6).epsilon(), 1e-11); // 286.6
        assertEquals(ApproxDp.of(0.0, 1e-6), Zcdp.ZERO.toApproxDpTight(1e-6));
    }

    @Test
    void tightIsBetweenGaussianLowerBoundAndBunSteinke() {
        // Any valid zCDP -> DP conversion must cover the Gaussian mechanism, which is rho-zCDP with
        // mu = Delta / sigma = sqrt(2 rho), and whose exact privacy profile is (Balle & Wang 2018)
        //   delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu).
        // So the exact Gaussian epsilon is a lower bound for every conversion.
        SplittableRandom r = new SplittableRandom(20240501L);
        for (int i = 0; i < 200; i++) {
            double rho = Math.pow(10, -4 + 6 * r.nextDouble());     // 1e-4 .. 1e2
            double delta = Math.pow(10, -12 + 10 * r.nextDouble()); // 1e-12 .. 1e-2
            Zcdp z = Zcdp.of(rho);
            double bs = z.toApproxDp(delta).epsilon();
            double tight = z.toApproxDpTight(delta).epsilon();
            double lower = gaussianExactEpsilon(rho, delta);
            String ctx = "rho=" + rho + " delta=" + delta + " bs=" + bs + " tight=" + tight + " lower=" + lower;
            assertTrue(tight <= bs, ctx);
            assertTrue(tight >= lower - 1e-9 * Math.max(1, lower), ctx);
        }
    }

    @Test
    void tightIsAtLeastAsGoodAsADenseScan() {
        double[][] cases = {{0.5, 1e-6}, {0.01, 1e-5}, {3.0, 1e-10}, {1e-6, 1e-6}, {100.0, 0.5}, {1e-3, 0.9}};
        for (double[] c : cases) {
            double rho = c[0];
            double l = -Math.log(c[1]);
            double best = Double.POSITIVE_INFINITY;
            for (double t = 1e-6; t < 1e9; t *= 1.0005) {
                best = Math.min(best, Zcdp.cksObjective(rho, l, t));
            }
            double tight = Zcdp.of(rho).toApproxDpTight(c[1]).epsilon();
            assertTrue(tight <= Math.max(0, best) + 1e-9 * Math.max(1, best),
                    "rho=" + rho + " tight=" + tight + " scan=" + best);
            assertTrue(tight >= Math.max(0, best) - 1e-6 * Math.max(1, best),
                    "rho=" + rho + " tight=" + tight + " scan=" + best);
        }
    }

    @Test
    void tightHandlesExtremeParameters() {
        for (double rho : new double[] {Double.MIN_VALUE, 1e-300, 1e-12, 1e-3, 1.0, 1e3, 1e12}) {
            for (double delta : new double[] {1e-300, 1e-12, 1e-6, 0.5, Math.nextDown(1.0)}) {
                Zcdp z = Zcdp.of(rho);
                double bs = z.toApproxDp(delta).epsilon();
                double tight = z.toApproxDpTight(delta).epsilon();
                assertTrue(tight >= 0 && tight <= bs, "rho=" + rho + " delta=" + delta + " " + tight + " " + bs);
            }
        }
        // A negligible rho gives (0, delta)-DP: the CKS objective goes negative and is clamped.
        assertEquals(0.0, Zcdp.of(1e-300).toApproxDpTight(1e-6).epsilon());
    }

    // ------------------------------------------------------------------ inverse conversion

    @Test
    void forApproxDpInvertsTheGoldenValue() {
        assertEquals(0.5, Zcdp.forApproxDp(5.756521769756932, 1e-6).rho(), 1e-13);
        // Closed form (sqrt(L + eps) - sqrt(L))^2 for eps = 1, delta = 1e-5 (mpmath):
        assertEquals(0.02081993833953546, Zcdp.forApproxDp(1.0, 1e-5).rho(), 1e-15);
        assertEquals(Zcdp.ZERO, Zcdp.forApproxDp(0.0, 1e-6));
    }

    @Test
    void forApproxDpRoundTripIsTightAndNeverOverspends() {
        SplittableRandom r = new SplittableRandom(7L);
        for (int i = 0; i < 2000; i++) {
            double eps = Math.pow(10, -4 + 6 * r.nextDouble());
            double delta = Math.pow(10, -15 + 14.9 * r.nextDouble());
            double rho = Zcdp.forApproxDp(eps, delta).rho();
            double back = Zcdp.of(rho).toApproxDp(delta).epsilon();
            String ctx = "eps=" + eps + " delta=" + delta + " rho=" + rho + " back=" + back;
            assertTrue(back <= eps, ctx);
            assertEquals(eps, back, 1e-12 * eps, ctx);
            // "largest": a slightly larger rho no longer meets eps.
            assertTrue(Zcdp.of(rho * (1 + 1e-9)).toApproxDp(delta).epsilon() > eps, ctx);
        }
    }

    // ------------------------------------------------------------------ Gaussian mechanism

    @Test
    void gaussianMechanismRho() {
        assertEquals(0.5, Zcdp.gaussianMechanism(1.0, 1.0).rho());
        assertEquals(0.125, Zcdp.gaussianMechanism(2.0, 4.0).rho());
        assertEquals(2.0, Zcdp.gaussianMechanism(3.0, 1.5).rho(), 1e-15);
        assertEquals(Zcdp.ZERO, Zcdp.gaussianMechanism(0.0, 1.0));
        // No overflow from squaring separately.
        assertEquals(0.5, Zcdp.gaussianMechanism(1e200, 1e200).rho());
    }

    @Test
    void sigmaForInvertsGaussianMechanism() {
        assertEquals(1.0, Zcdp.sigmaFor(0.5, 1.0));
        assertEquals(4.0, Zcdp.sigmaFor(0.125, 2.0));
        assertEquals(4.0, Zcdp.of(0.125).sigmaFor(2.0));
        SplittableRandom r = new SplittableRandom(99L);
        for (int i = 0; i < 5000; i++) {
            double rho = Math.pow(10, -6 + 9 * r.nextDouble());
            double sens = Math.pow(10, -3 + 6 * r.nextDouble());
            double sigma = Zcdp.sigmaFor(rho, sens);
            double spent = Zcdp.gaussianMechanism(sens, sigma).rho();
            String ctx = "rho=" + rho + " sens=" + sens + " sigma=" + sigma + " spent=" + spent;
            assertTrue(spent <= rho, ctx);
            assertEquals(rho, spent, 1e-14 * rho, ctx);
        }
    }

    @Test
    void equalsHashCodeToString() {
        assertEquals(Zcdp.of(0.5), Zcdp.of(0.5));
        assertEquals(Zcdp.of(0.5).hashCode(), Zcdp.of(0.5).hashCode());
        assertNotEquals(Zcdp.of(0.5), Zcdp.of(0.25));
        assertEquals("(rho=0.5)-zCDP", Zcdp.of(0.5).toString());
        assertEquals("(rho=1e-05)-zCDP", Zcdp.of(1e-5).toString());
    }

    // ------------------------------------------------------------------ helpers

    /** Exact epsilon of the Gaussian mechanism with mu = sqrt(2 rho) at delta, by bisection. */
    private static double gaussianExactEpsilon(double rho, double delta) {
        double mu = Math.sqrt(2 * rho);
        NormalDistribution n = NormalDistribution.of(0, 1);
        double lo = 0;
        double hi = Zcdp.of(rho).toApproxDp(delta).epsilon() + 1;
        if (gaussianDelta(n, mu, 0) <= delta) {
            return 0;
        }
        for (int i = 0; i < 200; i++) {
            double mid = 0.5 * (lo + hi);
            if (gaussianDelta(n, mu, mid) > delta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static double gaussianDelta(NormalDistribution n, double mu, double eps) {
        return n.cumulativeProbability(mu / 2 - eps / mu) - Math.exp(eps) * n.cumulativeProbability(-mu / 2 - eps / mu);
    }
}
