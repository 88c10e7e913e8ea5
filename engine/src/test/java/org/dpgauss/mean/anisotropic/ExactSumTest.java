package org.dpgauss.mean.anisotropic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ExactSumTest {

    @Test
    void cancellationIsExact() {
        ExactSum s = new ExactSum();
        s.add(1e16);
        s.add(1.0);
        s.add(-1e16);
        s.add(0x1p-60);
        assertEquals(0, s.value().compareTo(new BigDecimal(1.0).add(new BigDecimal(0x1p-60))));
    }

    @Test
    void matchesBigDecimalOnWideRangeValues() {
        SplittableRandom r = new SplittableRandom(7);
        ExactSum s = new ExactSum();
        BigDecimal exact = BigDecimal.ZERO;
        for (int i = 0; i < 20_000; i++) {
            double x = (r.nextDouble() - 0.5) * Math.scalb(1.0, r.nextInt(-40, 60));
            s.add(x);
            exact = exact.add(new BigDecimal(x));
        }
        assertEquals(0, s.value().compareTo(exact));
    }
}
