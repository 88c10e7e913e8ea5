package org.dpgauss.sampling.stable;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * Output of {@link StableCov}: the Score, the weights w_i and the pairs Y_i, which together represent
 * {@code W = [sqrt(w_1) Y_1 | ... | sqrt(w_m) Y_m]} without materialising it (spec §7: store Y and w).
 * Not private: a mechanism may release something derived from it only behind PTR.
 */
public final class StableCovResult {

    private final RowBlockMatrix pairs;
    private final int score;
    private final double[] weights;
    private final int[] setSizes;
    private final ComputeEngine engine;
    private final LargestGoodSubset.Stats stats;
    private DMatrixRMaj sigmaHat;

    private StableCovResult(RowBlockMatrix pairs, int score, double[] weights, int[] setSizes, ComputeEngine engine,
            LargestGoodSubset.Stats stats) {
        this.pairs = pairs;
        this.score = score;
        this.weights = weights;
        this.setSizes = setSizes;
        this.engine = engine;
        this.stats = stats;
    }

    /** Score and weights from the sets S_0..S_2k (entries l <= k may be null after an early exit). */
    static StableCovResult of(RowBlockMatrix y, GoodSubset[] sets, int k, ComputeEngine engine,
            LargestGoodSubset.Stats stats) {
        int m = y.rows();
        // Score = min{k, min_{0<=l<=k} (m - |S_l| + l)}  (§3.2 line 3)
        int score = k;
        int[] sizes = new int[sets.length];
        for (int l = 0; l < sets.length; l++) {
            sizes[l] = sets[l] == null ? -1 : sets[l].size();
            if (l <= k && sets[l] != null) {
                score = Math.min(score, m - sets[l].size() + l);
            }
        }
        // w_i = #{l in k+1..2k : i in S_l} / (k m)  (§3.2 line 4)
        int[] count = new int[m];
        for (int l = k + 1; l <= 2 * k; l++) {
            for (int i : sets[l].indices()) {
                count[i]++;
            }
        }
        double km = (double) k * m;
        double[] w = new double[m];
        for (int i = 0; i < m; i++) {
            w[i] = count[i] / km;
        }
        return new StableCovResult(y, score, w, sizes, engine, stats);
    }

    /** Score in {0..k}. */
    public int score() {
        return score;
    }

    /** w_i in {0, 1/(km), ..., 1/m} (a copy). */
    public double[] weights() {
        return weights.clone();
    }

    /** The pairs Y_i (m x d; shared, do not modify). */
    public RowBlockMatrix pairs() {
        return pairs;
    }

    public int m() {
        return pairs.rows();
    }

    public int d() {
        return pairs.cols();
    }

    /** |S_l| for l = 0..2k; -1 where the production version skipped the threshold (score already decided). */
    public int[] setSizes() {
        return setSizes.clone();
    }

    /** Work counters of the production version; null for the literal one. */
    public LargestGoodSubset.Stats stats() {
        return stats;
    }

    /** {@code Sigma-hat = W W^T = sum_i w_i Y_i Y_i^T} (engine weightedGram with divisor 1), computed once. */
    public synchronized DMatrixRMaj sigmaHat() {
        if (sigmaHat == null) {
            sigmaHat = engine.weightedGram(pairs, null, weights, 1.0);
        }
        return sigmaHat.copy();
    }

    /** {@code W z = sum_i z_i sqrt(w_i) Y_i} (length d); z has one entry per pair. */
    public double[] combine(double[] z) {
        Objects.requireNonNull(z, "z");
        int m = pairs.rows();
        int d = pairs.cols();
        if (z.length != m) {
            throw new IllegalArgumentException("z has " + z.length + " entries, expected one per pair (m=" + m + ")");
        }
        double[] out = new double[d];
        double[] row = new double[d];
        for (int i = 0; i < m; i++) {
            if (weights[i] == 0) {
                continue;
            }
            double c = z[i] * Math.sqrt(weights[i]);
            pairs.copyRow(i, row, 0);
            for (int j = 0; j < d; j++) {
                out[j] += c * row[j];
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "StableCovResult[m=" + m() + ", d=" + d() + ", score=" + score + "]";
    }
}
