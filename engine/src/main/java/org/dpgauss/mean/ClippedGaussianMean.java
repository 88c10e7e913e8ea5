package org.dpgauss.mean;

import java.util.Objects;
import org.dpgauss.linalg.L2Clip;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.privacy.noise.NoiseGrid;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.rows.BlockPass;
import org.dpgauss.rows.ExactColumnSums;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;

/**
 * The clipped Gaussian-mechanism mean (the baseline of spec anisotropic-mean-estimation §10): each row is
 * projected onto the L2 ball of public radius C around a public centre c, the projected rows are averaged,
 * and isotropic Gaussian noise is added.
 *
 * <p><b>Guarantee:</b> rho-zCDP under <b>replace-one</b> neighbours with n public. Replacing one row moves
 * the average of the clipped rows by at most {@code Delta = 2C/n} in L2, and releasing
 * {@code f + N(0, sigma^2 I)} is {@code Delta^2 / (2 sigma^2)}-zCDP (spec second-moment-estimation §1.2). The
 * (epsilon, delta) statement uses the Bun–Steinke conversion.
 *
 * <p><b>Noise and its accounting.</b> The noise is the discrete Gaussian of {@link SecureGaussianSampler}
 * (Canonne, Kamath &amp; Steinke 2020, exact integer sampling, so no floating-point attack à la Mironov 2012):
 * with the power-of-two grid {@code g = NoiseGrid.spacing(Delta / sqrt(2 rho))} (about {@code 2^-20} of the
 * ideal sigma) the release is {@code g * (round(f^/g) + Z)}, {@code Z_j ~ N_Z(0, s^2)} independent, an exact grid
 * point. {@code f^} is the floating-point value of {@code f}; the integer query {@code round(f^/g)} has L2
 * sensitivity at most {@code Delta' / g} with
 * <pre>
 *   Delta' = 2C/n + 4u ((d + 8) C / n + 4 C + ||c||_2)   (floating-point slack, u = 2^-53)
 *          + g sqrt(d)                                   (rounding to the grid, NoiseGrid)
 * </pre>
 * and {@code s = ceil(Delta' / (g sqrt(2 rho)))}, so by CKS20 Thm. 14 the release is
 * {@code (Delta'/g)^2 / (2 s^2) <= rho}-zCDP exactly. The slack term bounds how far the computed average can
 * move beyond {@code 2C/n} for neighbouring inputs (rows shared by both datasets give bit-identical clipped
 * terms; the differing term is off by at most {@code (d + 6) u C}; the column sums are exact sums rounded once
 * ({@link ExactColumnSums}), which errs by at most {@code u} times the sum's magnitude, within the
 * {@code (2u + O(n u^2))} times the sum of magnitudes that the slack allows for compensated (Kahan) summation,
 * Higham, <i>Accuracy and Stability of Numerical Algorithms</i>, §4.3; one rounding each for the division by n and
 * the centre). Exact sums do not depend on the order of the rows or on how they are split among blocks, so the
 * release is the same bits in memory and on a cluster ({@link RowSourceMechanism}). Both extra terms are tiny:
 * {@link #sigma(int)}, the effective standard deviation {@code g s}, exceeds the ideal {@code 2C/(n sqrt(2 rho))}
 * by a relative {@code 2^-20 (1 + sqrt(d / (2 rho))) + 2 u n (4 + ||c||/C)} at most (since
 * {@code g <= 2^-20 Delta / sqrt(2 rho)}).
 *
 * <p><b>Every scale</b> (issue 24, item 1). The clipped terms come from {@link L2Clip#clipDifference}, the project's
 * one clipping routine: it compares the norm of {@code x - c} with C (never a squared norm with {@code C * C}, which
 * overflows above C ~ 1e154 and underflows below C ~ 1e-154) and survives a difference {@code x - c} that overflows,
 * so every finite row contributes a term of norm at most {@code C (1 + (d + 2) u)}. C is admitted in
 * {@code [2^-1022, 2^1000]} ({@link L2Clip#checkRadius}); the statement then checks, for the public n, that
 * {@code 2C/n} is a normal double and that the noise scale lies on the noise grid, so a radius whose sensitivity
 * would overflow or vanish is refused before the data are read.
 *
 * <p>Clipping is the mechanism's definition, not input cleaning: rows outside the ball contribute their
 * projection. Accuracy degrades when C is small relative to the data's spread around c. How many rows were
 * clipped is itself a function of the data and is not reported.
 *
 * <p>Under the release contract ({@link PrivateMechanism}) it releases {@code mean} with public parameters
 * {@code clipRadius}, {@code centre} and {@code noiseSigma}; it never FAILs. Build it with {@link #builder()}.
 */
public final class ClippedGaussianMean implements RowSourceMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "mean.clipped";

    private static final double U = 0x1p-53;

    private final double clipRadius;
    private final double[] centre;
    private final double centreNorm;
    private final Zcdp budget;

    private ClippedGaussianMean(double clipRadius, double[] centre, Zcdp budget) {
        this.clipRadius = clipRadius;
        this.centre = centre;
        this.centreNorm = Math.nextUp(org.dpgauss.linalg.Norms.euclidean(centre)); // no squares that overflow
        this.budget = budget;
    }

    /** @return a builder: {@code clipRadius} and a budget ({@code rho} or {@code targetEpsilon}) are required */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param clipRadius C > 0, public
     * @param centre     c, public (length d)
     * @param budget     the zCDP budget, rho > 0
     * @return the mechanism
     */
    public static ClippedGaussianMean of(double clipRadius, double[] centre, Zcdp budget) {
        return of(clipRadius, centre, Objects.requireNonNull(budget, "budget").rho());
    }

    private static ClippedGaussianMean of(double clipRadius, double[] centre, double rho) {
        L2Clip.checkRadius("clip radius C", clipRadius); // a normal double <= 2^1000: 2C and the slack are finite
        Objects.requireNonNull(centre, "centre");
        if (centre.length == 0) {
            throw new IllegalArgumentException("centre has no coordinates");
        }
        for (int j = 0; j < centre.length; j++) {
            if (!Double.isFinite(centre[j])) {
                throw new IllegalArgumentException("centre coordinate " + j + " is " + centre[j]);
            }
        }
        if (!(rho > 0)) {
            throw new IllegalArgumentException("rho=" + rho + " must be > 0: a zero budget releases nothing useful");
        }
        return new ClippedGaussianMean(clipRadius, centre.clone(), Zcdp.of(rho));
    }

    /** The grid spacing {@code g} of the release for n rows (a power of two). */
    public double grid(int n) {
        checkRows(n);
        return NoiseGrid.spacing("sigma", budget.sigmaFor(2.0 * clipRadius / n));
    }

    /**
     * The L2 sensitivity {@code Delta'} accounted for n rows: {@code 2C/n} plus the floating-point slack plus the
     * grid rounding {@code g sqrt(d)} (see the class comment).
     */
    public double sensitivity(int n) {
        checkRows(n);
        int d = centre.length;
        double ideal = 2.0 * clipRadius / n;
        double slack = 4 * U * ((d + 8.0) * clipRadius / n + 4 * clipRadius + centreNorm);
        double total = ideal + Math.nextUp(slack) + NoiseGrid.l2RoundingInflation(grid(n), d);
        return Math.nextUp(total);
    }

    /**
     * Noise standard deviation per coordinate for n rows: the effective {@code g * s} of the discrete Gaussian,
     * at least {@code sensitivity(n) / sqrt(2 rho)} and within a relative {@code 2^-20} of it.
     */
    public double sigma(int n) {
        double g = grid(n);
        return g * NoiseGrid.integerScale("sigma", budget.sigmaFor(sensitivity(n)), g);
    }

    /** The guarantee of one release, with the (epsilon, delta) implied at {@code delta}. */
    public PrivacyGuarantee guarantee(double delta) {
        return PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, budget, delta, true,
                "clipped Gaussian mechanism, L2 sensitivity 2C/n (+ grid rounding and floating-point slack), n public;"
                        + " discrete Gaussian noise on a 2^-20 sigma grid (CKS20)");
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    @Override
    public Statement state(PublicContext context) {
        if (context.dimension() != centre.length) {
            throw new IllegalArgumentException("the centre has " + centre.length + " coordinates but the data have "
                    + context.dimension() + " columns");
        }
        int n = context.rows();
        checkSensitivity(n);
        checkGridRange(n);
        return Statement.builder(context, ID, guarantee(context.delta()))
                .description("private mean, clipped Gaussian mechanism")
                .parameters(PublicParameters.builder()
                        .put("n", n)
                        .put("d", centre.length)
                        .put("clipRadius", clipRadius)
                        .put("centre", centre)
                        .put("rho", budget.rho())
                        .put("noiseSigma", sigma(n))
                        .build())
                .accounting(Release.zcdp(ID, NeighbouringRelation.REPLACE_ONE, budget))
                .accuracy(accuracy(n, ACCURACY_PROBABILITY))
                .build();
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return compute(LocalRows.of(data.matrix(), context.engine()), stated, context);
    }

    @Override
    public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
        return Outcome.pass().vector("mean", release(rows, context.random())).build();
    }

    /** The probability at which releases state their error bound. */
    public static final double ACCURACY_PROBABILITY = 0.95;

    /**
     * The a-priori error of a release on n rows: the L2 norm of the added noise, {@code sigma(n)} per coordinate.
     * It is the distance to the mean of the rows exactly when no row is clipped; rows farther than C from the
     * centre are pulled onto the ball and add a bias towards the centre that no public quantity bounds.
     *
     * @param n the number of rows (public)
     * @param probability the probability of the bound, in (0, 1)
     * @return the statement
     */
    public Accuracy accuracy(int n, double probability) {
        return Accuracy.isotropicGaussianL2("L2 distance to the mean of the rows", sigma(n), centre.length,
                probability, "every row lies within clipRadius of the centre (farther rows are pulled onto the"
                        + " ball, biasing the mean towards the centre)");
    }

    /** Whether every release on n rows is an exact grid point (see {@link #checkGridRange}). */
    boolean fitsGrid(int n) {
        double g = grid(n);
        for (double c : centre) {
            if (Math.abs(c) + 2 * clipRadius > 0x1p51 * g) {
                return false;
            }
        }
        return true;
    }

    /**
     * Public check before touching the data: the sensitivity {@code Delta'} for n rows must be a finite normal
     * double (a tiny radius over many rows would make it subnormal, a huge one infinite), so that the noise scale
     * is what the statement says.
     */
    private void checkSensitivity(int n) {
        double ideal = 2.0 * clipRadius / n;
        if (!(ideal >= Double.MIN_NORMAL && ideal < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("the sensitivity 2C/n of clip radius C=" + clipRadius + " over n=" + n
                    + " rows is not a normal finite double: rescale the data and C by a public factor");
        }
    }

    /** Public check before touching the data, so that no data-dependent failure can occur in rounding. */
    private void checkGridRange(int n) {
        double g = grid(n);
        for (int j = 0; j < centre.length; j++) {
            if (Math.abs(centre[j]) + 2 * clipRadius > 0x1p51 * g) {
                throw new IllegalArgumentException("centre coordinate " + (j + 1) + " is more than 2^51 grid spacings"
                        + " (g=" + g + ") from 0: the release could not be an exact grid point; subtract a public"
                        + " offset from the data first");
            }
        }
    }

    /**
     * The private mean of the rows of x, every coordinate an exact point of {@link #grid(int)}; the computation
     * behind {@link #compute}. Package-private: releases go through the contract ({@code Releases}).
     */
    double[] release(RowBlockMatrix x, RandomSource random) {
        Objects.requireNonNull(random, "random source");
        if (x == null || x.rows() == 0) {
            throw new IllegalArgumentException("data have no rows");
        }
        return release(LocalRows.of(x, CpuEngine.instance()), random);
    }

    double[] release(RowSource x, RandomSource random) {
        Objects.requireNonNull(random, "random source");
        if (x.rows() == 0 || x.rows() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("data have " + (x.rows() == 0 ? "no" : "more than 2^31-1") + " rows");
        }
        int d = x.cols();
        if (d != centre.length) {
            throw new IllegalArgumentException("data have " + d + " columns but the centre has " + centre.length);
        }
        int n = (int) x.rows();
        double g = grid(n);
        checkGridRange(n);
        // exact sums rounded once: within the (2u + O(n u^2)) sum|t_i| that the slack term accounts for
        double[] sum = clippedSums(x);
        double sigma = budget.sigmaFor(sensitivity(n));
        SecureGaussianSampler sampler = SecureGaussianSampler.using(random);
        double[] out = new double[d];
        for (int j = 0; j < d; j++) {
            long k = NoiseGrid.index(centre[j] + sum[j] / n, g);
            out[j] = g * (double) (k + sampler.sampleIndex(sigma, g));
        }
        return out;
    }

    /** @return the column sums of the clipped terms, each the exact sum rounded once */
    double[] clippedSums(RowSource x) {
        return x.reduce(new ClippedSums(centre, clipRadius), ClippedGaussianMean::merge).rounded();
    }

    private static ExactColumnSums merge(ExactColumnSums acc, ExactColumnSums partial) {
        if (acc == null) {
            return partial;
        }
        acc.addAll(partial);
        return acc;
    }

    /**
     * A block's exact column sums of the clipped terms {@code t = s (x - c)}, {@code s = min(1, C / ||x - c||)},
     * the terms the mean averages: each row is clipped into one reused row and summed at once, so the clipped rows
     * are never materialised (one read of the data, no n x d copy).
     */
    private static final class ClippedSums implements BlockPass<ExactColumnSums> {
        private static final long serialVersionUID = 1L;
        private final double[] centre;
        private final double clipRadius;

        ClippedSums(double[] centre, double clipRadius) {
            this.centre = centre.clone();
            this.clipRadius = clipRadius;
        }

        @Override
        public ExactColumnSums apply(int blockIndex, RowBlockMatrix x, org.dpgauss.engine.ComputeEngine engine) {
            int d = x.cols();
            ExactColumnSums sums = ExactColumnSums.zeros(d);
            double[] t = new double[d];
            for (int b = 0; b < x.blockCount(); b++) {
                double[] data = x.block(b);
                for (int r = 0, rows = x.blockRowCount(b); r < rows; r++) {
                    // t = s (x - c), s = min(1, C / ||x - c||): the one scale-safe clipping routine, which compares
                    // the norm with C (never norm^2 with C^2, which overflows above C ~ 1e154; issue 24)
                    L2Clip.clipDifference(data, r * d, centre, t, clipRadius);
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

    /** Builds a {@link ClippedGaussianMean} from named parameters (nothing can be swapped silently). */
    public static final class Builder {
        private Double clipRadius;
        private double[] centre;
        private Zcdp budget;

        private Builder() {
        }

        /**
         * @param c the public L2 clipping radius C &gt; 0
         * @return this builder
         */
        public Builder clipRadius(double c) {
            this.clipRadius = c;
            return this;
        }

        /**
         * @param c the public centre of the clipping ball (default: the origin of the data's dimension)
         * @return this builder
         */
        public Builder centre(double[] c) {
            this.centre = Objects.requireNonNull(c, "centre").clone();
            return this;
        }

        /**
         * @param rho the zCDP budget of the release, &gt; 0
         * @return this builder
         */
        public Builder rho(double rho) {
            this.budget = Zcdp.of(rho);
            return this;
        }

        /**
         * @param epsilon a target epsilon, met at {@code delta} by the project's {@link ConversionPolicy}
         * @param delta the delta of the target
         * @return this builder
         */
        public Builder targetEpsilon(double epsilon, double delta) {
            this.budget = ConversionPolicy.rhoFor(epsilon, delta);
            return this;
        }

        /**
         * @param dimension d, used for the default centre (the origin)
         * @return the mechanism
         */
        public ClippedGaussianMean build(int dimension) {
            if (clipRadius == null) {
                throw new IllegalStateException("clipRadius(C) is required: a public clipping radius");
            }
            if (budget == null) {
                throw new IllegalStateException("a budget is required: rho(..) or targetEpsilon(.., ..)");
            }
            return of(clipRadius, centre != null ? centre : new double[dimension], budget.rho());
        }

        /** @return the mechanism; needs {@link #centre} (else use {@link #build(int)}) */
        public ClippedGaussianMean build() {
            if (centre == null) {
                throw new IllegalStateException("centre(..) is not set: call build(d) for the origin of R^d");
            }
            return build(centre.length);
        }
    }
}
