package org.dpgauss.bench.secondmoment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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
import org.dpgauss.bench.MachineInfo;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.secondmoment.SecondMomentMethod;
import org.dpgauss.secondmoment.SecondMomentMethods;
import org.dpgauss.secondmoment.SecondMomentParams;
import org.dpgauss.secondmoment.SpectralMetrics;
import org.dpgauss.secondmoment.SubsampleAndAggregate;
import org.ejml.data.DMatrixRMaj;

/**
 * Issue 6 item 6: every registered private second-moment method ({@link SecondMomentMethods}: Algorithm 1's
 * pipeline and the spec §8 baselines) on the two {@link ComparisonInputs}, n = 100000, d in {20, 100},
 * rho in {0.1, 0.5, 1}, 20 runs each: the relative spectral error ||Sigma^-1/2 Sigma~ Sigma^-1/2 - I|| (mean,
 * median, 10/90 % quantiles, FAIL count), the one-sided sandwich values, the Mahalanobis-Frobenius error and the
 * wall time, with each method's spec prediction ({@link ComparisonPredictions}) beside it. Writes
 * {@code second-moment.json} and {@code second-moment.png}.
 *
 * <p>Public side information, the same for every method: R = the dataset's largest row norm (public oracle,
 * spec §5), lambda_min = lambda_min(Sigma) (public oracle for Algorithm 1's normalisation), delta = 1e-6 for the
 * (epsilon, delta) statements, alpha = 1/2, xi = 0.1, m = Algorithm 1's default
 * ({@link SecondMomentParams#DEFAULT_M_PER_DIMENSION} d); Algorithm 3 uses groups of
 * {@value #SA_GROUP_SIZE_PER_DIMENSION} d rows, runs uncertified (its privacy condition needs n ~ 1e12 here) at the
 * (epsilon, delta) that rho-zCDP implies. Noise comes from {@link RandomSource#insecureSeeded} with a fixed seed per
 * (input, d, rho, method, run), so the run is reproducible and is NOT a private release.
 *
 * <p>Usage: {@code SecondMomentComparison [--out DIR] [--n N] [--dims 20,100] [--rhos 0.1,0.5,1] [--runs 20]
 * [--inputs gaussian,heavy-tailed] [--methods recursive,analyze-gauss,...]} (default: every registered method;
 * {@code recursive[m=d/4,tight]} and the like are {@link MethodVariant}s with other public parameters, seeded like
 * their base method; {@link MergeVariants} merges such a run into a committed JSON);
 * {@code -Dsecondmoment.command} records the command, {@code -Ddpgauss.engine} picks the engine (default cpu).
 */
public final class SecondMomentComparison {

    static final int SA_GROUP_SIZE_PER_DIMENSION = 20;
    static final double DELTA = 1e-6;
    static final double XI = 0.1;
    static final double ALPHA = 0.5;

    private SecondMomentComparison() {
    }

    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Map<String, String> opt = parse(args);
        Path outdir = Path.of(opt.getOrDefault("out", "bench/results/second-moment"));
        int n = Integer.parseInt(opt.getOrDefault("n", "100000"));
        int[] dims = Arrays.stream(opt.getOrDefault("dims", "20,100").split(",")).mapToInt(Integer::parseInt).toArray();
        double[] rhos = Arrays.stream(opt.getOrDefault("rhos", "0.1,0.5,1").split(","))
                .mapToDouble(Double::parseDouble).toArray();
        int runs = Integer.parseInt(opt.getOrDefault("runs", "20"));
        String[] inputs = opt.getOrDefault("inputs", ComparisonInputs.GAUSSIAN + "," + ComparisonInputs.HEAVY_TAILED)
                .split(",");
        String[] methods = opt.containsKey("methods") ? MethodVariant.splitList(opt.get("methods"))
                : SecondMomentMethods.all().keySet().toArray(new String[0]);
        MethodVariant[] variants = new MethodVariant[methods.length];
        for (int mi = 0; mi < methods.length; mi++) {
            variants[mi] = MethodVariant.parse(methods[mi]); // validates every label before the long run starts
        }
        Files.createDirectories(outdir);
        EngineSelection sel = ComputeEngines.select(EngineChoice.valueOf(
                System.getProperty("dpgauss.engine", "cpu").toUpperCase(Locale.ROOT)));
        ComputeEngine engine = sel.engine();
        long t0 = System.nanoTime();
        System.out.printf(Locale.ROOT, "second-moment comparison: n=%d d=%s rho=%s runs=%d methods=%s engine=%s%n", n,
                Arrays.toString(dims), Arrays.toString(rhos), runs, String.join(",", methods), engine.description());

        List<Map<String, Object>> cells = new ArrayList<>();
        List<Map<String, Object>> datasets = new ArrayList<>();
        for (int di = 0; di < dims.length; di++) {
            int d = dims[di];
            for (int ii = 0; ii < inputs.length; ii++) {
                String input = inputs[ii];
                // the canonical index (not the position in --inputs): a subset run draws the same data and noise
                int inputKey = ComparisonInputs.index(input);
                RowBlockMatrix x = ComparisonInputs.generate(input, n, d, 20261121L + 1000L * d + inputKey);
                DMatrixRMaj sigma = SpectralMetrics.secondMoment(x, engine);
                double[] eig = SpectralMetrics.eigenvalues(sigma);
                double lambdaMin = eig[0];
                double radius = maxNorm(x);
                int m = SecondMomentParams.DEFAULT_M_PER_DIMENSION * d;
                DMatrixRMaj sigmaEff = effectiveSecondMoment(x, sigma, m, engine);
                Map<String, Object> ds = new LinkedHashMap<>();
                ds.put("input", input);
                ds.put("d", d);
                ds.put("description", ComparisonInputs.describe(input));
                ds.put("radius", radius);
                ds.put("lambdaMin", lambdaMin);
                ds.put("lambdaMax", eig[eig.length - 1]);
                ds.put("conditionNumber", eig[eig.length - 1] / lambdaMin);
                ds.put("normalisedKappa", radius * radius / lambdaMin);
                ds.put("m", m);
                ds.put("tailFraction", tailFraction(x, sigma, m, engine));
                datasets.add(ds);
                System.out.printf(Locale.ROOT, "%n[%s d=%d] R=%.4g lambda_min=%.4g lambda_max=%.4g cond=%.3g"
                        + " R^2/lambda_min=%.3g P_tail(m=%d)=%.4f%n", input, d, radius, lambdaMin,
                        eig[eig.length - 1], eig[eig.length - 1] / lambdaMin, radius * radius / lambdaMin,
                        m, (Double) ds.get("tailFraction"));
                for (int ri = 0; ri < rhos.length; ri++) {
                    double rho = rhos[ri];
                    for (int mi = 0; mi < methods.length; mi++) {
                        MethodVariant v = variants[mi];
                        SecondMomentParams params = v.apply(SecondMomentParams.builder().budget(Zcdp.of(rho))
                                .radius(radius).delta(DELTA)
                                .alpha(ALPHA).xi(XI).minEigenvalue(lambdaMin)
                                .extra(SubsampleAndAggregate.EXTRA_GROUP_SIZE, SA_GROUP_SIZE_PER_DIMENSION * d)
                                .extra(SubsampleAndAggregate.EXTRA_UNCERTIFIED, 1), d).build();
                        // seed by the base method's registry position: a variant replays its base method's noise
                        // seeds, and a --methods subset reproduces the full run's rows
                        Map<String, Object> cell = runCell(v, params, x, sigma, sigmaEff, lambdaMin, runs,
                                seed(inputKey, d, ri, v.baseIndex()), engine);
                        cell.put("input", input);
                        cell.put("d", d);
                        cell.put("rho", rho);
                        cell.put("epsilonAtDelta", params.equivalentEpsilon());
                        cells.add(cell);
                        @SuppressWarnings("unchecked")
                        Map<String, Object> err = (Map<String, Object>) cell.get("relativeSpectralError");
                        @SuppressWarnings("unchecked")
                        Map<String, Object> pred = (Map<String, Object>) cell.get("prediction");
                        System.out.printf(Locale.ROOT, "  rho=%-4s %-20s rel.err mean=%-10s median=%-10s fails=%d/%d"
                                + "  predicted=%-10s  %.2f s/run%n", rho, methods[mi], fmt(err.get("mean")),
                                fmt(err.get("median")), (Integer) cell.get("fails"), runs, fmt(pred.get("value")),
                                (Double) cell.get("secondsPerRun"));
                    }
                }
            }
        }

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("description", "Issue 6 item 6: relative spectral error ||Sigma^-1/2 Sigma~ Sigma^-1/2 - I||_2 of the"
                + " private second-moment methods, averaged over runs, with the spec's predictions beside it");
        json.put("insecure", true);
        json.put("randomness", "RandomSource.insecureSeeded (fixed seed per input, d, rho, method and run) for"
                + " reproducibility: NOT a private release; data from fixed simulation keys");
        json.put("n", n);
        json.put("dims", dims);
        json.put("rhos", rhos);
        json.put("runs", runs);
        json.put("methods", methods);
        Map<String, Object> side = new LinkedHashMap<>();
        side.put("radius", "public oracle: the dataset's largest row norm (spec §5)");
        side.put("lambdaMin", "public oracle: lambda_min(Sigma), for Algorithm 1's normalisation (spec §2.4)");
        side.put("delta", DELTA);
        side.put("alpha", ALPHA);
        side.put("xi", XI);
        side.put("m", SecondMomentParams.DEFAULT_M_PER_DIMENSION + "d (SecondMomentParams default) for Algorithm 1;"
                + " Sigma_eff and P_tail use the same m");
        side.put("subsampleAggregate", SA_GROUP_SIZE_PER_DIMENSION + "d rows per group, uncertified (n is far below"
                + " Thm A.6's privacy condition), run at the (epsilon, delta) rho-zCDP implies (tight conversion)");
        side.put("coinpress", "t=4, split [1/12 x3, 3/4], prior u = R^2");
        side.put("analyzeGauss", "tight sensitivity sqrt(2) R^2/n");
        json.put("sideInformation", side);
        json.put("metrics", "relativeSpectralError = max|mu-1|, mu = GenEig(Sigma~, Sigma); muMinVsSigmaEff = min"
                + " GenEig(Sigma~, Sigma_eff) (Thm 3.3's lower side; Sigma_eff drops P_tail = {x: x^T Sigma^-1 x >"
                + " m(1+alpha)}); muMaxVsSigma = max GenEig(Sigma~, Sigma) (upper side); mahalanobisFrobenius ="
                + " ||Sigma^-1/2 Sigma~ Sigma^-1/2 - I||_F. Statistics over PASS runs; FAIL runs are counted.");
        json.put("datasets", datasets);
        json.put("results", cells);
        json.put("engine", engine.description());
        json.put("seconds", (System.nanoTime() - t0) * 1e-9);
        json.put("machine", MachineInfo.describe());
        json.put("machineNote", "shared machine (other jobs running), run under nice: absolute times are noisy;"
                + " compare times within this run");
        json.put("command", System.getProperty("secondmoment.command",
                "java -cp <classpath> org.dpgauss.bench.secondmoment.SecondMomentComparison " + String.join(" ", args)));
        json.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        Path jsonFile = outdir.resolve("second-moment.json");
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(jsonFile.toFile(), json);
        ComparisonChart.write(cells, dims, inputs, methods, rhos, n, runs, outdir.resolve("second-moment.png").toFile());
        System.out.printf(Locale.ROOT, "%ntotal %.1f s; wrote %s and second-moment.png%n",
                (System.nanoTime() - t0) * 1e-9, jsonFile);
    }

    static Map<String, Object> runCell(MethodVariant variant, SecondMomentParams params, RowBlockMatrix x,
            DMatrixRMaj sigma, DMatrixRMaj sigmaEff, double lambdaMin, int runs, long seed, ComputeEngine engine) {
        String method = variant.base();
        SecondMomentMethod mech = SecondMomentMethods.create(method, params);
        double[] rel = new double[runs];
        double[] frob = new double[runs];
        double[] muMinEff = new double[runs];
        double[] muMax = new double[runs];
        int pass = 0;
        double seconds = 0;
        Map<String, Object> publicParams = null;
        String guarantee = null;
        Dataset data = Dataset.of(x);
        for (int r = 0; r < runs; r++) {
            long t = System.nanoTime();
            // the one release path; the seeded noise makes every release uncertified (reproducible benchmark)
            PrivateRelease e = Releases.run(mech, data, params.delta(),
                    ReleaseContext.of(engine, RandomSource.insecureSeeded(seed + r)));
            seconds += (System.nanoTime() - t) * 1e-9;
            if (!e.isPass()) {
                continue;
            }
            DMatrixRMaj s = new DMatrixRMaj(e.matrix("secondMoment"));
            double[] mu = SpectralMetrics.generalizedEigenvalues(s, sigma);
            double[] muEff = SpectralMetrics.generalizedEigenvalues(s, sigmaEff);
            rel[pass] = Math.max(Math.abs(mu[0] - 1), Math.abs(mu[mu.length - 1] - 1));
            double f = 0;
            for (double v : mu) {
                f += (v - 1) * (v - 1);
            }
            frob[pass] = Math.sqrt(f);
            muMinEff[pass] = muEff[0];
            muMax[pass] = mu[mu.length - 1];
            pass++;
            if (publicParams == null) {
                publicParams = e.parameters().toMap();
                guarantee = e.guarantee().describe();
            }
        }
        Map<String, Object> cell = new LinkedHashMap<>();
        cell.put("method", variant.label());
        if (variant.isVariant()) {
            cell.put("variant", variant.describe(x.cols()));
        }
        cell.put("runs", runs);
        cell.put("fails", runs - pass);
        cell.put("relativeSpectralError", stats(Arrays.copyOf(rel, pass)));
        cell.put("mahalanobisFrobenius", stats(Arrays.copyOf(frob, pass)));
        cell.put("muMinVsSigmaEff", stats(Arrays.copyOf(muMinEff, pass)));
        cell.put("muMaxVsSigma", stats(Arrays.copyOf(muMax, pass)));
        cell.put("rawRelativeSpectralError", Arrays.copyOf(rel, pass));
        cell.put("secondsPerRun", seconds / runs);
        cell.put("guarantee", guarantee);
        cell.put("certifiedIfSecureNoise", method.equals(SubsampleAndAggregate.NAME) ? Boolean.FALSE : Boolean.TRUE);
        cell.put("publicParameters", publicParams);
        int n = x.rows();
        int d = x.cols();
        cell.put("prediction", ComparisonPredictions.predict(method, publicParams, n, d, params.rho(), XI, lambdaMin));
        if (variant.voidsAccuracyBound(d)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> pred = (Map<String, Object>) cell.get("prediction");
            pred.put("inProvenRegime", false);
            pred.put("standing", "NOT a bound: m=" + params.m(d) + " < d=" + d + " gives up Thm 3.3's hypothesis"
                    + " (m-subsamplability needs m >= d for Gaussian-like data), so the paper's accuracy guarantee does"
                    + " not apply; the value is only the leaf-noise level. Privacy (rho-zCDP) is unaffected.");
        }
        return cell;
    }

    /** Sigma_eff (Def 3.2): (1/n) sum over rows outside P_tail = {x : x^T Sigma^-1 x > m (1 + alpha)}. */
    static DMatrixRMaj effectiveSecondMoment(RowBlockMatrix x, DMatrixRMaj sigma, int m, ComputeEngine engine) {
        double[] lev = engine.mahalanobisNorms(x, engine.cholesky(sigma).lower(), null);
        double[] w = new double[lev.length];
        for (int i = 0; i < lev.length; i++) {
            w[i] = lev[i] > m * (1 + ALPHA) ? 0 : 1;
        }
        return engine.weightedGram(x, null, w, x.rows());
    }

    static double tailFraction(RowBlockMatrix x, DMatrixRMaj sigma, int m, ComputeEngine engine) {
        double[] lev = engine.mahalanobisNorms(x, engine.cholesky(sigma).lower(), null);
        int c = 0;
        for (double v : lev) {
            if (v > m * (1 + ALPHA)) {
                c++;
            }
        }
        return c / (double) lev.length;
    }

    static Map<String, Object> stats(double[] v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", v.length);
        if (v.length == 0) {
            m.put("mean", null);
            m.put("median", null);
            return m;
        }
        double[] s = v.clone();
        Arrays.sort(s);
        double sum = 0;
        for (double a : s) {
            sum += a;
        }
        m.put("mean", sum / s.length);
        m.put("median", quantile(s, 0.5));
        m.put("q10", quantile(s, 0.1));
        m.put("q90", quantile(s, 0.9));
        m.put("min", s[0]);
        m.put("max", s[s.length - 1]);
        return m;
    }

    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    static double maxNorm(RowBlockMatrix x) {
        double best = 0;
        double[] row = new double[x.cols()];
        for (int i = 0; i < x.rows(); i++) {
            x.copyRow(i, row, 0);
            double s = 0;
            for (double v : row) {
                s += v * v;
            }
            best = Math.max(best, s);
        }
        return Math.sqrt(best);
    }

    static long seed(int input, int d, int rhoIndex, int methodIndex) {
        return 1_000_000_007L * (input + 1) + 10_007L * d + 1_009L * rhoIndex + 101L * methodIndex * 1000;
    }

    static String fmt(Object v) {
        return v instanceof Number ? String.format(Locale.ROOT, "%.4g", ((Number) v).doubleValue()) : "n/a";
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value pairs, got '" + a + "'");
            }
            m.put(a.substring(2), args[++i]);
        }
        return m;
    }
}
