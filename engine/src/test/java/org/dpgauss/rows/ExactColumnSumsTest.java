package org.dpgauss.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The exact sums against BigDecimal: a Fast2Sum that drops its error term, or a lost partial, fails them. */
class ExactColumnSumsTest {

    @Test
    void cancellationIsExact() {
        ExactColumnSums s = ExactColumnSums.zeros(1);
        s.add(new double[] {1e16});
        s.add(new double[] {1.0});
        s.add(new double[] {-1e16});
        s.add(new double[] {0x1p-60});
        assertEquals(0, s.exact()[0].compareTo(new BigDecimal(1.0).add(new BigDecimal(0x1p-60))));
    }

    @Test
    void matchesBigDecimalOnWideRangeValues() {
        SplittableRandom r = new SplittableRandom(7);
        ExactColumnSums s = ExactColumnSums.zeros(1);
        BigDecimal exact = BigDecimal.ZERO;
        for (int i = 0; i < 20_000; i++) {
            double x = (r.nextDouble() - 0.5) * Math.scalb(1.0, r.nextInt(-40, 60));
            s.add(new double[] {x});
            exact = exact.add(new BigDecimal(x));
        }
        assertEquals(0, s.exact()[0].compareTo(exact));
    }
}
