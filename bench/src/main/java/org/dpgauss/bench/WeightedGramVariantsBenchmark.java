package org.dpgauss.bench;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.concurrency.EjmlConcurrency;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.CommonOps_MT_DDRM;
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
 * Evidence for the choice of Gram kernel: our partitioned, deterministic {@code WeightedGram}
 * ({@code engine.weightedGram}: 512-row chunks, 16 fixed reduction groups on the common fork-join pool,
 * each chunk a single-threaded EJML {@code multTransA}) against EJML on the same data held as one
 * n x d {@link DMatrixRMaj} (100000 x 100 = 1e7 doubles fits one array):
 * <ul>
 *   <li>{@code CommonOps_MT_DDRM.multTransA(A, A, C)}: EJML's concurrent variant;</li>
 *   <li>{@code CommonOps_DDRM.multTransA(A, A, C)}: single thread;</li>
 *   <li>{@code CommonOps_DDRM.multInner(A, C)}: single thread, exploits the symmetry of A^T A.</li>
 * </ul>
 * Ours also scales by 1/n and symmetrises (O(d^2), negligible); the EJML variants write A^T A into a
 * preallocated C. Set-up checks that all four agree. The project uses EJML's concurrent variants where
 * they measure faster on 2 cores; this benchmark is that measurement.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g"})
@Warmup(iterations = 1, time = 5, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 5, timeUnit = TimeUnit.SECONDS)
public class WeightedGramVariantsBenchmark {

    /** "NxD": rows x columns of the synthetic data (n*d must fit one Java array). */
    @Param({"100000x100"})
    public String shape;

    private ComputeEngine engine;
    private int n;
    private RowBlockMatrix x;
    /** The same rows as one dense row-major n x d matrix. */
    private DMatrixRMaj a;
    /** d x d output of the EJML variants, reused. */
    private DMatrixRMaj c;

    @Setup(Level.Trial)
    public void setUp() {
        int[] nd = BenchData.parseShape(shape);
        n = nd[0];
        int d = nd[1];
        if ((long) n * d > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("shape " + shape + " does not fit one DMatrixRMaj array");
        }
        engine = BenchData.engine("WeightedGramVariantsBenchmark", shape);
        x = BenchData.standardNormal(n, d, BenchData.KEY);
        a = new DMatrixRMaj(n, d);
        for (int b = 0; b < x.blockCount(); b++) {
            double[] block = x.block(b);
            System.arraycopy(block, 0, a.data, x.blockStart(b) * d, x.blockRowCount(b) * d);
        }
        c = new DMatrixRMaj(d, d);
        System.out.printf(Locale.ROOT, "# EJML concurrency: max threads %d, USE_CONCURRENT=%s%n",
                EjmlConcurrency.getMaxThreads(), EjmlConcurrency.USE_CONCURRENT);
        checkAgreement(d);
    }

    private void checkAgreement(int d) {
        DMatrixRMaj ours = engine.weightedGram(x, null, null, n);
        DMatrixRMaj[] others = new DMatrixRMaj[3];
        others[0] = CommonOps_MT_DDRM.multTransA(a, a, new DMatrixRMaj(d, d));
        others[1] = CommonOps_DDRM.multTransA(a, a, new DMatrixRMaj(d, d));
        others[2] = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multInner(a, others[2]);
        for (DMatrixRMaj o : others) {
            double worst = 0;
            for (int k = 0; k < o.data.length; k++) {
                worst = Math.max(worst, Math.abs(o.data[k] / n - ours.data[k]));
            }
            if (!(worst <= 1e-9)) {
                throw new IllegalStateException("Gram variants disagree: max |diff| = " + worst);
            }
        }
    }

    /** Ours: {@code engine.weightedGram(x, null, null, n)}, partitioned over row chunks, deterministic. */
    @Benchmark
    public void partitionedWeightedGram(Blackhole bh) {
        bh.consume(engine.weightedGram(x, null, null, n));
    }

    /** EJML concurrent: {@code CommonOps_MT_DDRM.multTransA(A, A, C)}. */
    @Benchmark
    public void ejmlMultTransAConcurrent(Blackhole bh) {
        bh.consume(CommonOps_MT_DDRM.multTransA(a, a, c));
    }

    /** EJML single thread: {@code CommonOps_DDRM.multTransA(A, A, C)}. */
    @Benchmark
    public void ejmlMultTransA(Blackhole bh) {
        bh.consume(CommonOps_DDRM.multTransA(a, a, c));
    }

    /** EJML single thread, symmetric: {@code CommonOps_DDRM.multInner(A, C)}. */
    @Benchmark
    public void ejmlMultInner(Blackhole bh) {
        CommonOps_DDRM.multInner(a, c);
        bh.consume(c);
    }
}
