package org.dpgauss.mean;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.privacy.noise.DiscreteLinfNoise;
import org.dpgauss.privacy.noise.NoiseGrid;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.BlockPass;
import org.dpgauss.rows.ExactColumnSums;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;

/**
 * The mean of rows in a public box {@code [lo_1, hi_1] x ... x [lo_d, hi_d]} ({@code mean --bounds}): every
 * coordinate is clamped into its public range, the clamped values are averaged by exact column sums, and noise
 * is added per coordinate.
 *
 * <p><b>Neighbours and sensitivity.</b> Replace-one with n public (as {@link ClippedGaussianMean}; add/remove is
 * not offered: n would have to be estimated privately). The clamped terms are centred at the box's centre
 * {@code c = (lo + hi)/2}, so every term lies in {@code [-w_j/2, w_j/2]}, {@code w_j = hi_j - lo_j}, and replacing
 * one row moves coordinate j of the average by at most {@code a_j = w_j / n}, all coordinates at once: the set of
 * possible differences is the box {@code |Delta_j| <= a_j}, whose L2 radius is {@code ||w||_2 / n} (the ball of
 * {@link ClippedGaussianMean} around c with radius {@code ||w||/2} has the same L2 sensitivity but forgets the
 * box's shape). Floating-point slack (the centring, one rounding of each exact sum, the division by n and the
 * re-centring) adds {@code 4u (w_j/n + w_j + 2|c_j|)} per coordinate, {@code u = 2^-53}, and rounding to the noise
 * grid adds one grid step.
 *
 * <p><b>Noise.</b> Two calibrations, both drawn in exact integer arithmetic on a power-of-two grid per coordinate
 * (so every output is a grid point, no floating-point attack):
 * <ul>
 *   <li>{@link Noise#GAUSSIAN}, rho-zCDP: independent discrete Gaussians (CKS20) with
 *       {@code sigma_j^2 = A_j (sum_k A_k) / (2 rho)}, {@code A_j} the accounted sensitivity of coordinate j. The
 *       zCDP of independent coordinates adds up: {@code sum_j A_j^2 / (2 sigma_j^2) = rho}. This choice minimises
 *       the expected squared error {@code sum sigma_j^2 = (sum A)^2 / (2 rho)} over all diagonal calibrations
 *       (Lagrange: {@code sigma_j^2} proportional to {@code A_j}); for equal widths it is the isotropic Gaussian
 *       with L2 sensitivity {@code ||w||/n}.</li>
 *   <li>{@link Noise#LINF}, pure epsilon-DP: the discrete L-infinity K-norm mechanism ({@link DiscreteLinfNoise})
 *       scaled to the box, {@code E||Z||^2 ~ sum_j a_j^2 (d+1)(d+2) / (3 epsilon^2)}; it beats independent
 *       Laplace noise per coordinate (what {@code diffprivlib.tools.mean} does with epsilon/d per column) for every
 *       d >= 2 and equals it at d = 1, so per-coordinate Laplace is not offered. Against the Gaussian at
 *       (epsilon, delta) it wins for small d (at (1, 1e-6) with equal widths, for d up to about 57); the planner compares both.</li>
 * </ul>
 * The noised mean is then clamped into the box (post-processing: the clamped rows' mean lies in the box, which is
 * convex, so clamping never moves the release away from it), on the grid, so the output is still a grid point.
 *
 * <p>Clamping is the mechanism's definition (issue 24's rule for out-of-domain rows): a row outside the box
 * contributes its clamped values; it is never an error. NaN and infinite values stay errors (the reader refuses
 * them). How many values were clamped is not reported.
 */
public final class BoxMean implements RowSourceMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "mean.box";

    /** The probability at which releases state their error bound. */
    public static final double ACCURACY_PROBABILITY = 0.95;

    /** The level quantum K of the L-infinity mechanism: a neighbour moves the level by at most K. */
    static final long LEVELS = 1024;

    private static final double U = 0x1p-53;

    /** The noise calibration. */
    public enum Noise {
        /** Discrete Gaussian per coordinate, rho-zCDP. */
        GAUSSIAN("gaussian"),
        /** The discrete L-infinity mechanism, pure epsilon-DP. */
        LINF("linf");

        private final String id;

        Noise(String id) {
            this.id = id;
        }

        /** @return the identifier used in parameters and on the command line */
        public String id() {
            return id;
        }
    }

    private final double[] lower;
    private final double[] upper;
    private final double[] centre;
    private final double[] width;
    private final Noise noise;
    private final Zcdp rho;
    private final double epsilon;

    private BoxMean(double[] lower, double[] upper, Noise noise, Zcdp rho, double epsilon) {
        this.lower = lower;
        this.upper = upper;
        this.noise = noise;
        this.rho = rho;
        this.epsilon = epsilon;
        int d = lower.length;
        this.centre = new double[d];
        this.width = new double[d];
        for (int j = 0; j < d; j++) {
            centre[j] = 0.5 * lower[j] + 0.5 * upper[j];
            width[j] = Math.nextUp(upper[j] - lower[j]);
        }
    }

    /**
     * The box mean with Gaussian noise, rho-zCDP under replace-one.
     *
     * @param lower the public lower bounds lo_j (finite)
     * @param upper the public upper bounds hi_j (finite, above lo_j)
     * @param budget the zCDP budget
     * @return the mechanism
     */
    public static BoxMean gaussian(double[] lower, double[] upper, Zcdp budget) {
        Objects.requireNonNull(budget, "budget");
        if (!(budget.rho() > 0) || !Double.isFinite(budget.rho())) {
            throw new IllegalArgumentException("rho=" + budget.rho() + " must be finite and > 0");
        }
        checkBox(lower, upper);
        return new BoxMean(lower.clone(), upper.clone(), Noise.GAUSSIAN, budget, Double.NaN);
    }

    /**
     * The box mean with the L-infinity mechanism, pure epsilon-DP under replace-one.
     *
     * @param lower the public lower bounds
     * @param upper the public upper bounds
     * @param epsilon epsilon, in {@code [2^-20, 2^20]}
     * @return the mechanism
     */
    public static BoxMean pure(double[] lower, double[] upper, double epsilon) {
        if (!(epsilon >= 0x1p-20 && epsilon <= 0x1p20)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + " is outside [2^-20, 2^20]");
        }
        checkBox(lower, upper);
        return new BoxMean(lower.clone(), upper.clone(), Noise.LINF, null, epsilon);
    }

    private static void checkBox(double[] lower, double[] upper) {
        Objects.requireNonNull(lower, "lower");
        Objects.requireNonNull(upper, "upper");
        if (lower.length == 0 || lower.length != upper.length) {
            throw new IllegalArgumentException("the box has " + lower.length + " lower and " + upper.length
                    + " upper bounds: give one range per column");
        }
        for (int j = 0; j < lower.length; j++) {
            if (!Double.isFinite(lower[j]) || !Double.isFinite(upper[j]) || !(lower[j] < upper[j])
                    || !Double.isFinite(upper[j] - lower[j])) {
                throw new IllegalArgumentException("the range of column " + (j + 1) + " is [" + lower[j] + ", "
                        + upper[j] + "]: it must be finite with lo < hi (and hi - lo finite)");
            }
        }
    }

    /**
     * The ball that holds a box: {@code {centre, {radius}}} with the centre {@code (lo + hi)/2} and the radius half
     * the diagonal, rounded up so that every point of the box lies inside.
     *
     * @param bounds {lower, upper}
     * @return {centre, {radius}}
     */
    public static double[][] ballOf(double[][] bounds) {
        int d = bounds[0].length;
        double[] c = new double[d];
        double scale = 0;
        for (int j = 0; j < d; j++) {
            c[j] = 0.5 * bounds[0][j] + 0.5 * bounds[1][j];
            scale = Math.max(scale, Math.max(bounds[1][j] - c[j], c[j] - bounds[0][j]));
        }
        double sum = 0;
        for (int j = 0; j < d; j++) {
            double h = Math.max(bounds[1][j] - c[j], c[j] - bounds[0][j]) / scale; // scaled: no overflow
            sum += h * h;
        }
        double radius = Math.nextUp(scale * Math.nextUp(Math.sqrt(sum) * (1 + 4 * d * 0x1p-53)));
        return new double[][] {c, {radius}};
    }

    /** @return the noise calibration */
    public Noise noise() {
        return noise;
    }

    /** @return the lower bounds (a copy) */
    public double[] lower() {
        return lower.clone();
    }

    /** @return the upper bounds (a copy) */
    public double[] upper() {
        return upper.clone();
    }

    /**
     * The accounted sensitivity of coordinate j on n rows, before grid rounding: {@code w_j/n} plus the
     * floating-point slack of the class comment.
     *
     * @param n the number of rows
     * @return {@code a_j} for every j
     */
    public double[] sensitivities(int n) {
        checkRows(n);
        double[] a = new double[width.length];
        for (int j = 0; j < a.length; j++) {
            double ideal = width[j] / n;
            double slack = 4 * U * (ideal + width[j] + 2 * Math.abs(centre[j]));
            a[j] = Math.nextUp(ideal + Math.nextUp(slack));
        }
        return a;
    }

    /** The calibration of n rows: grids, integer noise parameters, effective scales. */
    private static final class Calibration {
        final double[] grid;
        final long[] integerScale; // GAUSSIAN: integer sigma per coordinate; LINF: cell sizes
        final long temperature; // LINF only

        Calibration(double[] grid, long[] integerScale, long temperature) {
            this.grid = grid;
            this.integerScale = integerScale;
            this.temperature = temperature;
        }
    }

    private Calibration calibrate(int n) {
        double[] a = sensitivities(n);
        int d = a.length;
        double[] g = new double[d];
        long[] s = new long[d];
        if (noise == Noise.GAUSSIAN) {
            double sumA = 0;
            for (double x : a) {
                sumA += x;
            }
            double[] big = new double[d];
            double sumBig = 0;
            for (int j = 0; j < d; j++) {
                double sigma0 = Math.sqrt(a[j] * sumA / (2 * rho.rho()));
                // the grid step is added to the sensitivity: keep it below 2^-20 a_j (not only 2^-20 sigma_j, which
                // is far larger for a narrow column), while sigma_j / g_j stays below 2^30 for exact sampling
                g[j] = Math.max(NoiseGrid.spacing("sigma", Math.min(a[j], sigma0)),
                        Math.scalb(NoiseGrid.spacing("sigma", sigma0), -8));
                big[j] = Math.nextUp(a[j] + g[j]); // rounding the query to the grid moves it by at most g
                sumBig += big[j];
            }
            sumBig = Math.nextUp(sumBig * (1 + 4 * d * U));
            for (int j = 0; j < d; j++) {
                // sum_j A_j^2 / (2 sigma_j^2) = sum_j A_j / (2 * sumBig / (2 rho)) <= rho; the integer scale only rounds up
                double sigma = Math.nextUp(Math.sqrt(Math.nextUp(big[j] * sumBig / (2 * rho.rho()))) * (1 + 4 * U));
                s[j] = NoiseGrid.integerScale("sigma", sigma, g[j]);
            }
            return new Calibration(g, s, 0);
        }
        // LINF: the integer query moves by at most D_j = a_j/g_j + 1 <= LEVELS * c_j grid steps; t >= LEVELS/epsilon
        for (int j = 0; j < d; j++) {
            g[j] = NoiseGrid.spacing("sensitivity", a[j]);
            double steps = Math.ceil(a[j] / g[j]) + 1; // exact: a/g is in [2^20, 2^21)
            s[j] = (long) Math.ceil(steps / LEVELS);
        }
        long t = (long) Math.ceil(Math.nextUp(LEVELS / epsilon));
        return new Calibration(g, s, t);
    }

    /**
     * The effective noise standard deviation of each coordinate on n rows (GAUSSIAN: {@code g_j s_j}, the discrete
     * Gaussian's parameter, which bounds its standard deviation; LINF: {@code sqrt(E Z_j^2)}).
     *
     * @param n the number of rows
     * @return the per-coordinate scale
     */
    public double[] noiseScales(int n) {
        Calibration cal = calibrate(n);
        int d = width.length;
        double[] out = new double[d];
        if (noise == Noise.GAUSSIAN) {
            for (int j = 0; j < d; j++) {
                out[j] = cal.grid[j] * cal.integerScale[j];
            }
            return out;
        }
        double[] m = moments(n, cal, ACCURACY_PROBABILITY);
        for (int j = 0; j < d; j++) {
            double c = cal.integerScale[j];
            // Z_j uniform on [-S c_j, S c_j] given S: E Z_j^2 = E[S c_j (S c_j + 1)] / 3
            out[j] = cal.grid[j] * Math.sqrt((c * c * m[1] + c * m[0]) / 3);
        }
        return out;
    }

    private int memoRows = -1;
    private double memoProbability;
    private double[] memoMoments;

    /** The level's moments for n rows, computed once per (n, probability): a sum over many levels. */
    private synchronized double[] moments(int n, Calibration cal, double probability) {
        if (n != memoRows || probability != memoProbability) {
            memoMoments = DiscreteLinfNoise.of(cal.integerScale, cal.temperature).levelMoments(probability);
            memoRows = n;
            memoProbability = probability;
        }
        return memoMoments;
    }

    /** The guarantee of one release, with the (epsilon, delta) implied at {@code delta} for the Gaussian. */
    public PrivacyGuarantee guarantee(double delta) {
        if (noise == Noise.GAUSSIAN) {
            return PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, rho, delta, true,
                    "box mean: values clamped into the public box, sensitivity w_j/n per coordinate (+ grid rounding"
                            + " and floating-point slack), n public; discrete Gaussian noise per coordinate with"
                            + " sigma_j^2 proportional to w_j (CKS20)");
        }
        return PrivacyGuarantee.approxDp(NeighbouringRelation.REPLACE_ONE, ApproxDp.of(epsilon, 0), true,
                "box mean: values clamped into the public box, sensitivity w_j/n per coordinate (+ grid rounding"
                        + " and floating-point slack), n public; discrete L-infinity K-norm noise (pure DP)");
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    @Override
    public Statement state(PublicContext context) {
        if (context.dimension() != width.length) {
            throw new IllegalArgumentException("the box has " + width.length + " ranges but the data have "
                    + context.dimension() + " columns");
        }
        int n = context.rows();
        checkGridRange(calibrate(n));
        PublicParameters.Builder p = PublicParameters.builder()
                .put("n", n)
                .put("d", width.length)
                .put("lower", lower)
                .put("upper", upper)
                .put("noise", noise.id());
        if (noise == Noise.GAUSSIAN) {
            p.put("rho", rho.rho());
        } else {
            p.put("epsilon", epsilon);
        }
        p.put("noiseScale", noiseScales(n));
        Release accounting = noise == Noise.GAUSSIAN ? Release.zcdp(ID, NeighbouringRelation.REPLACE_ONE, rho)
                : Release.approxDp(ID, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(epsilon, 0));
        return Statement.builder(context, ID, guarantee(context.delta()))
                .description("private mean, values clamped into a public box, "
                        + (noise == Noise.GAUSSIAN ? "discrete Gaussian noise per coordinate"
                                : "discrete L-infinity mechanism (pure DP)"))
                .parameters(p.build())
                .accounting(accounting)
                .accuracy(accuracy(n, ACCURACY_PROBABILITY))
                .build();
    }

    /** The metric of the accuracy statements, shared with the clipped mean so the planner compares them. */
    public static final String METRIC = "L2 distance to the mean of the rows";

    /**
     * The a-priori error of a release on n rows, from public numbers only: the L2 norm of the added noise. It is
     * the distance to the mean of the rows when every value lies in the box (otherwise to the mean of the clamped
     * rows); the final clamp into the box only shrinks it.
     *
     * @param n the number of rows (public)
     * @param probability the probability of the bound
     * @return the statement
     */
    public Accuracy accuracy(int n, double probability) {
        String assumes = "every value lies in its public range (values outside are clamped, biasing the mean"
                + " towards the box)";
        double[] scale = noiseScales(n);
        int d = scale.length;
        if (noise == Noise.GAUSSIAN) {
            double sumSq = 0;
            double max = 0;
            for (double s : scale) {
                sumSq += s * s;
                max = Math.max(max, s);
            }
            // expected: the chi mean at the root-mean-square scale (exact for equal widths); bound: the isotropic
            // bound at the largest scale, which dominates the anisotropic noise
            Accuracy rms = Accuracy.isotropicGaussianL2(METRIC, Math.sqrt(sumSq / d), d, probability, assumes);
            Accuracy top = Accuracy.isotropicGaussianL2(METRIC, max, d, probability, assumes);
            return Accuracy.of(METRIC, rms.expected(), top.bound(), probability, assumes);
        }
        Calibration cal = calibrate(n);
        double[] m = moments(n, cal, probability);
        double sumSq = 0;
        double radius = 0;
        for (int j = 0; j < d; j++) {
            sumSq += scale[j] * scale[j];
            double r = cal.grid[j] * cal.integerScale[j];
            radius += r * r;
        }
        // expected: sqrt(E||Z||^2) >= E||Z||; bound: |Z_j| <= S c_j, so ||Z|| <= S ||g c|| with S at its quantile
        return Accuracy.of(METRIC, Math.sqrt(sumSq), m[2] * Math.sqrt(radius), probability, assumes);
    }

    /** Public check before touching the data: every released index and the box fit exactly on the grid. */
    private void checkGridRange(Calibration cal) {
        for (int j = 0; j < width.length; j++) {
            if (Math.abs(centre[j]) + width[j] > 0x1p51 * cal.grid[j]) {
                throw new IllegalArgumentException("the range of column " + (j + 1) + " is more than 2^51 grid"
                        + " spacings from 0 for this n: the release could not be an exact grid point; subtract a"
                        + " public offset from the data first");
            }
        }
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return compute(LocalRows.of(data.matrix(), context.engine()), stated, context);
    }

    @Override
    public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
        return Outcome.pass().vector("mean", release(rows, context.random())).build();
    }

    double[] release(RowSource x, RandomSource random) {
        Objects.requireNonNull(random, "random source");
        if (x.rows() == 0 || x.rows() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("data have " + (x.rows() == 0 ? "no" : "more than 2^31-1") + " rows");
        }
        int d = x.cols();
        if (d != width.length) {
            throw new IllegalArgumentException("data have " + d + " columns but the box has " + width.length);
        }
        int n = (int) x.rows();
        Calibration cal = calibrate(n);
        checkGridRange(cal);
        double[] q = query(x);
        long[] k = new long[d];
        for (int j = 0; j < d; j++) {
            k[j] = NoiseGrid.index(q[j], cal.grid[j]);
        }
        if (noise == Noise.GAUSSIAN) {
            SecureGaussianSampler sampler = SecureGaussianSampler.using(random);
            for (int j = 0; j < d; j++) {
                k[j] += sampler.sampleIndex(cal.grid[j] * cal.integerScale[j], cal.grid[j]);
            }
        } else {
            long[] z = DiscreteLinfNoise.of(cal.integerScale, cal.temperature).sample(random);
            for (int j = 0; j < d; j++) {
                k[j] = Math.addExact(k[j], z[j]);
            }
        }
        double[] out = new double[d];
        for (int j = 0; j < d; j++) {
            // post-processing: clamp into the box on the grid (lo/g and hi/g are exact multiples up to rounding)
            long lo = (long) Math.ceil(lower[j] / cal.grid[j]);
            long hi = (long) Math.floor(upper[j] / cal.grid[j]);
            out[j] = cal.grid[j] * (double) Math.max(lo, Math.min(hi, k[j]));
        }
        return out;
    }

    /** The query before noise: {@code c + (exact sum of the clamped, centred rows, rounded once) / n}. */
    double[] query(RowSource x) {
        int n = (int) x.rows();
        double[] sum = x.reduce(new ClampedSums(lower, upper, centre), BoxMean::merge).rounded();
        double[] q = new double[sum.length];
        for (int j = 0; j < q.length; j++) {
            q[j] = centre[j] + sum[j] / n;
        }
        return q;
    }

    private static ExactColumnSums merge(ExactColumnSums acc, ExactColumnSums partial) {
        if (acc == null) {
            return partial;
        }
        acc.addAll(partial);
        return acc;
    }

    /** A block's exact column sums of {@code clamp(x_j, lo_j, hi_j) - c_j}. */
    private static final class ClampedSums implements BlockPass<ExactColumnSums> {
        private static final long serialVersionUID = 1L;
        private final double[] lower;
        private final double[] upper;
        private final double[] centre;

        ClampedSums(double[] lower, double[] upper, double[] centre) {
            this.lower = lower.clone();
            this.upper = upper.clone();
            this.centre = centre.clone();
        }

        @Override
        public ExactColumnSums apply(int blockIndex, RowBlockMatrix x, ComputeEngine engine) {
            int d = x.cols();
            ExactColumnSums sums = ExactColumnSums.zeros(d);
            double[] t = new double[d];
            for (int b = 0; b < x.blockCount(); b++) {
                double[] data = x.block(b);
                for (int r = 0, rows = x.blockRowCount(b); r < rows; r++) {
                    int off = r * d;
                    for (int j = 0; j < d; j++) {
                        double v = data[off + j];
                        // NaN never reaches here (the readers refuse it); clamp is the rule of the guarantee
                        t[j] = Math.max(lower[j], Math.min(upper[j], v)) - centre[j];
                    }
                    sums.add(t, 0);
                }
            }
            return sums;
        }
    }

    private static void checkRows(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " rows is outside [1, inf): a mean needs data");
        }
    }
}
