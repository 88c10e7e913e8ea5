package org.dpgauss.cli;

import org.dpgauss.privacy.ApproxDp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.sampling.CovarianceAwareMean;
import org.dpgauss.sampling.PtrMechanism;
import org.dpgauss.sampling.SamplerParameters;
import org.dpgauss.sampling.SizeConstants;
import org.dpgauss.sampling.UnboundedGaussianSampler;

/**
 * The sampling part of {@code dpgauss demo} (called from DemoCommand): the unbounded Gaussian sampler and the
 * covariance-aware mean estimator on the demo data. Both run with <b>uncertified</b> sizes (the certified recipe
 * needs millions of rows) and their reports say so.
 */
final class DemoSampling {

    /** Demo privacy parameters: eps = 1, delta = 1e-3 (k = 85), alpha = 0.05. */
    static final double EPSILON = 1;
    static final double DELTA = 1e-3;
    static final double ALPHA = 0.05;
    /** Rows the demo gives the mean estimator. */
    static final int MEAN_ROWS = 5000;

    private DemoSampling() {
    }

    /**
     * @param x the demo data, rows from N(mu, diag(variances))
     * @param mu the true mean
     * @param variances the true (diagonal) covariance
     * @param engine the engine
     * @param random the randomness
     * @return two JSON-ready reports (name, status, guarantee, guarantee_text, error_metric, error, expected_error,
     *         seconds, certified, certified_n); the error keys are absent on FAIL
     */
    static List<Map<String, Object>> reports(RowBlockMatrix x, double[] mu, double[] variances, ComputeEngine engine,
            RandomSource random) {
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(sampler(x, mu, variances, engine, random));
        out.add(mean(x, mu, variances, engine, random));
        return out;
    }

    private static Map<String, Object> sampler(RowBlockMatrix x, double[] mu, double[] variances, ComputeEngine engine,
            RandomSource random) {
        int n = x.rows();
        int d = x.cols();
        long certifiedN = SamplerParameters.requiredRows(d, EPSILON, DELTA, ALPHA, PtrMechanism.SOUND);
        int m = SamplerParameters.referenceSize(SamplerParameters.k(PtrMechanism.SOUND, EPSILON, DELTA), n, DELTA);
        // small uncertified sizes keep the demo fast: the StableMean pass costs n1 x M distances
        int n1 = Math.min(n, Math.max(m, 1000));
        int n2 = Math.min((n - n1) / 2, 4000);
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("name", String.format(Locale.ROOT, "Gaussian sampler on %d rows (UNCERTIFIED size; certified from n = %.2g)",
                n1 + n2, (double) certifiedN));
        rep.put("certified_n", certifiedN);
        if (n2 <= d) {
            rep.put("status", "SKIPPED (n too small for the demo sizes)");
            rep.put("guarantee_text", "none");
            rep.put("seconds", 0.0);
            return rep;
        }
        long t0 = System.nanoTime();
        SamplerParameters p = SamplerParameters.withConstants(n, d, ApproxDp.of(EPSILON, DELTA), ALPHA, PtrMechanism.SOUND,
                SizeConstants.partSizes(n1, n2));
        UnboundedGaussianSampler s = UnboundedGaussianSampler.of(p);
        PrivateRelease r = Releases.run(s, Dataset.of(x), DELTA, ReleaseContext.of(engine, random));
        double seconds = (System.nanoTime() - t0) * 1e-9;
        rep.put("status", r.status().name());
        rep.put("certified", r.guarantee().certified());
        rep.put("guarantee", r.guarantee().toMap());
        rep.put("mechanism", r.mechanism());
        r.accuracy().ifPresent(a -> rep.put("accuracy", a.toMap()));
        rep.put("guarantee_text", r.guarantee().describe());
        if (r.isPass()) {
            double[] z = r.vector("sample");
            double q = 0;
            for (int j = 0; j < d; j++) {
                q += (z[j] - mu[j]) * (z[j] - mu[j]) / variances[j];
            }
            rep.put("error_metric", "Mahalanobis distance of the sample to the true mean (a draw of N(mu, Sigma))");
            rep.put("error", Math.sqrt(q));
            rep.put("expected_error", Math.sqrt(d));
            rep.put("sample", z);
        }
        rep.put("seconds", seconds);
        return rep;
    }

    private static Map<String, Object> mean(RowBlockMatrix all, double[] mu, double[] variances, ComputeEngine engine,
            RandomSource random) {
        // the first (at most) 5000 rows keep the demo fast
        RowBlockMatrix x = all.rows() <= MEAN_ROWS ? all
                : all.selectRows(java.util.stream.IntStream.range(0, MEAN_ROWS).toArray());
        int n = x.rows();
        int d = x.cols();
        Map<String, Object> rep = new LinkedHashMap<>();
        long certifiedN = CovarianceAwareMean.requiredRows(d, EPSILON, DELTA, ALPHA, Double.NaN, PtrMechanism.SOUND);
        rep.put("name", String.format(Locale.ROOT, "covariance-aware mean on %d rows (UNCERTIFIED; certified from n = %.2g)",
                n, (double) certifiedN));
        rep.put("certified_n", certifiedN);
        int m = SamplerParameters.referenceSize(SamplerParameters.k(PtrMechanism.SOUND, EPSILON, DELTA), n, DELTA);
        if (n < m) {
            rep.put("status", "SKIPPED (n below |R| = " + m + ")");
            rep.put("guarantee_text", "none");
            rep.put("seconds", 0.0);
            return rep;
        }
        long t0 = System.nanoTime();
        CovarianceAwareMean mech = CovarianceAwareMean.of(n, d, ApproxDp.of(EPSILON, DELTA), ALPHA, Double.NaN,
                PtrMechanism.SOUND, true);
        PrivateRelease r = Releases.run(mech, Dataset.of(x), DELTA, ReleaseContext.of(engine, random));
        double seconds = (System.nanoTime() - t0) * 1e-9;
        rep.put("status", r.status().name());
        rep.put("certified", r.guarantee().certified());
        rep.put("guarantee", r.guarantee().toMap());
        rep.put("mechanism", r.mechanism());
        r.accuracy().ifPresent(a -> rep.put("accuracy", a.toMap()));
        rep.put("guarantee_text", r.guarantee().describe());
        if (r.isPass()) {
            double[] est = r.vector("mean");
            double[] exact = x.columnMeans();
            double err = 0;
            double trace = 0;
            for (int j = 0; j < d; j++) {
                err += (est[j] - exact[j]) * (est[j] - exact[j]);
                trace += variances[j];
            }
            rep.put("error_metric", "L2 distance to the non-private mean");
            rep.put("error", Math.sqrt(err));
            // noise N(0, c^2 Sigma^) with Sigma^ close to Sigma: about c sqrt(tr Sigma)
            rep.put("expected_error", mech.noiseScale() * Math.sqrt(trace));
            rep.put("estimate", est);
            double maha = 0; // the stated metric: Mahalanobis distance to the true mean w.r.t. the true covariance
            for (int j = 0; j < d; j++) {
                maha += (est[j] - mu[j]) * (est[j] - mu[j]) / variances[j];
            }
            rep.put("accuracyRealised", Math.sqrt(maha));
        }
        rep.put("seconds", seconds);
        return rep;
    }
}
