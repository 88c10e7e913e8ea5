package org.dpgauss.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.HockeyStickDivergence;
import org.ejml.data.DMatrixRMaj;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The hockey-stick divergence delta_{X,Y}(eps) between two Gaussians in dimension d (spec ndis §3, §10 "NDIS
 * coefficients" and "generalized chi-square CDF"): a random pair with different means and different covariances
 * ({@code S1 = A A^T / d + 0.5 I}, {@code S2 = S1 + 0.03 B B^T / d}, A, B standard normal, means 0.02 N(0, I)
 * apart, fixed seed), eps = 1. Target (issue 3): under 3 s at
 * d = 500 on the CPU.
 *
 * <ul>
 * <li>{@link #delta}: one full evaluation (decomposition + two generalized chi-square probabilities);</li>
 * <li>{@link #prepare}: the decomposition alone (two Cholesky factorizations, two triangular solves with d right-hand
 * sides, one symmetric EVD; spec §2.1);</li>
 * <li>{@link #deltaPrepared}: one more epsilon on an already decomposed pair (the two probabilities only).</li>
 * </ul>
 * Timing: AverageTime in seconds per operation, 1 warm-up and 3 measured iterations of at least 5 s; slow calls run
 * once per iteration (single-shot behaviour).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
@Warmup(iterations = 1, time = 5, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 5, timeUnit = TimeUnit.SECONDS)
public class HockeyStickDivergenceBenchmark {

    /** Dimension of the Gaussians. */
    @Param({"500"})
    public int dimension;

    private HockeyStickDivergence divergence;
    private Gaussian x;
    private Gaussian y;
    private HockeyStickDivergence.Prepared prepared;
    private double nextEpsilon;

    @Setup(Level.Trial)
    public void setUp() {
        ComputeEngine engine = BenchData.engine("HockeyStickDivergenceBenchmark", "d=" + dimension);
        divergence = HockeyStickDivergence.using(engine);
        SplittableRandom rnd = new SplittableRandom(20240611L);
        // a "neighbouring" pair: S2 = S1 + 0.03 B B^T / d, means 0.02 N(0, I) apart; delta_{X,Y}(1) is about 0.06
        // (two independent random covariances in d = 500 give delta = 1 - 1e-12, which is not representative)
        DMatrixRMaj s1 = randomSpd(rnd, dimension, 0.5);
        DMatrixRMaj s2 = randomSpd(rnd, dimension, 0);
        for (int i = 0; i < s2.data.length; i++) {
            s2.data[i] = s1.data[i] + 0.03 * s2.data[i];
        }
        double[] m1 = new double[dimension];
        for (int i = 0; i < dimension; i++) {
            m1[i] = 0.02 * gaussian(rnd);
        }
        x = Gaussian.of(m1, s1);
        y = Gaussian.of(new double[dimension], s2);
        prepared = divergence.prepare(x, y);
        nextEpsilon = 1;
    }

    /** {@code A A^T / d + ridge I} with A standard normal. */
    static DMatrixRMaj randomSpd(SplittableRandom rnd, int d, double ridge) {
        DMatrixRMaj a = new DMatrixRMaj(d, d);
        for (int i = 0; i < a.data.length; i++) {
            a.data[i] = gaussian(rnd);
        }
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        org.ejml.dense.row.CommonOps_DDRM.multTransB(1.0 / d, a, a, s);
        for (int i = 0; i < d; i++) {
            s.add(i, i, ridge);
        }
        return s;
    }

    private static double gaussian(SplittableRandom rnd) {
        double u1 = rnd.nextDouble();
        double u2 = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
    }

    /** One full evaluation of delta_{X,Y}(1). */
    @Benchmark
    public double delta() {
        return divergence.delta(x, y, 1.0);
    }

    /** The decomposition alone. */
    @Benchmark
    public Object prepare() {
        return divergence.prepare(x, y);
    }

    /** One further epsilon on the decomposed pair (varies slightly so nothing is cached). */
    @Benchmark
    public double deltaPrepared() {
        nextEpsilon = nextEpsilon == 1 ? 1.0001 : 1;
        return prepared.delta(nextEpsilon);
    }
}
