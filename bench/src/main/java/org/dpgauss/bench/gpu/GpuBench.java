package org.dpgauss.bench.gpu;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.dpgauss.bench.MachineInfo;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.engine.EngineUnavailableException;
import org.dpgauss.engine.GpuEngine;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.random.Philox4x32;
import org.ejml.data.DMatrixRMaj;

/**
 * GPU vs CPU time of every compute primitive in one run, at the shapes of issue 5: (n, d) = (1e6, 100) and
 * (1e5, 1000), in row blocks of the default size (64 MiB). Each call is timed end to end as a caller sees
 * it (upload, kernels, download; LargestGoodSubset keeps its data resident across rounds). Neighbour
 * counting is quadratic in n, so it runs on the first {@code --pairs-rows} rows (stated in the JSON).
 *
 * <pre>
 * java -cp benchmarks.jar org.dpgauss.bench.gpu.GpuBench --out DIR [--shapes 1000000x100,100000x1000]
 *      [--repeat 3] [--cpu-repeat 1] [--pairs-rows 100000,30000] [--candidate cpu]
 * </pre>
 * {@code --candidate cpu} times the CPU against itself (a check of the harness where no GPU exists; its JSON
 * says so and holds no GPU measurement).
 * Writes DIR/gpu-bench.json: machine, command, date, engine descriptions, and per (shape, primitive) the
 * CPU and GPU median seconds and their ratio {@code cpu_over_gpu} (speed-up) and {@code gpu_over_cpu}.
 * Without a usable GPU it writes {@code {"status":"no-gpu","reason":..}} and exits with status 3.
 */
public final class GpuBench {

    private GpuBench() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> opt = parse(args);
        Path out = Path.of(opt.getOrDefault("out", "."));
        Files.createDirectories(out);
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("benchmark", "dpgauss GPU vs CPU primitives (issue 5)");
        report.put("date", Instant.now().toString());
        report.put("command", "GpuBench " + String.join(" ", args));
        report.put("machine", MachineInfo.describe());
        ComputeEngine gpu;
        boolean harnessCheck = "cpu".equals(opt.get("candidate"));
        if (harnessCheck) {
            // --candidate cpu: the CPU on both sides, to check the harness on a machine without a GPU
            gpu = CpuEngine.instance();
            report.put("status", "harness-check: cpu vs cpu, not a GPU measurement");
        } else {
            try {
                gpu = ComputeEngines.select(EngineChoice.GPU).engine();
            } catch (EngineUnavailableException e) {
                report.put("status", "no-gpu");
                report.put("reason", e.getMessage());
                json.writeValue(out.resolve("gpu-bench.json").toFile(), report);
                System.err.println("dpgauss GPU bench: no GPU: " + e.getMessage());
                System.exit(3);
                return;
            }
            report.put("status", "ok");
            report.put("factorizationPath", ((GpuEngine) gpu).factorizationPath());
        }
        ComputeEngine cpu = CpuEngine.instance();
        report.put("gpu", gpu.description());
        report.put("cpu", cpu.description());
        int repeat = Integer.parseInt(opt.getOrDefault("repeat", "3"));
        int cpuRepeat = Integer.parseInt(opt.getOrDefault("cpu-repeat", "1"));
        String[] shapes = opt.getOrDefault("shapes", "1000000x100,100000x1000").split(",");
        String[] pairs = opt.getOrDefault("pairs-rows", "100000,30000").split(",");
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int s = 0; s < shapes.length; s++) {
            String[] nd = shapes[s].toLowerCase(Locale.ROOT).split("x");
            int n = (int) Double.parseDouble(nd[0]);
            int d = Integer.parseInt(nd[1]);
            int pairRows = Math.min(n, Integer.parseInt(pairs[Math.min(s, pairs.length - 1)].trim()));
            log("shape n=%d d=%d: generating data", n, d);
            RowBlockMatrix x = SyntheticData.standardNormal(n, d, 7);
            RowBlockMatrix ref = SyntheticData.standardNormal(64, d, 8);
            RowBlockMatrix few = x.selectRows(java.util.stream.IntStream.range(0, pairRows).toArray());
            DMatrixRMaj l = cpu.cholesky(cpu.weightedGram(x, null, null, n)).lower();
            double radius = Math.sqrt(2.0 * d);
            double lambda = 1.5 * d;
            rows.add(time("weightedGram", n, d, repeat, cpuRepeat, cpu, gpu, e -> () -> e.weightedGram(x, null, null, n)));
            rows.add(time("mahalanobisNorms", n, d, repeat, cpuRepeat, cpu, gpu, e -> () -> e.mahalanobisNorms(x, l, null)));
            rows.add(time("whiten", n, d, repeat, cpuRepeat, cpu, gpu, e -> () -> e.whiten(x, l)));
            rows.add(time("largestReferenceDistances(|R|=64,keep=9)", n, d, repeat, cpuRepeat, cpu, gpu,
                    e -> () -> e.largestReferenceDistances(x, ref, 9)));
            rows.add(time("neighbourCounts", pairRows, d, repeat, cpuRepeat, cpu, gpu,
                    e -> () -> e.neighbourCounts(few, radius)));
            rows.add(time("gaussianProjection(ChaCha20,r=50)", n, d, repeat, cpuRepeat, cpu, gpu,
                    e -> () -> e.gaussianProjection(x, 50, ChaCha20.withKey(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 0), 0)));
            rows.add(time("gaussianProjection(Philox,r=50)", n, d, repeat, cpuRepeat, cpu, gpu,
                    e -> () -> e.gaussianProjection(x, 50, Philox4x32.withKey(1L, 0L), 0)));
            rows.add(time("largestGoodSubset(lambda=1.5d)", n, d, repeat, cpuRepeat, cpu, gpu,
                    e -> () -> e.largestGoodSubset(x, lambda, null, n)));
            report.put("results", rows);
            json.writeValue(out.resolve("gpu-bench.json").toFile(), report); // partial results survive a timeout
        }
        if (gpu instanceof GpuEngine) {
            report.put("fallbacks", ((GpuEngine) gpu).fallbacks());
            report.put("largestGoodSubsetHandovers", ((GpuEngine) gpu).handovers());
        }
        json.writeValue(out.resolve("gpu-bench.json").toFile(), report);
        log("wrote %s", out.resolve("gpu-bench.json"));
    }

    interface Call {
        Supplier<Object> on(ComputeEngine e);
    }

    private static Map<String, Object> time(String op, int n, int d, int repeat, int cpuRepeat, ComputeEngine cpu,
            ComputeEngine gpu, Call call) {
        double[] g = run(call.on(gpu), repeat, true);
        double[] c = run(call.on(cpu), cpuRepeat, false);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("op", op);
        m.put("n", n);
        m.put("d", d);
        m.put("gpuSeconds", g);
        m.put("cpuSeconds", c);
        double gm = median(g);
        double cm = median(c);
        m.put("gpuMedianSeconds", gm);
        m.put("cpuMedianSeconds", cm);
        m.put("cpu_over_gpu", cm / gm);
        m.put("gpu_over_cpu", gm / cm);
        log("%-45s n=%-8d d=%-5d gpu %.4f s  cpu %.4f s  speed-up %.1fx", op, n, d, gm, cm, cm / gm);
        return m;
    }

    private static double[] run(Supplier<Object> body, int repeat, boolean warmup) {
        if (warmup) {
            body.get(); // module load, pool and JIT warm-up
        }
        double[] t = new double[repeat];
        for (int k = 0; k < repeat; k++) {
            long t0 = System.nanoTime();
            Object r = body.get();
            t[k] = (System.nanoTime() - t0) * 1e-9;
            if (r == null) {
                throw new IllegalStateException("no result");
            }
        }
        return t;
    }

    private static double median(double[] t) {
        double[] s = t.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
    }

    private static void log(String fmt, Object... a) {
        System.out.printf(Locale.ROOT, fmt + "%n", a);
        System.out.flush();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "'");
            }
            m.put(args[i].substring(2), args[++i]);
        }
        return m;
    }
}
