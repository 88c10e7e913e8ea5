package org.dpgauss.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.linalg.CholeskyResult;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.linalg.SymmetricEigen;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.HockeyStickDivergence;
import org.dpgauss.ndis.PrivacyProfile;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * The embedded default job: synthetic Gaussian data, every mechanism this build has, and a short report of
 * each one's guarantee, its error against the non-private value and its time.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run every mechanism of this build on synthetic Gaussian data and report, for each, its "
                + "privacy guarantee (with its neighbouring relation), its error against the non-private value "
                + "and its time.",
            "Data: n x d rows from N(mu, Sigma), mu = (1, ..., 1), Sigma = diag(0.5 .. 2), generated with "
                    + "Philox-4x32-10 (synthetic, reproducible). Privacy noise comes from SecureRandom unless "
                    + "--insecure-seed is given."})
final class DemoCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Option(names = "--n", defaultValue = "20000", description = "Rows (default: ${DEFAULT-VALUE}).")
    int n;

    @Option(names = "--d", defaultValue = "10", description = "Columns (default: ${DEFAULT-VALUE}).")
    int d;

    @Option(names = "--rho", defaultValue = "0.5",
            description = "zCDP budget of each mechanism (default: ${DEFAULT-VALUE}).")
    double rho;

    @Option(names = "--delta", defaultValue = "1e-6",
            description = "delta at which zCDP guarantees are also stated as (epsilon, delta)-DP (default: ${DEFAULT-VALUE}).")
    double delta;

    @Override
    public Integer call() {
        if (n < 2) {
            throw new IllegalArgumentException("--n=" + n + " must be >= 2");
        }
        if (d < 1) {
            throw new IllegalArgumentException("--d=" + d + " must be >= 1");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("--delta=" + delta + " must be in (0, 1)");
        }
        EngineSelection selection = main.selectEngine();
        ComputeEngine engine = selection.engine();
        RandomSource random = main.randomSource();

        long t0 = System.nanoTime();
        double[] mu = SyntheticData.filled(d, 1.0);
        double[] variances = new double[d];
        for (int j = 0; j < d; j++) {
            variances[j] = d == 1 ? 1.0 : 0.5 + 1.5 * j / (d - 1);
        }
        long dataKey = main.insecureSeed == null ? 20261120L : main.insecureSeed;
        RowBlockMatrix x = SyntheticData.gaussian(n, d, mu, variances, dataKey);
        double dataSeconds = seconds(t0);

        List<Map<String, Object>> mechanisms = new ArrayList<>();
        mechanisms.add(clippedMean(x, mu, variances, engine, random));
        mechanisms.add(DemoProjection.report(engine, random, n, d));
        mechanisms.addAll(DemoAnisotropic.report(engine, random, x, variances, rho, delta));
        mechanisms.addAll(DemoSecondMoment.reports(engine, random, x, mu, variances, rho, delta));
        mechanisms.addAll(DemoSampling.reports(x, mu, variances, engine, random));
        Map<String, Object> profile = privacyProfile(engine, (Double) mechanisms.get(0).get("sensitivity"),
                (Double) mechanisms.get(0).get("noise_sigma"));

        Map<String, Object> numerics = nonPrivateNumerics(engine, x);

        PrintWriter out = main.spec.commandLine().getOut();
        if (main.json) {
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("engine", engine.name());
            report.put("engine_detail", engine.description());
            report.put("engine_reason", selection.reason());
            report.put("randomness", random.describe());
            report.put("insecure", random.isInsecure());
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("n", n);
            data.put("d", d);
            data.put("distribution", "N(1, diag(0.5..2))");
            data.put("seconds", dataSeconds);
            report.put("data", data);
            report.put("mechanisms", mechanisms);
            report.put("privacyProfile", profile);
            report.put("numerics", numerics);
            out.println(Json.write(report));
            return 0;
        }
        out.println("dpgauss demo: every mechanism of this build on synthetic Gaussian data");
        out.printf(Locale.ROOT, "data:    n=%d rows, d=%d columns from N(mu=(1,..,1), Sigma=diag(0.5..2))%n", n, d);
        ReleasePrinter.wrap("engine:  ", engine.name() + " (" + shortReason(selection.reason()) + ")")
                .forEach(out::println);
        ReleasePrinter.wrap("noise:   ", random.describe()).forEach(out::println);
        out.println("Each release shows what it released, its privacy guarantee, the error it states before");
        out.println("seeing the data (expected, and a bound at a probability) beside the error it really made.");
        for (Map<String, Object> m : mechanisms) {
            out.println();
            for (String l : demoLines(m)) {
                out.println(l);
            }
        }
        out.println();
        out.println("Why the means differ at the same budget: the clipped mean spends it all on one noisy average");
        out.println("inside a public radius; the anisotropic and folklore means split it between a private filter,");
        out.println("a noisy count and the average, and pay for needing no radius; the sampler and the");
        out.println("covariance-aware mean need no bounds at all, and millions of rows to be certified.");
        out.println();
        double exact = (Double) profile.get("exactEpsilon");
        double converted = (Double) profile.get("zcdpEpsilon");
        out.printf(Locale.ROOT, "Exact accounting: the clipped mean's noise, measured exactly (NDIS, both orderings),%n");
        out.printf(Locale.ROOT, "is (%s, %s)-DP; the zCDP statement above converts to epsilon %s. The conversion is%n",
                ReleasePrinter.fmt(exact), ReleasePrinter.fmt(delta), ReleasePrinter.fmt(converted));
        out.printf(Locale.ROOT, "a safe upper bound; the exact value is %.0f%% smaller (for continuous noise; the%n",
                100 * (1 - exact / converted));
        out.println("release's discrete noise is covered by its zCDP guarantee).");
        out.println();
        out.println("Engine check on the same data (non-private, nothing released): Gram, Cholesky,");
        out.printf(Locale.ROOT, "Mahalanobis norms and eigendecomposition in %.3g s; sample covariance eigenvalues%n",
                (Double) numerics.get("seconds"));
        out.printf(Locale.ROOT, "in [%s, %s] (true [0.5, 2]).%n", ReleasePrinter.fmt((Double) numerics.get("min_eigenvalue")),
                ReleasePrinter.fmt((Double) numerics.get("max_eigenvalue")));
        Main.warnIfInsecure(out, random, "noise");
        return 0;
    }

    /** The first clause of an engine-selection reason, so the line stays short. */
    static String shortReason(String reason) {
        String r = reason == null ? "" : reason;
        int cut = r.indexOf(':');
        return cut > 0 && cut < 80 ? r.substring(0, cut) : (r.length() > 80 ? r.substring(0, 77) + "..." : r);
    }

    /** One sentence per mechanism on when to choose it. */
    static String whenToChoose(String mechanism) {
        String m = mechanism == null ? "" : mechanism;
        if (m.startsWith("mean.clipped")) {
            return "when a public radius around a public centre covers the rows: the simplest mean, never FAILs";
        }
        if (m.startsWith("projection")) {
            return "to share a sketch of the Gram matrix (PCA, regression) under add/remove neighbours";
        }
        if (m.equals("mean.anisotropic")) {
            return "with a public covariance proxy and unequal variances: the error does not grow with d";
        }
        if (m.equals("mean.folklore")) {
            return "the baseline of the anisotropic mean, when no useful covariance proxy is known";
        }
        if (m.startsWith("second-moment.recursive")) {
            return "with a public lower bound on the smallest eigenvalue: error relative to the spectrum";
        }
        if (m.startsWith("second-moment.analyze-gauss")) {
            return "one noisy X^T X: best when the rows fill the public radius R";
        }
        if (m.startsWith("second-moment.coinpress")) {
            return "iterative whitening: robust when R is a loose bound on the rows";
        }
        if (m.startsWith("second-moment.subsample")) {
            return "the baseline of the recursive method; it needs very many rows";
        }
        if (m.startsWith("sample")) {
            return "one private draw from an unknown Gaussian with no bounds at all; millions of rows";
        }
        if (m.equals("mean.bhs")) {
            return "a covariance-aware mean with no bounds at all; certified from millions of rows";
        }
        return "";
    }

    /** The text lines of one demo entry, each under 100 characters. */
    @SuppressWarnings("unchecked")
    static List<String> demoLines(Map<String, Object> m) {
        List<String> lines = new ArrayList<>();
        String mech = m.get("mechanism") == null ? "" : " (" + m.get("mechanism") + ")";
        lines.addAll(ReleasePrinter.wrap("", m.get("name") + mech + " [" + m.get("status") + "]"));
        Object g = m.get("guarantee");
        if (g instanceof Map) {
            lines.addAll(ReleasePrinter.wrap("  guarantee: ", guaranteeSummary((Map<String, Object>) g)));
        } else if (m.get("guarantee_text") != null) {
            lines.addAll(ReleasePrinter.wrap("  note:      ", roundLongNumbers(String.valueOf(m.get("guarantee_text")))));
        }
        Object a = m.get("accuracy");
        Object err = m.containsKey("error") ? m.get("error") : m.get("relative_gram_error");
        if (a instanceof Map) {
            Map<String, Object> acc = (Map<String, Object>) a;
            lines.addAll(ReleasePrinter.wrap("  stated:    ", acc.get("metric") + ": expected "
                    + ReleasePrinter.fmt((Double) acc.get("expected")) + ", at most "
                    + ReleasePrinter.fmt((Double) acc.get("bound")) + " with probability "
                    + ReleasePrinter.fmt((Double) acc.get("probability"))
                    + (acc.get("expectedBasis") == null ? ""
                            : String.valueOf(acc.get("expectedBasis")).startsWith("release: ")
                                    ? " (expected computed from the release itself, post-processing)"
                                    : " (expected for a public " + acc.get("expectedBasis")
                                            + "; only the bound covers these data)")));
            if (m.get("accuracyRealised") instanceof Double) {
                lines.add("  realised:  " + ReleasePrinter.fmt((Double) m.get("accuracyRealised")));
            } else if (err instanceof Double) {
                lines.addAll(ReleasePrinter.wrap("  realised:  ", ReleasePrinter.fmt((Double) err) + " ("
                        + m.get("error_metric") + ")"));
            }
        } else if (err instanceof Double) {
            String expected = m.get("expected_error") instanceof Double
                    ? ", expected about " + ReleasePrinter.fmt((Double) m.get("expected_error")) : "";
            lines.addAll(ReleasePrinter.wrap("  error:     ", m.get("error_metric") + " = "
                    + ReleasePrinter.fmt((Double) err) + expected));
        }
        String when = whenToChoose((String) m.get("mechanism"));
        if (!when.isEmpty()) {
            lines.addAll(ReleasePrinter.wrap("  choose it: ", when));
        }
        if (m.get("seconds") instanceof Double) {
            // issue 29: the demo promises each mechanism's time. Its data are public synthetic data, so the time is a
            // report on the build; releases on a user's data print none (a timing is not noise-protected)
            lines.add(String.format(Locale.ROOT, "  time:      %s s (on the demo's public data; releases on your"
                    + " data report none)", ReleasePrinter.fmt((Double) m.get("seconds"))));
        }
        return lines;
    }

    /** Rounds numbers printed at full precision inside a message to 4 significant digits. */
    static String roundLongNumbers(String text) {
        java.util.regex.Matcher mt = java.util.regex.Pattern.compile("\\d+\\.\\d{5,}(E-?\\d+)?").matcher(text);
        StringBuilder sb = new StringBuilder();
        while (mt.find()) {
            mt.appendReplacement(sb, ReleasePrinter.fmt(Double.parseDouble(mt.group())));
        }
        mt.appendTail(sb);
        return sb.toString();
    }

    /** e.g. {@code eps 5.22, delta 1e-06 (zCDP rho 0.5), replace-one neighbours; certified}. */
    static String guaranteeSummary(Map<String, Object> g) {
        StringBuilder sb = new StringBuilder();
        if (g.get("epsilon") != null) {
            sb.append("eps ").append(ReleasePrinter.fmt((Double) g.get("epsilon"))).append(", delta ")
                    .append(ReleasePrinter.fmt((Double) g.get("delta")));
        }
        if (g.get("rho") != null) {
            sb.append(sb.length() > 0 ? " " : "").append("(zCDP rho ").append(ReleasePrinter.fmt((Double) g.get("rho")))
                    .append(')');
        }
        sb.append(", ").append(g.get("relation")).append(" neighbours; ")
                .append(Boolean.TRUE.equals(g.get("certified")) ? "certified" : "NOT certified");
        return sb.toString();
    }

    private Map<String, Object> clippedMean(RowBlockMatrix x, double[] mu, double[] variances, ComputeEngine engine,
            RandomSource random) {
        long t0 = System.nanoTime();
        // Public prior knowledge for the demo: the centre 0 and a radius covering the bulk of the distribution.
        double traceAndMean = 0;
        for (int j = 0; j < d; j++) {
            traceAndMean += variances[j] + mu[j] * mu[j];
        }
        double clip = 2.0 * Math.sqrt(traceAndMean);
        ClippedGaussianMean mech = ClippedGaussianMean.of(clip, new double[d], org.dpgauss.privacy.Zcdp.of(rho));
        org.dpgauss.release.PrivateRelease release = org.dpgauss.release.Releases.run(mech,
                org.dpgauss.release.Dataset.of(x), delta, org.dpgauss.release.ReleaseContext.of(engine, random));
        double[] estimate = release.vector("mean");
        double seconds = seconds(t0);
        double[] exact = x.columnMeans();
        double err = 0;
        for (int j = 0; j < d; j++) {
            err += (estimate[j] - exact[j]) * (estimate[j] - exact[j]);
        }
        PrivacyGuarantee g = release.guarantee();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "clipped mean, C=" + ReleasePrinter.fmt(clip) + " around 0");
        m.put("mechanism", release.mechanism());
        release.accuracy().ifPresent(a -> m.put("accuracy", a.toMap()));
        m.put("status", "PASS");
        m.put("guarantee", g.toMap());
        m.put("guarantee_text", g.describe());
        m.put("error_metric", "L2 distance to the non-private mean");
        m.put("error", Math.sqrt(err));
        // noise alone: sigma * sqrt(d); clipping bias is small at this radius
        m.put("expected_error", mech.sigma(x.rows()) * Math.sqrt(d));
        m.put("seconds", seconds);
        m.put("estimate", estimate);
        m.put("sensitivity", mech.sensitivity(x.rows()));
        m.put("noise_sigma", mech.sigma(x.rows()));
        return m;
    }

    /**
     * The exact privacy profile (spec ndis §2-§3, both orderings) of the Gaussian mechanism with the mean's L2
     * sensitivity and noise: outputs N(0, sigma^2 I) and N(Delta e_1, sigma^2 I) are a worst-case neighbouring
     * pair. Shown beside the zCDP conversion to make the gap between exact and converted accounting visible.
     */
    private Map<String, Object> privacyProfile(ComputeEngine engine, double sensitivity, double sigma) {
        long t0 = System.nanoTime();
        double[][] cov = new double[d][d];
        for (int j = 0; j < d; j++) {
            cov[j][j] = sigma * sigma;
        }
        double[] shifted = new double[d];
        shifted[0] = sensitivity;
        PrivacyProfile p = PrivacyProfile.of(HockeyStickDivergence.using(engine), Gaussian.of(new double[d], cov),
                Gaussian.of(shifted, cov));
        double[] eps = {0.25, 0.5, 1, 2, 4, 8};
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mechanism", "Gaussian mechanism, L2 sensitivity of the clipped mean, its noise sigma");
        m.put("sensitivity", sensitivity);
        m.put("sigma", sigma);
        m.put("epsilon", eps);
        m.put("delta", p.delta(eps));
        m.put("atDelta", delta);
        m.put("exactEpsilon", p.epsilon(delta).epsilon());
        m.put("zcdpEpsilon", org.dpgauss.privacy.ConversionPolicy.toApproxDp(Zcdp.gaussianMechanism(sensitivity, sigma),
                delta).epsilon());
        m.put("seconds", seconds(t0));
        return m;
    }

    private Map<String, Object> nonPrivateNumerics(ComputeEngine engine, RowBlockMatrix x) {
        long t0 = System.nanoTime();
        double[] mean = x.columnMeans();
        RowBlockMatrix centred = x.copy();
        for (int b = 0; b < centred.blockCount(); b++) {
            double[] blk = centred.block(b);
            for (int k = 0; k < blk.length; k++) {
                blk[k] -= mean[k % d];
            }
        }
        DMatrixRMaj cov = engine.weightedGram(centred, null, null, n - 1);
        CholeskyResult chol = engine.cholesky(cov);
        double meanNorm = Double.NaN;
        if (chol.isPositiveDefinite()) {
            double[] q = engine.mahalanobisNorms(centred, chol.lower(), null);
            double s = 0;
            for (double v : q) {
                s += v;
            }
            meanNorm = s / n;
        }
        SymmetricEigen eig = engine.symmetricEigen(cov);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", seconds(t0));
        m.put("cholesky", chol.verdict().toString());
        m.put("mean_squared_mahalanobis_norm", meanNorm);
        m.put("min_eigenvalue", eig.value(0));
        m.put("max_eigenvalue", eig.value(d - 1));
        return m;
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) * 1e-9;
    }
}
