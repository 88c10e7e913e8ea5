package org.dpgauss.ndis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.calibration.GaussianMechanismCurve;
import org.junit.jupiter.api.Test;

/** PrivacyProfile, DeltaAuditor, singular covariances (spec §11.4), validation and the near-unit guard (§11.3). */
class ProfileAuditAndEdgeCasesTest {

    private static final HockeyStickDivergence HSD = HockeyStickDivergence.cpu();

    private static Gaussian g(double mean, double variance) {
        return Gaussian.of(new double[] {mean}, new double[][] {{variance}});
    }

    // ---- PrivacyProfile --------------------------------------------------------------------------------------

    @Test
    void profileOfGaussianMechanismInvertsLikeTheCalibrationCurve() {
        PrivacyProfile p = PrivacyProfile.of(g(0, 1), g(1, 1));
        for (double delta : new double[] {1e-2, 1e-5, 1e-9}) {
            PrivacyProfile.EpsilonResult r = p.epsilon(delta);
            assertEquals(PrivacyProfile.Status.FOUND, r.status());
            assertTrue(r.delta() <= delta);
            assertEquals(GaussianMechanismCurve.epsilon(delta, 1), r.epsilon(), 1e-8 * r.epsilon());
            assertTrue(p.delta(r.epsilon() * (1 - 1e-7)) > delta, "not the smallest feasible eps");
        }
        PrivacyProfile.EpsilonResult zero = p.epsilon(0.5);
        assertEquals(PrivacyProfile.Status.ZERO, zero.status());
        assertEquals(0, zero.epsilon());
    }

    @Test
    void profileTakesTheWorseOrdering() {
        PrivacyProfile p = PrivacyProfile.of(g(0, 1), g(0, 4));
        PrivacyProfile.Point[] t = p.table(new double[] {0, 0.5, 1, 2});
        for (PrivacyProfile.Point pt : t) {
            // expected values from an oracle independent of HockeyStickDivergence (one-dimensional scaled chi-square)
            double forward = ScaledChiSquarePair.delta(1, 4, 1, pt.epsilon());
            double backward = ScaledChiSquarePair.delta(4, 1, 1, pt.epsilon());
            assertEquals(forward, pt.forward(), 1e-12, "forward at eps=" + pt.epsilon());
            assertEquals(backward, pt.backward(), 1e-12, "backward at eps=" + pt.epsilon());
            assertEquals(Math.max(forward, backward), pt.delta(), 1e-12);
        }
        assertEquals(0.1258455203, t[3].delta(), 1e-9); // the hard direction (docs/references/ndis-values.md §1.2)
        PrivacyProfile.EpsilonResult r = p.epsilon(0.1258455203);
        assertEquals(2, r.epsilon(), 1e-6);
    }

    @Test
    void profileUnboundedAndIdentical() {
        Gaussian a = Gaussian.of(new double[] {0, 0}, new double[][] {{1, 0}, {0, 0}});
        Gaussian b = Gaussian.standard(2);
        PrivacyProfile disjoint = PrivacyProfile.of(a, b);
        assertEquals(1, disjoint.delta(3), 0);
        PrivacyProfile.EpsilonResult r = disjoint.epsilon(0.1);
        assertEquals(PrivacyProfile.Status.UNBOUNDED, r.status());
        assertEquals(Double.POSITIVE_INFINITY, r.epsilon());
        PrivacyProfile same = PrivacyProfile.of(b, b);
        assertEquals(PrivacyProfile.Status.ZERO, same.epsilon(0).status());
        assertThrows(IllegalArgumentException.class, () -> same.epsilon(-0.1));
        assertThrows(IllegalArgumentException.class, () -> same.epsilon(Double.NaN));
    }

    // ---- auditor ---------------------------------------------------------------------------------------------

    @Test
    void auditorRefutesAFalseClaimAndAcceptsATrueOne() {
        Gaussian d = g(0, 1);
        Gaussian dPrime = g(1, 1); // Gaussian mechanism with tau = 1: delta(1) = 0.1269367375
        DeltaAuditor.Report refute = DeltaAuditor.cpu().audit(d, dPrime, 1, 0.1, 1e-6, new double[] {0, 2});
        assertTrue(refute.refuted());
        assertEquals(6, refute.rows().size());
        assertTrue(refute.worstLowerBound() <= 0.1269367375 && 0.1269367375 <= refute.worstUpperBound());
        DeltaAuditor.Report accept = DeltaAuditor.cpu().audit(d, dPrime, 1, 0.127, 1e-6, null);
        assertFalse(accept.refuted());
        assertEquals(2, accept.rows().size());
        // borderline claim within eta: not refuted (certified refutation only)
        DeltaAuditor.Report border = DeltaAuditor.cpu().audit(d, dPrime, 1, 0.1269367375 - 4e-7, 1e-6, null);
        assertFalse(border.refuted());
        // a claim below the certified lower bound delta - eta/2 is refuted
        assertTrue(DeltaAuditor.cpu().audit(d, dPrime, 1, 0.1269367375 - 6e-7, 1e-6, null).refuted());
    }

    @Test
    void auditorChecksBothOrderings() {
        // only the hard ordering (more spread first) violates a claim of 0.15 at eps = 1
        DeltaAuditor.Report r = DeltaAuditor.cpu().audit(g(0, 1), g(0, 4), 1, 0.15, 1e-6, null);
        assertTrue(r.refuted());
        DeltaAuditor.Row forward = r.rows().get(0);
        DeltaAuditor.Row backward = r.rows().get(1);
        assertEquals(DeltaAuditor.Ordering.D_FIRST, forward.ordering());
        assertTrue(forward.deltaLower() <= 0.15);
        assertTrue(backward.deltaLower() > 0.15);
    }

    @Test
    void auditorRefusesWhenTheOracleCannotCertify() {
        // eta so small that eta0 is below the closed form's stated relative error
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DeltaAuditor.cpu().audit(g(0, 1), g(1, 1), 1, 0.1, 1e-16, null));
        assertTrue(e.getMessage().contains("eta0"));
        assertThrows(IllegalArgumentException.class, () -> DeltaAuditor.cpu().audit(g(0, 1), g(1, 1), 1, 0.1, 0, null));
        assertThrows(IllegalArgumentException.class, () -> DeltaAuditor.cpu().audit(g(0, 1), g(1, 1), 1, 1.5, 1e-6, null));
    }

    // ---- singular covariances (spec §11.4) -------------------------------------------------------------------

    @Test
    void differentSupportsGiveOne() {
        Gaussian flat = Gaussian.of(new double[] {0, 0}, new double[][] {{1, 0}, {0, 0}});
        Gaussian full = Gaussian.standard(2);
        for (double e : new double[] {-1, 0, 1, 10}) {
            assertEquals(1, HSD.delta(flat, full, e), 0);
            assertEquals(1, HSD.delta(full, flat, e), 0);
        }
        Gaussian shifted = Gaussian.of(new double[] {0, 0.5}, new double[][] {{1, 0}, {0, 0}});
        assertEquals(1, HSD.delta(flat, shifted, 2), 0); // mean difference outside the common range
        Gaussian other = Gaussian.of(new double[] {0, 0}, new double[][] {{0, 0}, {0, 1}});
        assertEquals(1, HSD.delta(flat, other, 2), 0); // different ranges, same rank
        assertTrue(HSD.prepare(flat, full).structure().startsWith("disjoint-support"));
    }

    @Test
    void sameSupportProjectsOntoTheCommonRange() {
        // rotated rank-1 covariances along u = (3,4)/5 in R^3, plus an in-range mean shift
        double[] u = {0.6, 0.8, 0};
        double[][] s4 = new double[3][3];
        double[][] s1 = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                s4[i][j] = 4 * u[i] * u[j];
                s1[i][j] = u[i] * u[j];
            }
        }
        Gaussian x = Gaussian.of(new double[] {1, 1, 1}, s4);
        Gaussian y = Gaussian.of(new double[] {1, 1, 1}, s1);
        for (double e : new double[] {0, 0.5, 2}) {
            assertEquals(HSD.delta(g(0, 4), g(0, 1), e), HSD.delta(x, y, e), 1e-12);
            assertEquals(HSD.delta(g(0, 1), g(0, 4), e), HSD.delta(y, x, e), 1e-12);
        }
        Gaussian xs = Gaussian.of(new double[] {1 + 0.6, 1 + 0.8, 1}, s1);
        assertEquals(HSD.delta(g(1, 1), g(0, 1), 0.5), HSD.delta(xs, y, 0.5), 1e-12);
        assertTrue(HSD.prepare(x, y).structure().contains("projected 3 -> 1"));
    }

    @Test
    void pointMasses() {
        Gaussian a = Gaussian.of(new double[] {1, 2}, new double[2][2]);
        Gaussian b = Gaussian.of(new double[] {1, 2.5}, new double[2][2]);
        assertEquals(1, HSD.delta(a, b, 3), 0);
        assertEquals(0, HSD.delta(a, a, 3), 0);
    }

    // ---- near-unit eigenvalues (spec §11.3) ------------------------------------------------------------------

    @Test
    void nearUnitEigenvaluesAreLinear() {
        // covariance differs from Y's by 1e-13: classified linear, matches the equal-covariance curve
        Gaussian x = Gaussian.of(new double[] {1, 0}, new double[][] {{1 + 1e-13, 0}, {0, 1}});
        Gaussian y = Gaussian.of(new double[] {0, 0}, new double[][] {{1, 0}, {0, 1}});
        for (double e : new double[] {0, 0.5, 1, 2}) {
            assertEquals(GaussianMechanismCurve.delta(e, 1), HSD.delta(x, y, e), 1e-11);
        }
        assertTrue(HSD.prepare(x, y).structure().startsWith("normal"));
    }

    @Test
    void negativeAndInfiniteEpsilon() {
        assertEquals(0, HSD.delta(g(0, 4), g(0, 1), Double.POSITIVE_INFINITY), 0);
        assertEquals(1, HSD.delta(g(0, 4), g(0, 1), Double.NEGATIVE_INFINITY), 0);
        assertThrows(IllegalArgumentException.class, () -> HSD.delta(g(0, 4), g(0, 1), Double.NaN));
        double e = -0.7;
        double dual = -Math.expm1(e) + Math.exp(e) * HSD.delta(g(0, 1), g(0, 4), -e);
        assertEquals(dual, HSD.delta(g(0, 4), g(0, 1), e), 1e-12);
    }

    @Test
    void gaussianValidation() {
        assertThrows(IllegalArgumentException.class, () -> Gaussian.of(new double[] {0, 0}, new double[][] {{1, 0}}));
        assertThrows(IllegalArgumentException.class,
                () -> Gaussian.of(new double[] {0, 0}, new double[][] {{1, 0.5}, {0.4, 1}}));
        assertThrows(IllegalArgumentException.class, () -> Gaussian.of(new double[] {0}, new double[][] {{-1}}));
        assertThrows(IllegalArgumentException.class,
                () -> Gaussian.of(new double[] {Double.NaN}, new double[][] {{1}}));
        assertThrows(IllegalArgumentException.class, () -> Gaussian.of(new double[] {0}, new double[][] {{1, 2}}));
        assertThrows(IllegalArgumentException.class, () -> HSD.delta(g(0, 1), Gaussian.standard(2), 0));
        // indefinite covariance
        Gaussian bad = Gaussian.of(new double[] {0, 0}, new double[][] {{1, 2}, {2, 1}});
        assertThrows(IllegalArgumentException.class, () -> HSD.delta(bad, Gaussian.standard(2), 0));
        // defensive copies
        double[] m = {1};
        double[][] c = {{2}};
        Gaussian x = Gaussian.of(m, c);
        m[0] = 5;
        c[0][0] = 7;
        x.mean()[0] = 9;
        x.covariance().set(0, 0, 9);
        assertEquals(1, x.mean()[0]);
        assertEquals(2, x.covariance().get(0, 0));
    }

    @Test
    void multipleEpsilonsReuseOneDecomposition() {
        double[] eps = {0, 0.25, 0.5, 1, 2};
        double[] v = HSD.delta(g(0, 4), g(0, 1), eps);
        for (int i = 0; i < eps.length; i++) {
            assertEquals(HSD.delta(g(0, 4), g(0, 1), eps[i]), v[i], 0);
        }
    }
}
