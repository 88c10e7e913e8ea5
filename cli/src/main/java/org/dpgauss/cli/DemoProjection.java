package org.dpgauss.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.projection.ProjectionRelease;
import org.dpgauss.projection.RandomProjectionMechanism;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.NormOps_DDRM;

/** The random-projection part of {@code dpgauss demo} (called from DemoCommand). */
public final class DemoProjection {

    /** Demo parameters: r = 100, eps = 1, delta = 1e-6, rows clipped to norm l = 1 (spec ndis §8.2 setting). */
    public static final int RANK = 100;
    public static final double EPSILON = 1;
    public static final double DELTA = 1e-6;
    public static final double ROW_BOUND = 1;

    private DemoProjection() {
    }

    /**
     * Projects synthetic data (n x d standard normal rows, scaled onto the unit sphere, so every row meets l = 1)
     * with M_RP and reports the relative spectral error of the Gram estimate.
     *
     * @param engine the compute engine
     * @param random the randomness (secure unless the demo runs with --insecure-seed)
     * @param n rows, {@code >= 1}
     * @param d columns, {@code >= 1}
     * @return a JSON-ready report: name, status, parameters, ridge, relative_gram_error
     *         {@code ||Sigma^ - D^T D||_2 / ||D^T D||_2}, guarantee (map), guarantee_text, seconds
     */
    public static Map<String, Object> report(ComputeEngine engine, RandomSource random, int n, int d) {
        if (n < 1 || d < 1) {
            throw new IllegalArgumentException("n=" + n + ", d=" + d + ": both must be >= 1");
        }
        RowBlockMatrix x = SyntheticData.standardNormal(n, d, 20261121L);
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, row, 0);
            double ss = 0;
            for (double v : row) {
                ss += v * v;
            }
            double f = ss > 0 ? (1 - 1e-12) / Math.sqrt(ss) : 0;
            for (int j = 0; j < d; j++) {
                row[j] *= f;
            }
            x.setRow(i, row);
        }
        RandomProjectionMechanism m = RandomProjectionMechanism.of(RANK, ApproxDp.of(EPSILON, DELTA), ROW_BOUND);
        long t0 = System.nanoTime();
        PrivateRelease release = Releases.run(m, Dataset.of(x), DELTA, ReleaseContext.of(engine, random));
        ProjectionRelease rel = ProjectionRelease.of(release);
        double seconds = (System.nanoTime() - t0) * 1e-9; // the demo's synthetic data are not private
        DMatrixRMaj truth = engine.weightedGram(x, null, null, 1.0);
        DMatrixRMaj diff = new DMatrixRMaj(d, d);
        CommonOps_DDRM.subtract(rel.gramEstimate(), truth, diff);
        double err = NormOps_DDRM.normP2(diff) / NormOps_DDRM.normP2(truth);
        // the stated metric without a public row count: relative to ||D^T D|| + lambda
        double statedMetric = NormOps_DDRM.normP2(diff) / (NormOps_DDRM.normP2(truth) + rel.ridge());
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("name", "random projection, rank " + RANK);
        rep.put("status", "PASS");
        rep.put("rank", RANK);
        rep.put("epsilon", EPSILON);
        rep.put("delta", DELTA);
        rep.put("row_bound", ROW_BOUND);
        rep.put("ridge", rel.ridge());
        rep.put("error_metric", "||Sigma^ - D^T D||_2 / ||D^T D||_2");
        rep.put("relative_gram_error", err);
        rep.put("accuracyRealised", statedMetric);
        rep.put("guarantee", release.guarantee().toMap());
        rep.put("mechanism", release.mechanism());
        release.accuracy().ifPresent(a -> rep.put("accuracy", a.toMap()));
        rep.put("guarantee_text", release.guarantee().describe());
        rep.put("seconds", seconds);
        return rep;
    }
}
