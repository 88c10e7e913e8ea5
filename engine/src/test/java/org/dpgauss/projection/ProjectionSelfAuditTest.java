package org.dpgauss.projection;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.HockeyStickDivergence;
import org.dpgauss.ndis.ScaledChiSquarePair;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/**
 * Self-audit of M_RP (spec ndis §6.8, §8.4): the exact hockey-stick divergence, in both orderings, between the
 * output distributions {@code N(0, I_r ⊗ (D̄^T D̄))} on a database and on the database without its
 * maximum-leverage row, is at most the claimed delta at the claimed epsilon. The pair is chosen near the worst
 * case (the removed row has norm l and is orthogonal to the rest, leverage {@code l^2/(l^2+lambda)} close to p*),
 * so the check is sharp: with a quarter of the calibrated ridge the same audit finds a violation.
 */
class ProjectionSelfAuditTest {

    private static final HockeyStickDivergence HS = HockeyStickDivergence.cpu();

    @Test
    void worstCaseRemovalStaysWithinTheClaim() {
        for (double eps : new double[] {0.5, 1, 2}) {
            int r = 4;
            double delta = 1e-5;
            RandomProjectionMechanism m = RandomProjectionMechanism.of(r, org.dpgauss.privacy.ApproxDp.of(eps, delta), 1);
            double[] audit = audit(m.ridge(), r, eps);
            assertTrue(audit[0] <= delta && audit[1] <= delta,
                    "eps=" + eps + ": removal " + audit[0] + ", addition " + audit[1] + " > " + delta);
            assertTrue(audit[0] > delta / 20, "the pair is near-worst-case: " + audit[0]);
            double[] under = audit(m.ridge() / 4, r, eps);
            assertTrue(under[0] > delta, "a quarter of the ridge must violate the claim: " + under[0]);
        }
    }

    /** The LSV baseline is (much) more private than claimed on the same pair. */
    @Test
    void lsvBaselineIsWithinTheClaim() {
        RandomProjectionMechanism m = RandomProjectionMechanism.lsvBaseline(4, org.dpgauss.privacy.ApproxDp.of(1, 1e-5), 1);
        double[] audit = audit(m.ridge(), 4, 1);
        assertTrue(audit[0] <= 1e-5 && audit[1] <= 1e-5);
    }

    /** {removal delta_{X,Y}, addition delta_{Y,X}} at eps for ridge lambda. */
    static double[] audit(double lambda, int r, double eps) {
        double[][] rows = {{1, 0, 0}, {0, 0.3, 0.1}, {0, -0.2, 0.4}, {0, 0.5, 0.5}};
        double[][] without = {rows[1], rows[2], rows[3]};
        DMatrixRMaj s1 = ridged(rows, lambda);
        DMatrixRMaj s2 = ridged(without, lambda);
        // leverage of the removed row in D̄ is l^2/(l^2+lambda) <= l^2/lambda
        double lev = 1 / (1 + lambda);
        // HockeyStickDivergence evaluates this pair through RandomProjectionCurve (its gamma path), so both are
        // checked against an oracle that shares neither: N(0, I_r/(1 - lev)) against N(0, I_r) after whitening
        double oracle = ScaledChiSquarePair.delta(1 / (1 - lev), 1, r, eps);
        double tolerance = 1e-12 + 1e-8 * oracle;
        assertTrue(Math.abs(RandomProjectionCurve.delta(eps, lev, r) - oracle) <= tolerance, "Lemma 4 against the oracle");
        assertTrue(Math.abs(HS.delta(kron(r, s1), kron(r, s2), eps) - oracle) <= tolerance, "general NDIS against the oracle");
        return new double[] {HS.delta(kron(r, s1), kron(r, s2), eps), HS.delta(kron(r, s2), kron(r, s1), eps)};
    }

    static DMatrixRMaj ridged(double[][] rows, double lambda) {
        DMatrixRMaj g = CpuEngine.instance().weightedGram(RowBlockMatrix.of(rows), null, null, 1.0);
        for (int i = 0; i < g.numRows; i++) {
            g.add(i, i, lambda);
        }
        return g;
    }

    /** N(0, I_r ⊗ S): the law of vec(M) for M = D̄^T G with the columns of M i.i.d. N(0, S). */
    static Gaussian kron(int r, DMatrixRMaj s) {
        DMatrixRMaj k = new DMatrixRMaj(r * s.numRows, r * s.numRows);
        CommonOps_DDRM.kron(CommonOps_DDRM.identity(r), s, k);
        return Gaussian.of(new double[k.numRows], k);
    }
}
