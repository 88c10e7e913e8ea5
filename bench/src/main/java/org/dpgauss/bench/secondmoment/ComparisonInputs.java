package org.dpgauss.bench.secondmoment;

import java.util.SplittableRandom;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * The two inputs of the second-moment comparison (simulation randomness with fixed keys, never privacy noise).
 *
 * <ul>
 *   <li>{@code gaussian}: rows N(0, diag(v)) with v geometric from 1 to 1e-2 (condition number 1e2, the smallest of
 *       the spec §5 protocol's values).</li>
 *   <li>{@code heavy-tailed}: the spec §5 "lambda v" construction made badly conditioned, plus outliers: clean rows
 *       {@code x = Sigma_D^{1/2} (lambda / sigma6) sqrt(d) v} with {@code v} uniform on the unit sphere and
 *       {@code lambda} from the truncated Pareto P6 on [1, B], B = 10 (density proportional to x^-6, sampled by
 *       inverse CDF; {@code sigma6^2 = E[lambda^2]}), so {@code E[x x^T] = Sigma_D = diag(v)} with v geometric
 *       from 1 to 1e-4 (condition number 1e4) and norms spread over a factor 10; then 1 % of the rows (chosen at
 *       random) are replaced by outliers {@code R_o u}, {@code u} uniform on the unit sphere of the span of the
 *       ceil(d/10) lowest-variance coordinates and {@code R_o} the largest clean norm (spec §5: "outliers of norm
 *       about R, placed along the smallest eigen-directions of Sigma_D"). They dominate the dataset's second moment
 *       in those directions, so Sigma (the estimand, outliers included) differs from Sigma_D there.</li>
 * </ul>
 */
final class ComparisonInputs {

    static final String GAUSSIAN = "gaussian";
    static final String HEAVY_TAILED = "heavy-tailed";
    /** The canonical order: the position keys the data and noise seeds, whatever order --inputs gives. */
    static final java.util.List<String> ALL = java.util.List.of(GAUSSIAN, HEAVY_TAILED);

    static final double GAUSSIAN_CONDITION = 1e2;
    static final double HEAVY_CONDITION = 1e4;
    static final double OUTLIER_FRACTION = 0.01;
    static final double PARETO_B = 10;

    private ComparisonInputs() {
    }

    static RowBlockMatrix generate(String input, int n, int d, long key) {
        switch (input) {
            case GAUSSIAN:
                return SyntheticData.gaussian(n, d, new double[d], geometric(d, GAUSSIAN_CONDITION), key);
            case HEAVY_TAILED:
                return heavyTailed(n, d, key);
            default:
                throw new IllegalArgumentException("input '" + input + "' is not one of " + GAUSSIAN + ", "
                        + HEAVY_TAILED);
        }
    }

    static String describe(String input) {
        return GAUSSIAN.equals(input)
                ? "rows N(0, diag(v)), v geometric from 1 to 1e-2 (condition number 1e2)"
                : "clean rows Sigma_D^{1/2} (lambda/sigma6) sqrt(d) v, v uniform on the sphere, lambda ~ truncated Pareto"
                        + " x^-6 on [1, 10] (spec §5 P6), Sigma_D = diag(v), v geometric from 1 to 1e-4 (condition"
                        + " number 1e4); 1% of rows replaced by outliers of norm max clean norm, uniform on the span of"
                        + " the ceil(d/10) lowest-variance coordinates";
    }

    /** Variances 1 .. 1/kappa, geometric. */
    static double[] geometric(int d, double kappa) {
        double[] v = new double[d];
        for (int j = 0; j < d; j++) {
            v[j] = d == 1 ? 1 : Math.pow(kappa, -(double) j / (d - 1));
        }
        return v;
    }

    /** sigma6^2 = E[lambda^2] = (5/3) B^2 (B^3 - 1)/(B^5 - 1) (spec §5). */
    static double paretoSecondMoment(double b) {
        return 5.0 / 3.0 * b * b * (b * b * b - 1) / (Math.pow(b, 5) - 1);
    }

    private static RowBlockMatrix heavyTailed(int n, int d, long key) {
        SplittableRandom g = new SplittableRandom(key);
        double[] var = geometric(d, HEAVY_CONDITION);
        double sigma6 = Math.sqrt(paretoSecondMoment(PARETO_B));
        double tail = 1 - Math.pow(PARETO_B, -5);
        RowBlockMatrix x = RowBlockMatrix.zeros(n, d);
        double[] row = new double[d];
        double maxNorm = 0;
        for (int i = 0; i < n; i++) {
            unitVector(g, row, d);
            double lambda = Math.pow(1 - g.nextDouble() * tail, -0.2); // inverse CDF of P6 on [1, B]
            double s = lambda / sigma6 * Math.sqrt(d);
            double norm = 0;
            for (int j = 0; j < d; j++) {
                row[j] *= s * Math.sqrt(var[j]);
                norm += row[j] * row[j];
            }
            maxNorm = Math.max(maxNorm, Math.sqrt(norm));
            x.setRow(i, row);
        }
        int outliers = (int) Math.round(OUTLIER_FRACTION * n);
        int k = (int) Math.ceil(d / 10.0);
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        for (int i = 0; i < outliers; i++) { // partial Fisher-Yates: the first `outliers` entries are a random subset
            int j = i + g.nextInt(n - i);
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        double[] u = new double[k];
        for (int i = 0; i < outliers; i++) {
            unitVector(g, u, k);
            java.util.Arrays.fill(row, 0);
            for (int j = 0; j < k; j++) {
                row[d - k + j] = maxNorm * u[j];
            }
            x.setRow(idx[i], row);
        }
        return x;
    }

    private static void unitVector(SplittableRandom g, double[] v, int k) {
        double s;
        do {
            s = 0;
            for (int j = 0; j < k; j++) {
                v[j] = g.nextGaussian();
                s += v[j] * v[j];
            }
        } while (s == 0);
        double f = 1 / Math.sqrt(s);
        for (int j = 0; j < k; j++) {
            v[j] *= f;
        }
    }

    /** @param input an input name @return its position in {@link #ALL} (the seed key) */
    static int index(String input) {
        int i = ALL.indexOf(input);
        if (i < 0) {
            throw new IllegalArgumentException("--inputs: unknown input '" + input + "'; known: " + ALL);
        }
        return i;
    }
}
