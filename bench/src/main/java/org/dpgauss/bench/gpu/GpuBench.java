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
 * GPU vs CPU time of every compute primitive in one run, at the shapes of issues 5 and 17 ((n, d) = (1e6, 100) and
 * (1e5, 1000)) after a small one (1e5, 100), smallest first, in row blocks of the default size (64 MiB). Per
 * primitive and path it records:
 * <ul>
 * <li>{@code gpuEndToEndMedianSeconds}: the GPU as a caller sees it on data that are not on the device yet
 * (the resident copy is given back before each repetition: fingerprint, upload, kernels, download);</li>
 * <li>{@code gpuResidentMedianSeconds}: the same call with the data already resident (issue 17 item 2);</li>
 * <li>{@code gpuDeviceMedianSeconds}: the device time of the resident call (CUDA events around each of its
 * operations on the compute stream: kernels, vendor calls, the small uploads and the results' downloads, summed
 * over the call's operations), the "kernel-only" figure;</li>
 * <li>{@code path}: which path ran ({@code cublas-syrk}, {@code kernel}, ...) from {@link GpuEngine#paths()};
 * products (Gram, projection, whitening) are timed twice where cuBLAS loads: {@code vendor} and
 * {@code kernels} (our kernels, cuBLAS switched off);</li>
 * <li>{@code cpuMedianSeconds}: the CPU engine on the same input, measured once per primitive and shape (both
 * modes share it) after every GPU row (issue 28: the CPU references must not crowd out the GPU figures), smallest
 * shape first, within {@code --cpu-budget} seconds: a reference that would run past the budget is abandoned
 * ({@code cpuAtLeastSeconds}, the ratios then lower bounds) and the remaining ones are skipped
 * ({@code cpuReference: "skipped"}).</li>
 * </ul>
 * A row whose GPU call fell back to the CPU says so ({@code fellBackToCpu}) and has no ratio; the run then exits
 * with status 1. Neighbour counting is quadratic in n, so it runs on the first {@code --pairs-rows} rows.
 *
 * <pre>
 * java -cp benchmarks.jar org.dpgauss.bench.gpu.GpuBench --out DIR [--shapes 100000x100,1000000x100,100000x1000]
 *      [--repeat 3] [--cpu-repeat 1] [--cpu-budget 50] [--pairs-rows 20000,40000,15000] [--candidate cpu|none]
 *      [--ops gram,norms,...]
 * </pre>
 * {@code --candidate cpu} times the CPU against itself, {@code --candidate none} times the CPU references alone
 * (checks of the harness and of the CPU references' cost where no GPU exists; the JSON says so and holds no GPU
 * measurement). The JSON is written before anything is measured ({@code "complete": false}) and rewritten after
 * every row and every CPU reference, so a run stopped by a time limit keeps what it measured. Without a usable
 * GPU it writes {@code {"status":"no-gpu","reason":..}} and exits 3.
 */
public final class GpuBench {

    private GpuBench() {
    }

    private static Path jsonFile;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public static void main(String[] args) throws IOException {
        // exit explicitly: an abandoned CPU reference may still be running in its daemon thread
        System.exit(run(args));
    }

    /** The benchmark; returns the exit status (0, 1 a GPU call fell back to the CPU, 3 no GPU). */
    static int run(String[] args) throws IOException {
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
        String candidate = opt.getOrDefault("candidate", "gpu");
        if ("cpu".equals(candidate) || "none".equals(candidate)) {
            // a check where no GPU exists: the CPU against itself, or the CPU references alone
            gpu = "cpu".equals(candidate) ? CpuEngine.instance() : null;
            report.put("status", "harness-check: " + ("cpu".equals(candidate) ? "cpu vs cpu" : "CPU references only")
                    + ", not a GPU measurement");
        } else {
            try {
                gpu = ComputeEngines.select(EngineChoice.GPU).engine();
            } catch (EngineUnavailableException e) {
                report.put("status", "no-gpu");
                report.put("reason", e.getMessage());
                JSON.writeValue(jsonFile.toFile(), report);
                System.err.println("dpgauss GPU bench: no GPU: " + e.getMessage());
                return 3;
            }
            report.put("status", "ok");
            GpuEngine g = (GpuEngine) gpu;
            report.put("factorizationPath", g.factorizationPath());
            report.put("blasPath", g.blasPath());
            report.put("vendorDetail", g.vendorDetail());
        }
        ComputeEngine cpu = CpuEngine.instance();
        report.put("gpu", gpu == null ? "none" : gpu.description());
        report.put("cpu", cpu.description());
        int repeat = Integer.parseInt(opt.getOrDefault("repeat", "3"));
        int cpuRepeat = Integer.parseInt(opt.getOrDefault("cpu-repeat", "1"));
        double cpuBudget = Double.parseDouble(opt.getOrDefault("cpu-budget", "50"));
        List<String> shapes = new ArrayList<>(Arrays.asList(opt.getOrDefault("shapes",
                "100000x100,1000000x100,100000x1000").split(",")));
        String[] pairs = opt.getOrDefault("pairs-rows", "20000,40000,15000").split(",");
        java.util.Set<String> ops = new java.util.HashSet<>(Arrays.asList(opt.getOrDefault("ops",
                "gram,norms,whiten,distances,neighbours,projection,peel").split(",")));
        boolean vendor = gpu instanceof GpuEngine && "cublas-ffm".equals(((GpuEngine) gpu).blasPath());
        List<Map<String, Object>> rows = new ArrayList<>();
        report.put("results", rows);
        report.put("complete", false);
        JSON.writeValue(jsonFile.toFile(), report); // exists from the start: a run killed before its first row says so
        // smallest shape first (a stable sort: --pairs-rows follows the shapes as given), largest last
        int[] order = java.util.stream.IntStream.range(0, shapes.size()).boxed()
                .sorted(java.util.Comparator.comparingLong(k -> cells(shapes.get(k)))).mapToInt(Integer::intValue).toArray();
        int fellBack = 0;
        // per shape: the products (Gram, norms, whitening, projection), then the other primitives; GPU only
        List<Object[]> cpuRefs = new ArrayList<>();
        for (int s : order) {
            String[] nd = shapes.get(s).trim().toLowerCase(Locale.ROOT).split("x");
            int n = (int) Double.parseDouble(nd[0]);
            int d = Integer.parseInt(nd[1]);
            int pairRows = Math.min(n, Integer.parseInt(pairs[Math.min(s, pairs.length - 1)].trim()));
            long t0 = System.nanoTime();
            RowBlockMatrix x = standardNormal(n, d, 7);
            RowBlockMatrix ref = SyntheticData.standardNormal(64, d, 8);
            RowBlockMatrix few = x.selectRows(java.util.stream.IntStream.range(0, pairRows).toArray());
            // the whitening factor from the candidate engine where it is a GPU (fast there), else the CPU
            ComputeEngine setup = gpu instanceof GpuEngine ? gpu : cpu;
            DMatrixRMaj l = setup.cholesky(setup.weightedGram(x, null, null, n)).lower();
            log("shape n=%d d=%d: data and whitening factor in %.1f s", n, d, (System.nanoTime() - t0) * 1e-9);
            double radius = Math.sqrt(2.0 * d);
            double lambda = 1.5 * d;
            List<Object[]> products = new ArrayList<>();
            List<Object[]> others = new ArrayList<>();
            if (ops.contains("gram")) {
                products.add(new Object[] {"weightedGram", x, (Call) e -> () -> e.weightedGram(x, null, null, n)});
            }
            if (ops.contains("norms")) {
                products.add(new Object[] {"mahalanobisNorms", x, (Call) e -> () -> e.mahalanobisNorms(x, l, null)});
            }
            if (ops.contains("whiten")) {
                products.add(new Object[] {"whiten", x, (Call) e -> () -> e.whiten(x, l)});
            }
            if (ops.contains("projection")) {
                products.add(new Object[] {"gaussianProjection(ChaCha20,r=50)", x, (Call) e -> () ->
                        e.gaussianProjection(x, 50, ChaCha20.withKey(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 0), 0)});
                products.add(new Object[] {"gaussianProjection(Philox,r=50)", x, (Call) e -> () ->
                        e.gaussianProjection(x, 50, Philox4x32.withKey(1L, 0L), 0)});
            }
            if (ops.contains("distances")) {
                others.add(new Object[] {"largestReferenceDistances(|R|=64,keep=9)", x,
                    (Call) e -> () -> e.largestReferenceDistances(x, ref, 9)});
            }
            if (ops.contains("neighbours")) {
                others.add(new Object[] {"neighbourCounts(n=" + pairRows + ")", few,
                    (Call) e -> () -> e.neighbourCounts(few, radius)});
            }
            if (ops.contains("peel")) {
                others.add(new Object[] {"largestGoodSubset(lambda=1.5d)", x,
                    (Call) e -> () -> e.largestGoodSubset(x, lambda, null, n)});
            }
            List<Object[]> plan = new ArrayList<>();
            for (String mode : vendor ? new String[] {"vendor", "kernels"} : new String[] {"kernels"}) {
                for (Object[] p : products) {
                    plan.add(new Object[] {p[0], mode, p[1], p[2]});
                }
            }
            for (Object[] p : others) {
                plan.add(new Object[] {p[0], "kernels", p[1], p[2]});
            }
            for (Object[] p : plan) {
                String op = (String) p[0];
                String mode = (String) p[1];
                RowBlockMatrix data = (RowBlockMatrix) p[2];
                Call call = (Call) p[3];
                if (gpu instanceof GpuEngine) {
                    ((GpuEngine) gpu).useVendorBlas("vendor".equals(mode));
                }
                Map<String, Object> row = time(op, mode, data.rows(), data.cols(), repeat, gpu, call);
                if (Boolean.TRUE.equals(row.get("fellBackToCpu"))) {
                    fellBack++;
                }
                rows.add(row);
                JSON.writeValue(jsonFile.toFile(), report); // partial results survive a time limit
            }
            for (Object[] p : products) {
                cpuRefs.add(new Object[] {p[0], p[1], p[2]});
            }
            for (Object[] p : others) {
                cpuRefs.add(new Object[] {p[0], p[1], p[2]});
            }
        }
        if (gpu instanceof GpuEngine) {
            GpuEngine g = (GpuEngine) gpu;
            g.useVendorBlas(true);
            g.evictResident();
            report.put("fallbacks", g.fallbacks());
            report.put("paths", g.paths());
            report.put("largestGoodSubsetHandovers", g.handovers());
        }
        cpuReferences(report, rows, cpuRefs, cpu, cpuRepeat, cpuBudget);
        report.put("complete", true);
        JSON.writeValue(jsonFile.toFile(), report);
        log("wrote %s", jsonFile);
        if (fellBack > 0) {
            System.err.println("dpgauss GPU bench: " + fellBack + " GPU measurement(s) fell back to the CPU: see "
                    + "'fallbacks' in " + jsonFile);
            return 1;
        }
        return 0;
    }

    private static long cells(String shape) {
        String[] nd = shape.trim().toLowerCase(Locale.ROOT).split("x");
        return (long) Double.parseDouble(nd[0]) * Long.parseLong(nd[1]);
    }

    /**
     * {@link SyntheticData#standardNormal} (the same values: element (i, j) is normal i*d + j of the same Philox
     * stream), generated block by block in parallel.
     */
    static RowBlockMatrix standardNormal(int n, int d, long key) {
        return standardNormal(n, d, key, RowBlockMatrix.zeros(n, d));
    }

    /** As {@link #standardNormal(int, int, long)}, into {@code x} (any row-block layout: values depend on i*d + j). */
    static RowBlockMatrix standardNormal(int n, int d, long key, RowBlockMatrix x) {
        java.util.stream.IntStream.range(0, x.blockCount()).parallel().forEach(b -> {
            double[] block = x.block(b);
            Philox4x32.withKey(key, 0x5EEDL).fillNormals((long) x.blockStart(b) * d, block, 0, block.length);
        });
        return x;
    }

    /**
     * The CPU reference of every primitive and shape, smallest shape first, within {@code budget} seconds in all:
     * each runs in a daemon thread and is abandoned once the budget is spent (its row then says at least how long
     * it took); the rest are skipped. Fills the rows of the same primitive and shape (both modes) and their ratios.
     */
    private static void cpuReferences(Map<String, Object> report, List<Map<String, Object>> rows, List<Object[]> refs,
            ComputeEngine cpu, int cpuRepeat, double budget) throws IOException {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("budgetSeconds", budget);
        report.put("cpuReferences", summary);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cpu-reference");
            t.setDaemon(true);
            return t;
        });
        long start = System.nanoTime();
        int done = 0;
        int skipped = 0;
        String abandoned = null;
        for (Object[] p : refs) {
            String op = (String) p[0];
            RowBlockMatrix data = (RowBlockMatrix) p[1];
            Call call = (Call) p[2];
            String key = op + "@" + data.rows() + "x" + data.cols();
            double left = budget - (System.nanoTime() - start) * 1e-9;
            Map<String, Object> cpuRow = new LinkedHashMap<>();
            if (abandoned != null || left <= 0) {
                cpuRow.put("cpuReference", "skipped: the " + budget + " s CPU budget was spent");
                skipped++;
            } else {
                java.util.concurrent.Future<double[]> f = pool.submit(() -> run(call.on(cpu), cpuRepeat, false));
                try {
                    double[] c = f.get((long) Math.ceil(left * 1000), java.util.concurrent.TimeUnit.MILLISECONDS);
                    cpuRow.put("cpuSeconds", c);
                    cpuRow.put("cpuMedianSeconds", median(c));
                    done++;
                } catch (java.util.concurrent.TimeoutException e) {
                    abandoned = key;
                    cpuRow.put("cpuReference", "abandoned at the end of the " + budget + " s CPU budget");
                    cpuRow.put("cpuAtLeastSeconds", left);
                } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
                    cpuRow.put("cpuReference", "failed: " + e);
                }
            }
            for (Map<String, Object> m : rows) {
                if (key.equals(m.get("op") + "@" + m.get("n") + "x" + m.get("d"))) {
                    fill(m, cpuRow);
                }
            }
            JSON.writeValue(jsonFile.toFile(), report);
        }
        pool.shutdown(); // the thread ends with its task (an abandoned one runs on until the JVM exits)
        summary.put("spentSeconds", (System.nanoTime() - start) * 1e-9);
        summary.put("measured", done);
        summary.put("skipped", skipped);
        summary.put("abandoned", abandoned);
        log("CPU references: %d measured, %d skipped%s, %.1f s of the %.0f s budget", done, skipped,
                abandoned == null ? "" : ", abandoned " + abandoned, (System.nanoTime() - start) * 1e-9, budget);
    }

    /** Puts the CPU reference into a GPU row, with the ratios (lower bounds where the reference was abandoned). */
    private static void fill(Map<String, Object> m, Map<String, Object> cpuRow) {
        m.putAll(cpuRow);
        Double cm = (Double) cpuRow.get("cpuMedianSeconds");
        String suffix = "";
        if (cm == null) {
            cm = (Double) cpuRow.get("cpuAtLeastSeconds");
            suffix = "_atLeast";
        }
        Double em = (Double) m.get("gpuEndToEndMedianSeconds");
        boolean fell = Boolean.TRUE.equals(m.get("fellBackToCpu"));
        String line = String.format(Locale.ROOT, "%-42s %-7s n=%-8d d=%-5d cpu %s", m.get("op"), m.get("mode"),
                m.get("n"), m.get("d"), cm == null ? cpuRow.get("cpuReference")
                        : String.format(Locale.ROOT, "%s%.4f s", suffix.isEmpty() ? "" : ">= ", cm));
        if (cm != null && em != null && !fell) {
            m.put("cpu_over_gpu" + suffix, cm / em);
            line += String.format(Locale.ROOT, "  x%.1f vs gpu e2e", cm / em);
            Double rm = (Double) m.get("gpuResidentMedianSeconds");
            Double dm = (Double) m.get("gpuDeviceMedianSeconds");
            if (rm != null) {
                m.put("cpu_over_gpu_resident" + suffix, cm / rm);
                m.put("cpu_over_gpu_device" + suffix, cm / dm);
                line += String.format(Locale.ROOT, ", x%.1f resident, x%.1f device", cm / rm, cm / dm);
            }
        }
        log("%s", line);
    }

    interface Call {
        Supplier<Object> on(ComputeEngine e);
    }

    /** The candidate's row (no CPU figure yet: {@link #cpuReferences} adds it after every GPU row). */
    private static Map<String, Object> time(String op, String mode, int n, int d, int repeat, ComputeEngine gpu,
            Call call) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("op", op);
        m.put("mode", mode);
        m.put("n", n);
        m.put("d", d);
        if (gpu == null) {
            log("%-42s %-7s n=%-8d d=%-5d (no candidate: CPU reference only)", op, mode, n, d);
            return m;
        }
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
        m.put("gpuEndToEndSeconds", e2e);
        double em = median(e2e);
        m.put("gpuEndToEndMedianSeconds", em);
        String line = String.format(Locale.ROOT, "%-42s %-7s n=%-8d d=%-5d gpu e2e %.4f s", op, mode, n, d, em);
        if (g != null) {
            double rm = median(resident);
            double dm = median(device);
            m.put("gpuResidentSeconds", resident);
            m.put("gpuResidentMedianSeconds", rm);
            m.put("gpuDeviceSeconds", device);
            m.put("gpuDeviceMedianSeconds", dm);
            Map<String, Integer> after = g.paths();
            List<String> ran = new ArrayList<>();
            for (Map.Entry<String, Integer> en : after.entrySet()) {
                if (!en.getValue().equals(pathsBefore.get(en.getKey()))) {
                    ran.add(en.getKey());
                }
            }
            m.put("path", ran);
            line += String.format(Locale.ROOT, "  resident %.4f s  device %.4f s  %s", rm, dm, ran);
            if (g.fallbackCount() > fallbacksBefore) {
                m.put("fellBackToCpu", true);
                m.put("fallbacks", g.fallbacks().subList(fallbacksBefore, g.fallbackCount()));
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
