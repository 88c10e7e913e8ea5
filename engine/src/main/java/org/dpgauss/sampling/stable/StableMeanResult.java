package org.dpgauss.sampling.stable;

import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;

/** Output of {@link StableMean}: the Score and the weights v_i (not private on their own). */
public final class StableMeanResult {

    private final int score;
    private final double[] weights;
    private final int[] setSizes;

    private StableMeanResult(int score, double[] weights, int[] setSizes) {
        this.score = score;
        this.weights = weights;
        this.setSizes = setSizes;
    }

    static StableMeanResult of(int n, boolean[][] sets, int k) {
        int score = k;
        int[] sizes = new int[sets.length];
        for (int l = 0; l < sets.length; l++) {
            int c = 0;
            for (boolean b : sets[l]) {
                if (b) {
                    c++;
                }
            }
            sizes[l] = c;
            if (l <= k) {
                score = Math.min(score, n - c + l); // §3.4 line 2
            }
        }
        int[] count = new int[n];
        long zsum = 0;
        for (int l = k + 1; l <= 2 * k; l++) {
            for (int i = 0; i < n; i++) {
                if (sets[l][i]) {
                    count[i]++;
                    zsum++;
                }
            }
        }
        double[] v = new double[n];
        if (zsum > 0) { // v = 0 when Zsum = 0 (A's Algorithm 5 line 5)
            for (int i = 0; i < n; i++) {
                v[i] = count[i] / (double) zsum;
            }
        }
        return new StableMeanResult(score, v, sizes);
    }

    /** Score in {0..k}. */
    public int score() {
        return score;
    }

    /** v_i = c_i / Zsum (a copy); all zero when Zsum = 0. */
    public double[] weights() {
        return weights.clone();
    }

    /** |S_l| for l = 0..2k. */
    public int[] setSizes() {
        return setSizes.clone();
    }

    /** {@code mu-hat = sum_i v_i X_i} (x: the same rows StableMean saw). */
    public double[] weightedMean(RowBlockMatrix x) {
        Objects.requireNonNull(x, "data matrix");
        if (x.rows() != weights.length) {
            throw new IllegalArgumentException("data have " + x.rows() + " rows, the weights are for " + weights.length);
        }
        int d = x.cols();
        double[] mu = new double[d];
        double[] row = new double[d];
        for (int i = 0; i < weights.length; i++) {
            if (weights[i] == 0) {
                continue;
            }
            x.copyRow(i, row, 0);
            for (int j = 0; j < d; j++) {
                mu[j] += weights[i] * row[j];
            }
        }
        return mu;
    }

    @Override
    public String toString() {
        return "StableMeanResult[n=" + weights.length + ", score=" + score + "]";
    }
}
