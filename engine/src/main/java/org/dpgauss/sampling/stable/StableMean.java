package org.dpgauss.sampling.stable;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/**
 * StableMean_{Sigma-hat,lambda0,k,R} (spec unbounded-gaussian-sampling §3.4, Algorithm 5; BHS23):
 * {@code S_l = LargestCore(X, Sigma-hat, e^{l/k} lambda0, |R| - l, R)} for l = 0..2k,
 * {@code Score = min{k, min_{0<=l<=k} (n - |S_l| + l)}}, {@code c_i = #{l in k+1..2k : i in S_l}} and
 * {@code v_i = c_i / sum_j c_j} (v = 0 when the sum is 0, A's Algorithm 5).
 *
 * <p>Deterministic given the data and R, and <b>not private on its own</b> (spec §5, S2). {@link #apply} does
 * one fused distance pass for all 2k+1 thresholds ({@link LargestCore#compute}, spec §7); {@link #applyLiteral}
 * runs Algorithm 6 from scratch at every threshold. Both give identical scores and weights: they compare the
 * same distance values (same whitening, same summation order) with the same thresholds.
 */
public final class StableMean {

    private final double lambda0;
    private final int k;

    private StableMean(double lambda0, int k) {
        this.lambda0 = lambda0;
        this.k = k;
    }

    /**
     * @param lambda0 finite, >= 1 (spec §3.4)
     * @param k       >= 1
     */
    public static StableMean of(double lambda0, int k) {
        if (!(lambda0 >= 1) || !Double.isFinite(lambda0)) {
            throw new IllegalArgumentException("lambda0=" + lambda0 + " must be finite and >= 1 (spec §3.4)");
        }
        if (k < 1 || k > 10_000_000) {
            throw new IllegalArgumentException("k=" + k + " must be in [1, 1e7] (2k+1 thresholds, spec §3.4)");
        }
        return new StableMean(lambda0, k);
    }

    public double lambda0() {
        return lambda0;
    }

    public int k() {
        return k;
    }

    /** {@code e^{l/k} lambda0}, l = 0..2k (the same values as StableCov's). */
    public double[] thresholds() {
        return StableCov.thresholds(lambda0, k);
    }

    /**
     * Production StableMean.
     *
     * @param x         the mean-part rows X_1..X_n1
     * @param sigmaHat  Sigma-hat (d x d, symmetric); singular means every distance is +infinity (§3.5)
     * @param reference R: distinct 0-based row indices of x
     */
    public StableMeanResult apply(RowBlockMatrix x, DMatrixRMaj sigmaHat, int[] reference, ComputeEngine engine) {
        LargestCore.checkInputs(x, sigmaHat, reference);
        Objects.requireNonNull(engine, "engine");
        int size = reference.length;
        LargestCore core = LargestCore.compute(x, sigmaHat, reference, Math.min(2 * k + 1, size), engine);
        double[] lambdas = thresholds();
        boolean[][] sets = new boolean[2 * k + 1][];
        for (int l = 0; l <= 2 * k; l++) {
            sets[l] = core.members(lambdas[l], size - l);
        }
        return StableMeanResult.of(x.rows(), sets, k);
    }

    /** Literal StableMean: Algorithm 6 evaluated independently at each of the 2k+1 thresholds. */
    public StableMeanResult applyLiteral(RowBlockMatrix x, DMatrixRMaj sigmaHat, int[] reference,
            ComputeEngine engine) {
        LargestCore.checkInputs(x, sigmaHat, reference);
        Objects.requireNonNull(engine, "engine");
        double[] lambdas = thresholds();
        boolean[][] sets = new boolean[2 * k + 1][];
        for (int l = 0; l <= 2 * k; l++) {
            sets[l] = LargestCore.literal(x, sigmaHat, lambdas[l], reference.length - l, reference, engine);
        }
        return StableMeanResult.of(x.rows(), sets, k);
    }

    @Override
    public String toString() {
        return "StableMean[lambda0=" + lambda0 + ", k=" + k + "]";
    }
}
