package org.dpgauss.bench;

import java.util.concurrent.TimeUnit;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Neighbour counts {@code c_i = #{k : ||x_i - x_k|| <= r}} for all rows at radius r = sqrt(2d) (about the
 * median pair distance of N(0, I) data), as {@code dpgauss bench neighbours}. Quadratic in n, hence its
 * own class with smaller n than {@link PrimitivesBenchmark}. Same timing scheme (see there).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
@Warmup(iterations = 1, time = 5, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 5, timeUnit = TimeUnit.SECONDS)
public class NeighbourCountsBenchmark {

    /** "NxD": rows x columns of the synthetic data. */
    @Param({"20000x100", "20000x500"})
    public String shape;

    private ComputeEngine engine;
    private RowBlockMatrix x;
    private double radius;

    @Setup(Level.Trial)
    public void setUp() {
        int[] nd = BenchData.parseShape(shape);
        engine = BenchData.engine("NeighbourCountsBenchmark", shape);
        x = BenchData.standardNormal(nd[0], nd[1], BenchData.KEY);
        radius = Math.sqrt(2.0 * nd[1]);
    }

    /** Neighbour counts of all rows within radius sqrt(2d), self included. */
    @Benchmark
    public void neighbours(Blackhole bh) {
        bh.consume(engine.neighbourCounts(x, radius));
    }
}
