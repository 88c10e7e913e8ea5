package org.dpgauss.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class NormsTest {

    @Test
    void handValuesAcrossTheWholeExponentRange() {
        assertEquals(5.0, Norms.euclidean(new double[] {3, -4}), 0);
        assertEquals(5.0, Norms.euclidean(new double[] {3, 4, 100}, 2), 0, "the first k entries only");
        assertEquals(0.0, Norms.euclidean(new double[] {0, 0}), 0);
        assertEquals(0.0, Norms.euclidean(new double[] {7}, 0), 0);
        assertEquals(5e300, Norms.euclidean(new double[] {3e300, 4e300}), 1e286, "squares would overflow");
        assertEquals(5e-300, Norms.euclidean(new double[] {3e-300, -4e-300}), 1e-314, "squares would underflow");
        assertEquals(Double.MAX_VALUE, Norms.euclidean(new double[] {Double.MAX_VALUE, 1}), 0);
        assertEquals(Double.POSITIVE_INFINITY, Norms.euclidean(new double[] {Double.MAX_VALUE, Double.MAX_VALUE}));
    }

    @Test
    void bitIdenticalToThePlainSumInTheSafeRange() {
        java.util.SplittableRandom g = new java.util.SplittableRandom(3);
        for (int t = 0; t < 1000; t++) {
            double[] v = new double[1 + g.nextInt(20)];
            double s = 0;
            for (int j = 0; j < v.length; j++) {
                v[j] = Math.scalb(g.nextDouble(-1, 1), g.nextInt(-300, 300));
                s += v[j] * v[j];
            }
            if (s > 0 && Double.isFinite(s) && s >= Double.MIN_NORMAL) {
                assertEquals(Math.sqrt(s), Norms.euclidean(v), 0);
            }
        }
    }
}
