package org.dpgauss.bench.anisotropic;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpgauss.bench.MachineInfo;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.mean.anisotropic.LambdaRule;
import org.dpgauss.mean.anisotropic.ShapeMatrix;

/**
 * Times the exact neighbour count of BasicFilter (spec §8, the O(n^2 d) kernel) as Algorithm 1 with the known
 * covariance runs it: rows of {@code N(0, diag(i^-2))} whitened by {@code Sigma^{-1/4}}, radius lambda of §3.2
 * (beta = 0.01). Records wall time and the process CPU time (robust on a shared machine: wall time on an idle
 * machine is about CPU time / cores for this parallel kernel).
 *
 * <p>Usage: {@code NeighbourCountTiming OUTFILE n d [repeats]}; {@code dpgauss.engine} picks the engine (default cpu).
 */
public final class NeighbourCountTiming {

    private NeighbourCountTiming() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        int d = Integer.parseInt(args[2]);
        int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        ComputeEngine engine = ComputeEngines.select(EngineChoice.valueOf(
                System.getProperty("dpgauss.engine", "cpu").toUpperCase(java.util.Locale.ROOT))).engine();
        double[] v = AnisotropicComparison.spectrum("poly2", d);
        ShapeMatrix sigma = ShapeMatrix.diagonal(v);
        RowBlockMatrix x = SyntheticData.gaussian(n, d, new double[d], v, 0x71AE);
        RowBlockMatrix y = RowBlockMatrix.zeros(n, d);
        double[] row = new double[d];
        double[] w = new double[d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, row, 0);
            sigma.applyPower(-0.25, row, w);
            y.setRow(i, w);
        }
        double lambda = LambdaRule.knownCovariance(sigma, n, 0.01);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        List<Map<String, Object>> reps = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            String loadBefore = loadAverage();
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            int[] counts = engine.neighbourCounts(y, lambda);
            double wall = (System.nanoTime() - t0) * 1e-9;
            double cpu = (os.getProcessCpuTime() - cpu0) * 1e-9;
            int min = Integer.MAX_VALUE;
            for (int c : counts) {
                min = Math.min(min, c);
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("wallSeconds", wall);
            m.put("processCpuSeconds", cpu);
            m.put("loadAverageBefore", loadBefore);
            m.put("loadAverageAfter", loadAverage());
            m.put("minCount", min);
            reps.add(m);
            System.out.printf(java.util.Locale.ROOT, "n=%d d=%d: wall %.1f s, process CPU %.1f s (min count %d)%n", n, d,
                    wall, cpu, min);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("description", "one exact neighbour count (BasicFilter kernel, spec §8) at n=" + n + ", d=" + d
                + ": rows N(0, diag(i^-2)) whitened by Sigma^{-1/4}, radius lambda of §3.2 (beta = 0.01)");
        json.put("command", System.getProperty("timing.command", "NeighbourCountTiming " + String.join(" ", args)));
        json.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        json.put("engine", engine.description());
        json.put("machine", MachineInfo.describe());
        json.put("n", n);
        json.put("d", d);
        json.put("lambda", lambda);
        json.put("pairFlops", 1.0 * n * n * d);
        json.put("repetitions", reps);
        json.put("note", "shared 2-core machine (other jobs running, this one under nice): wall time is inflated by"
                + " contention; CPU time / cores estimates the idle-machine wall time");
        Files.createDirectories(out.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), json);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
