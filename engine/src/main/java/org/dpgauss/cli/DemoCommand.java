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
        out.printf(Locale.ROOT, "engine:     %s%n            %s%n", engine.description(), selection.reason());
        out.printf(Locale.ROOT, "randomness: %s%n", random.describe());
        out.printf(Locale.ROOT, "data:       n=%d rows, d=%d columns from N(mu=(1,..,1), Sigma=diag(0.5..2)) "
                + "(synthetic, %.3f s)%n", n, d, dataSeconds);
        out.println("mechanisms:");
        for (Map<String, Object> m : mechanisms) {
            out.printf(Locale.ROOT, "  %s [%s]%n", m.get("name"), m.get("status"));
            out.printf(Locale.ROOT, "    guarantee: %s%n", m.get("guarantee_text"));
            if (m.containsKey("expected_error")) {
                out.printf(Locale.ROOT, "    error:     %s = %.4g (expected about %.3g)%n", m.get("error_metric"),
                        (Double) m.get("error"), (Double) m.get("expected_error"));
            } else if (m.containsKey("relative_gram_error")) {
                out.printf(Locale.ROOT, "    error:     %s = %.4g%n", m.get("error_metric"),
                        (Double) m.get("relative_gram_error"));
            }
            out.printf(Locale.ROOT, "    time:      %.3f s%n", (Double) m.get("seconds"));
        }
        out.printf(Locale.ROOT, "privacy profile of the Gaussian mechanism with the mean's sensitivity %.4g and "
                + "sigma %.4g (exact NDIS, both orderings; %.3f s):%n", (Double) profile.get("sensitivity"),
                (Double) profile.get("sigma"), (Double) profile.get("seconds"));
        double[] pe = (double[]) profile.get("epsilon");
        double[] pd = (double[]) profile.get("delta");
        StringBuilder line = new StringBuilder("    epsilon -> delta:");
        for (int i = 0; i < pe.length; i++) {
            line.append(String.format(Locale.ROOT, "  %s -> %.3g", pe[i], pd[i]));
        }
        out.println(line);
        out.printf(Locale.ROOT, "    at delta=%s: exact epsilon %.4f; the zCDP conversion states %.4f%n", delta,
                (Double) profile.get("exactEpsilon"), (Double) profile.get("zcdpEpsilon"));
        out.println("    (reference curve for continuous noise; the release's discrete Gaussian noise is covered by "
                + "the zCDP guarantee above)");
        out.println("non-private numerics on the same data (engine check, nothing released):");
        out.printf(Locale.ROOT, "  Gram + Cholesky + Mahalanobis norms + eigendecomposition: %.3f s; "
                + "eigenvalues of the sample covariance in [%.4f, %.4f] (true [0.5, 2])%n",
                (Double) numerics.get("seconds"), (Double) numerics.get("min_eigenvalue"),
                (Double) numerics.get("max_eigenvalue"));
        Main.warnIfInsecure(out, random, "noise");
        return 0;
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
        m.put("name", "clipped Gaussian-mechanism mean (C=" + String.format(Locale.ROOT, "%.3g", clip) + ", centre 0)");
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
        m.put("zcdpEpsilon", Zcdp.gaussianMechanism(sensitivity, sigma).toApproxDp(delta).epsilon());
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
