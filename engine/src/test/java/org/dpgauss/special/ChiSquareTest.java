package org.dpgauss.special;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;

/**
 * The central chi-square dpgauss takes from Commons Statistics ({@link ChiSquaredDistribution}: the group-size rule
 * of the anisotropic mean and the central case of {@link NoncentralChiSquare}) is exact enough in both tails.
 */
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
                case "chi2_cdf" -> actual = ChiSquaredDistribution.of(k).cumulativeProbability(x);
                case "chi2_sf" -> actual = ChiSquaredDistribution.of(k).survivalProbability(x);
                default -> {
                    continue;
                }
            }
            n++;
            assertEquals(expected, actual, 1e-13 * Math.abs(expected), () -> String.join(",", r));
        }
        assertEquals(18, n);
    }
}
