package org.dpgauss.bench.stable;

import java.util.concurrent.TimeUnit;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.sampling.stable.StableCov;
import org.dpgauss.sampling.stable.StableCovResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Production StableCov against the literal reference (spec unbounded-gaussian-sampling §3.2-3.3, §7) on
 * 20000 pairs in dimension 50 with 2% planted outliers (issue 4's target: production at least 20x faster).
 * The pairs come from {@link StableWorkload#pairs} (2% of them outliers, scales log-uniform in [2, 100]),
 * lambda0 = 4d + 20 (spec §6 T5's test regime; the recipe lambda0 at n = 40000 would be about 540 and peel
 * only the far outliers). k = 29 is the paper's k at eps = 1, delta = 0.1 (spec §6 T5's small-k regime); the
 * sound k at eps = 1, delta = 1e-6 is 168 (spec §2.3), where the literal reference runs 337 instead of 59
 * thresholds and the ratio grows accordingly ({@code -p k=168}). SingleShotTime, seconds per call, CPU engine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class StableCovBenchmark {

    @Param({"20000"})
    public int pairs;

    @Param({"50"})
    public int d;

    @Param({"0.02"})
    public double outliers;

    @Param({"29"})
    public int k;

    private RowBlockMatrix y;
    private StableCov stableCov;
    private final ComputeEngine engine = CpuEngine.instance();

    @Setup
    public void setup() {
        y = StableWorkload.pairs(pairs, d, outliers, 20_261_121L);
        stableCov = StableCov.of(4.0 * d + 20, k);
        StableCovResult a = stableCov.applyToPairs(y, engine);
        StableCovResult b = stableCov.applyLiteralToPairs(y, engine);
        if (a.score() != b.score() || !java.util.Arrays.equals(a.weights(), b.weights())) {
            throw new IllegalStateException("production and literal StableCov disagree");
        }
    }

    @Benchmark
    public StableCovResult production() {
        return stableCov.applyToPairs(y, engine);
    }

    @Benchmark
    public StableCovResult literal() {
        return stableCov.applyLiteralToPairs(y, engine);
    }
}
