package org.dpgauss.privacy.noise;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;
import org.dpgauss.privacy.RandomSource;

/**
 * Pure-DP noise for a query whose neighbours differ inside a box: the discrete L-infinity K-norm mechanism
 * (Hardt &amp; Talwar, "On the Geometry of Differential Privacy", STOC 2010, with K the unit L-infinity ball;
 * Steinke &amp; Ullman, "Between Pure and Approximate Differential Privacy", 2016, §4), on the integers.
 *
 * <p><b>Distribution.</b> For integer cell sizes {@code c_j >= 1} and an integer temperature {@code t >= 1}, the
 * noise {@code Z in Z^d} has {@code P[Z = z] proportional to exp(-m(z) / t)}, {@code m(z) = max_j ceil(|z_j| / c_j)}.
 * If an integer query moves by at most {@code K c_j} in coordinate j between neighbours, then
 * {@code m(z + Delta) <= m(z) + K} (since {@code ceil((|z_j| + K c_j)/c_j) = ceil(|z_j|/c_j) + K}), so adding Z is
 * {@code K / t}-DP (the normaliser does not depend on the query: a sum over all of {@code Z^d}).
 *
 * <p><b>Why not Laplace per coordinate.</b> With sensitivity {@code a_j} per coordinate, independent Laplace noise
 * needs the L1 sensitivity {@code sum a_j}: {@code E||Z||^2 = 2 d (sum a)^2 / epsilon^2}, i.e. {@code 2 d^3 a^2 /
 * epsilon^2} for equal widths. This mechanism has {@code E Z_j^2 ~ a_j^2 (d+1)(d+2) / (3 epsilon^2)}, i.e.
 * {@code d (d+1)(d+2) a^2 / (3 epsilon^2)} in all, smaller for every d >= 2 (d = 4: 40 against 128; d = 10: 440
 * against 2000) and equal at d = 1.
 *
 * <p><b>Exact sampling</b>, in integer arithmetic only ({@link ExactBernoulli}), so no floating-point value enters
 * the draw (Mironov 2012): {@code exp(-m/t) = sum_{s >= m} (1 - q) q^s} with {@code q = e^(-1/t)}, so Z is the
 * mixture over s of the uniform distribution on the integer box {@code |z_j| <= s c_j} (which holds z iff
 * {@code m(z) <= s}) with weights proportional to {@code q^s N(s)}, {@code N(s) = prod_j (2 s c_j + 1)}. The level s
 * is drawn by rejection from {@code S'} = the sum of {@code d + 1} geometric variables ({@code P[S' = s] =
 * C(s+d, d) (1-q)^(d+1) q^s}), accepted with probability {@code prod_j (2 s c_j + 1) / (2 c_j (s + j)) <= 1}, which
 * is {@code N(s) / (C(s+d, d) d! prod_j 2 c_j)}; the geometric draws are those of CKS20 Algorithm 2
 * ({@link DiscreteLaplace}). Acceptance is about {@code exp(-d^2 / (2 s))}, near 1 at the usual {@code s ~ d t}.
 *
 * <p>Immutable in what it samples (a lazily built table of distinct cell sizes speeds up {@link #levelMoments});
 * not for concurrent use by several threads.
 */
public final class DiscreteLinfNoise {

    /** The largest temperature: keeps {@code s c_j} far inside a long. */
    public static final long MAX_TEMPERATURE = 1L << 32;

    private final long[] cells;
    private final long temperature;

    private DiscreteLinfNoise(long[] cells, long temperature) {
        this.cells = cells;
        this.temperature = temperature;
    }

    /**
     * @param cells the cell sizes {@code c_j >= 1}, at most {@code 2^24} each
     * @param temperature {@code t} in {@code [1, 2^32]}
     * @return the distribution
     */
    public static DiscreteLinfNoise of(long[] cells, long temperature) {
        Objects.requireNonNull(cells, "cells");
        if (cells.length == 0) {
            throw new IllegalArgumentException("no coordinates");
        }
        for (long c : cells) {
            if (c < 1 || c > (1L << 24)) {
                throw new IllegalArgumentException("cell size " + c + " is outside [1, 2^24]");
            }
        }
        if (temperature < 1 || temperature > MAX_TEMPERATURE) {
            throw new IllegalArgumentException("temperature " + temperature + " is outside [1, 2^32]");
        }
        return new DiscreteLinfNoise(cells.clone(), temperature);
    }

    /** @return the cell sizes (a copy) */
    public long[] cells() {
        return cells.clone();
    }

    /** @return the temperature t */
    public long temperature() {
        return temperature;
    }

    /**
     * One draw.
     *
     * @param random the random source
     * @return Z, a fresh array of length d
     */
    public long[] sample(RandomSource random) {
        Objects.requireNonNull(random, "random");
        long s = level(random);
        long[] z = new long[cells.length];
        for (int j = 0; j < cells.length; j++) {
            long half = Math.multiplyExact(s, cells[j]);
            z[j] = ExactBernoulli.uniformBelow(random, Math.addExact(Math.multiplyExact(2, half), 1)) - half;
        }
        return z;
    }

    /** The level S with {@code P[S = s] proportional to q^s prod_j (2 s c_j + 1)}, by rejection (class comment). */
    long level(RandomSource random) {
        int d = cells.length;
        while (true) {
            long s = 0;
            for (int i = 0; i <= d; i++) {
                s = Math.addExact(s, geometric(random));
            }
            BigInteger num = BigInteger.ONE;
            BigInteger den = BigInteger.ONE;
            for (int j = 0; j < d; j++) {
                long c = cells[j];
                num = num.multiply(BigInteger.valueOf(2 * c).multiply(BigInteger.valueOf(s)).add(BigInteger.ONE));
                den = den.multiply(BigInteger.valueOf(2 * c).multiply(BigInteger.valueOf(s + j + 1)));
            }
            if (ExactBernoulli.bernoulli(random, num, den)) {
                return s;
            }
        }
    }

    /** {@code P[G = x] = (1 - q) q^x}, {@code q = e^(-1/t)}: the magnitude of CKS20 Algorithm 2. */
    private long geometric(RandomSource random) {
        while (true) {
            long u = ExactBernoulli.uniformBelow(random, temperature);
            if (!ExactBernoulli.bernoulliExpNeg(random, u, temperature)) {
                continue;
            }
            long v = 0;
            while (ExactBernoulli.bernoulliExpNeg(random, 1, 1)) {
                v++;
            }
            return Math.addExact(u, Math.multiplyExact(temperature, v));
        }
    }

    /**
     * The moments of the level S, computed from public numbers only (for accuracy statements): {@code E[S]},
     * {@code E[S^2]} and the {@code probability} quantile of S, by summing the weights
     * {@code exp(-s/t) prod_j (2 s c_j + 1)} in log space over {@code s} up to far in the tail (stride 1 up to
     * 200,000 terms, a coarser stride beyond, a Riemann sum of a smooth weight).
     *
     * @param probability the quantile's probability, in (0, 1)
     * @return {@code {E[S], E[S^2], quantile}}
     */
    public double[] levelMoments(double probability) {
        int d = cells.length;
        double t = temperature;
        double last = t * (d + 1 + 12 * Math.sqrt(d + 1.0) + 60);
        long stride = Math.max(1L, (long) Math.ceil(last / 200_000));
        double mode = t * d; // the log weight is maximal near s = d t
        double logMax = logWeight(Math.max(0, Math.round(mode)));
        int count = (int) (last / stride) + 2;
        double[] w = new double[count];
        double total = 0;
        double m1 = 0;
        double m2 = 0;
        for (int i = 0; i < count; i++) {
            long s = (long) i * stride;
            w[i] = Math.exp(logWeight(s) - logMax);
            total += w[i];
            m1 += w[i] * s;
            m2 += w[i] * (double) s * s;
        }
        double target = probability * total;
        double acc = 0;
        double quantile = (double) (count - 1) * stride;
        for (int i = 0; i < count; i++) {
            acc += w[i];
            if (acc >= target) {
                quantile = (double) (i + 1) * stride; // the stride's upper end: conservative
                break;
            }
        }
        return new double[] {m1 / total, m2 / total, quantile};
    }

    private double logWeight(long s) {
        // equal cell sizes (the usual equal widths) share one logarithm
        if (distinct == null) {
            long[] sorted = cells.clone();
            Arrays.sort(sorted);
            int k = 0;
            long[] values = new long[sorted.length];
            int[] counts = new int[sorted.length];
            for (int i = 0; i < sorted.length; i++) {
                if (i == 0 || sorted[i] != sorted[i - 1]) {
                    values[k++] = sorted[i];
                }
                counts[k - 1]++;
            }
            distinctCounts = Arrays.copyOf(counts, k);
            distinct = Arrays.copyOf(values, k);
        }
        double lw = -s / (double) temperature;
        for (int i = 0; i < distinct.length; i++) {
            lw += distinctCounts[i] * Math.log(2.0 * distinct[i] * s + 1);
        }
        return lw;
    }

    private long[] distinct;
    private int[] distinctCounts;

    @Override
    public String toString() {
        return "DiscreteLinfNoise(cells=" + Arrays.toString(cells) + ", t=" + temperature + ")";
    }
}
