package org.dpgauss.bench.stable;

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
import java.util.Map;
import org.dpgauss.bench.MachineInfo;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.sampling.stable.LargestCore;
import org.dpgauss.sampling.stable.LargestGoodSubset;
import org.dpgauss.sampling.stable.StableCov;
import org.dpgauss.sampling.stable.StableCovResult;
import org.dpgauss.sampling.stable.StableMean;
import org.dpgauss.sampling.stable.StableMeanResult;
import org.ejml.data.DMatrixRMaj;

/**
 * End-to-end timing of production StableCov / StableMean against the literal references (spec §3.2-3.5, §7)
 * at large n on the CPU engine. Usage:
 * {@code StableScaling OUTDIR N D1,D2,.. K FRAC1,FRAC2,.. LITERAL_BUDGET_SECONDS}.
 *
 * <p>For every (d, outlier fraction): X = {@link StableWorkload#rows}(N, d, frac), lambda0 = the recipe
 * value of spec §2.1 at alpha = 0.05. StableCov runs on X (m = N/2 pairs); StableMean runs on X with
 * Sigma-hat from that StableCov and a reference set of M = 6k + ceil(18 ln(16N/delta)) rows, delta = 1e-6.
 * Production StableCov is timed twice (the faster run is quoted, both are recorded), production StableMean
 * once; a small warm-up configuration runs first so the JIT has compiled the hot loops. The literal references run
 * their 2k+1 thresholds independently, so each threshold is timed separately; thresholds are timed in an
 * evenly spread order until the budget is spent, and the total is extrapolated as
 * (mean seconds per timed threshold) x (2k+1), flagged {@code "extrapolated": true} when not every
 * threshold ran. For every timed threshold the literal set size is checked against the production one.
 */
public final class StableScaling {

    private StableScaling() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        int[] ds = Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray();
        int k = Integer.parseInt(args[3]);
        double[] fracs = Arrays.stream(args[4].split(",")).mapToDouble(Double::parseDouble).toArray();
        double budget = Double.parseDouble(args[5]);
        Files.createDirectories(out);
        ComputeEngine engine = CpuEngine.instance();
        warmUp(engine, k);
        double delta = 1e-6;
        int refSize = 6 * k + (int) Math.ceil(18 * Math.log(16.0 * n / delta));
        List<Map<String, Object>> runs = new ArrayList<>();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("what", "production vs literal StableCov and StableMean (spec unbounded-gaussian-sampling §3.2-3.5, §7)");
        doc.put("machine", MachineInfo.describe());
        doc.put("engine", engine.description());
        doc.put("command", System.getProperty("stable.command", "StableScaling " + String.join(" ", args)));
        doc.put("date", Instant.now().toString());
        doc.put("n", n);
        doc.put("k", k);
        doc.put("referenceSize", refSize);
        doc.put("literalBudgetSecondsPerAlgorithm", budget);
        doc.put("runs", runs);
        for (int d : ds) {
            for (double frac : fracs) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("d", d);
                r.put("outlierFraction", frac);
                RowBlockMatrix x = StableWorkload.rows(n, d, frac, 20_261_121L + d);
                double lambda0 = StableWorkload.lambda0(n, d);
                r.put("lambda0", lambda0);
                StableCov sc = StableCov.of(lambda0, k);
                RowBlockMatrix y = StableCov.pairs(x);
                // --- StableCov production
                double[] covProd = new double[2];
                StableCovResult cov = null;
                for (int rep = 0; rep < 2; rep++) {
                    long t0 = System.nanoTime();
                    cov = sc.applyToPairs(y, engine);
                    covProd[rep] = (System.nanoTime() - t0) * 1e-9;
                }
                r.put("stableCovScore", cov.score());
                r.put("stableCovProductionSeconds", covProd);
                r.put("stableCovProductionStats", cov.stats().toString());
                // --- StableCov literal, threshold by threshold
                double[] lambdas = sc.thresholds();
                int[] prodSizes = cov.setSizes();
                Map<String, Object> lit = timeLiteral(2 * k + 1, budget, 3, l -> {
                    GoodSubset g = LargestGoodSubset.literal(y, lambdas[l], engine);
                    return prodSizes[l] < 0 || prodSizes[l] == g.size();
                });
                r.put("stableCovLiteral", lit);
                double covLit = (double) lit.get("estimatedTotalSeconds");
                r.put("stableCovRatio", covLit / Math.min(covProd[0], covProd[1]));
                // --- StableMean production
                DMatrixRMaj sigma = cov.sigmaHat();
                int[] ref = StableWorkload.reference(n, refSize, 7L + d);
                StableMean sm = StableMean.of(lambda0, k);
                double[] meanProd = new double[1];
                StableMeanResult mean = null;
                for (int rep = 0; rep < meanProd.length; rep++) {
                    long t0 = System.nanoTime();
                    mean = sm.apply(x, sigma, ref, engine);
                    meanProd[rep] = (System.nanoTime() - t0) * 1e-9;
                }
                r.put("stableMeanScore", mean.score());
                r.put("stableMeanProductionSeconds", meanProd);
                int[] meanSizes = mean.setSizes();
                // each literal StableMean threshold costs the same (all n x |R| distances), so two suffice
                Map<String, Object> litMean = timeLiteral(2 * k + 1, budget, 2, l -> {
                    boolean[] s = LargestCore.literal(x, sigma, lambdas[l], refSize - l, ref, engine);
                    int c = 0;
                    for (boolean b : s) {
                        c += b ? 1 : 0;
                    }
                    return c == meanSizes[l];
                });
                r.put("stableMeanLiteral", litMean);
                double meanLit = (double) litMean.get("estimatedTotalSeconds");
                r.put("stableMeanRatio", meanLit / meanProd[0]);
                runs.add(r);
                System.out.printf(java.util.Locale.ROOT,
                        "d=%d outliers=%.2f: StableCov prod %.2fs literal %s%.1fs (x%.0f, score %d) | "
                                + "StableMean prod %.2fs literal %s%.1fs (x%.0f, score %d)%n",
                        d, frac, Math.min(covProd[0], covProd[1]), (boolean) lit.get("extrapolated") ? "~" : "", covLit,
                        covLit / Math.min(covProd[0], covProd[1]), cov.score(), meanProd[0],
                        (boolean) litMean.get("extrapolated") ? "~" : "", meanLit,
                        meanLit / meanProd[0], mean.score());
                ObjectMapper om = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
                om.writeValue(out.resolve("stable-scaling.json").toFile(), doc);
            }
        }
    }

    /** JIT warm-up on a small input (results discarded). */
    static void warmUp(ComputeEngine engine, int k) {
        RowBlockMatrix x = StableWorkload.rows(4000, 10, 0.02, 1);
        StableCov sc = StableCov.of(StableWorkload.lambda0(4000, 10), k);
        for (int rep = 0; rep < 3; rep++) {
            StableCovResult c = sc.apply(x, engine);
            sc.applyLiteral(x, engine);
            int[] ref = StableWorkload.reference(4000, Math.min(4000, 6 * k + 50), 2);
            StableMean sm = StableMean.of(StableWorkload.lambda0(4000, 10), k);
            sm.apply(x, c.sigmaHat(), ref, engine);
            sm.applyLiteral(x, c.sigmaHat(), ref, engine);
        }
    }

    interface ThresholdRun {
        /** Runs the literal algorithm at threshold l; returns whether its set size matches production's. */
        boolean run(int l);
    }

    /** Times thresholds in a spread order (2k, 0, k, then bisection) until the budget is spent. */
    static Map<String, Object> timeLiteral(int count, double budget, int minTimed, ThresholdRun run) {
        List<Integer> order = spreadOrder(count);
        List<Integer> timed = new ArrayList<>();
        List<Double> secs = new ArrayList<>();
        boolean allMatch = true;
        double spent = 0;
        for (int l : order) {
            long t0 = System.nanoTime();
            allMatch &= run.run(l);
            double s = (System.nanoTime() - t0) * 1e-9;
            timed.add(l);
            secs.add(s);
            spent += s;
            if (spent > budget && timed.size() >= minTimed) {
                break;
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("thresholdsTimed", timed);
        m.put("secondsPerThreshold", secs);
        m.put("timedSeconds", spent);
        m.put("extrapolated", timed.size() < count);
        m.put("estimatedTotalSeconds", spent / timed.size() * count);
        m.put("setSizesMatchProduction", allMatch);
        return m;
    }

    static List<Integer> spreadOrder(int count) {
        List<Integer> order = new ArrayList<>();
        boolean[] used = new boolean[count];
        int step = count;
        while (order.size() < count) {
            for (int l = count - 1; l >= 0; l -= Math.max(1, step)) {
                if (!used[l]) {
                    used[l] = true;
                    order.add(l);
                }
            }
            if (!used[0]) {
                used[0] = true;
                order.add(0);
            }
            step = Math.max(1, step / 2);
        }
        return order;
    }
}
