package org.dpgauss.mean.anisotropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** ShapeMatrix powers and validation (spec §9 A2) and the lambda rule of spec §3.2. */
class ShapeAndLambdaTest {

    private static DMatrixRMaj dense(double[][] a) {
        return new DMatrixRMaj(a);
    }

    @Test
    void powersOfDenseMatrixComposeAndMatchDiagonal() {
        double[] diag = {4.0, 1.0, 0.25};
        ShapeMatrix dm = ShapeMatrix.diagonal(diag);
        ShapeMatrix full = ShapeMatrix.of(dense(new double[][] {{4, 0, 0}, {0, 1, 0}, {0, 0, 0.25}}));
        double[] v = {1.0, -2.0, 3.0};
        double[] a = new double[3];
        double[] b = new double[3];
        dm.applyPower(-0.25, v, a);
        full.applyPower(-0.25, v, b);
        for (int j = 0; j < 3; j++) {
            assertEquals(v[j] * Math.pow(diag[j], -0.25), a[j], 1e-15);
            assertEquals(a[j], b[j], 1e-12);
        }
        // M^{1/4} M^{-1/4} v = v for a non-diagonal M
        ShapeMatrix m = ShapeMatrix.of(dense(new double[][] {{2, 0.5, 0}, {0.5, 1, 0.2}, {0, 0.2, 0.7}}));
        double[] w = new double[3];
        double[] back = new double[3];
        m.applyPower(-0.25, v, w);
        m.applyPower(0.25, w, back);
        for (int j = 0; j < 3; j++) {
            assertEquals(v[j], back[j], 1e-12);
        }
        assertEquals(2 + 1 + 0.7, m.tracePower(1.0), 1e-12);
    }

    @Test
    void rejectsNonSymmetricAndNonPositiveDefinite() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShapeMatrix.of(dense(new double[][] {{1, 0.5}, {0.4, 1}})));
        assertTrue(e.getMessage().contains("M[0][1]=0.5") && e.getMessage().contains("symmetric"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ShapeMatrix.of(dense(new double[][] {{1, 2}, {2, 1}})));
        assertTrue(e.getMessage().contains("smallest eigenvalue") && e.getMessage().contains("(0, inf)"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ShapeMatrix.diagonal(new double[] {1, 0}));
        assertTrue(e.getMessage().contains("M[1][1]=0.0") && e.getMessage().contains("positive definite"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ShapeMatrix.identity(0));
        assertTrue(e.getMessage().contains("d=0"), e.getMessage());
    }

    @Test
    void knownCovarianceAndFolkloreRulesAreTheGeneralRuleAtMEqualsSigmaAndI() {
        double[] spec = AnisotropicTestData.polynomialSpectrum(30);
        ShapeMatrix sigma = ShapeMatrix.diagonal(spec);
        DMatrixRMaj sigmaDense = sigma.matrixPower(1.0);
        int n = 1000;
        double beta = 0.01;
        double known = LambdaRule.knownCovariance(sigma, n, beta);
        double trSqrt = 0;
        for (double s : spec) {
            trSqrt += Math.sqrt(s);
        }
        // spec §3.2: lambda = sqrt(2 tr Sigma^{1/2}) + 2 sqrt(2 ||Sigma||^{1/2} log(n/beta)), ||Sigma|| = 1
        assertEquals(Math.sqrt(2 * trSqrt) + 2 * Math.sqrt(2 * Math.log(n / beta)), known, 1e-12);
        assertEquals(known, LambdaRule.general(sigmaDense, sigma, n, beta), 1e-9);
        double trace = sigma.tracePower(1.0);
        double folk = LambdaRule.folklore(trace, 1.0, n, beta);
        assertEquals(folk, LambdaRule.general(sigmaDense, ShapeMatrix.identity(30), n, beta), 1e-9);
    }

    @Test
    void lambdaRuleRejectsBadParameters() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LambdaRule.lambdaStar(1, 1, 100, 0.0));
        assertTrue(e.getMessage().contains("beta=0.0") && e.getMessage().contains("(0, 1)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LambdaRule.lambdaStar(1, 1, 0, 0.1));
        assertTrue(e.getMessage().contains("n=0") && e.getMessage().contains("[1, inf)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LambdaRule.lambdaStar(1, 2, 10, 0.1));
        assertTrue(e.getMessage().contains("||A||_2=2.0") && e.getMessage().contains("at most its trace"),
                e.getMessage());
    }
}
