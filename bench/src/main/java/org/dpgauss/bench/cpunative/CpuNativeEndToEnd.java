package org.dpgauss.bench.cpunative;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpgauss.bench.MachineInfo;
import org.dpgauss.cli.Main;
import org.dpgauss.io.NpyWriter;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * End-to-end mechanisms on both CPU engines, in process and warmed: each command goes through the command line
 * ({@link Main#run}, the stable contract, so this harness does not depend on mechanism classes), reading the same
 * .npy file; JVM start is not included (run-cpu-native.sh reports it separately). Seeded with
 * {@code --insecure-seed}: reproducible timing runs, not private releases.
 *
 * <p>Usage: {@code CpuNativeEndToEnd OUT_JSON DATA_NPY n d repeat}. Data: {@code N(3, diag(i^-2))}-like rows from
 * {@link CpuNativeBench#data} shifted by 3 (public, synthetic).
 */
public final class CpuNativeEndToEnd {

    /**
     * System property: also time the anisotropic mean on EJML, whose exact O(n^2 d) neighbour count takes minutes
     * at n = 1e5 (bench/results/anisotropic/neighbour-count-cpu.json: 286 CPU seconds); off by default.
     */
    static final String EJML_ANISOTROPIC = "cpunative.e2e.ejmlAnisotropic";

    /** Process CPU time (all threads), as in {@link CpuNativeBench}: pinned to one core, the command's work. */
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    private CpuNativeEndToEnd() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Path npy = Path.of(args[1]);
        int n = Integer.parseInt(args[2]);
        int d = Integer.parseInt(args[3]);
        int repeat = Integer.parseInt(args[4]);
        RowBlockMatrix x = CpuNativeBench.data(n, d);
        double[] row = new double[d];
        StringBuilder variances = new StringBuilder();
        for (int j = 0; j < d; j++) {
            double s = 1.0 + (double) j / d;
            variances.append(j == 0 ? "" : ",").append(s * s);
        }
        for (int i = 0; i < n; i++) {
            x.copyRow(i, row, 0);
            for (int j = 0; j < d; j++) {
                row[j] += 3.0;
            }
            x.setRow(i, row);
        }
        NpyWriter.write(npy, x);
        String in = npy.toString();
        String clip = String.valueOf(Math.ceil(3 * Math.sqrt(d * (9 + 4.0))));
        Map<String, String[]> commands = new LinkedHashMap<>();
        commands.put("second-moment coinpress", new String[] {"second-moment", "--method", "coinpress", "--input", in,
            "--rho", "0.5", "--clip", clip});
        commands.put("second-moment analyze-gauss", new String[] {"second-moment", "--method", "analyze-gauss",
            "--input", in, "--rho", "0.5", "--clip", clip});
        commands.put("mean clipped", new String[] {"mean", "--method", "clipped", "--input", in, "--rho", "0.5",
            "--clip", clip});
        commands.put("mean anisotropic (known covariance)", new String[] {"mean", "--method", "anisotropic", "--input",
            in, "--variances", variances.toString(), "--epsilon", "1"});
        Map<String, Object> times = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> c : commands.entrySet()) {
            Map<String, Object> perEngine = new LinkedHashMap<>();
            boolean quadratic = c.getKey().startsWith("mean anisotropic");
            String[] engines = quadratic && !Boolean.getBoolean(EJML_ANISOTROPIC)
                    ? new String[] {"cpu"} : new String[] {"ejml", "cpu"};
            for (String engine : engines) {
                List<String> argv = new ArrayList<>(List.of("--engine", engine, "--insecure-seed", "1", "--json"));
                argv.addAll(Arrays.asList(c.getValue()));
                String[] a = argv.toArray(new String[0]);
                String first = run(a); // warm-up, and the output for the record
                double[] s = new double[repeat];
                double[] cpu = new double[repeat];
                for (int r = 0; r < repeat; r++) {
                    long c0 = OS.getProcessCpuTime();
                    long t0 = System.nanoTime();
                    run(a);
                    s[r] = (System.nanoTime() - t0) / 1e9;
                    cpu[r] = (OS.getProcessCpuTime() - c0) / 1e9;
                }
                double[] sorted = s.clone();
                Arrays.sort(sorted);
                double[] cpuSorted = cpu.clone();
                Arrays.sort(cpuSorted);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("command", "dpgauss " + String.join(" ", a));
                m.put("seconds", s);
                m.put("median_seconds", sorted[repeat / 2]);
                m.put("cpu_seconds", cpu);
                m.put("median_cpu_seconds", cpuSorted[repeat / 2]);
                m.put("clip", clip);
                m.put("status", first.contains("\"status\":\"PASS\"") ? "PASS" : first.trim());
                perEngine.put(engine, m);
                System.err.printf(Locale.ROOT, "%-38s --engine %-4s median %.3f s (CPU %.3f s)%n", c.getKey(),
                        engine, sorted[repeat / 2], cpuSorted[repeat / 2]);
            }
            times.put(c.getKey(), perEngine);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("what", "end-to-end commands in one warmed JVM, JVM start excluded; --insecure-seed: timing runs");
        result.put("n", n);
        result.put("d", d);
        result.put("repeat", repeat);
        result.put("machine", MachineInfo.describe());
        result.put("times", times);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), result);
    }

    private static String run(String[] args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        if (code != 0) {
            throw new IllegalStateException("dpgauss " + String.join(" ", args) + " exited " + code + ": " + err);
        }
        return out.toString();
    }
}
