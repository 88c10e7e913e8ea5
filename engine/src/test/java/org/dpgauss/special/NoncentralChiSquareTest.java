package org.dpgauss.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NoncentralChiSquareTest {

    private static final String GOLDEN = "/org/dpgauss/gx2/special-golden.csv";

    /**
     * Noncentral values against an mpmath Poisson mixture at 40 digits (gen_special.py), including tails down
     * to 1e-29 on both sides: relative error 1e-12.
     */
    @Test
    void matchesMpmathInBothTails() {
        int n = 0;
        for (String[] r : GoldenCsv.read(GOLDEN)) {
            if (!r[0].startsWith("ncx2")) {
                continue;
            }
            double k = Double.parseDouble(r[1]);
            double nc = Double.parseDouble(r[2]);
            double x = Double.parseDouble(r[3]);
            double expected = Double.parseDouble(r[4]);
            double actual = r[0].equals("ncx2_cdf") ? NoncentralChiSquare.cdf(x, k, nc) : NoncentralChiSquare.sf(x, k, nc);
            n++;
            assertEquals(expected, actual, 1e-12 * expected, () -> String.join(",", r) + " got " + actual);
        }
        assertEquals(24, n);
    }

    @Test
    void referenceClosedForm() {
        // docs/references/reference-values.md §1.3: one non-central term w=1, k=4, nc=2: CDF at 3.
        assertEquals(0.24627270146198138, NoncentralChiSquare.cdf(3, 4, 2), 1e-15);
    }

    @Test
    void cdfPlusSfIsOneAndMonotone() {
        double prev = 0;
        for (double x = 0.25; x < 300; x *= 1.3) {
            double c = NoncentralChiSquare.cdf(x, 3, 40);
            assertEquals(1, c + NoncentralChiSquare.sf(x, 3, 40), 1e-15);
            assertTrue(c >= prev);
            prev = c;
        }
    }

    @Test
    void dofOneMatchesNormalDifference() {
        // chi2'_1(mu^2) <= x  <=>  -sqrt(x) - mu <= G <= sqrt(x) - mu
        double mu = 2.5;
        for (double x : new double[] {0.01, 1, 5, 30}) {
            double r = Math.sqrt(x);
            assertEquals(Normal.probabilityBetween(-r - mu, r - mu), NoncentralChiSquare.cdf(x, 1, mu * mu), 1e-15);
        }
    }

    @Test
    void zeroNoncentralityIsCentral() {
        // k = 3: sf(x) = 2 Phi(-sqrt x) + sqrt(2x/pi) e^{-x/2} (closed form of the chi distribution)
        double sf = 2 * Normal.sf(Math.sqrt(7)) + Math.sqrt(14 / Math.PI) * Math.exp(-3.5);
        assertEquals(sf, NoncentralChiSquare.sf(7, 3, 0), 1e-15);
        assertEquals(1 - sf, NoncentralChiSquare.cdf(7, 3, 0), 1e-15);
    }

    @Test
    void validation() {
        assertThrows(IllegalArgumentException.class, () -> NoncentralChiSquare.cdf(1, 2, -1));
        assertThrows(IllegalArgumentException.class, () -> NoncentralChiSquare.sf(1, -2, 1));
        assertThrows(IllegalArgumentException.class, () -> NoncentralChiSquare.sf(1, 2, Double.NaN));
    }
}
