package org.dpgauss.mean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;

/** The private radius below a public cap (issue 26, pca --radius auto). */
class PrivateRadiusTest {

    @Test
    void bucketsHoldTheirDistancesBetweenConsecutiveEdges() {
        PrivateRadius f = PrivateRadius.of(10, 10, 4, Zcdp.of(1));
        int last = f.buckets() - 1;
        assertEquals(41, f.buckets());
        assertEquals(10.0, f.edge(last), 1e-12);
        assertEquals(10.0 / 1024, f.edge(0), 1e-15);
        java.util.SplittableRandom r = new java.util.SplittableRandom(1);
        for (int t = 0; t < 10000; t++) {
            double v = Math.scalb(r.nextDouble(), -14 + r.nextInt(20));
            int b = f.bucket(v);
            if (b < last) {
                assertTrue(v <= f.edge(b), v + " above its bucket's edge");
            }
            if (b > 0) {
                assertTrue(v > f.edge(b - 1), v + " not above the previous edge");
            }
        }
        assertEquals(last, f.bucket(Double.POSITIVE_INFINITY));
        assertEquals(last, f.bucket(1e300));
        assertEquals(0, f.bucket(0));
        assertEquals(0, f.bucket(Double.NaN));
        assertEquals(last, f.bucket(10.0));
    }

    /** The largest bucket far above the threshold is taken; empty grids give NaN (failure probability ~1e-3). */
    @Test
    void theLargestBucketStandingOutIsTheRadius() {
        PrivateRadius f = PrivateRadius.of(8, 10, 4, Zcdp.of(0.5));
        long big = (long) (f.threshold() + 20 * f.sigma());
        long[] counts = new long[f.buckets()];
        counts[12] = big;
        counts[30] = big;
        counts[35] = 1; // a sparse tail stays below the threshold
        for (int t = 0; t < 20; t++) {
            assertEquals(f.edge(30), f.fromCounts(counts, RandomSource.insecureSeeded(t)));
        }
        assertTrue(Double.isNaN(f.fromCounts(new long[f.buckets()], RandomSource.insecureSeeded(3))));
    }
}
