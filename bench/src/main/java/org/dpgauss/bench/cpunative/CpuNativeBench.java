package org.dpgauss.bench.cpunative;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpgauss.bench.MachineInfo;
import org.dpgauss.cpu.openblas.NativeBlas;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.io.NpyWriter;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.ChaCha20;
import org.ejml.data.DMatrixRMaj;

/**
 * Times every CPU primitive on both CPU engines (EJML and OpenBLAS) in one warmed JVM, on the same data, and
 * writes the data as .npy so {@code bench/cpu-native/numpy_primitives.py} times numpy on exactly these rows.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar org.dpgauss.bench.cpunative.CpuNativeBench OUT_JSON DATA_NPY n d repeat [ops]
 * </pre>
 * Data: {@code x_ij ~ N(0, 1) * (1 + j / d)} from a fixed-seed SplittableRandom (public, synthetic). Each
 * primitive is warmed up (at least 2 calls and 0.5 s), then timed {@code repeat} times, each sample averaging as
 * many back-to-back calls as fill 0.25 s (so millisecond primitives are not timer noise); the JSON lists every
 * sample (seconds per call, wall and process CPU time) and the medians. Pinned to one core with one BLAS thread,
 * the process CPU time is the primitive's work; on a shared machine it is much less disturbed by other jobs than
 * wall time (the reference numbers are single-core CPU seconds too). ops (comma-separated, default all): gram, gram_weighted_subset, cholesky, mahalanobis, whiten,
 * eigen, projection, distances.
 */
public final class CpuNativeBench {

    static final int RANK = 100;
    static final int REFERENCES = 1200;
    static final int KEEP = 21;
    static final int WARMUP = 2;
    static final double MIN_WARMUP_SECONDS = 0.5;
    static final double MIN_SAMPLE_SECONDS = 0.25; // process CPU time ticks at 10 ms on JDK 17
    /**
     * CPU time of the process (all threads: EJML's parallel streams run in pool threads; JIT and GC threads count
     * too): pinned to one core with one BLAS thread, the primitive's work, robust to time-slicing by other jobs.
     */
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    private CpuNativeBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: CpuNativeBench OUT_JSON DATA_NPY n d repeat [op,op,..]");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        Path npy = Path.of(args[1]);
        int n = Integer.parseInt(args[2]);
        int d = Integer.parseInt(args[3]);
        int repeat = Integer.parseInt(args[4]);
        List<String> ops = args.length > 5 ? Arrays.asList(args[5].split(","))
                : List.of("gram", "gram_weighted_subset", "cholesky", "mahalanobis", "whiten", "eigen", "projection",
                        "distances");
        RowBlockMatrix x = data(n, d);
        NpyWriter.write(npy, x);

        List<ComputeEngine> engines = new ArrayList<>();
        engines.add(CpuEngine.instance());
        var cpuSelection = ComputeEngines.select(EngineChoice.CPU);
        if (!"cpu-openblas".equals(cpuSelection.engine().name())) {
            System.err.println("WARNING: OpenBLAS engine unavailable: " + cpuSelection.reason());
        } else {
            engines.add(cpuSelection.engine());
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("n", n);
        result.put("d", d);
        result.put("repeat", repeat);
        result.put("warmup", Map.of("min_calls", WARMUP, "min_seconds", MIN_WARMUP_SECONDS));
        result.put("min_sample_seconds", MIN_SAMPLE_SECONDS);
        result.put("params", Map.of("rank", RANK, "references", REFERENCES, "keep", KEEP));
        result.put("machine", MachineInfo.describe());
        result.put("openblas_threads", NativeBlas.threads());
        Map<String, Object> times = new LinkedHashMap<>();
        for (String op : ops) {
            Map<String, Object> perEngine = new LinkedHashMap<>();
            for (ComputeEngine e : engines) {
                Runnable task = prepare(op, e, x);
                // warm-up: at least WARMUP runs and MIN_WARMUP_SECONDS (the JIT compiles the Java around BLAS)
                long w0 = System.nanoTime();
                int calls = 0;
                while (calls < WARMUP || System.nanoTime() - w0 < MIN_WARMUP_SECONDS * 1e9) {
                    task.run();
                    calls++;
                }
                // each sample times `inner` back-to-back calls (>= MIN_SAMPLE_SECONDS in all), per call
                double perCall = (System.nanoTime() - w0) / 1e9 / calls;
                int inner = (int) Math.max(1, Math.ceil(MIN_SAMPLE_SECONDS / perCall));
                double[] s = new double[repeat];
                double[] cpu = new double[repeat];
                for (int r = 0; r < repeat; r++) {
                    long c0 = OS.getProcessCpuTime();
                    long t0 = System.nanoTime();
                    for (int k = 0; k < inner; k++) {
                        task.run();
                    }
                    s[r] = (System.nanoTime() - t0) / 1e9 / inner;
                    cpu[r] = (OS.getProcessCpuTime() - c0) / 1e9 / inner;
                }
                double median = median(s);
                double cpuMedian = median(cpu);
                perEngine.put(e.name(), Map.of("seconds", s, "median_seconds", median, "cpu_seconds", cpu,
                        "median_cpu_seconds", cpuMedian, "calls_per_sample", inner));
                System.err.printf(Locale.ROOT, "%-22s %-13s median %.5f s wall, %.5f s CPU%n", op, e.name(), median,
                        cpuMedian);
            }
            times.put(op, perEngine);
        }
        result.put("engines", engines.stream().map(ComputeEngine::description).toArray());
        result.put("times", times);
        Files.createDirectories(out.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), result);
    }

    private static double median(double[] v) {
        double[] sorted = v.clone();
        Arrays.sort(sorted);
        return sorted[v.length / 2];
    }

    static RowBlockMatrix data(int n, int d) {
        SplittableRandom r = new SplittableRandom(20261125L);
        RowBlockMatrix x = RowBlockMatrix.zeros(n, d);
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                row[j] = normal(r) * (1.0 + (double) j / d);
            }
            x.setRow(i, row);
        }
        return x;
    }

    private static double normal(SplittableRandom r) {
        double u1 = r.nextDouble();
        while (u1 == 0) {
            u1 = r.nextDouble();
        }
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    private static Runnable prepare(String op, ComputeEngine e, RowBlockMatrix x) {
        int n = x.rows();
        int d = x.cols();
        switch (op) {
            case "gram":
                return () -> e.weightedGram(x, null, null, n);
            case "gram_weighted_subset": {
                // every other row, weights in [0, 1): the StableCov / peeling shape
                int[] rows = new int[(n + 1) / 2];
                for (int k = 0; k < rows.length; k++) {
                    rows[k] = 2 * k;
                }
                double[] w = new double[n];
                for (int i = 0; i < n; i++) {
                    w[i] = (i % 97) / 97.0;
                }
                return () -> e.weightedGram(x, rows, w, n);
            }
            case "cholesky": {
                DMatrixRMaj a = gramPlusIdentity(x);
                return () -> e.cholesky(a);
            }
            case "mahalanobis": {
                DMatrixRMaj l = CpuEngine.instance().cholesky(gramPlusIdentity(x)).lower();
                return () -> e.mahalanobisNorms(x, l, null);
            }
            case "whiten": {
                DMatrixRMaj l = CpuEngine.instance().cholesky(gramPlusIdentity(x)).lower();
                return () -> e.whiten(x, l);
            }
            case "eigen": {
                DMatrixRMaj a = gramPlusIdentity(x);
                return () -> e.symmetricEigen(a);
            }
            case "projection": {
                // ChaCha20, the generator releases use (keyed from SecureRandom there; a fixed key here)
                ChaCha20 g = ChaCha20.withKey(new int[] {7, 1, 2, 3, 4, 5, 6, 8}, 1L);
                return () -> e.gaussianProjection(x, RANK, g, 0);
            }
            case "distances": {
                int m = Math.min(REFERENCES, n);
                int[] idx = new int[m];
                for (int k = 0; k < m; k++) {
                    idx[k] = k;
                }
                RowBlockMatrix ref = x.selectRows(idx);
                int keep = Math.min(KEEP, m);
                return () -> e.largestReferenceDistances(x, ref, keep);
            }
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }

    /** (1/n) X^T X + I, computed once by the reference engine so both engines get the same matrix. */
    private static DMatrixRMaj gramPlusIdentity(RowBlockMatrix x) {
        DMatrixRMaj a = CpuEngine.instance().weightedGram(x, null, null, x.rows());
        for (int j = 0; j < x.cols(); j++) {
            a.add(j, j, 1.0);
        }
        return a;
    }
}
