package org.dpgauss.bench.anisotropic;

import org.dpgauss.privacy.ApproxDp;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpgauss.bench.MachineInfo;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.mean.anisotropic.AnisotropicMethod;
import org.dpgauss.mean.anisotropic.CoordinateWiseMean;
import org.dpgauss.mean.anisotropic.RescaledAveraging;
import org.dpgauss.mean.anisotropic.ShapeMatrix;
import org.dpgauss.mean.anisotropic.TopVar;
import org.dpgauss.mean.anisotropic.UnknownCovarianceMean;
import org.dpgauss.privacy.RandomSource;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Issue 7 item 6: L2 error of the private mean estimators of spec anisotropic-mean-estimation against epsilon on
 * anisotropic Gaussian data, with the rates the paper predicts beside them.
 *
 * <p>Data: {@code N(mu, diag(sigma_i^2))}, {@code sigma_i^2 = i^-2} ("poly2") or {@code e^-i} ("exp", floored at
 * {@code 1e-12}: {@code e^-i} underflows at i = 745, and whitened rows {@code Sigma^{-1/4} x} must stay
 * representable; the floor changes {@code tr Sigma^{1/2}} by less than 0.1%), i = 1..d; {@code mu} uniform in
 * {@code [-1000, 1000]^d} (no range is given to the range-free methods). Rows from {@link SyntheticData#gaussian}
 * (Philox, a fixed key per cell and run); mechanism noise from {@link RandomSource#insecureSeeded} with a fixed seed
 * per (cell, run, epsilon, method): a reproducible SIMULATION, not a private release.
 *
 * <p>Methods (delta = 1e-6, beta = 0.01, replace-one (epsilon, delta)-DP for all but "nonprivate"):
 * <ul>
 *   <li>{@code nonprivate}: the empirical mean (floor, B0);</li>
 *   <li>{@code known}: Algorithm 1 with {@code M = Sigma} (Thm 1.2), provable calibration;</li>
 *   <li>{@code folklore}: Algorithm 1 with {@code M = I} (B1);</li>
 *   <li>{@code alg2-high}, {@code alg2-paper}: Algorithm 2 (unknown diagonal covariance) with TopVar threshold
 *       HIGH (64 R^, the default) and PAPER (R^/8), spec §9 A9;</li>
 *   <li>{@code clipped}: the clipped Gaussian mechanism with an ORACLE centre {@code mu} (given for free: its best
 *       case) and radius {@code C = sqrt(tr Sigma) + sqrt(2 ||Sigma|| ln(n/beta))}, rho from (epsilon, delta);</li>
 *   <li>{@code coordinate}: the coordinate-wise mean, B3 ({@link CoordinateWiseMean}).</li>
 * </ul>
 * Neighbour counts (the O(n^2 d) kernel of BasicFilter) are memoised per dataset and radius by
 * {@link CachingCountsEngine}: lambda does not depend on epsilon, so the counts of one dataset are computed once and
 * reused, exactly, for the three epsilons (and by Algorithm 2 whenever its lambda and columns repeat); and when every
 * whitened row lies within lambda/2 of the centroid the counts are all n by the triangle inequality (exact, O(n d)).
 * Both give the counts the engine would compute, so every release has the library's output distribution.
 *
 * <p>Usage: {@code AnisotropicComparison OUTDIR CELLS [RUNS]} with CELLS a comma list of
 * {@code n:d:heavyRuns[:cheapRuns]} (heavyRuns = datasets on which the Algorithm 1/2 methods run; the cheap methods
 * run on cheapRuns datasets, default RUNS, default 20). System property {@code anisotropic.cellBudgetSeconds}
 * (default 900): after that much wall time in a cell, the Algorithm 1/2 methods stop (the JSON records the runs
 * actually made); {@code anisotropic.resume=true} keeps the cells already in OUTDIR/anisotropic.json. The JSON and one PNG per (spectrum, n, d) are rewritten after every cell.
 * The system property {@code anisotropic.command} is recorded as the command.
 */
public final class AnisotropicComparison {

    static final double DELTA = 1e-6;
    static final double BETA = 0.01;
    static final double[] EPSILONS = {0.1, 0.5, 1};
    static final String[] SPECTRA = {"poly2", "exp"};
    static final String[] METHODS = {"nonprivate", "known", "folklore", "alg2-high", "alg2-paper", "clipped",
        "coordinate"};
    private static final Color[] COLORS = {
        Color.GRAY, new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x98df8a),
        new Color(0xd62728), new Color(0x9467bd)};

    private AnisotropicComparison() {
    }

    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        if (args.length == 2 && args[0].equals("--charts")) {
            chartsFromJson(Path.of(args[1]));
            return;
        }
        Path outdir = Path.of(args.length > 0 ? args[0] : "bench/results/anisotropic");
        String cells = args.length > 1 ? args[1] : "10000:100:20";
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        Files.createDirectories(outdir);
        CachingCountsEngine engine = new CachingCountsEngine(ComputeEngines.select(EngineChoice.valueOf(
                System.getProperty("dpgauss.engine", "cpu").toUpperCase(Locale.ROOT))).engine());

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("description", "Issue 7 item 6 / spec anisotropic-mean-estimation §7 protocol: L2 error of private "
                + "mean estimators vs epsilon on N(mu, diag(sigma_i^2)) data, with the calibrated prediction of each "
                + "implementation and the paper's constant-free rate. SIMULATION randomness (fixed Philox keys for the "
                + "data, RandomSource.insecureSeeded for the noise), not private releases.");
        json.put("delta", DELTA);
        json.put("beta", BETA);
        json.put("epsilon", EPSILONS);
        json.put("methods", methodNotes());
        json.put("predictions", predictionNotes());
        json.put("command", System.getProperty("anisotropic.command", "AnisotropicComparison " + String.join(" ", args)));
        json.put("machine", MachineInfo.describe());
        json.put("engine", engine.description());
        json.put("note", "2-core machine shared with other jobs (run under nice): absolute times are noisy");
        json.put("started", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        List<Map<String, Object>> results = new ArrayList<>();
        Path jsonFile = outdir.resolve("anisotropic.json");
        if (Boolean.getBoolean("anisotropic.resume") && Files.exists(jsonFile)) {
            // keep the cells of an interrupted run (same seeds: a cell's result does not depend on the others)
            @SuppressWarnings("unchecked")
            Map<String, Object> old = new ObjectMapper().readValue(jsonFile.toFile(), Map.class);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> done = (List<Map<String, Object>>) old.get("cells");
            results.addAll(done);
            json.put("resumedFrom", Map.of("started", old.get("started"), "command", old.get("command"),
                    "cells", done.size()));
        }
        json.put("cells", results);
        json.put("complete", false);

        for (String cell : cells.split(",")) {
            String[] p = cell.split(":");
            int n = Integer.parseInt(p[0]);
            int d = Integer.parseInt(p[1]);
            int heavy = Integer.parseInt(p[2]);
            int cheap = p.length > 3 ? Integer.parseInt(p[3]) : runs;
            for (String spectrum : SPECTRA) {
                if (results.stream().anyMatch(c -> spectrum.equals(c.get("spectrumId"))
                        && ((Number) c.get("n")).intValue() == n && ((Number) c.get("d")).intValue() == d)) {
                    System.out.printf(Locale.ROOT, "%s n=%d d=%d: kept from the resumed JSON%n", spectrum, n, d);
                    continue;
                }
                Map<String, Object> r = runCell(spectrum, n, d, Math.max(cheap, heavy), heavy, engine);
                results.add(r);
                json.put("countCache", Map.of("reusedFromCache", engine.hits(), "notCached", engine.misses(),
                        "allPassShortcut", engine.shortcuts(), "computedByEngine", engine.misses() - engine.shortcuts(),
                        "engineSecondsPerShape", countTimes(engine)));
                write(outdir, json);
                chart(r, outdir.resolve("error-" + spectrum + "-n" + n + "-d" + d + ".png").toFile());
            }
        }
        json.put("complete", true);
        json.put("finished", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        write(outdir, json);
    }

    static Map<String, Object> countTimes(CachingCountsEngine engine) {
        Map<String, Object> m = new LinkedHashMap<>();
        engine.missSeconds().forEach((k, v) -> m.put(k, Map.of("computed", (long) v[0], "meanSeconds", v[1] / v[0])));
        return m;
    }

    static void write(Path outdir, Map<String, Object> json) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                .writeValue(outdir.resolve("anisotropic.json").toFile(), json);
    }

    static double[] spectrum(String id, int d) {
        double[] v = new double[d];
        for (int i = 1; i <= d; i++) {
            v[i - 1] = id.equals("poly2") ? 1.0 / ((double) i * i) : Math.max(Math.exp(-i), 1e-12);
        }
        return v;
    }

    static Map<String, Object> runCell(String spectrum, int n, int d, int runs, int heavy,
            CachingCountsEngine engine) {
        long cellKey = (spectrum.equals("poly2") ? 1L : 2L) << 40 | (long) n << 12 | d;
        double[] v = spectrum(spectrum, d);
        SplittableRandom mr = new SplittableRandom(0xA11CE + cellKey);
        double[] mu = new double[d];
        for (int j = 0; j < d; j++) {
            mu[j] = -1000 + 2000 * mr.nextDouble();
        }
        ShapeMatrix sigma = ShapeMatrix.diagonal(v);
        double tr = sigma.tracePower(1);
        double trHalf = sigma.tracePower(0.5);
        double norm = sigma.normPower(1);
        double sumSd = 0;
        for (double e : v) {
            sumSd += Math.sqrt(e);
        }
        double clipC = Math.sqrt(tr) + Math.sqrt(2 * norm * Math.log(n / BETA));

        int ne = EPSILONS.length;
        Object[][] est = new Object[METHODS.length][ne];
        String[][] refused = new String[METHODS.length][ne];
        Double[][] predicted = new Double[METHODS.length][ne];
        double[][] paperRate = new double[METHODS.length][ne];
        Map<String, Object> k2 = new LinkedHashMap<>();
        for (int e = 0; e < ne; e++) {
            double eps = EPSILONS[e];
            double sampling = Math.sqrt(tr / n);
            predicted[0][e] = sampling;
            paperRate[0][e] = sampling;
            RescaledAveraging known = RescaledAveraging.knownCovariance(sigma, n, BETA, ApproxDp.of(eps, DELTA));
            RescaledAveraging folk = AnisotropicMethod.FOLKLORE.estimator(sigma, n, BETA, ApproxDp.of(eps, DELTA));
            est[1][e] = known;
            est[2][e] = folk;
            predicted[1][e] = algorithm1Prediction(known, trHalf, tr, n);
            predicted[2][e] = algorithm1Prediction(folk, d, tr, n);
            double logD = Math.sqrt(Math.log(1 / DELTA));
            paperRate[1][e] = sampling + trHalf * logD / (eps * n);
            paperRate[2][e] = sampling + Math.sqrt(d * tr) * logD / (eps * n);
            for (int t = 0; t < 2; t++) {
                TopVar.Threshold th = t == 0 ? TopVar.Threshold.HIGH : TopVar.Threshold.PAPER;
                try {
                    UnknownCovarianceMean a = UnknownCovarianceMean.of(n, d, ApproxDp.of(eps, DELTA), BETA, th);
                    est[3 + t][e] = a;
                    k2.put("eps=" + eps, Map.of("k", a.k(), "ell", a.ell(), "groups", a.groups()));
                } catch (IllegalArgumentException ex) {
                    refused[3 + t][e] = ex.getMessage();
                }
                paperRate[3 + t][e] = theorem14Rate(tr, sumSd, d, n, eps);
            }
            ClippedGaussianMean clip = ClippedGaussianMean.of(clipC, mu, org.dpgauss.privacy.ConversionPolicy.rhoFor(eps, DELTA));
            est[5][e] = clip;
            double cs = clip.sigma(n);
            predicted[5][e] = Math.sqrt(tr / n + d * cs * cs);
            paperRate[5][e] = paperRate[2][e];
            CoordinateWiseMean coord = CoordinateWiseMean.of(v, n, BETA, ApproxDp.of(eps, DELTA));
            est[6][e] = coord;
            double ws = coord.noiseSigma(new double[d]);
            // the mode bin holds >= 0.34 n in expectation (mu at a bin edge: two bins of Phi(1) - Phi(0) each)
            predicted[6][e] = 0.34 * n > coord.histogram().threshold() ? Math.sqrt(tr / n + d * ws * ws) : null;
            paperRate[6][e] = paperRate[2][e]; // plus the n >~ sqrt(d)/eps centring requirement
        }

        Double[][][] errors = new Double[METHODS.length][ne][];
        for (int m = 0; m < METHODS.length; m++) {
            for (int e = 0; e < ne; e++) {
                boolean isHeavy = m >= 1 && m <= 4;
                errors[m][e] = new Double[isHeavy ? heavy : runs];
            }
        }
        double[] seconds = new double[METHODS.length];
        long t0 = System.nanoTime();
        double budget = Double.parseDouble(System.getProperty("anisotropic.cellBudgetSeconds", "900"));
        int heavyDone = 0;
        for (int run = 0; run < runs; run++) {
            if (run < heavy && run > 0 && (System.nanoTime() - t0) * 1e-9 > budget) {
                heavy = run; // wall-time budget of the cell spent: the Algorithm 1/2 methods stop here
            }
            RowBlockMatrix x = SyntheticData.gaussian(n, d, mu, v, cellKey * 1000 + run);
            engine.clear();
            long s0 = System.nanoTime();
            double[] mean = x.columnMeans();
            seconds[0] += (System.nanoTime() - s0) * 1e-9;
            for (int e = 0; e < ne; e++) {
                errors[0][e][run] = dist(mean, mu);
            }
            for (int m = 1; m < METHODS.length; m++) {
                boolean isHeavy = m <= 4;
                if (isHeavy && run >= heavy) {
                    continue;
                }
                for (int e = 0; e < ne; e++) {
                    if (est[m][e] == null) {
                        continue;
                    }
                    RandomSource rnd = RandomSource.insecureSeeded(((cellKey * 1000 + run) * 8 + m) * 4 + e);
                    long s1 = System.nanoTime();
                    double[] out = release(est[m][e], x, engine, rnd);
                    seconds[m] += (System.nanoTime() - s1) * 1e-9;
                    errors[m][e][run] = out == null ? null : dist(out, mu);
                }
            }
            if (run < heavy) {
                heavyDone = run + 1;
            }
            if (run < heavy || run % 5 == 4) {
                System.out.printf(Locale.ROOT, "%s n=%d d=%d run %d/%d done (%.0f s; counts: %d by the engine, %d by the"
                        + " all-pass shortcut, %d reused)%n", spectrum, n, d, run + 1, runs,
                        (System.nanoTime() - t0) * 1e-9, engine.misses() - engine.shortcuts(), engine.shortcuts(),
                        engine.hits());
            }
        }

        for (int m = 1; m <= 4; m++) {
            for (int e = 0; e < ne; e++) {
                errors[m][e] = Arrays.copyOf(errors[m][e], heavyDone);
            }
        }
        heavy = heavyDone;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("spectrum", spectrum.equals("poly2") ? "sigma_i^2 = i^-2" : "sigma_i^2 = max(e^-i, 1e-12)");
        r.put("spectrumId", spectrum);
        r.put("n", n);
        r.put("d", d);
        r.put("runsCheapMethods", runs);
        r.put("runsAlgorithm1And2", heavy);
        r.put("cellBudgetSeconds", budget);
        r.put("traceSigma", tr);
        r.put("traceSigmaHalf", trHalf);
        r.put("normSigma", norm);
        r.put("paperFactorFolkloreOverKnown", Math.sqrt(d * tr) / trHalf);
        r.put("clipRadius", clipC);
        r.put("algorithm2", k2);
        r.put("seconds", secondsMap(seconds));
        Map<String, Object> byMethod = new LinkedHashMap<>();
        for (int m = 0; m < METHODS.length; m++) {
            Map<String, Object> mm = new LinkedHashMap<>();
            List<Map<String, Object>> perEps = new ArrayList<>();
            for (int e = 0; e < ne; e++) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("epsilon", EPSILONS[e]);
                if (refused[m][e] != null) {
                    s.put("refused", refused[m][e]);
                } else {
                    s.putAll(stats(errors[m][e]));
                }
                s.put("predicted", predicted[m][e]);
                s.put("paperRate", paperRate[m][e]);
                perEps.add(s);
            }
            mm.put("results", perEps);
            byMethod.put(METHODS[m], mm);
        }
        r.put("methods", byMethod);
        Map<String, Object> ratio = new LinkedHashMap<>();
        for (int e = 0; e < ne; e++) {
            Double a = median(errors[2][e]);
            Double b = median(errors[1][e]);
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("measuredMedianRatio", a == null || b == null ? null : a / b);
            q.put("predictedRatio", predicted[2][e] == null || predicted[1][e] == null ? null
                    : predicted[2][e] / predicted[1][e]);
            q.put("paperRateRatio", paperRate[2][e] / paperRate[1][e]);
            ratio.put("eps=" + EPSILONS[e], q);
        }
        r.put("folkloreOverKnown", ratio);
        System.out.printf(Locale.ROOT, "%s n=%d d=%d: medians %s%n", spectrum, n, d, summary(errors));
        return r;
    }

    static String summary(Double[][][] errors) {
        StringBuilder sb = new StringBuilder();
        for (int m = 0; m < METHODS.length; m++) {
            sb.append(METHODS[m]).append('=');
            for (int e = 0; e < EPSILONS.length; e++) {
                Double md = median(errors[m][e]);
                sb.append(e == 0 ? "" : "/").append(md == null ? "FAIL" : String.format(Locale.ROOT, "%.3g", md));
            }
            sb.append(' ');
        }
        return sb.toString();
    }

    static Map<String, Object> secondsMap(double[] seconds) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < METHODS.length; i++) {
            m.put(METHODS[i], seconds[i]);
        }
        return m;
    }

    /** One release through the contract ({@code Releases.run}); null on FAIL. */
    static double[] release(Object est, RowBlockMatrix x, CachingCountsEngine engine, RandomSource rnd) {
        org.dpgauss.release.PrivateRelease r = org.dpgauss.release.Releases.run(
                (org.dpgauss.release.PrivateMechanism) est, org.dpgauss.release.Dataset.of(x), DELTA,
                org.dpgauss.release.ReleaseContext.of(engine, rnd));
        return r.isPass() ? r.vector("mean") : null;
    }

    /**
     * Expected error of Algorithm 1 as implemented: {@code sqrt(tr Sigma / n + s^2 tr M^{1/2})} with the noise
     * scale of §3.1 step 6, {@code s = sqrt(8 ln(1.25/delta)) lambda / (epsilon n^)}, at the internal (epsilon,
     * delta) and the expected noisy count {@code n^ = n - ln(1/delta)/epsilon}; null when that is {@code <= 0}
     * (FAIL expected).
     */
    static Double algorithm1Prediction(RescaledAveraging a, double traceMHalf, double traceSigma, int n) {
        double ei = a.internalEpsilon();
        double di = a.internalDelta();
        double nHat = n - Math.log(1 / di) / ei;
        if (nHat <= 0) {
            return null;
        }
        double s = Math.sqrt(8 * Math.log(1.25 / di)) * a.lambda() / (ei * nHat);
        return Math.sqrt(traceSigma / n + s * s * traceMHalf);
    }

    /**
     * The alpha solving Thm 1.4 / eq. (2) with all constants 1: {@code n = tr/a^2 + S sqrt(L)/(a eps) +
     * d^{1/4} sqrt(S) L / (sqrt(a) eps)}, {@code S = sum_i Sigma_ii^{1/2}}, {@code L = ln(1/delta)} (bisection in
     * log a; the right side decreases in a).
     */
    static double theorem14Rate(double tr, double s, int d, int n, double eps) {
        double l = Math.log(1 / DELTA);
        double lo = 1e-12;
        double hi = 1e12;
        for (int it = 0; it < 200; it++) {
            double a = Math.sqrt(lo * hi);
            double need = tr / (a * a) + s * Math.sqrt(l) / (a * eps) + Math.pow(d, 0.25) * Math.sqrt(s) * l
                    / (Math.sqrt(a) * eps);
            if (need > n) {
                lo = a;
            } else {
                hi = a;
            }
        }
        return Math.sqrt(lo * hi);
    }

    static double dist(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += (a[j] - b[j]) * (a[j] - b[j]);
        }
        return Math.sqrt(s);
    }

    static Double median(Double[] xs) {
        double[] ok = Arrays.stream(xs).filter(x -> x != null).mapToDouble(Double::doubleValue).sorted().toArray();
        if (ok.length == 0) {
            return null;
        }
        return ok.length % 2 == 1 ? ok[ok.length / 2] : 0.5 * (ok[ok.length / 2 - 1] + ok[ok.length / 2]);
    }

    static Map<String, Object> stats(Double[] xs) {
        Map<String, Object> s = new LinkedHashMap<>();
        double[] ok = Arrays.stream(xs).filter(x -> x != null).mapToDouble(Double::doubleValue).sorted().toArray();
        s.put("runs", xs.length);
        s.put("fails", xs.length - ok.length);
        if (ok.length > 0) {
            s.put("median", median(xs));
            s.put("mean", Arrays.stream(ok).average().orElse(Double.NaN));
            s.put("p90", ok[Math.min(ok.length - 1, (int) Math.ceil(0.9 * ok.length) - 1)]);
            s.put("rms", Math.sqrt(Arrays.stream(ok).map(x -> x * x).average().orElse(Double.NaN)));
        }
        s.put("errors", xs);
        return s;
    }

    static Map<String, Object> methodNotes() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nonprivate", "empirical mean (B0)");
        m.put("known", "Algorithm 1, M = Sigma, lambda of §3.2, provable calibration (internal eps*/42), replace-one");
        m.put("folklore", "Algorithm 1, M = I, lambda = sqrt(2 tr Sigma) + 2 sqrt(2 ||Sigma|| ln(n/beta)) (B1)");
        m.put("alg2-high", "Algorithm 2 (unknown diagonal covariance), TopVar threshold HIGH = 64 R^ (default)");
        m.put("alg2-paper", "Algorithm 2, TopVar threshold PAPER = R^/8 (spec §9 A9)");
        m.put("clipped", "ClippedGaussianMean with ORACLE centre mu and C = sqrt(tr Sigma) + sqrt(2||Sigma|| ln(n/beta)),"
                + " rho = ConversionPolicy.rhoFor(eps, delta) (CKS20 Cor. 13)");
        m.put("coordinate", "CoordinateWiseMean (B3): per-coordinate stable histograms, box clip, Gaussian");
        return m;
    }

    static Map<String, Object> predictionNotes() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("predicted", "calibrated expected error of the implementation: sqrt(tr Sigma/n + noise variance); "
                + "known/folklore: s^2 tr M^{1/2} with s = sqrt(8 ln(1.25/delta_i)) lambda/(eps_i n^), "
                + "n^ = n - ln(1/delta_i)/eps_i (spec §3.1 step 6, §7 table); clipped/coordinate: d sigma^2 of their "
                + "Gaussian noise; null = FAIL expected (n^ <= 0, or the histogram threshold above the mode bin's "
                + "~0.34 n)");
        m.put("paperRate", "constant-free rate from the paper (spec §1.3, §10), alpha = sqrt(tr Sigma/n) + "
                + "privacy term: known tr(Sigma^{1/2}) sqrt(ln(1/delta))/(eps n) [Thm 1.2]; folklore, clipped, "
                + "coordinate sqrt(d tr Sigma) sqrt(ln(1/delta))/(eps n) [§10 table; coordinate also needs "
                + "n >~ sqrt(d)/eps]; alg2: alpha solving eq. (2) of Thm 1.4 with constants 1");
        m.put("paperFactorFolkloreOverKnown", "sqrt(d tr Sigma) / tr(Sigma^{1/2}): the ratio of the privacy terms");
        return m;
    }

    /** Re-draws every cell's PNG from OUTDIR/anisotropic.json (usage: {@code --charts OUTDIR}). */
    @SuppressWarnings("unchecked")
    static void chartsFromJson(Path outdir) throws IOException {
        Map<String, Object> json = new ObjectMapper().readValue(outdir.resolve("anisotropic.json").toFile(), Map.class);
        for (Map<String, Object> cell : (List<Map<String, Object>>) json.get("cells")) {
            chart(cell, outdir.resolve("error-" + cell.get("spectrumId") + "-n" + cell.get("n") + "-d" + cell.get("d")
                    + ".png").toFile());
        }
    }

    static void chart(Map<String, Object> cell, java.io.File png) throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> methods = (Map<String, Object>) cell.get("methods");
        XYSeriesCollection ds = new XYSeriesCollection();
        XYLineAndShapeRenderer rend = new XYLineAndShapeRenderer(true, true);
        int m = 0;
        for (String name : METHODS) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> res = (List<Map<String, Object>>) ((Map<String, Object>) methods.get(name))
                    .get("results");
            XYSeries meas = new XYSeries(name + " (median)", false, false);
            XYSeries pred = new XYSeries(name + " predicted", false, false);
            XYSeries rate = new XYSeries(name + " paper rate (constants 1)", false, false);
            for (Map<String, Object> r : res) {
                double eps = ((Number) r.get("epsilon")).doubleValue();
                // the median with FAIL counted as +infinity: no point when half or more of the runs failed
                boolean mostlyFail = r.get("fails") != null
                        && 2 * ((Number) r.get("fails")).intValue() >= ((Number) r.get("runs")).intValue();
                if (r.get("median") != null && !mostlyFail) {
                    meas.add(eps, ((Number) r.get("median")).doubleValue());
                }
                if (r.get("predicted") != null) {
                    pred.add(eps, ((Number) r.get("predicted")).doubleValue());
                }
                if ((name.equals("known") || name.equals("folklore")) && r.get("paperRate") != null) {
                    rate.add(eps, ((Number) r.get("paperRate")).doubleValue());
                }
            }
            for (XYSeries s : new XYSeries[] {meas, pred, rate}) {
                if (s.getItemCount() == 0) {
                    continue;
                }
                ds.addSeries(s);
                int idx = ds.getSeriesCount() - 1;
                rend.setSeriesPaint(idx, COLORS[m]);
                rend.setSeriesShapesVisible(idx, s == meas);
                rend.setSeriesStroke(idx, s == meas ? new BasicStroke(2.2f)
                        : s == pred ? new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
                                new float[] {6, 4}, 0)
                        : new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {1, 4},
                                0));
            }
            m++;
        }
        LogAxis x = new LogAxis("privacy loss \u03b5 (log scale), \u03b4 = 1e-6");
        x.setSmallestValue(0.05);
        x.setNumberFormatOverride(new java.text.DecimalFormat("0.###"));
        LogAxis y = new LogAxis("L2 error ||\u03bc\u0302 - \u03bc||\u2082 (log scale)");
        y.setSmallestValue(1e-4);
        y.setAutoTickUnitSelection(false);
        y.setTickUnit(new org.jfree.chart.axis.NumberTickUnit(1.0)); // one tick per power of ten
        y.setNumberFormatOverride(new java.text.DecimalFormat("0.####E0"));
        XYPlot plot = new XYPlot(ds, x, y, rend);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xcccccc));
        plot.setRangeGridlinePaint(new Color(0xcccccc));
        JFreeChart chart = new JFreeChart("Private mean, anisotropic Gaussian: measured (solid), calibrated prediction "
                + "(dashed), paper rate (dotted)",
                new Font("SansSerif", Font.BOLD, 16), plot, true);
        chart.addSubtitle(new TextTitle(String.format(Locale.ROOT, "%s, n=%d, d=%d, runs: %d (Alg. 1/2: %d); "
                + "no point: half or more FAIL, or refused", cell.get("spectrum"), cell.get("n"), cell.get("d"),
                cell.get("runsCheapMethods"), cell.get("runsAlgorithm1And2")), new Font("SansSerif", Font.PLAIN, 13)));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png, chart, 1000, 700);
    }
}
