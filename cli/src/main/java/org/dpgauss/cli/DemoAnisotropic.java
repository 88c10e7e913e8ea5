package org.dpgauss.cli;

import org.dpgauss.privacy.ApproxDp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.mean.anisotropic.AnisotropicMethod;
import org.dpgauss.mean.anisotropic.RescaledAveraging;
import org.dpgauss.mean.anisotropic.ShapeMatrix;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;

/**
 * The anisotropic-mean part of {@code dpgauss demo} (called from DemoCommand): Algorithm 1 of spec
 * anisotropic-mean-estimation with the known covariance ({@code M = Sigma}) and the folklore estimator
 * ({@code M = I}) on the demo data, at the epsilon that the demo's zCDP budget converts to at its delta.
 */
public final class DemoAnisotropic {

    /** Accuracy failure probability of the lambda rule. */
    public static final double BETA = 0.01;

    private DemoAnisotropic() {
    }

    /**
     * @param engine the engine for the neighbour counts
     * @param random the randomness (secure unless the demo runs with --insecure-seed)
     * @param x the demo data
     * @param variances the public diagonal covariance of the data
     * @param rho the demo's zCDP budget; the (epsilon, delta) target is its conversion at delta by the project's
     *        {@link ConversionPolicy}
     * @param delta the demo's delta
     * @return two JSON-ready reports (known covariance, folklore): name, status, guarantee, guarantee_text,
     *         error_metric, error and expected_error (FAIL: no error), seconds
     */
    public static List<Map<String, Object>> report(ComputeEngine engine, RandomSource random, RowBlockMatrix x,
            double[] variances, double rho, double delta) {
        double epsilon = ConversionPolicy.toApproxDp(Zcdp.of(rho), delta).epsilon();
        Dataset data = Dataset.of(x);
        ShapeMatrix sigma = ShapeMatrix.diagonal(variances);
        int n = x.rows();
        double[] exact = x.columnMeans();
        List<Map<String, Object>> out = new ArrayList<>();
        for (AnisotropicMethod method : AnisotropicMethod.values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            String name = method == AnisotropicMethod.ANISOTROPIC
                    ? "anisotropic mean, known covariance proxy"
                    : "folklore mean (identity covariance proxy)";
            m.put("name", name);
            if (!(epsilon < 21)) {
                m.put("status", "SKIPPED");
                m.put("guarantee_text", "not run: epsilon=" + epsilon + " (from rho) is outside (0, 21), the range of"
                        + " the provable calibration");
                m.put("seconds", 0.0);
                out.add(m);
                continue;
            }
            long t0 = System.nanoTime();
            RescaledAveraging est = method.estimator(sigma, n, BETA, ApproxDp.of(epsilon, delta));
            PrivateRelease r = Releases.run(est, data, delta, ReleaseContext.of(engine, random));
            double seconds = (System.nanoTime() - t0) * 1e-9;
            PrivacyGuarantee g = r.guarantee();
            m.put("status", r.status().name());
            m.put("guarantee", g.toMap());
            m.put("mechanism", r.mechanism());
            r.accuracy().ifPresent(a -> m.put("accuracy", a.toMap()));
            m.put("guarantee_text", g.describe());
            if (r.isPass()) {
                double[] e = r.vector("mean");
                double err = 0;
                for (int j = 0; j < e.length; j++) {
                    err += (e[j] - exact[j]) * (e[j] - exact[j]);
                }
                m.put("error_metric", "L2 distance to the non-private mean");
                m.put("error", Math.sqrt(err));
                m.put("expected_error", expectedNoise(est, method == AnisotropicMethod.ANISOTROPIC
                        ? sigma.tracePower(0.5) : x.cols(), n));
                m.put("estimate", e);
            }
            m.put("lambda", est.lambda());
            m.put("epsilon", epsilon);
            m.put("seconds", seconds);
            out.add(m);
        }
        return out;
    }

    /**
     * The typical noise norm {@code s sqrt(tr M^{1/2})} of spec §7's table, {@code s = sqrt(8 ln(1.25/delta))
     * lambda / (epsilon n^)} at the internal (epsilon, delta) and {@code n^ = n - ln(1/delta)/epsilon}.
     */
    static double expectedNoise(RescaledAveraging est, double traceMHalf, int n) {
        double e = est.internalEpsilon();
        double d = est.internalDelta();
        double nHat = Math.max(1, n - Math.log(1 / d) / e);
        return Math.sqrt(8 * Math.log(1.25 / d)) * est.lambda() / (e * nHat) * Math.sqrt(traceMHalf);
    }
}
