package org.dpgauss.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpgauss.bench.figure2.Figure2Chart;
import org.dpgauss.bench.figure2.Figure2Data;

/**
 * Reproduces Figure 2 of the NDIS paper (spec ndis §8.2): the improvement factor {@code p*_NDIS / p_LSV} of the
 * random-projection leverage bound over the LSV calibration, for {@code delta = 1e-6},
 * {@code r in {50, 100, 200, 500}} and epsilon on a log-spaced grid over {@code [0.1, 5]} that contains the
 * epsilons of the §8.2 table. Writes {@code figure2.json} and {@code figure2.png} to the output folder and
 * prints the table with the §8.2 reference values beside it.
 *
 * <p>Usage: {@code Figure2Reproduction [outdir]} (default {@code bench/results/figure2}); the system property
 * {@code figure2.command} (set by {@code bench/run-figure2.sh}) is recorded as the command.
 */
public final class Figure2Reproduction {

    static final double DELTA = 1e-6;
    static final int[] RS = {50, 100, 200, 500};
    static final int GRID_POINTS = 49;
    /** Spec §8.2 ratios at TABLE_EPSILONS (rows) for r = 50, 100, 200, 500 (columns); printed to 4 digits. */
    static final double[][] SPEC_RATIOS = {
        {9.522, 9.304, 9.126, 8.949}, {8.832, 8.665, 8.527, 8.386}, {8.321, 8.195, 8.088, 7.977},
        {7.779, 7.700, 7.629, 7.552}, {7.155, 7.133, 7.108, 7.076}, {6.727, 6.746, 6.753, 6.753},
        {6.100, 6.177, 6.233, 6.283}};

    private Figure2Reproduction() {
    }

    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Path outdir = Path.of(args.length > 0 ? args[0] : "bench/results/figure2");
        Files.createDirectories(outdir);

        long t0 = System.nanoTime();
        double[] grid = Figure2Data.grid(0.1, 5, GRID_POINTS);
        Figure2Data data = Figure2Data.compute(DELTA, RS, grid);
        double seconds = (System.nanoTime() - t0) / 1e9;

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("description", "Figure 2 of Wei et al. (NDIS, arXiv:2309.01243): p*_NDIS(eps, delta; r) / p_LSV(eps,"
                + " delta; r); p* from Lemma 4 by bisection (relative 1e-12, feasible side), p_LSV = eps / (4 (sqrt(2 r"
                + " ln(4/delta)) + ln(4/delta))); spec ndis.md §8.2");
        json.put("delta", DELTA);
        json.put("rowBound", 1.0);
        json.put("r", RS);
        json.put("epsilon", grid);
        List<Map<String, Object>> series = new ArrayList<>();
        for (Figure2Data.Series s : data.series()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("r", s.r());
            m.put("leverage", s.leverage());
            m.put("lsvLeverage", s.lsvLeverage());
            m.put("ratio", s.ratio());
            series.add(m);
        }
        json.put("series", series);
        json.put("computeSeconds", seconds);
        json.put("machine", MachineInfo.describe());
        json.put("command", System.getProperty("figure2.command",
                "java -cp <classpath> org.dpgauss.bench.Figure2Reproduction " + outdir));
        json.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        File jsonFile = outdir.resolve("figure2.json").toFile();
        mapper.writeValue(jsonFile, json);

        File png = outdir.resolve("figure2.png").toFile();
        Figure2Chart.write(data, png, 1000, 650);

        printReport(data, seconds, jsonFile, png);
    }

    private static void printReport(Figure2Data data, double seconds, File jsonFile, File png) {
        System.out.printf(Locale.ROOT, "Figure 2 reproduction: delta=%g, r=%s, %d epsilons in [0.1, 5], computed in"
                + " %.3f s%n", data.delta(), java.util.Arrays.toString(data.rs()), data.epsilons().length, seconds);
        System.out.println("eps    | r  p*  p_LSV  ratio  (spec §8.2 ratio)");
        double worst = 0;
        for (int t = 0; t < Figure2Data.TABLE_EPSILONS.length; t++) {
            double e = Figure2Data.TABLE_EPSILONS[t];
            int i = data.indexOf(e);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-6s", e));
            for (int k = 0; k < data.series().size(); k++) {
                Figure2Data.Series s = data.series().get(k);
                line.append(String.format(Locale.ROOT, " | r=%d %.6g %.6g %.4f (%.3f)", s.r(), s.leverage()[i],
                        s.lsvLeverage()[i], s.ratio()[i], SPEC_RATIOS[t][k]));
                worst = Math.max(worst, Math.abs(s.ratio()[i] - SPEC_RATIOS[t][k]));
            }
            System.out.println(line);
        }
        System.out.printf(Locale.ROOT, "largest |ratio - spec ratio| at the table epsilons: %.2e (spec prints 4"
                + " digits)%n", worst);
        for (Figure2Data.Series s : data.series()) {
            double[] r = s.ratio();
            boolean decreasing = true;
            for (int i = 1; i < r.length; i++) {
                decreasing &= r[i] < r[i - 1];
            }
            System.out.printf(Locale.ROOT, "r=%d: ratio %.4f at eps=%.2f -> %.4f at eps=%.2f, strictly decreasing:"
                    + " %b, min ratio %.4f%n", s.r(), r[0], data.epsilons()[0], r[r.length - 1],
                    data.epsilons()[r.length - 1], decreasing, java.util.Arrays.stream(r).min().orElse(Double.NaN));
        }
        List<Figure2Data.Series> s = data.series();
        for (int a = 0; a < s.size(); a++) {
            for (int b = a + 1; b < s.size(); b++) {
                System.out.printf(Locale.ROOT, "curves r=%d and r=%d cross at eps ~ %.3f%n", s.get(a).r(),
                        s.get(b).r(), data.crossing(s.get(a), s.get(b)));
            }
        }
        System.out.println("wrote " + jsonFile + " and " + png);
    }
}
