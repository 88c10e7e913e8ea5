package org.dpgauss.bench.projection;

import org.dpgauss.bench.MachineInfo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
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
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.projection.PoissonSubsampledProjection;
import org.dpgauss.projection.PtrProjection;
import org.dpgauss.random.ChaCha20;
import org.dpgauss.special.Normal;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Spec ndis §8.4 experiments for the random projection mechanism.
 *
 * <p><b>A. Utility, M_RP vs the LSV ridge</b> (spec §6.2, §7 item 1): {@code ||Sigma^ - D^T D||_2 / ||D^T D||_2}
 * with {@code Sigma^ = (1/r) M M^T - lambda I} against epsilon, {@code delta = 1e-6}, {@code r in {50, 100, 200,
 * 500}}, on n x d data with rows {@code N(0, diag(1..1/d))} scaled onto the unit sphere ({@code l = 1}). Common
 * random numbers: for each r one projection {@code D^T G1} and one {@code G2} are drawn (ChaCha20, a fixed
 * SIMULATION key, not private) and {@code M = D^T G1 + sqrt(lambda) G2} is formed for every (epsilon, method);
 * each M then has exactly the mechanism's output distribution, and the curves differ only through lambda.
 * {@code reps} independent draws are averaged (mean and min/max reported).
 *
 * <p><b>B. Ridge of the wrappers against {@code lambda_min(D^T D)}</b> (spec §6.3, §6.4; r = 100, eps = 1,
 * delta = 1e-6, l = 1): M_RP's {@code l^2/p*} (constant), LSV (constant), Poisson {@code q in {0.1, 0.01}} as the
 * effective ridge in units of {@code D^T D} ({@code lambda/q}, since the Gram estimate is divided by q), and PTR
 * (equal thirds, {@code s_T in {5, 10, 20}}): the median ridge {@code max(l^2/p* - (lambda_min - alpha), 0)}
 * (noise draw 0) and its 5 % / 95 % quantiles over the test noise.
 *
 * <p>Usage: {@code ProjectionComparison [outdir] [n] [d] [reps]} (defaults bench/results/projection, 100000, 100, 3);
 * the system property {@code projection.command} is recorded as the command, {@code dpgauss.engine} picks the
 * engine (default cpu).
 */
public final class ProjectionComparison {

    static final double DELTA = 1e-6;
    static final int[] RS = {50, 100, 200, 500};
    static final double[] EPSILONS = {0.1, 0.25, 0.5, 1, 2, 3, 5};
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
        new Color(0x8c564b), new Color(0xe377c2)};

    private ProjectionComparison() {
    }

    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Path outdir = Path.of(args.length > 0 ? args[0] : "bench/results/projection");
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int d = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int reps = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Files.createDirectories(outdir);
        EngineSelection sel = ComputeEngines.select(EngineChoice.valueOf(
                System.getProperty("dpgauss.engine", "cpu").toUpperCase(Locale.ROOT)));
        ComputeEngine engine = sel.engine();

        long t0 = System.nanoTime();
        RowBlockMatrix x = data(n, d);
        DMatrixRMaj gram = engine.weightedGram(x, null, null, 1.0);
        double gramNorm = NormOps_DDRM.normP2(gram);
        double lambdaMin = engine.symmetricEigen(gram).value(0);
        double dataSeconds = (System.nanoTime() - t0) * 1e-9;

        Map<String, Object> utility = new LinkedHashMap<>();
        List<Map<String, Object>> series = new ArrayList<>();
        double projSeconds = 0;
        for (int r : RS) {
            double[][] ndis = new double[reps][EPSILONS.length];
            double[][] lsv = new double[reps][EPSILONS.length];
            for (int rep = 0; rep < reps; rep++) {
                ChaCha20 g = ChaCha20.withKey(new int[] {r, rep, 0x5eed, 1, 2, 3, 4, 5}, 0L); // SIMULATION key
                long t1 = System.nanoTime();
                DMatrixRMaj a = engine.gaussianProjection(x, r, g, 0L);
                projSeconds += (System.nanoTime() - t1) * 1e-9;
                DMatrixRMaj b = new DMatrixRMaj(d, r);
                double[] row = new double[r];
                for (int i = 0; i < d; i++) {
                    g.fillNormals(((long) n + i) * r, row, 0, r);
                    for (int j = 0; j < r; j++) {
                        b.set(i, j, row[j]);
                    }
                }
                for (int e = 0; e < EPSILONS.length; e++) {
                    ndis[rep][e] = error(a, b, RandomProjectionCurve.ridge(EPSILONS[e], DELTA, r, 1), gram, gramNorm);
                    lsv[rep][e] = error(a, b, RandomProjectionCurve.lsvRidge(EPSILONS[e], DELTA, r, 1), gram, gramNorm);
                }
            }
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("r", r);
            s.put("ridgeNdis", ridges(r, false));
            s.put("ridgeLsv", ridges(r, true));
            s.put("errorNdis", stats(ndis));
            s.put("errorLsv", stats(lsv));
            series.add(s);
            System.out.printf(Locale.ROOT, "r=%d: relative Gram error (mean of %d) NDIS %s | LSV %s%n", r, reps,
                    fmt(mean(ndis)), fmt(mean(lsv)));
        }
        utility.put("epsilon", EPSILONS);
        utility.put("series", series);

        Map<String, Object> ridge = ridgeCurves();

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("description", "Spec ndis §8.4: (A) relative spectral Gram error of M_RP (NDIS ridge) vs the "
                + "LSV-ridge baseline against epsilon; (B) ridge of the Poisson and PTR wrappers against "
                + "lambda_min(D^T D). Simulation randomness (fixed ChaCha20 keys), not a private release.");
        json.put("delta", DELTA);
        json.put("rowBound", 1.0);
        Map<String, Object> dataInfo = new LinkedHashMap<>();
        dataInfo.put("n", n);
        dataInfo.put("d", d);
        dataInfo.put("distribution", "rows N(0, diag(1, ..., 1/d)) scaled onto the unit sphere");
        dataInfo.put("gramNorm", gramNorm);
        dataInfo.put("lambdaMin", lambdaMin);
        json.put("data", dataInfo);
        json.put("reps", reps);
        json.put("utility", utility);
        json.put("ridge", ridge);
        json.put("engine", engine.description());
        json.put("seconds", Map.of("data", dataSeconds, "projections", projSeconds,
                "total", (System.nanoTime() - t0) * 1e-9));
        json.put("machine", MachineInfo.describe());
        json.put("command", System.getProperty("projection.command",
                "java -cp <classpath> org.dpgauss.bench.projection.ProjectionComparison " + outdir + " " + n + " "
                        + d + " " + reps));
        json.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        File jsonFile = outdir.resolve("projection.json").toFile();
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(jsonFile, json);
        utilityChart(series, n, d, outdir.resolve("utility.png").toFile());
        ridgeChart(ridge, outdir.resolve("ridge.png").toFile());
        System.out.printf(Locale.ROOT, "data n=%d d=%d, ||D^T D||=%.4g, lambda_min=%.4g; projections %.1f s; wrote %s,"
                + " utility.png, ridge.png%n", n, d, gramNorm, lambdaMin, projSeconds, jsonFile);
    }

    static RowBlockMatrix data(int n, int d) {
        double[] var = new double[d];
        for (int j = 0; j < d; j++) {
            var[j] = 1.0 / (j + 1);
        }
        RowBlockMatrix x = SyntheticData.gaussian(n, d, new double[d], var, 20261121L);
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, row, 0);
            double ss = 0;
            for (double v : row) {
                ss += v * v;
            }
            double f = (1 - 1e-12) / Math.sqrt(ss);
            for (int j = 0; j < d; j++) {
                row[j] *= f;
            }
            x.setRow(i, row);
        }
        return x;
    }

    static double error(DMatrixRMaj a, DMatrixRMaj b, double lambda, DMatrixRMaj gram, double gramNorm) {
        DMatrixRMaj m = a.copy();
        CommonOps_DDRM.addEquals(m, Math.sqrt(lambda), b);
        int d = m.numRows;
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(1.0 / m.numCols, m, m, s);
        for (int i = 0; i < d; i++) {
            s.add(i, i, -lambda);
        }
        CommonOps_DDRM.subtractEquals(s, gram);
        return NormOps_DDRM.normP2(s) / gramNorm;
    }

    static double[] ridges(int r, boolean lsv) {
        double[] out = new double[EPSILONS.length];
        for (int e = 0; e < EPSILONS.length; e++) {
            out[e] = lsv ? RandomProjectionCurve.lsvRidge(EPSILONS[e], DELTA, r, 1)
                    : RandomProjectionCurve.ridge(EPSILONS[e], DELTA, r, 1);
        }
        return out;
    }

    static Map<String, Object> ridgeCurves() {
        int r = 100;
        double eps = 1;
        double[] lambdaMin = new double[101];
        for (int i = 0; i <= 100; i++) {
            lambdaMin[i] = 5.0 * i;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("r", r);
        m.put("epsilon", eps);
        m.put("lambdaMin", lambdaMin);
        m.put("ridgeMRP", RandomProjectionCurve.ridge(eps, DELTA, r, 1));
        m.put("ridgeLsv", RandomProjectionCurve.lsvRidge(eps, DELTA, r, 1));
        Map<String, Object> pois = new LinkedHashMap<>();
        for (double q : new double[] {0.1, 0.01}) {
            PoissonSubsampledProjection p = PoissonSubsampledProjection.builder().rank(r)
                    .budget(ApproxDp.of(eps, DELTA)).samplingRate(q).rowBound(1).build();
            pois.put("q=" + q, Map.of("ridge", p.inner().ridge(), "effectiveRidge", p.inner().ridge() / q));
        }
        m.put("poisson", pois);
        List<Map<String, Object>> ptr = new ArrayList<>();
        for (double sT : new double[] {5, 10, 20}) {
            PtrProjection p = PtrProjection.builder().rank(r).budget(ApproxDp.of(eps, DELTA)).testNoise(sT)
                    .rowBound(1).build();
            double z = Normal.inverseSf(0.05);
            double[] med = new double[lambdaMin.length];
            double[] lo = new double[lambdaMin.length];
            double[] hi = new double[lambdaMin.length];
            for (int i = 0; i < lambdaMin.length; i++) {
                med[i] = Math.max(p.targetRidge() - Math.max(lambdaMin[i] - p.alpha(), 0), 0);
                lo[i] = Math.max(p.targetRidge() - Math.max(lambdaMin[i] + z * sT - p.alpha(), 0), 0);
                hi[i] = Math.max(p.targetRidge() - Math.max(lambdaMin[i] - z * sT - p.alpha(), 0), 0);
            }
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("sT", sT);
            s.put("epsilonT", p.epsilonT());
            s.put("targetRidge", p.targetRidge());
            s.put("alpha", p.alpha());
            s.put("propositionFiveThreshold", p.propositionFiveThreshold());
            s.put("ridgeMedian", med);
            s.put("ridgeQ05", lo);
            s.put("ridgeQ95", hi);
            ptr.add(s);
        }
        m.put("ptr", ptr);
        return m;
    }

    static Map<String, Object> stats(double[][] v) {
        int k = v[0].length;
        double[] mean = mean(v);
        double[] min = new double[k];
        double[] max = new double[k];
        for (int e = 0; e < k; e++) {
            min[e] = Double.MAX_VALUE;
            for (double[] row : v) {
                min[e] = Math.min(min[e], row[e]);
                max[e] = Math.max(max[e], row[e]);
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mean", mean);
        m.put("min", min);
        m.put("max", max);
        return m;
    }

    static double[] mean(double[][] v) {
        double[] m = new double[v[0].length];
        for (double[] row : v) {
            for (int e = 0; e < m.length; e++) {
                m[e] += row[e] / v.length;
            }
        }
        return m;
    }

    static String fmt(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (int e = 0; e < v.length; e++) {
            sb.append(String.format(Locale.ROOT, "%s eps=%s:%.4g", e == 0 ? "" : ",", EPSILONS[e], v[e]));
        }
        return sb.toString();
    }

    @SuppressWarnings("unchecked")
    static void utilityChart(List<Map<String, Object>> series, int n, int d, File png) throws IOException {
        XYSeriesCollection ds = new XYSeriesCollection();
        XYLineAndShapeRenderer rend = new XYLineAndShapeRenderer(true, true);
        int k = 0;
        for (Map<String, Object> s : series) {
            for (String method : new String[] {"Ndis", "Lsv"}) {
                double[] mean = (double[]) ((Map<String, Object>) s.get("error" + method)).get("mean");
                XYSeries xy = new XYSeries((method.equals("Ndis") ? "NDIS" : "LSV") + " r=" + s.get("r"), false, false);
                for (int e = 0; e < EPSILONS.length; e++) {
                    xy.add(EPSILONS[e], mean[e]);
                }
                ds.addSeries(xy);
                int idx = ds.getSeriesCount() - 1;
                rend.setSeriesPaint(idx, COLORS[k % COLORS.length]);
                rend.setSeriesStroke(idx, method.equals("Ndis") ? new BasicStroke(2.2f)
                        : new BasicStroke(2.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {7, 5}, 0));
            }
            k++;
        }
        LogAxis x = new LogAxis("privacy loss \u03b5 (log scale)");
        x.setSmallestValue(1e-3);
        x.setNumberFormatOverride(new java.text.DecimalFormat("0.###"));
        LogAxis y = new LogAxis("relative Gram error ||\u03a3\u0302 - D\u1d40D||\u2082 / ||D\u1d40D||\u2082");
        y.setSmallestValue(1e-6);
        y.setNumberFormatOverride(new java.text.DecimalFormat("0.###"));
        XYPlot plot = new XYPlot(ds, x, y, rend);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xcccccc));
        plot.setRangeGridlinePaint(new Color(0xcccccc));
        JFreeChart chart = new JFreeChart("M_RP utility: NDIS ridge (solid) vs LSV ridge (dashed)",
                new Font("SansSerif", Font.BOLD, 18), plot, true);
        chart.addSubtitle(new TextTitle(String.format(Locale.ROOT, "n=%d, d=%d, rows on the unit sphere, \u03b4=1e-6",
                n, d), new Font("SansSerif", Font.PLAIN, 13)));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png, chart, 1000, 650);
    }

    @SuppressWarnings("unchecked")
    static void ridgeChart(Map<String, Object> ridge, File png) throws IOException {
        double[] lm = (double[]) ridge.get("lambdaMin");
        XYSeriesCollection ds = new XYSeriesCollection();
        XYSeries mrp = new XYSeries("M_RP (l\u00b2/p*)", false, false);
        XYSeries lsv = new XYSeries("LSV ridge", false, false);
        for (double v : lm) {
            mrp.add(v, (Double) ridge.get("ridgeMRP"));
            lsv.add(v, (Double) ridge.get("ridgeLsv"));
        }
        ds.addSeries(mrp);
        ds.addSeries(lsv);
        for (Map.Entry<String, Object> e : ((Map<String, Object>) ridge.get("poisson")).entrySet()) {
            XYSeries p = new XYSeries("Poisson " + e.getKey() + " (\u03bb/q)", false, false);
            double eff = (Double) ((Map<String, Object>) e.getValue()).get("effectiveRidge");
            for (double v : lm) {
                p.add(v, eff);
            }
            ds.addSeries(p);
        }
        for (Map<String, Object> s : (List<Map<String, Object>>) ridge.get("ptr")) {
            XYSeries p = new XYSeries("PTR s_T=" + s.get("sT") + " (median)", false, false);
            double[] med = (double[]) s.get("ridgeMedian");
            for (int i = 0; i < lm.length; i++) {
                p.add(lm[i], med[i]);
            }
            ds.addSeries(p);
        }
        XYLineAndShapeRenderer rend = new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < ds.getSeriesCount(); i++) {
            rend.setSeriesPaint(i, COLORS[i % COLORS.length]);
            rend.setSeriesStroke(i, new BasicStroke(2.2f));
        }
        NumberAxis x = new NumberAxis("\u03bb_min(D\u1d40D)");
        NumberAxis y = new NumberAxis("ridge added (units of D\u1d40D)");
        y.setRange(0, 750); // Poisson q=0.01 sits at lambda/q = 707
        XYPlot plot = new XYPlot(ds, x, y, rend);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xcccccc));
        plot.setRangeGridlinePaint(new Color(0xcccccc));
        JFreeChart chart = new JFreeChart("Ridge of the M_RP wrappers (r=100, \u03b5=1, \u03b4=1e-6, l=1)",
                new Font("SansSerif", Font.BOLD, 18), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png, chart, 1000, 650);
    }
}
