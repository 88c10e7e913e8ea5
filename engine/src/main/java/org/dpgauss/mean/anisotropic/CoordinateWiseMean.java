package org.dpgauss.mean.anisotropic;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.noise.NoiseGrid;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.mean.GaussianNorms;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.rows.BlockMap;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;

/**
 * The coordinate-wise private mean, baseline B3 of spec anisotropic-mean-estimation §10 (Karwa–Vadhan range finding
 * per coordinate, clipping to a box, spherical Gaussian noise), for data with known per-coordinate standard
 * deviations {@code sigma_i = Sigma_ii^{1/2}}:
 * <ol>
 *   <li><b>Centring</b>, budget {@code (epsilon* /2, delta* /2)}: for every coordinate i, the values
 *       {@code floor(x_i / w_i)} ({@code w_i = sigma_i}) go into a {@link StableHistogram} at
 *       {@code (epsilon_c, delta_c)} with {@code delta_c = delta* /(4d)} and {@code epsilon_c} the better of basic
 *       ({@code epsilon* /(2d)}) and advanced composition over d histograms with slack {@code delta* /4}
 *       ({@code sqrt(2d ln(4/delta*)) e_c + d e_c (e^{e_c} - 1) <= epsilon* /2}). Centre
 *       {@code c_i = (b_i + 1/2) w_i}. If any histogram returns bottom, the release is
 *       {@link AnisotropicMeanResult#FAIL}.</li>
 *   <li><b>Clipping</b>: each coordinate to {@code [c_i - r_i, c_i + r_i]},
 *       {@code r_i = w_i (1.5 + sqrt(2 ln(2nd/beta)))} (the mode bin lies within one bin of the one holding
 *       {@code mu_i}, so {@code |c_i - mu_i| <= 1.5 sigma_i}; the Gaussian tail term covers all n d values with
 *       probability {@code 1 - beta}).</li>
 *   <li><b>Mean</b>, budget {@code (epsilon* /2, delta* /2)}: the mean of the clipped rows plus spherical Gaussian
 *       noise of L2 sensitivity {@code Delta = sqrt(sum_i (2 r_i)^2) / n} (replace one row).</li>
 * </ol>
 * Its privacy cost shows the two terms Algorithm 1 removes: the centring needs about {@code sqrt(d)/epsilon} rows
 * (composition over d histograms) and the noise has norm about {@code sqrt(d tr Sigma log(nd/beta))/(epsilon n)}.
 *
 * <p><b>Guarantee:</b> {@code (epsilon*, delta*)}-DP under <b>replace-one</b> neighbours with n public
 * ({@link NeighbouringRelation#REPLACE_ONE}): replacing a row changes one value in each of the d histograms
 * (each {@code (epsilon_c, delta_c)}-DP for replace-one of one value, Lemma A.2; composed to
 * {@code (epsilon* /2, delta* /2)}), and, for fixed centres, moves the clipped mean by at most {@code Delta}; basic
 * composition gives the total. The sigma, w_i and n are public.
 *
 * <p><b>Noise on a grid</b> (as in {@link RescaledAveraging}): the clipped values are summed exactly
 * ({@link org.dpgauss.rows.ExactColumnSums}), so the mean's sensitivity is exactly {@code sqrt(sum (hi_i - lo_i)^2)/n} with the
 * floating-point interval ends {@code lo_i, hi_i} (rounded up); the mean is rounded to the power-of-two grid
 * {@code g} and released as {@code g (round(mean/g) + Z)}, {@code Z_j} discrete Gaussians (CKS20), with
 * {@code Delta' = Delta + g sqrt(d)}. The standard deviation is
 * {@code max(Delta' sqrt(2 ln(2.5/delta*)) / (epsilon* /2), Delta' / sqrt(2 rho))},
 * {@code rho = ConversionPolicy.rhoFor(epsilon* /2, delta* /2)} (CKS20 Cor. 13): the second term is what makes the
 * discrete mechanism provably {@code (epsilon* /2, delta* /2)}-DP for every epsilon, the first is spec B3's
 * classical value, kept so the noise is never below the spec's.
 *
 * <p><b>Release contract</b> ({@link PrivateMechanism}): releases {@code mean}; the two halves of the budget compose
 * through {@link PrivacyAccountant#composeSteps}. On a FAIL (a histogram returned bottom) the clipped mean and its
 * noise are still computed, with stand-in centres, and discarded, so a FAIL skips no work; timing side channels in
 * general are outside the guarantee. Immutable.
 */
public final class CoordinateWiseMean implements RowSourceMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "mean.coordinate";

    private final double[] width;
    private final double[] radius;
    private final int n;
    private final double beta;
    private final ApproxDp target;
    private final StableHistogram histogram;
    private final double histogramEpsilon;
    private final Zcdp meanBudget;

    private CoordinateWiseMean(double[] width, double[] radius, int n, double beta, ApproxDp target,
            double histogramEpsilon, StableHistogram histogram, Zcdp meanBudget) {
        this.width = width;
        this.radius = radius;
        this.n = n;
        this.beta = beta;
        this.target = target;
        this.histogramEpsilon = histogramEpsilon;
        this.histogram = histogram;
        this.meanBudget = meanBudget;
    }

    /**
     * @param variances the public per-coordinate variances {@code Sigma_ii} (a proxy: upper bounds are fine), each
     *        finite and {@code > 0}
     * @param n the public number of rows, {@code >= 1}
     * @param beta the accuracy failure probability of the clipping radius, in {@code (0, 1)}
     * @param target the target (epsilon*, delta*): epsilon*, finite and {@code > 0} (the histograms need
     *        {@code epsilon_c >= 2^-26})
     *        (delta: the target delta*, in {@code (0, 1)})
     * @return the estimator
     * @throws IllegalArgumentException naming the parameter, its value, the allowed range and why
     */
    public static CoordinateWiseMean of(double[] variances, int n, double beta, ApproxDp target) {
        double epsilon = Objects.requireNonNull(target, "target (epsilon, delta)").epsilon();
        double delta = target.delta();
        Objects.requireNonNull(variances, "variances");
        int d = variances.length;
        if (d == 0) {
            throw new IllegalArgumentException("variances has no coordinates: the data dimension d must be >= 1");
        }
        if (n < 1) {
            throw new IllegalArgumentException("n=" + n + " is outside [1, inf): the mean needs rows");
        }
        if (!(beta > 0 && beta < 1)) {
            throw new IllegalArgumentException("beta=" + beta + " is outside (0, 1): it is the failure probability"
                    + " of the clipping radius");
        }
        if (!(epsilon > 0) || !Double.isFinite(epsilon)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + " is outside (0, inf): the privacy budget"
                    + " must be positive and finite");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta=" + delta + " is outside (0, 1): the histograms and the"
                    + " Gaussian mechanism are approximate DP only");
        }
        double tail = 1.5 + Math.sqrt(2 * Math.log(2.0 * n * d / beta));
        double[] w = new double[d];
        double[] r = new double[d];
        for (int i = 0; i < d; i++) {
            double v = variances[i];
            if (!(v > 0) || !Double.isFinite(v)) {
                throw new IllegalArgumentException("variance " + i + " = " + v + " is outside (0, inf): the bin"
                        + " width sigma_i = sqrt(Sigma_ii) must be positive and finite");
            }
            w[i] = Math.sqrt(v);
            r[i] = w[i] * tail;
            if (!(r[i] < 0x1p500) || !(w[i] > 0x1p-500)) {
                throw new IllegalArgumentException("variance " + i + " = " + v + " gives bin width " + w[i]
                        + " and radius " + r[i] + ", outside [2^-500, 2^500]: rescale the data");
            }
        }
        // §10 B3: d histograms share (epsilon* /2, delta* /2) by advanced composition (slack delta* /4).
        double epsC = Sparse.perInstanceEpsilon(d, epsilon / 2, delta / 4);
        if (!(epsC >= 0x1p-26)) {
            double lo = epsilon;
            double hi = epsilon;
            while (!(Sparse.perInstanceEpsilon(d, hi / 2, delta / 4) >= 0x1p-26) && hi < 1e6) {
                hi *= 2;
            }
            for (int i = 0; i < 60; i++) {
                double mid = 0.5 * (lo + hi);
                if (Sparse.perInstanceEpsilon(d, mid / 2, delta / 4) >= 0x1p-26) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            throw new IllegalArgumentException("epsilon=" + epsilon + " with d=" + d + " gives per-histogram epsilon "
                    + epsC + ", below 2^-26: the histograms' noise scale would exceed their exact-sampling range;"
                    + " epsilon >= " + String.format(java.util.Locale.ROOT, "%.4g", hi) + " is needed at this d");
        }
        StableHistogram h = StableHistogram.of(epsC, delta / (4.0 * d));
        Zcdp rho = ConversionPolicy.rhoFor(epsilon / 2, delta / 2);
        return new CoordinateWiseMean(w, r, n, beta, ApproxDp.of(epsilon, delta), epsC, h, rho);
    }

    /** @return d */
    public int dimension() {
        return width.length;
    }

    /** @return the per-histogram epsilon_c */
    public double histogramEpsilon() {
        return histogramEpsilon;
    }

    /** @return the per-coordinate histogram (threshold and noise scale are public) */
    public StableHistogram histogram() {
        return histogram;
    }

    /** @return the clipping radius {@code r_i} of coordinate i */
    public double radius(int i) {
        return radius[i];
    }

    /**
     * The noise standard deviation per coordinate for centres {@code c} (the clip interval ends depend on them
     * through floating-point rounding only; for a public estimate pass any centre, e.g. zeros).
     *
     * @param centre the centres c_i
     * @return the standard deviation before the grid's ceiling
     */
    public double noiseSigma(double[] centre) {
        double ideal = sensitivity(centre);
        double g = NoiseGrid.spacing("sigma", sigmaFor(ideal));
        return sigmaFor(Math.nextUp(ideal + NoiseGrid.l2RoundingInflation(g, width.length)));
    }

    /**
     * The guarantee, composed by the accountant ({@link PrivacyAccountant#composeSteps}) from the two halves of the
     * budget: the d histograms (each {@code (epsilon_c, delta* /(4d))}, composed to {@code (epsilon* /2, delta* /2)}
     * by the better of basic and advanced composition with slack {@code delta* /4}) and the discrete Gaussian mean
     * ({@code (epsilon* /2, delta* /2)}). At most the target.
     *
     * @return replace-one, n public; certified (the recipe's certification)
     */
    public PrivacyGuarantee guarantee() {
        NeighbouringRelation rel = NeighbouringRelation.REPLACE_ONE;
        double half = target.epsilon() / 2;
        double halfDelta = target.delta() / 2;
        List<Release> steps = List.of(
                Release.approxDp("centringHistograms", rel, ApproxDp.of(half, halfDelta)),
                Release.approxDp("clippedMean", rel, ApproxDp.of(half, halfDelta)));
        return PrivacyAccountant.composeSteps(rel, steps, target.delta(), true,
                "coordinate-wise mean (spec anisotropic-mean-estimation §10 B3): d=" + width.length + " stable"
                        + " histograms at (" + histogramEpsilon + ", " + (target.delta() / (4.0 * width.length))
                        + ") composed to (eps/2, delta/2), box clipping, discrete Gaussian mean at (eps/2, delta/2)"
                        + " via zCDP rho=" + meanBudget.rho() + " (" + ConversionPolicy.NAME + "); n=" + n + " public;"
                        + " timing side channels are outside the guarantee");
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    @Override
    public Statement state(PublicContext context) {
        if (context.rows() != n || context.dimension() != width.length) {
            throw new IllegalArgumentException("the data are " + context.rows() + " x " + context.dimension()
                    + " but the estimator was made for n x d = " + n + " x " + width.length + " (n is public and"
                    + " fixes the noise)");
        }
        Statement.Builder b = Statement.builder(context, ID, guarantee())
                .description("private mean, coordinate-wise range finding, box clipping and Gaussian noise")
                .parameters(PublicParameters.builder()
                        .put("n", n)
                        .put("d", width.length)
                        .put("epsilon", target.epsilon())
                        .put("delta", target.delta())
                        .put("beta", beta)
                        .put("binWidth", width)
                        .put("clipRadius", radius)
                        .put("histogramEpsilon", histogramEpsilon)
                        .put("histogramDelta", target.delta() / (4.0 * width.length))
                        .put("meanRho", meanBudget.rho())
                        .put("noiseSigma", effectiveSigma())
                        .build())
                .failMeaning("a per-coordinate private histogram found no bin that clearly holds the most rows:"
                        + " the data may be too few (about sqrt(d)/epsilon rows are needed) or too spread out for"
                        + " the public variances; more rows or a larger epsilon make a PASS likelier (see the README,"
                        + " mean --method coordinate)");
        accuracy().ifPresent(b::accuracy);
        return b.build();
    }

    /** The probability at which releases state their error bound (when beta leaves room for it). */
    public static final double ACCURACY_PROBABILITY = 0.95;

    /** The share of the mass of a Gaussian coordinate that its mode bin of width sigma_i holds at least. */
    static final double MODE_BIN_SHARE = 0.34;

    /** The noise standard deviation per coordinate, with the grid's ceiling (centres at 0; see noiseSigma). */
    private double effectiveSigma() {
        double s = noiseSigma(new double[width.length]);
        double g = NoiseGrid.spacing("sigma", s);
        // the interval ends of other centres round differently by a relative 1e-15 at most: nextUp covers it
        return g * NoiseGrid.integerScale("sigma", Math.nextUp(s * (1 + 1e-12)), g);
    }

    /**
     * The smallest n at which every coordinate's mode bin (at least 34% of the rows of a Gaussian coordinate whose
     * variance the bin width matches) clears the histograms' threshold by their noise's 1% tail per coordinate
     * ({@code 0.34 n >= T + b ln(d/0.01)}, T and b the public threshold and noise scale): below it the release is
     * likely to FAIL and no accuracy is stated.
     *
     * @return the smallest such n (public)
     */
    public long minimumRowsForStatement() {
        double need = histogram.threshold() + histogram.noiseScale() * Math.log(width.length / 0.01);
        return (long) Math.ceil(need / MODE_BIN_SHARE);
    }

    /**
     * The a-priori accuracy in L2 distance to the mean of the rows: the isotropic noise (standard deviation
     * {@code noiseSigma}), plus the grid rounding, exactly when no value is clipped. Clipping happens with probability
     * at most beta when the rows are Gaussian with variances at most the proxy and each histogram picks the bin of
     * its coordinate's mode or a neighbour (likely above {@link #minimumRowsForStatement()}, not a public fact,
     * hence an assumption). Failure budget: beta for clipping, the rest of 5% (at least 1%) for the noise. Below the
     * minimum n the statement is empty.
     *
     * @return the statement, or empty below the minimum n
     */
    public java.util.Optional<Accuracy> accuracy() {
        if (n < minimumRowsForStatement()) {
            return java.util.Optional.empty();
        }
        int d = width.length;
        double failure = Math.max(1 - ACCURACY_PROBABILITY, beta + 0.01);
        double s = effectiveSigma();
        double g = NoiseGrid.spacing("sigma", noiseSigma(new double[d]));
        double[] w = new double[d];
        java.util.Arrays.fill(w, s * s);
        double expected = GaussianNorms.expected(w);
        double bound = GaussianNorms.bound(w, failure - beta) + g * Math.sqrt(d) / 2;
        return java.util.Optional.of(Accuracy.of("L2 distance to the mean of the rows", expected, bound,
                1 - failure, "the rows are Gaussian with per-coordinate variances at most the public proxy and each"
                        + " private histogram finds its coordinate's mode bin or a neighbour (likely for n >= "
                        + minimumRowsForStatement() + "; otherwise the release FAILs or clips), so that no value is"
                        + " clipped except with probability beta=" + beta + "; the noise is spherical, of total size"
                        + " about sqrt(d tr Sigma log(nd/beta))/(epsilon n), and dominates the error"));
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        AnisotropicMeanResult r = release(data.matrix(), context.random());
        return r.isFail() ? Outcome.fail() : Outcome.pass().vector("mean", r.estimate()).build();
    }

    /** The rows must be n x d (finite by the row source's contract): n is public and fixes the noise. Public facts only; run by compute, after the charge (issue 24). */
    void validate(RowSource rows, Statement stated) {
        if (rows.rows() != n || rows.cols() != width.length) {
            throw new IllegalArgumentException("data are " + rows.rows() + " x " + rows.cols() + ", expected n x d = "
                    + n + " x " + width.length + ": n is public and fixes the noise");
        }
    }

    @Override
    public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
        validate(rows, stated);
        AnisotropicMeanResult r = release(rows, Objects.requireNonNull(context.random(), "random source"));
        return r.isFail() ? Outcome.fail() : Outcome.pass().vector("mean", r.estimate()).build();
    }

    /**
     * Runs the estimator.
     *
     * @param x the data, {@code n x d}, finite
     * @param random the noise source ({@link RandomSource#secure()} for private releases)
     * @return the estimate, or {@link AnisotropicMeanResult#FAIL} when a histogram returns bottom
     * @throws IllegalArgumentException for data of the wrong shape or with a non-finite entry (checked first)
     */
    AnisotropicMeanResult release(RowBlockMatrix x, RandomSource random) {
        Objects.requireNonNull(random, "random source");
        int d = width.length;
        if (x == null || x.rows() != n || x.cols() != d) {
            throw new IllegalArgumentException("data are " + (x == null ? "null" : x.rows() + " x " + x.cols())
                    + ", expected n x d = " + n + " x " + d + ": n is public and fixes the noise");
        }
        double[] row = new double[d];
        for (int r = 0; r < n; r++) {
            x.copyRow(r, row, 0);
            for (int i = 0; i < d; i++) {
                if (!Double.isFinite(row[i])) {
                    throw new IllegalArgumentException("data row " + (r + 1) + ", column " + (i + 1) + " is not"
                            + " finite: entries must be finite (spec §9)");
                }
            }
        }
        return release(LocalRows.of(x, CpuEngine.instance(), org.dpgauss.rows.RowLayout.of(n, 1)), random);
    }

    /**
     * The estimator as two row passes: the bin counts of every coordinate (integers, added over the blocks), the d
     * histograms released on the caller's machine in coordinate order, then the exact column sums of the rows
     * clipped to the box of the released centres. Counts and sums are exact, so the release does not depend on the
     * layout.
     *
     * @param x the n x d rows (finite)
     * @param random the noise source
     * @return the estimate, or {@link AnisotropicMeanResult#FAIL} when a histogram returns bottom
     */
    AnisotropicMeanResult release(RowSource x, RandomSource random) {
        int d = width.length;
        double[] w = width.clone();
        // bins of coordinate i: floor(x_i / w_i), a saturating cast (a row function, so any value is fine for privacy)
        ArrayList<TreeMap<Long, Long>> counts = x.reduce((b, block, e) -> {
            ArrayList<TreeMap<Long, Long>> p = new ArrayList<>(d);
            for (int i = 0; i < d; i++) {
                p.add(new TreeMap<>());
            }
            double[] v = new double[d];
            for (int r = 0; r < block.rows(); r++) {
                block.copyRow(r, v, 0);
                for (int i = 0; i < d; i++) {
                    p.get(i).merge((long) Math.floor(v[i] / w[i]), 1L, Long::sum);
                }
            }
            return p;
        }, (acc, p) -> {
            if (acc == null) {
                return p;
            }
            for (int i = 0; i < d; i++) {
                TreeMap<Long, Long> into = acc.get(i);
                p.get(i).forEach((bin, c) -> into.merge(bin, c, Long::sum));
            }
            return acc;
        });
        double[] centre = new double[d];
        boolean failed = false;
        for (int i = 0; i < d; i++) { // every histogram is drawn, so the timing only reveals FAIL
            StableHistogram.Result b = histogram.release(counts.get(i), random);
            if (b.isFail()) {
                failed = true;
            } else {
                centre[i] = ((double) b.bin() + 0.5) * width[i];
            }
        }
        // On FAIL the rest still runs with stand-in centres (0) and is discarded: a FAIL skips no work.
        double[] lo = new double[d];
        double[] hi = new double[d];
        for (int i = 0; i < d; i++) {
            lo[i] = centre[i] - radius[i];
            hi[i] = centre[i] + radius[i];
            if (!Double.isFinite(lo[i]) || !Double.isFinite(hi[i])) {
                failed = true; // a centre near Long.MAX bins: post-processing of the histograms
                centre[i] = 0;
                lo[i] = -radius[i];
                hi[i] = radius[i];
            }
        }
        BigDecimal[] exact = x.map(clip(lo, hi)).exactColumnSums().exact();
        double ideal = sensitivity(centre);
        double g = NoiseGrid.spacing("sigma", sigmaFor(ideal));
        double sigma = sigmaFor(Math.nextUp(ideal + NoiseGrid.l2RoundingInflation(g, d)));
        SecureGaussianSampler sampler = SecureGaussianSampler.using(random);
        BigDecimal divisor = new BigDecimal(g).multiply(BigDecimal.valueOf(n));
        double[] estimate = new double[d];
        for (int i = 0; i < d; i++) {
            BigInteger index = exact[i].divide(divisor, 0, RoundingMode.HALF_EVEN).toBigIntegerExact();
            BigInteger released = index.add(BigInteger.valueOf(sampler.sampleIndex(sigma, g)));
            estimate[i] = new BigDecimal(released).multiply(new BigDecimal(g)).doubleValue();
        }
        return failed ? AnisotropicMeanResult.FAIL : AnisotropicMeanResult.success(estimate, guarantee());
    }

    /** Clips each coordinate to {@code [lo_i, hi_i]} (public: the box of the released centres). */
    private static BlockMap clip(double[] lo, double[] hi) {
        return (block, engine) -> {
            int d = lo.length;
            org.dpgauss.linalg.RowBlockMatrix out = org.dpgauss.linalg.RowBlockMatrix.zeros(block.rows(), d);
            double[] row = new double[d];
            for (int r = 0; r < block.rows(); r++) {
                block.copyRow(r, row, 0);
                for (int i = 0; i < d; i++) {
                    row[i] = Math.min(Math.max(row[i], lo[i]), hi[i]);
                }
                out.setRow(r, row);
            }
            return out;
        };
    }

    /** {@code sqrt(sum (hi_i - lo_i)^2) / n}, rounded up, for the floating-point interval ends of the centres. */
    private double sensitivity(double[] centre) {
        double s = 0;
        for (int i = 0; i < width.length; i++) {
            double len = Math.nextUp((centre[i] + radius[i]) - (centre[i] - radius[i]));
            s = Math.nextUp(s + Math.nextUp(len * len));
        }
        return Math.nextUp(Math.nextUp(Math.sqrt(s)) / n);
    }

    private double sigmaFor(double sensitivity) {
        double eps = target.epsilon() / 2;
        double classical = Math.nextUp(sensitivity * Math.sqrt(2 * Math.log(2.5 / target.delta())) / eps);
        return Math.max(classical, meanBudget.sigmaFor(sensitivity));
    }
}
