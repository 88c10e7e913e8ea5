package org.dpgauss.sampling.stable;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.GoodSubset;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * StableCov_{lambda0,k} (spec unbounded-gaussian-sampling §3.2, Algorithm 3; BHS23): pairs the rows,
 * {@code Y_i = (X_i - X_{i+m}) / sqrt 2} with {@code m = floor(n/2)}, runs LargestGoodSubset at the 2k+1
 * thresholds {@code lambda_l = e^{l/k} lambda0}, and returns
 * {@code Score = min{k, min_{0<=l<=k} (m - |S_l| + l)}} and the weights
 * {@code w_i = #{l in k+1..2k : i in S_l} / (k m)}.
 *
 * <p>Deterministic and <b>not private on its own</b>: it supplies the stability that the sampler's PTR
 * step and release rely on (spec §5, S1). {@link #apply} is the production version (warm-started peeling
 * shared across thresholds, early exit once the score is decided: spec §7); {@link #applyLiteral} is
 * Algorithm 3 as written (Algorithm 4 from scratch at every threshold). Both give identical scores,
 * weights and sets ({@link LargestGoodSubset} explains why).
 */
public final class StableCov {

    private static final double SQRT2 = Math.sqrt(2.0);

    private final double lambda0;
    private final int k;

    private StableCov(double lambda0, int k) {
        this.lambda0 = lambda0;
        this.k = k;
    }

    /**
     * @param lambda0 outlier threshold, finite and >= 1 (Algorithm 3's input range)
     * @param k       discretisation parameter, >= 1 (2k+1 thresholds)
     */
    public static StableCov of(double lambda0, int k) {
        if (!(lambda0 >= 1) || !Double.isFinite(lambda0)) {
            throw new IllegalArgumentException("lambda0=" + lambda0 + " must be finite and >= 1 (spec §3.2)");
        }
        if (k < 1 || k > 10_000_000) {
            throw new IllegalArgumentException("k=" + k + " must be in [1, 1e7] (2k+1 thresholds, spec §3.2)");
        }
        return new StableCov(lambda0, k);
    }

    public double lambda0() {
        return lambda0;
    }

    public int k() {
        return k;
    }

    /** The thresholds {@code e^{l/k} lambda0}, l = 0..2k (StrictMath.exp, so every JVM gives the same values). */
    public double[] thresholds() {
        return thresholds(lambda0, k);
    }

    static double[] thresholds(double lambda0, int k) {
        double[] t = new double[2 * k + 1];
        for (int l = 0; l <= 2 * k; l++) {
            t[l] = StrictMath.exp((double) l / k) * lambda0;
        }
        return t;
    }

    /** Production StableCov on the data rows (n >= 2; the last row is ignored when n is odd). */
    public StableCovResult apply(RowBlockMatrix x, ComputeEngine engine) {
        return applyToPairs(pairs(x), engine);
    }

    /** Production StableCov on rows that already are the paired differences Y_i. */
    public StableCovResult applyToPairs(RowBlockMatrix y, ComputeEngine engine) {
        checkPairs(y);
        Objects.requireNonNull(engine, "engine");
        int m = y.rows();
        double[] lambdas = thresholds();
        LargestGoodSubset.Stats stats = new LargestGoodSubset.Stats();
        // Early exit (§7): sets are nested, so once the weight thresholds (l > k) are done and
        // m - |S_l| >= best-so-far, every lower l' has m - |S_l'| + l' >= best and cannot change the score.
        int[] best = {k};
        GoodSubset[] sets;
        // progress in thresholds (2k + 1, fixed before the loop); an early exit ends the phase
        try (org.dpgauss.progress.Progress.Tracker progress = org.dpgauss.progress.Progress.track(
                "StableCov thresholds", lambdas.length)) {
            sets = LargestGoodSubset.production(y, lambdas, engine, (l, size) -> {
                progress.advance(1);
                if (l <= k) {
                    best[0] = Math.min(best[0], m - size + l);
                }
                return l <= k + 1 && best[0] <= m - size;
            }, stats);
        }
        return StableCovResult.of(y, sets, k, engine, stats);
    }

    /** Literal StableCov (Algorithm 3 with Algorithm 4 run independently at each threshold). */
    public StableCovResult applyLiteral(RowBlockMatrix x, ComputeEngine engine) {
        return applyLiteralToPairs(pairs(x), engine);
    }

    /** Literal StableCov on rows that already are the paired differences Y_i. */
    public StableCovResult applyLiteralToPairs(RowBlockMatrix y, ComputeEngine engine) {
        checkPairs(y);
        Objects.requireNonNull(engine, "engine");
        GoodSubset[] sets = LargestGoodSubset.literalAll(y, thresholds(), engine);
        return StableCovResult.of(y, sets, k, engine, null);
    }

    /** {@code Y_i = (X_i - X_{i+m}) / sqrt 2}, i &lt; m = floor(n/2) (Algorithm 3 line 1). */
    public static RowBlockMatrix pairs(RowBlockMatrix x) {
        Objects.requireNonNull(x, "data matrix");
        int n = x.rows();
        if (n < 2) {
            throw new IllegalArgumentException("StableCov needs n >= 2 rows to form a pair, got n=" + n);
        }
        int m = n / 2;
        int d = x.cols();
        RowBlockMatrix y = RowBlockMatrix.zeros(m, d);
        double[] a = new double[d];
        double[] b = new double[d];
        for (int i = 0; i < m; i++) {
            x.copyRow(i, a, 0);
            x.copyRow(i + m, b, 0);
            for (int j = 0; j < d; j++) {
                a[j] = (a[j] - b[j]) / SQRT2;
            }
            y.setRow(i, a);
        }
        checkPairs(y);
        return y;
    }

    static void checkPairs(RowBlockMatrix y) {
        Objects.requireNonNull(y, "pairs matrix");
        if (y.rows() < 1) {
            throw new IllegalArgumentException("StableCov needs m >= 1 pairs, got 0");
        }
        double[] r = new double[y.cols()];
        for (int i = 0; i < y.rows(); i++) {
            y.copyRow(i, r, 0);
            for (int j = 0; j < r.length; j++) {
                if (!Double.isFinite(r[j])) {
                    throw new IllegalArgumentException("row " + i + ", column " + j + " is " + r[j]
                            + "; StableCov needs finite values");
                }
            }
        }
    }

    @Override
    public String toString() {
        return "StableCov[lambda0=" + lambda0 + ", k=" + k + "]";
    }
}
