package org.dpgauss.bench.anisotropic;

import org.dpgauss.privacy.ApproxDp;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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
import java.util.SplittableRandom;
import org.dpgauss.bench.MachineInfo;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.mean.anisotropic.RescaledAveraging;
import org.dpgauss.mean.anisotropic.ShapeMatrix;
import org.dpgauss.mean.anisotropic.TopVar;
import org.dpgauss.mean.anisotropic.UnknownCovarianceMean;
import org.dpgauss.privacy.RandomSource;

/**
 * Spec anisotropic-mean-estimation §9 A9: Algorithm 2 with the TopVar threshold HIGH (64 R^, the sound default)
 * against PAPER (R^/8), where Algorithm 2 selects top coordinates at all ({@code k >= 1}): small d, large N and
 * epsilon (at the sizes of {@link AnisotropicComparison} the constraint rule gives k = 0, so both thresholds run the
 * same spherical path). Spectra: poly2 and exp (largest variances first in TopVar's index-order scan) and poly2rev
 * (largest last, the order of the §9 A9 gap); system property {@code topvar.spectra} selects them. Same data and
 * noise seeds for both thresholds; the known-covariance Algorithm 1 on the same
 * data as a reference. SIMULATION randomness (Philox data keys, insecure seeded noise).
 *
 * <p>Usage: {@code TopVarThresholdComparison OUTFILE [runs]}; {@code -Danisotropic.maxEngineRows} (default 200000)
 * refuses exact neighbour counts on more rows (when the all-pass shortcut of {@link CachingCountsEngine} does not
 * apply); such releases are recorded as skipped.
 */
public final class TopVarThresholdComparison {

    static final double DELTA = 1e-6;
    static final double BETA = 0.01;

    private TopVarThresholdComparison() {
    }

    /** poly2 / exp as in {@link AnisotropicComparison}; poly2rev = poly2 in reverse index order (largest last). */
    static double[] spectrum(String id, int d) {
        if (!id.equals("poly2rev")) {
            return AnisotropicComparison.spectrum(id, d);
        }
        double[] f = AnisotropicComparison.spectrum("poly2", d);
        double[] v = new double[d];
        for (int i = 0; i < d; i++) {
            v[i] = f[d - 1 - i];
        }
        return v;
    }

    public static void main(String[] args) throws IOException {
        if (System.getProperty("anisotropic.maxEngineRows") == null) {
            System.setProperty("anisotropic.maxEngineRows", "200000");
        }
        Path out = Path.of(args[0]);
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        CachingCountsEngine engine = new CachingCountsEngine(CpuEngine.instance());
        List<Map<String, Object>> cells = new ArrayList<>();
        int[] ns = {100_000, 1_000_000};
        double[] epss = {1, 4, 8};
        for (String spectrum : System.getProperty("topvar.spectra", "poly2,exp,poly2rev").split(",")) {
            for (int n : ns) {
                int d = 10;
                double[] v = spectrum(spectrum, d);
                SplittableRandom mr = new SplittableRandom(0x70B + n + d);
                double[] mu = new double[d];
                for (int j = 0; j < d; j++) {
                    mu[j] = -1000 + 2000 * mr.nextDouble();
                }
                for (double eps : epss) {
                    Map<String, Object> cell = new LinkedHashMap<>();
                    cell.put("spectrum", spectrum);
                    cell.put("n", n);
                    cell.put("d", d);
                    cell.put("epsilon", eps);
                    UnknownCovarianceMean high;
                    UnknownCovarianceMean paper;
                    try {
                        high = UnknownCovarianceMean.of(n, d, ApproxDp.of(eps, DELTA), BETA, TopVar.Threshold.HIGH);
                        paper = UnknownCovarianceMean.of(n, d, ApproxDp.of(eps, DELTA), BETA, TopVar.Threshold.PAPER);
                    } catch (IllegalArgumentException e) {
                        cell.put("refused", e.getMessage());
                        cells.add(cell);
                        continue;
                    }
                    cell.put("k", high.k());
                    RescaledAveraging known = RescaledAveraging.knownCovariance(ShapeMatrix.diagonal(v), n, BETA, ApproxDp.of(eps, DELTA));
                    Double[][] err = new Double[3][runs];
                    for (int r = 0; r < runs; r++) {
                        RowBlockMatrix x = SyntheticData.gaussian(n, d, mu, v, 0x70B0000L + 1000L * n + r);
                        engine.clear();
                        Object[] ests = {high, paper, known};
                        for (int m = 0; m < 3; m++) {
                            RandomSource rnd = RandomSource.insecureSeeded(0x70B + 17L * r + (long) (eps * 1000)
                                    + (m == 2 ? 1 : 0)); // HIGH and PAPER share the noise stream
                            try {
                                double[] res = AnisotropicComparison.release(ests[m], x, engine, rnd);
                                err[m][r] = res == null ? null : AnisotropicComparison.dist(res, mu);
                            } catch (IllegalStateException e) {
                                cell.put("skipped", e.getMessage());
                            }
                        }
                    }
                    cell.put("alg2-high", AnisotropicComparison.stats(err[0]));
                    cell.put("alg2-paper", AnisotropicComparison.stats(err[1]));
                    cell.put("known", AnisotropicComparison.stats(err[2]));
                    System.out.printf(Locale.ROOT, "%s n=%d d=%d eps=%s k=%d: median HIGH %s PAPER %s known %s%n",
                            spectrum, n, d, eps, high.k(), AnisotropicComparison.median(err[0]),
                            AnisotropicComparison.median(err[1]), AnisotropicComparison.median(err[2]));
                    cells.add(cell);
                }
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("description", "Spec §9 A9: Algorithm 2 (unknown diagonal covariance) with TopVar threshold HIGH "
                + "(64 R^, default) vs PAPER (R^/8), d = 10, sigma_i^2 = i^-2 (poly2), max(e^-i, 1e-12) (exp) or "
                + "(d+1-i)^-2 (poly2rev: the largest variance last in TopVar's scan order), delta = 1e-6, "
                + "beta = 0.01, same data and noise seeds for both; known-covariance Algorithm 1 as reference. "
                + "SIMULATION randomness (seeded), not private releases.");
        json.put("command", System.getProperty("topvar.command", "TopVarThresholdComparison " + String.join(" ", args)));
        json.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        json.put("machine", MachineInfo.describe());
        json.put("runs", runs);
        json.put("cells", cells);
        json.put("countCache", Map.of("allPassShortcut", engine.shortcuts(), "engineComputed",
                engine.misses() - engine.shortcuts(), "reused", engine.hits()));
        Files.createDirectories(out.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), json);
    }
}
