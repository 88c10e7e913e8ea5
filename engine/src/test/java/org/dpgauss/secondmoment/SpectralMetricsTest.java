package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/** The metrics of spec §2.1 / §4.3 on matrices with known answers. */
class SpectralMetricsTest {

    private static DMatrixRMaj diag(double... v) {
        return CommonOps_DDRM.diag(v);
    }

    /** Rotates a diagonal pair by the same orthogonal Q: the generalised eigenvalues must not change. */
    @Test
    void generalisedEigenvaluesAndRelativeErrorAreCongruenceInvariant() {
        DMatrixRMaj q = SecondMomentTestData.rotation(3, 7);
        DMatrixRMaj s = conj(q, diag(1e-4, 1, 100));
        DMatrixRMaj e = conj(q, diag(1.1e-4, 0.7, 100));
        double[] mu = SpectralMetrics.generalizedEigenvalues(e, s);
        assertEquals(0.7, mu[0], 1e-9);
        assertEquals(1.0, mu[1], 1e-9);
        assertEquals(1.1, mu[2], 1e-9);
        assertEquals(0.3, SpectralMetrics.relativeSpectralError(s, e), 1e-9);
        assertEquals(Math.sqrt(0.09 + 0.01), SpectralMetrics.mahalanobisFrobeniusError(s, e), 1e-9);
        // Dist = max(|mu - 1|, |1/mu - 1|) = 1/0.7 - 1
        assertEquals(1 / 0.7 - 1, SpectralMetrics.dist(s, e), 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, SpectralMetrics.dist(s, diag(1, 0, 1)));
        assertThrows(ArithmeticException.class, () -> SpectralMetrics.relativeSpectralError(diag(1, -1, 1), e));
    }

    @Test
    void psdProjectionClampsNegativeEigenvaluesOnly() {
        DMatrixRMaj q = SecondMomentTestData.rotation(3, 11);
        DMatrixRMaj a = conj(q, diag(-2, 0.5, 3));
        DMatrixRMaj p = SpectralMetrics.psdProjection(a, 0);
        double[] ev = SpectralMetrics.eigenvalues(p);
        assertEquals(0, ev[0], 1e-12);
        assertEquals(0.5, ev[1], 1e-12);
        assertEquals(3, ev[2], 1e-12);
        assertFalse(SpectralMetrics.isPositiveDefinite(a));
        DMatrixRMaj r = SpectralMetrics.psdSqrt(conj(q, diag(4, 9, 16)));
        DMatrixRMaj rr = new DMatrixRMaj(3, 3);
        CommonOps_DDRM.mult(r, r, rr);
        assertTrue(CommonOps_DDRM.subtract(rr, conj(q, diag(4, 9, 16)), null).data[0] < 1e-12);
        assertEquals(16, SpectralMetrics.spectralNorm(conj(q, diag(4, 9, -16))), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> SpectralMetrics.psdProjection(a, -1));
    }

    @Test
    void secondMomentIsTheUncentredMeanOfOuterProducts() {
        RowBlockMatrix x = RowBlockMatrix.of(new double[][] {{1, 2}, {3, -1}});
        DMatrixRMaj s = SpectralMetrics.secondMoment(x, CpuEngine.instance());
        assertEquals(5.0, s.get(0, 0), 1e-15);
        assertEquals(-0.5, s.get(0, 1), 1e-15);
        assertEquals(2.5, s.get(1, 1), 1e-15);
    }

    static DMatrixRMaj conj(DMatrixRMaj q, DMatrixRMaj a) {
        DMatrixRMaj t = new DMatrixRMaj(q.numRows, q.numRows);
        CommonOps_DDRM.mult(q, a, t);
        DMatrixRMaj out = new DMatrixRMaj(q.numRows, q.numRows);
        CommonOps_DDRM.multTransB(t, q, out);
        return out;
    }
}
