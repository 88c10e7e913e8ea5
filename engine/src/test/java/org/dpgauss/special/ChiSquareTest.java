package org.dpgauss.special;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ChiSquareTest {

    private static final String GOLDEN = "/org/dpgauss/gx2/special-golden.csv";

    /** Central chi-square values against mpmath (40 digits, gen_special.py): relative error 1e-13 in both tails. */
    @Test
    void matchesMpmath() {
        int n = 0;
        for (String[] r : GoldenCsv.read(GOLDEN)) {
            double k = Double.parseDouble(r[1]);
            double x = Double.parseDouble(r[3]);
            double expected = Double.parseDouble(r[4]);
            double actual;
            switch (r[0]) {
                case "chi2_cdf" -> actual = ChiSquare.cdf(x, k);
                case "chi2_sf" -> actual = ChiSquare.sf(x, k);
                case "chi2_logsf" -> actual = ChiSquare.logSf(x, k);
                default -> {
                    continue;
                }
            }
            n++;
            assertEquals(expected, actual, 1e-13 * Math.abs(expected), () -> String.join(",", r));
        }
        assertEquals(20, n);
    }

    @Test
    void logSfMatchesLogOfSfWhereRepresentable() {
        for (double x : new double[] {0.5, 3, 40, 300}) {
            assertEquals(Math.log(ChiSquare.sf(x, 3)), ChiSquare.logSf(x, 3), 1e-13 * Math.abs(Math.log(ChiSquare.sf(x, 3))) + 1e-15);
        }
    }

    @Test
    void pdfIntegratesToCdfDifference() {
        // Simpson's rule of the density over [1, 2] against cdf(2) - cdf(1).
        double k = 3.5;
        int n = 2000;
        double h = 1.0 / n;
        double s = ChiSquare.pdf(1, k) + ChiSquare.pdf(2, k);
        for (int i = 1; i < n; i++) {
            s += (i % 2 == 1 ? 4 : 2) * ChiSquare.pdf(1 + i * h, k);
        }
        assertEquals(ChiSquare.cdf(2, k) - ChiSquare.cdf(1, k), s * h / 3, 1e-13);
    }

    @Test
    void edgeCasesAndValidation() {
        assertEquals(0, ChiSquare.cdf(0, 2));
        assertEquals(1, ChiSquare.sf(-1, 2));
        assertEquals(1, ChiSquare.cdf(Double.POSITIVE_INFINITY, 2));
        assertEquals(0, ChiSquare.pdf(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> ChiSquare.cdf(1, 0));
        assertThrows(IllegalArgumentException.class, () -> ChiSquare.sf(1, Double.NaN));
    }
}
