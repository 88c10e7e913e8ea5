package org.dpgauss.bench;

import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.random.CounterBasedGenerator;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * One benchmark per compute primitive of {@link ComputeEngine}, set up exactly as {@code dpgauss bench OP}
 * does (engine/src/main/java/org/dpgauss/cli/BenchCommand.java), on synthetic N(0, I) data of shape n x d.
 * Neighbour counts, quadratic in n, are in {@link NeighbourCountsBenchmark}.
 *
 * <p>Timing: AverageTime in seconds per operation, 1 warm-up and 3 measured iterations of at least 5 s
 * each. A fast operation (0.01 s) is averaged over hundreds of calls per iteration; a slow one (up to a
 * minute) runs once per iteration, since an iteration always completes the call in progress, so it
 * degrades gracefully to single-shot timing. JMH's JSON gives per-iteration raw data and the median
 * ({@code scorePercentiles."50.0"}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
@Warmup(iterations = 1, time = 5, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 5, timeUnit = TimeUnit.SECONDS)
public class PrimitivesBenchmark {

    /** Reference-set size cap for {@link #distances} (LargestCore's default in {@code dpgauss bench}). */
    static final int REFERENCE_ROWS = 1200;
    /** Largest distances kept per row in {@link #distances}. */
    static final int KEEP = 21;
    /** Projection rank r in {@link #projection}. */
    static final int RANK = 100;

    /** "NxD": rows x columns of the synthetic data. */
    @Param({"100000x100", "20000x500"})
    public String shape;

    private ComputeEngine engine;
    private int n;
    private int d;
    private RowBlockMatrix x;
    /** (1/n) X^T X. */
    private DMatrixRMaj gram;
    /** (1/n) X^T X + I, always positive definite. */
    private DMatrixRMaj gramPlusIdentity;
    /** Cholesky factor of {@link #gramPlusIdentity}. */
    private DMatrixRMaj lower;
    /** The first min(n, 1200) rows. */
    private RowBlockMatrix reference;
    private CounterBasedGenerator projectionGenerator;
    /** Peeling threshold 2d, which keeps nearly every Gaussian row. */
    private double lambda;

    @Setup(Level.Trial)
    public void setUp() {
        int[] nd = BenchData.parseShape(shape);
        n = nd[0];
        d = nd[1];
        engine = BenchData.engine("PrimitivesBenchmark", shape);
        x = BenchData.standardNormal(n, d, BenchData.KEY);

        gram = engine.weightedGram(x, null, null, n);
        gramPlusIdentity = gram.copy();
        for (int i = 0; i < d; i++) {
            gramPlusIdentity.add(i, i, 1.0);
        }
        CholeskyResult c = engine.cholesky(gramPlusIdentity);
        if (!c.isPositiveDefinite()) {
            throw new IllegalStateException("Gram + I is not positive definite: " + c);
        }
        lower = c.lower();

        int m = Math.min(n, REFERENCE_ROWS);
        int[] rows = new int[m];
        for (int i = 0; i < m; i++) {
            rows[i] = i;
        }
        reference = x.selectRows(rows);

        projectionGenerator = ChaCha20.fromSecureRandom(new SecureRandom());
        lambda = 2.0 * d;
    }

    /** Weighted Gram (1/n) X^T X of all rows, unit weights. */
    @Benchmark
    public void gram(Blackhole bh) {
        bh.consume(engine.weightedGram(x, null, null, n));
    }

    /** Cholesky of the d x d Gram + I. */
    @Benchmark
    public void cholesky(Blackhole bh) {
        bh.consume(engine.cholesky(gramPlusIdentity));
    }

    /** Squared Mahalanobis norms ||L^-1 x_i||^2 of all rows, L the Cholesky factor of Gram + I. */
    @Benchmark
    public void mahalanobis(Blackhole bh) {
        bh.consume(engine.mahalanobisNorms(x, lower, null));
    }

    /** Whitening X L^-T (a new n x d matrix). */
    @Benchmark
    public void whiten(Blackhole bh) {
        bh.consume(engine.whiten(x, lower));
    }

    /** Squared distances of every row to the first min(n, 1200) rows, keeping the 21 largest per row. */
    @Benchmark
    public void distances(Blackhole bh) {
        bh.consume(engine.largestReferenceDistances(x, reference, KEEP));
    }

    /** Gaussian random projection X^T G to rank 100, G streamed from ChaCha20. */
    @Benchmark
    public void projection(Blackhole bh) {
        bh.consume(engine.gaussianProjection(x, RANK, projectionGenerator, 0L));
    }

    /** Symmetric eigendecomposition of the d x d Gram. */
    @Benchmark
    public void eigen(Blackhole bh) {
        bh.consume(engine.symmetricEigen(gram));
    }

    /** LargestGoodSubset peeling from all rows at threshold lambda = 2d, Gram divisor n. */
    @Benchmark
    public void peel(Blackhole bh) {
        bh.consume(engine.largestGoodSubset(x, lambda, null, n));
    }
}
