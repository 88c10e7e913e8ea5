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
import org.dpgauss.gpu.GpuEngine;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.random.Philox4x32;
import org.ejml.data.DMatrixRMaj;

/**
 * GPU vs CPU time of every compute primitive in one run, at the shapes of issues 5 and 17: (n, d) = (1e6, 100) and
 * (1e5, 1000), in row blocks of the default size (64 MiB). Per primitive and path it records:
 * <ul>
 * <li>{@code cpuMedianSeconds}: the CPU engine, end to end;</li>
 * <li>{@code gpuEndToEndMedianSeconds}: the GPU as a caller sees it on data that are not on the device yet
 * (the resident copy is given back before each repetition: fingerprint, upload, kernels, download);</li>
 * <li>{@code gpuResidentMedianSeconds}: the same call with the data already resident (issue 17 item 2);</li>
 * <li>{@code gpuDeviceMedianSeconds}: the device time of the resident call (CUDA events around each of its
 * operations on the compute stream: kernels, vendor calls, the small uploads and the results' downloads, summed
 * over the call's operations), the "kernel-only" figure;</li>
 * <li>{@code path}: which path ran ({@code cublas-syrk}, {@code kernel}, ...) from {@link GpuEngine#paths()};
 * products (Gram, projection, whitening) are timed twice where cuBLAS loads: {@code vendor} and
 * {@code kernels} (our kernels, cuBLAS switched off).</li>
 * </ul>
 * A row whose GPU call fell back to the CPU says so ({@code fellBackToCpu}) and has no ratio; the run then exits
 * with status 1. Neighbour counting is quadratic in n, so it runs on the first {@code --pairs-rows} rows.
 *
 * <pre>
 * java -cp benchmarks.jar org.dpgauss.bench.gpu.GpuBench --out DIR [--shapes 1000000x100,100000x1000]
 *      [--repeat 3] [--cpu-repeat 1] [--pairs-rows 40000,15000] [--candidate cpu] [--ops gram,norms,...]
 * </pre>
 * {@code --candidate cpu} times the CPU against itself (a check of the harness where no GPU exists; its JSON
 * says so and holds no GPU measurement). The JSON is rewritten after every row, so a run stopped by a time limit
 * keeps what it measured. Without a usable GPU it writes {@code {"status":"no-gpu","reason":..}} and exits 3.
 */
public final class GpuBench {

    private GpuBench() {
    }

    private static Path jsonFile;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public static void main(String[] args) throws IOException {
        Map<String, String> opt = parse(args);
        Path out = Path.of(opt.getOrDefault("out", "."));
        Files.createDirectories(out);
        jsonFile = out.resolve("gpu-bench.json");
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("benchmark", "dpgauss GPU vs CPU primitives (issues 5, 17)");
        report.put("date", Instant.now().toString());
        report.put("command", "GpuBench " + String.join(" ", args));
        report.put("machine", MachineInfo.describe());
        report.put("java", Runtime.version().toString());
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
                JSON.writeValue(jsonFile.toFile(), report);
                System.err.println("dpgauss GPU bench: no GPU: " + e.getMessage());
                System.exit(3);
                return;
            }
            report.put("status", "ok");
            GpuEngine g = (GpuEngine) gpu;
            report.put("factorizationPath", g.factorizationPath());
            report.put("blasPath", g.blasPath());
            report.put("vendorDetail", g.vendorDetail());
        }
        ComputeEngine cpu = CpuEngine.instance();
        report.put("gpu", gpu.description());
        report.put("cpu", cpu.description());
        int repeat = Integer.parseInt(opt.getOrDefault("repeat", "3"));
        int cpuRepeat = Integer.parseInt(opt.getOrDefault("cpu-repeat", "1"));
        String[] shapes = opt.getOrDefault("shapes", "1000000x100,100000x1000").split(",");
        String[] pairs = opt.getOrDefault("pairs-rows", "40000,15000").split(",");
        java.util.Set<String> ops = new java.util.HashSet<>(Arrays.asList(opt.getOrDefault("ops",
                "gram,norms,whiten,distances,neighbours,projection,peel").split(",")));
        boolean vendor = gpu instanceof GpuEngine && "cublas-ffm".equals(((GpuEngine) gpu).blasPath());
        List<Map<String, Object>> rows = new ArrayList<>();
        report.put("results", rows);
        int fellBack = 0;
        // every shape's data first, then the products (Gram, norms, whitening, projection) of every shape, then
        // the other primitives: a run cut by its time limit keeps the figures the issue's targets are about
        List<Object[]> products = new ArrayList<>();
        List<Object[]> others = new ArrayList<>();
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
            for (String mode : vendor ? new String[] {"vendor", "kernels"} : new String[] {"kernels"}) {
                if (ops.contains("gram")) {
                    products.add(new Object[] {"weightedGram", mode, x, (Call) e -> () -> e.weightedGram(x, null, null, n)});
                }
                if (ops.contains("norms")) {
                    products.add(new Object[] {"mahalanobisNorms", mode, x, (Call) e -> () -> e.mahalanobisNorms(x, l, null)});
                }
                if (ops.contains("whiten")) {
                    products.add(new Object[] {"whiten", mode, x, (Call) e -> () -> e.whiten(x, l)});
                }
                if (ops.contains("projection")) {
                    products.add(new Object[] {"gaussianProjection(ChaCha20,r=50)", mode, x, (Call) e -> () ->
                            e.gaussianProjection(x, 50, ChaCha20.withKey(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 0), 0)});
                    products.add(new Object[] {"gaussianProjection(Philox,r=50)", mode, x, (Call) e -> () ->
                            e.gaussianProjection(x, 50, Philox4x32.withKey(1L, 0L), 0)});
                }
            }
            if (ops.contains("distances")) {
                others.add(new Object[] {"largestReferenceDistances(|R|=64,keep=9)", "kernels", x,
                    (Call) e -> () -> e.largestReferenceDistances(x, ref, 9)});
            }
            if (ops.contains("neighbours")) {
                others.add(new Object[] {"neighbourCounts(n=" + pairRows + ")", "kernels", few,
                    (Call) e -> () -> e.neighbourCounts(few, radius)});
            }
            if (ops.contains("peel")) {
                others.add(new Object[] {"largestGoodSubset(lambda=1.5d)", "kernels", x,
                    (Call) e -> () -> e.largestGoodSubset(x, lambda, null, n)});
            }
        }
        List<Object[]> plan = new ArrayList<>(products);
        plan.addAll(others);
        java.util.Map<String, Double> cpuTimes = new java.util.HashMap<>();
        for (Object[] p : plan) {
            String op = (String) p[0];
            String mode = (String) p[1];
            RowBlockMatrix data = (RowBlockMatrix) p[2];
            Call call = (Call) p[3];
            if (gpu instanceof GpuEngine) {
                ((GpuEngine) gpu).useVendorBlas("vendor".equals(mode));
            }
            Map<String, Object> row = time(op, mode, data.rows(), data.cols(), repeat, cpuRepeat, cpu, gpu, data, call,
                    cpuTimes);
            if (Boolean.TRUE.equals(row.get("fellBackToCpu"))) {
                fellBack++;
            }
            rows.add(row);
            JSON.writeValue(jsonFile.toFile(), report); // partial results survive a time limit
        }
        if (gpu instanceof GpuEngine) {
            ((GpuEngine) gpu).useVendorBlas(true);
            ((GpuEngine) gpu).evictResident();
        }
        if (gpu instanceof GpuEngine) {
            GpuEngine g = (GpuEngine) gpu;
            report.put("fallbacks", g.fallbacks());
            report.put("paths", g.paths());
            report.put("largestGoodSubsetHandovers", g.handovers());
        }
        report.put("complete", true);
        JSON.writeValue(jsonFile.toFile(), report);
        log("wrote %s", jsonFile);
        if (fellBack > 0) {
            System.err.println("dpgauss GPU bench: " + fellBack + " GPU measurement(s) fell back to the CPU: see "
                    + "'fallbacks' in " + jsonFile);
            System.exit(1);
        }
    }

    interface Call {
        Supplier<Object> on(ComputeEngine e);
    }

    private static Map<String, Object> time(String op, String mode, int n, int d, int repeat, int cpuRepeat,
            ComputeEngine cpu, ComputeEngine gpu, RowBlockMatrix data, Call call, Map<String, Double> cpuTimes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("op", op);
        m.put("mode", mode);
        m.put("n", n);
        m.put("d", d);
        GpuEngine g = gpu instanceof GpuEngine ? (GpuEngine) gpu : null;
        int fallbacksBefore = g == null ? 0 : g.fallbackCount();
        Map<String, Integer> pathsBefore = g == null ? Map.of() : g.paths();
        double[] e2e;
        double[] resident = null;
        double[] device = null;
        if (g != null) {
            call.on(gpu).get(); // warm-up: module load, pool, JIT, cuBLAS heuristics
            e2e = new double[repeat];
            for (int k = 0; k < repeat; k++) {
                g.evictResident();
                e2e[k] = once(call.on(gpu));
            }
            call.on(gpu).get(); // resident again
            resident = new double[repeat];
            device = new double[repeat];
            for (int k = 0; k < repeat; k++) {
                double before = g.totalDeviceSeconds();
                resident[k] = once(call.on(gpu));
                device[k] = g.totalDeviceSeconds() - before; // every device operation of the call (peeling: all rounds)
            }
        } else {
            e2e = run(call.on(gpu), repeat, true);
        }
        String cpuKey = op + "@" + n + "x" + d;
        Double cm = cpuTimes.get(cpuKey);
        if (cm == null) { // the CPU figure once per op and shape (the same input for vendor and kernels modes)
            double[] c = run(call.on(cpu), cpuRepeat, false);
            m.put("cpuSeconds", c);
            cm = median(c);
            cpuTimes.put(cpuKey, cm);
        }
        m.put("cpuMedianSeconds", cm);
        m.put("gpuEndToEndSeconds", e2e);
        double em = median(e2e);
        m.put("gpuEndToEndMedianSeconds", em);
        m.put("cpu_over_gpu", cm / em);
        m.put("gpu_over_cpu", em / cm);
        String line = String.format(Locale.ROOT, "%-42s %-7s n=%-8d d=%-5d cpu %.4f s  gpu e2e %.4f s (x%.1f)", op, mode,
                n, d, cm, em, cm / em);
        if (g != null) {
            double rm = median(resident);
            double dm = median(device);
            m.put("gpuResidentSeconds", resident);
            m.put("gpuResidentMedianSeconds", rm);
            m.put("gpuDeviceSeconds", device);
            m.put("gpuDeviceMedianSeconds", dm);
            m.put("cpu_over_gpu_resident", cm / rm);
            m.put("cpu_over_gpu_device", cm / dm);
            Map<String, Integer> after = g.paths();
            List<String> ran = new ArrayList<>();
            for (Map.Entry<String, Integer> en : after.entrySet()) {
                if (!en.getValue().equals(pathsBefore.get(en.getKey()))) {
                    ran.add(en.getKey());
                }
            }
            m.put("path", ran);
            line += String.format(Locale.ROOT, "  resident %.4f s (x%.1f)  device %.4f s (x%.1f)  %s", rm, cm / rm, dm,
                    cm / dm, ran);
            if (g.fallbackCount() > fallbacksBefore) {
                m.put("fellBackToCpu", true);
                m.put("fallbacks", g.fallbacks().subList(fallbacksBefore, g.fallbackCount()));
                for (String k : new String[] {"cpu_over_gpu", "gpu_over_cpu", "cpu_over_gpu_resident", "cpu_over_gpu_device"}) {
                    m.put(k, null);
                }
                line += "  FELL BACK TO THE CPU: no GPU figure";
            }
        }
        log("%s", line);
        return m;
    }

    private static double once(Supplier<Object> body) {
        long t0 = System.nanoTime();
        Object r = body.get();
        double t = (System.nanoTime() - t0) * 1e-9;
        if (r == null) {
            throw new IllegalStateException("no result");
        }
        return t;
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
