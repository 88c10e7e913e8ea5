package org.dpgauss.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.secondmoment.SecondMomentMethods;
import org.dpgauss.secondmoment.SecondMomentParams;
import org.dpgauss.secondmoment.SpectralMetrics;
import org.ejml.data.DMatrixRMaj;

/**
 * The second-moment part of {@code dpgauss demo} (called from DemoCommand): every registered second-moment method
 * ({@link SecondMomentMethods#all()}, so baselines appear as they are registered) on two datasets, each reported
 * with its guarantee and its relative spectral error {@code ||S^-1/2 S~ S^-1/2 - I||_2} against the non-private
 * second moment S.
 *
 * <ul>
 *   <li>the demo's N(1, diag(0.5..2)) rows (well conditioned: the recursion has a single level, i.e. one-shot
 *       Gaussian noise); public prior knowledge: lambda_min(E[x x^T]) >= 0.5, used as 0.4, and a clipping radius
 *       R = 2 sqrt(E||x||^2);</li>
 *   <li>N(0, diag(geometric 1 .. 1e-4)) rows (condition number 1e4, several levels); public prior knowledge:
 *       lambda_min >= 1e-4, used as 0.5e-4, and R = 3 sqrt(trace).</li>
 * </ul>
 * Every method runs through the one release path ({@code Releases.run}). A method that refuses the parameters (for
 * example a baseline whose certified constants need more rows) is reported with status SKIPPED and the reason; a FAIL
 * release is reported as FAIL with nothing else. The demo's data are synthetic: its errors against the non-private
 * value and its timings are a report on the build, not releases.
 */
public final class DemoSecondMoment {

    private DemoSecondMoment() {
    }

    /**
     * @param engine the compute engine
     * @param random the randomness (secure unless the demo runs with --insecure-seed)
     * @param x the demo's N(mu, diag(variances)) data
     * @param mu the demo's mean
     * @param variances the demo's variances
     * @param rho zCDP budget of each method
     * @param delta delta of the (epsilon, delta) statements
     * @return one JSON-ready report per (dataset, method)
     */
    public static List<Map<String, Object>> reports(ComputeEngine engine, RandomSource random, RowBlockMatrix x,
            double[] mu, double[] variances, double rho, double delta) {
        int n = x.rows();
        int d = x.cols();
        List<Map<String, Object>> out = new ArrayList<>();
        double meanSq = 0;
        double minVar = Double.POSITIVE_INFINITY;
        for (int j = 0; j < d; j++) {
            meanSq += variances[j] + mu[j] * mu[j];
            minVar = Math.min(minVar, variances[j]);
        }
        SecondMomentParams wellConditioned = SecondMomentParams.builder().budget(Zcdp.of(rho))
                .radius(2 * Math.sqrt(meanSq)).delta(delta)
                .minEigenvalue(0.8 * minVar).build();
        runAll(out, "N(1, diag(0.5..2))", x, wellConditioned, engine, random);

        double[] geometric = new double[d];
        double trace = 0;
        for (int j = 0; j < d; j++) {
            geometric[j] = d == 1 ? 1.0 : Math.pow(1e-4, j / (double) (d - 1));
            trace += geometric[j];
        }
        RowBlockMatrix y = SyntheticData.gaussian(n, d, new double[d], geometric, 20261122L);
        SecondMomentParams badlyConditioned = SecondMomentParams.builder().budget(Zcdp.of(rho))
                .radius(3 * Math.sqrt(trace)).delta(delta)
                .minEigenvalue(0.5 * geometric[d - 1]).build();
        runAll(out, "N(0, diag(1..1e-4))", y, badlyConditioned, engine, random);
        return out;
    }

    private static void runAll(List<Map<String, Object>> out, String dataName, RowBlockMatrix x,
            SecondMomentParams params, ComputeEngine engine, RandomSource random) {
        DMatrixRMaj truth = SpectralMetrics.secondMoment(x, engine);
        for (SecondMomentMethods.Entry e : SecondMomentMethods.all().values()) {
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("name", "second moment, " + e.name() + ", " + dataName + ", R="
                    + ReleasePrinter.fmt(params.radius()));
            long t0 = System.nanoTime();
            PrivateRelease est;
            try {
                est = Releases.run(e.factory().create(params), Dataset.of(x), params.delta(),
                        ReleaseContext.of(engine, random));
            } catch (IllegalArgumentException ex) { // public parameters refused before the data were read
                rep.put("status", "SKIPPED");
                rep.put("guarantee_text", "not run: " + ex.getMessage());
                rep.put("seconds", (System.nanoTime() - t0) * 1e-9);
                out.add(rep);
                continue;
            }
            double seconds = (System.nanoTime() - t0) * 1e-9;
            if (!est.isPass()) {
                rep.put("status", "FAIL");
                rep.put("guarantee_text", "FAIL (nothing released)");
                rep.put("seconds", seconds);
                out.add(rep);
                continue;
            }
            DMatrixRMaj matrix = new DMatrixRMaj(est.matrix("secondMoment"));
            double err = SpectralMetrics.relativeSpectralError(truth, matrix);
            rep.put("status", "PASS");
            rep.put("method", e.name());
            rep.put("mechanism", est.mechanism());
            rep.put("data", dataName);
            rep.put("guarantee", est.guarantee().toMap());
            est.accuracy().ifPresent(a -> rep.put("accuracy", a.toMap()));
            rep.put("guarantee_text", est.guarantee().describe());
            rep.put("error_metric", "||S^-1/2 S~ S^-1/2 - I||_2 vs the non-private second moment S");
            rep.put("relative_spectral_error", err);
            rep.put("relative_gram_error", err); // the key DemoCommand prints
            org.ejml.data.DMatrixRMaj diff = matrix.copy();
            org.ejml.dense.row.CommonOps_DDRM.subtractEquals(diff, truth);
            double realised = org.ejml.dense.row.NormOps_DDRM.normP2(diff); // the stated metric: ||S~ - S||_2
            if (est.accuracy().isPresent() && est.accuracy().get().metric().startsWith("relative")) {
                realised /= org.ejml.dense.row.NormOps_DDRM.normP2(truth); // ... or its relative form
            }
            rep.put("accuracyRealised", realised);
            rep.put("mahalanobis_frobenius_error", SpectralMetrics.mahalanobisFrobeniusError(truth, matrix));
            rep.put("parameters", est.parameters().toMap());
            rep.put("seconds", seconds);
            out.add(rep);
        }
    }
}
