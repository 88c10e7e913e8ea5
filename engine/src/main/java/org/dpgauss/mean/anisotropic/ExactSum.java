package org.dpgauss.mean.anisotropic;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * An exact running sum of doubles (Shewchuk, "Adaptive Precision Floating-Point Arithmetic", 1997; the
 * {@code msum} of Python's {@code math.fsum}): the sum is kept as non-overlapping partials whose exact sum is the
 * exact sum of the inputs. Used so that the whitened mean of {@link RescaledAveraging} is rounded to the noise
 * grid from its exact value: then its sensitivity is exactly the mathematical one and needs no floating-point
 * slack term (contrast {@code ClippedGaussianMean}, which bounds Kahan-summation error with a public radius; this
 * estimator has no public range, spec §1.1). Inputs must be finite with magnitude at most {@code 2^900}, so that
 * no partial overflows for fewer than {@code 2^100} terms. Mutable, package-private.
 */
final class ExactSum {

    static final double MAX_ABS = 0x1p900;

    private double[] partials = new double[4];
    private int size;

    void add(double x) {
        int i = 0;
        for (int j = 0; j < size; j++) {
            double y = partials[j];
            if (Math.abs(x) < Math.abs(y)) {
                double t = x;
                x = y;
                y = t;
            }
            double hi = x + y;
            double lo = y - (hi - x);   // exact error of hi (TwoSum with |x| >= |y|)
            if (lo != 0.0) {
                partials[i++] = lo;
            }
            x = hi;
        }
        if (i == partials.length) {
            partials = Arrays.copyOf(partials, 2 * partials.length);
        }
        partials[i++] = x;
        size = i;
    }

    /** @return the non-overlapping partials whose exact sum is the sum (a copy) */
    double[] partials() {
        return Arrays.copyOf(partials, size);
    }

    /** @return the exact sum */
    BigDecimal value() {
        BigDecimal s = BigDecimal.ZERO;
        for (int j = 0; j < size; j++) {
            s = s.add(new BigDecimal(partials[j]));
        }
        return s;
    }
}
