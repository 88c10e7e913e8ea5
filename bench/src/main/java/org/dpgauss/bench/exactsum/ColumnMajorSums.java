package org.dpgauss.bench.exactsum;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The superaccumulator of {@code org.dpgauss.rows.ExactColumnSums} with the other layout, column-major (chunk k of
 * column j at {@code acc[j * 66 + k]}), for {@link ExactSumBench}'s layout comparison: same chunks, same carries,
 * same exact sums.
 */
final class ColumnMajorSums {
    private static final int CHUNKS = 66;
    private static final int CARRY_EVERY = 2047;
    private static final long MASK = 0xFFFFFFFFL;
    private final int d;
    private final long[] acc;
    private int pending;

    ColumnMajorSums(int d) {
        this.d = d;
        this.acc = new long[CHUNKS * d];
    }

    void add(double[] data, int off) {
        long[] a = acc;
        for (int j = 0; j < d; j++) {
            long bits = Double.doubleToRawLongBits(data[off + j]);
            int e = (int) (bits >>> 52) & 0x7FF;
            int normal = (e + 0x7FF) >>> 11;
            long m = (bits & 0xFFFFFFFFFFFFFL) | ((long) normal << 52);
            int pos = e - normal;
            long signed = (m ^ (bits >> 63)) - (bits >> 63);
            int shift = pos & 31;
            int at = j * CHUNKS + (pos >>> 5);
            a[at] += (signed << shift) & MASK;
            a[at + 1] += signed >> (32 - shift);
        }
        if (++pending >= CARRY_EVERY) {
            propagate();
        }
    }

    private void propagate() {
        for (int j = 0; j < d; j++) {
            int base = j * CHUNKS;
            for (int k = 0; k < CHUNKS - 1; k++) {
                long c = acc[base + k];
                acc[base + k] = c & MASK;
                acc[base + k + 1] += c >> 32;
            }
        }
        pending = 0;
    }

    /** @return the sums rounded by BigDecimal (slow; for checking, outside the timed loop) */
    double[] rounded() {
        propagate();
        double[] out = new double[d];
        BigDecimal unit = new BigDecimal(Double.MIN_VALUE);
        for (int j = 0; j < d; j++) {
            BigInteger n = BigInteger.valueOf(acc[j * CHUNKS + CHUNKS - 1]);
            for (int k = CHUNKS - 2; k >= 0; k--) {
                n = n.shiftLeft(32).add(BigInteger.valueOf(acc[j * CHUNKS + k]));
            }
            out[j] = new BigDecimal(n).multiply(unit).doubleValue();
        }
        return out;
    }
}
