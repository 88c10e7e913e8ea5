package org.dpgauss.random;

/**
 * The Box-Muller transform behind {@link CounterBasedGenerator#normal} and its bulk twin
 * {@link CounterBasedGenerator#fillNormals}: {@code r = sqrt(-2 ln u1)} with the logarithm from a series on the
 * exactly reduced argument ({@link #radius}), and {@code cos(2 pi u2)}, {@code sin(2 pi u2)} from a polynomial on the
 * exactly reduced angle, instead of {@code Math.log/sin/cos}.
 *
 * <p>The angle needs no rounded {@code 2 pi u2}: with {@code v = u2 - 1/2} (exact, u2 is a multiple of
 * 2^-53), {@code q = rint(4 v)} in {-2..2} and {@code f = (4 v - q) / 4} (exact, {@code |f| <= 1/8}),
 * {@code sin(2 pi u2) = -(sin(q pi/2) C + cos(q pi/2) S)} and {@code cos(2 pi u2) = -(cos(q pi/2) C - sin(q pi/2) S)},
 * where {@code S, C} are the Taylor polynomials of sin and cos at {@code x = 2 pi f} ({@code |x| <= pi/4}, terms
 * to {@code x^17} and {@code x^18}: the first omitted term is below 1e-19) and the quadrant factors
 * {@code cos(q pi/2) = 1 - |q|}, {@code sin(q pi/2) = q (2 - |q|)} are exact. The result is within a
 * few ulps of {@code sin/cos(2 pi u2)} (the CUDA twin uses {@code sincospi(2 u2)}, the same exact angle).
 *
 * <p>Why: {@code Math.log}, {@code Math.sin} and {@code Math.cos} together cost more per pair than the ChaCha20
 * words behind it; series and polynomials are plain multiply-add on arrays, which the JIT vectorises, and the scalar
 * {@link #radius} and {@link #sinCos} run the same operations in the same order, so per-element and bulk paths
 * agree bit for bit (Java floating point is strict: no contraction into fused multiply-adds).
 */
final class BoxMuller {

    private BoxMuller() {
    }

    /** Blocks generated per batch by the bulk path (word-major, see {@link CounterBasedGenerator#blocks}). */
    static final int BATCH_BLOCKS = 256;

    private static final double TWO_PI = 2 * Math.PI;
    // Taylor coefficients (-1)^k / (2k+1)! and (-1)^k / (2k)!, each one correctly rounded division
    private static final double S3 = -1.0 / 6;
    private static final double S5 = 1.0 / 120;
    private static final double S7 = -1.0 / 5040;
    private static final double S9 = 1.0 / 362880;
    private static final double S11 = -1.0 / 39916800;
    private static final double S13 = 1.0 / 6227020800.0;
    private static final double S15 = -1.0 / 1307674368000.0;
    private static final double S17 = 1.0 / 355687428096000.0;
    private static final double C2 = -1.0 / 2;
    private static final double C4 = 1.0 / 24;
    private static final double C6 = -1.0 / 720;
    private static final double C8 = 1.0 / 40320;
    private static final double C10 = -1.0 / 3628800;
    private static final double C12 = 1.0 / 479001600;
    private static final double C14 = -1.0 / 87178291200.0;
    private static final double C16 = 1.0 / 20922789888000.0;
    private static final double C18 = -1.0 / 6402373705728000.0;

    /** {@code CounterBasedGenerator.toUniform} of the 64-bit word {@code lo | hi << 32}. */
    static double uniform(int lo, int hi) {
        return CounterBasedGenerator.toUniform((lo & 0xffffffffL) | ((long) hi << 32));
    }

    // ln 2 split as in fdlibm: LN2_HI has 32 significant bits, so k * LN2_HI is exact for the exponents here
    private static final double LN2_HI = 6.93147180369123816490e-01;
    private static final double LN2_LO = 1.90821492927058770002e-10;
    private static final double INV_SQRT_2 = 0.7071067811865476;
    // 2 / (2k + 1): ln m = 2 atanh(s) = s (L0 + L1 s^2 + L2 s^4 + ...), s = (m - 1)/(m + 1), |s| <= 0.1716
    private static final double L0 = 2.0 / 1;
    private static final double L1 = 2.0 / 3;
    private static final double L2 = 2.0 / 5;
    private static final double L3 = 2.0 / 7;
    private static final double L4 = 2.0 / 9;
    private static final double L5 = 2.0 / 11;
    private static final double L6 = 2.0 / 13;
    private static final double L7 = 2.0 / 15;
    private static final double L8 = 2.0 / 17;
    private static final double L9 = 2.0 / 19;
    private static final double L10 = 2.0 / 21;

    /**
     * Box-Muller radius {@code sqrt(-2 ln u1)} with {@code ln u1 = k ln 2 + ln m}, {@code u1 = 2^k m},
     * {@code m} within an ulp of {@code [sqrt(1/2), sqrt(2))} (exact scalings; the half is chosen without a branch),
     * and {@code ln m = 2 atanh((m - 1)/(m + 1))} by its series to {@code s^21} (first omitted term below 1e-17
     * relative): within 3 ulps of {@code StrictMath.log} (tested), like the CUDA twin's {@code log}. The same
     * operations as {@link #radii}, whose second loop the JIT vectorises.
     */
    static double radius(double u1) {
        int e = Math.getExponent(u1);
        return radiusReduced(e, u1 * Double.longBitsToDouble((long) (1023 - e) << 52));
    }

    /** The radius from {@code u1 = 2^e f}, {@code f in [1, 2)}: the operations of the second loop of {@link #radii}. */
    private static double radiusReduced(double e, double f) {
        double up = Math.floor(f * INV_SQRT_2); // 1 when f is above about sqrt(2), else 0: no branch
        double m = f * (1.0 - 0.5 * up); // exact
        double k = e + up;
        double s = (m - 1.0) / (m + 1.0);
        double z = s * s;
        double p = L0 + z * (L1 + z * (L2 + z * (L3 + z * (L4 + z * (L5 + z * (L6 + z * (L7 + z * (L8
                + z * (L9 + z * L10)))))))));
        return Math.sqrt(-2.0 * (k * LN2_HI + (s * p + k * LN2_LO)));
    }

    /**
     * {@code u[i] <- radius(u[i])} for {@code i < len}: the exponent split in a scalar loop, the rest in a loop the JIT
     * vectorises ({@code k}, {@code m} scratch of at least len).
     */
    static void radii(double[] u, double[] k, double[] m, int len) {
        for (int i = 0; i < len; i++) {
            int e = Math.getExponent(u[i]);
            k[i] = e;
            m[i] = u[i] * Double.longBitsToDouble((long) (1023 - e) << 52);
        }
        for (int i = 0; i < len; i++) {
            double f = m[i];
            double up = Math.floor(f * INV_SQRT_2);
            double mi = f * (1.0 - 0.5 * up);
            double ki = k[i] + up;
            double s = (mi - 1.0) / (mi + 1.0);
            double z = s * s;
            double p = L0 + z * (L1 + z * (L2 + z * (L3 + z * (L4 + z * (L5 + z * (L6 + z * (L7 + z * (L8
                + z * (L9 + z * L10)))))))));
            u[i] = Math.sqrt(-2.0 * (ki * LN2_HI + (s * p + ki * LN2_LO)));
        }
    }

    /** {@code cos(2 pi u)} (even) or {@code sin(2 pi u)} (odd) for a uniform u in (0, 1). */
    static double sinCos(double u, boolean sine) {
        double v4 = (u - 0.5) * 4.0;
        double q = Math.rint(v4);
        double f = (v4 - q) * 0.25;
        double x = f * TWO_PI;
        double x2 = x * x;
        double s = x + x * x2 * (S3 + x2 * (S5 + x2 * (S7 + x2 * (S9 + x2 * (S11 + x2 * (S13 + x2 * (S15
                + x2 * S17)))))));
        double c = 1.0 + x2 * (C2 + x2 * (C4 + x2 * (C6 + x2 * (C8 + x2 * (C10 + x2 * (C12 + x2 * (C14
                + x2 * (C16 + x2 * C18))))))));
        double aq = Math.abs(q);
        double cq = 1.0 - aq;
        double sq = q * (2.0 - aq);
        return sine ? -(sq * c + cq * s) : -(cq * c - sq * s);
    }

    /**
     * {@code cos[i] = cos(2 pi u[i])}, {@code sin[i] = sin(2 pi u[i])} for {@code i < len}: the same operations as
     * {@link #sinCos(double, boolean)}, split into four short loops so that the JIT unrolls and vectorises each
     * (one loop with the whole body stays scalar under the default unrolling limit, 10x slower). {@code x} and
     * {@code q} are scratch arrays of at least {@code len}.
     */
    static void sinCos(double[] u, double[] cos, double[] sin, double[] x, double[] q, int len) {
        for (int i = 0; i < len; i++) {
            double v4 = (u[i] - 0.5) * 4.0;
            double qi = Math.rint(v4);
            q[i] = qi;
            x[i] = ((v4 - qi) * 0.25) * TWO_PI;
        }
        for (int i = 0; i < len; i++) {
            double xi = x[i];
            double x2 = xi * xi;
            sin[i] = xi + xi * x2 * (S3 + x2 * (S5 + x2 * (S7 + x2 * (S9 + x2 * (S11 + x2 * (S13 + x2 * (S15
                    + x2 * S17)))))));
        }
        for (int i = 0; i < len; i++) {
            double xi = x[i];
            double x2 = xi * xi;
            cos[i] = 1.0 + x2 * (C2 + x2 * (C4 + x2 * (C6 + x2 * (C8 + x2 * (C10 + x2 * (C12 + x2 * (C14
                    + x2 * (C16 + x2 * C18))))))));
        }
        for (int i = 0; i < len; i++) {
            double qi = q[i];
            double aq = Math.abs(qi);
            double cq = 1.0 - aq;
            double sq = qi * (2.0 - aq);
            double s = sin[i];
            double c = cos[i];
            sin[i] = -(sq * c + cq * s);
            cos[i] = -(cq * c - sq * s);
        }
    }

    /**
     * {@code out[off + i] = g.normal(start + i)}: whole blocks are generated {@value #BATCH_BLOCKS} at a time by
     * {@link CounterBasedGenerator#blocks} (vectorised for ChaCha20), converted to uniforms, radii and angles in
     * array loops, and written in stream order. Bit-identical to the per-element path.
     */
    static void fill(CounterBasedGenerator g, long start, double[] out, int off, int len) {
        int words = g.wordsPerBlock();
        int pairsPerBlock = words / 4;
        long last = start + (len - 1); // inclusive (the stream may end at Long.MAX_VALUE); checked by the caller
        long firstBlock = (start >>> 1) / pairsPerBlock;
        long lastBlock = (last >>> 1) / pairsPerBlock;
        int lanes = (int) Math.min(BATCH_BLOCKS, lastBlock - firstBlock + 1);
        int pairs = lanes * pairsPerBlock;
        int[] w = new int[words * lanes];
        double[] u1 = new double[pairs];
        double[] u2 = new double[pairs];
        double[] cos = new double[pairs];
        double[] sin = new double[pairs];
        double[] x = new double[pairs];
        double[] q = new double[pairs];
        for (long b0 = firstBlock; b0 <= lastBlock; b0 += lanes) {
            int count = (int) Math.min(lanes, lastBlock - b0 + 1);
            g.blocks(b0, count, w);
            // pair p of lane l (block b0 + l) at index p * count + l: contiguous lanes, so these loops vectorise
            for (int p = 0; p < pairsPerBlock; p++) {
                int lo1 = 4 * p * count;
                int hi1 = lo1 + count;
                int lo2 = hi1 + count;
                int hi2 = lo2 + count;
                int base = p * count;
                for (int l = 0; l < count; l++) {
                    u1[base + l] = uniform(w[lo1 + l], w[hi1 + l]);
                    u2[base + l] = uniform(w[lo2 + l], w[hi2 + l]);
                }
            }
            int n = pairsPerBlock * count;
            radii(u1, x, q, n);
            sinCos(u2, cos, sin, x, q, n);
            long firstPair = b0 * pairsPerBlock;
            long k0 = 2 * firstPair; // the first normal of this batch
            if (k0 >= start && k0 + (2L * n - 1) <= last) {
                // the whole batch is wanted (every batch but the first and last)
                int o = off + (int) (k0 - start);
                for (int l = 0; l < count; l++) {
                    for (int p = 0; p < pairsPerBlock; p++, o += 2) {
                        int i = p * count + l;
                        double r = u1[i];
                        out[o] = r * cos[i];
                        out[o + 1] = r * sin[i];
                    }
                }
                continue;
            }
            for (int l = 0; l < count; l++) {
                for (int p = 0; p < pairsPerBlock; p++) {
                    int i = p * count + l;
                    long k = k0 + 2L * (l * pairsPerBlock + p); // the even member of the pair
                    double r = u1[i];
                    if (k >= start && k <= last) {
                        out[off + (int) (k - start)] = r * cos[i];
                    }
                    if (k + 1 >= start && k + 1 <= last) {
                        out[off + (int) (k + 1 - start)] = r * sin[i];
                    }
                }
            }
        }
    }
}
