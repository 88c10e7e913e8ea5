package org.dpgauss.mean;

import java.util.Objects;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;

/**
 * The clipped Gaussian mean when no public radius is known ({@code mean --method clipped --clip auto}): a share
 * of the budget finds the clipping radius privately, the rest releases the clipped mean at that radius.
 *
 * <p><b>Step 1, the radius.</b> Each row's distance to the public centre falls in a dyadic bucket
 * {@code k = ceil(log2 ||x - c||)}, clamped to the public range {@code [kMin, kMax]} (a row at the centre counts in
 * {@code kMin}). The bucket counts form a histogram; replacing one row moves one count down and another up, so its
 * L2 sensitivity is {@code sqrt 2}, and adding discrete Gaussian noise of scale {@code s = max(1, 1/sqrt(rho1))}
 * to every count is {@code 1/s^2 <= rho1}-zCDP (Canonne, Kamath &amp; Steinke 2020, Thm. 14). The radius is
 * {@code C = 2^k*} for the largest bucket {@code k*} whose noisy count exceeds {@code T = s z}, with {@code z}
 * the {@code 1 - beta/K} standard normal quantile: an empty bucket passes with probability at most
 * {@code beta/K}, so with probability at least {@code 1 - beta} every row beyond C lies in a bucket of true count
 * above about {@code T - s z'}... in words, only buckets too small to stand out of the noise are clipped. C is
 * within a factor 2 of the farthest such bucket's rows. If no bucket stands out the release is FAIL.
 *
 * <p><b>Step 2, the mean.</b> {@link ClippedGaussianMean} with radius C and zCDP budget {@code rho2}. C and the
 * noise scale are functions of the noisy histogram only, so they are released with the mean.
 *
 * <p><b>Guarantee.</b> {@code (rho1 + rho2)}-zCDP under replace-one neighbours with n public (zCDP composes by
 * addition, Bun &amp; Steinke 2016 Lemma 2.3; the mean step is adaptive in C, which composition allows).
 */
public final class AutoClippedGaussianMean implements org.dpgauss.rows.RowSourceMechanism {

    /** The mechanism's identifier. */
    public static final String ID = "mean.clipped-auto";
    /** Default share of the budget spent on the radius. */
    public static final double DEFAULT_SHARE = 0.25;
    /** Default bucket range: radii from 2^-40 to 2^80. */
    public static final int DEFAULT_K_MIN = -40;
    /** Default largest bucket. */
    public static final int DEFAULT_K_MAX = 80;
    /** Probability that an empty bucket is mistaken for data, summed over buckets. */
    public static final double BETA = 1e-3;

    private final double[] centre;
    private final Zcdp budget;
    private final double share;
    private final int kMin;
    private final int kMax;

    private AutoClippedGaussianMean(double[] centre, Zcdp budget, double share, int kMin, int kMax) {
        this.centre = centre;
        this.budget = budget;
        this.share = share;
        this.kMin = kMin;
        this.kMax = kMax;
    }

    /**
     * @param centre the public centre (length d)
     * @param budget the total zCDP budget
     * @param share the share of the budget spent on the radius, in (0, 1)
     * @return the mechanism, with the default bucket range
     */
    public static AutoClippedGaussianMean of(double[] centre, Zcdp budget, double share) {
        return of(centre, budget, share, DEFAULT_K_MIN, DEFAULT_K_MAX);
    }

    /**
     * @param centre the public centre (length d, finite)
     * @param budget the total zCDP budget, rho &gt; 0
     * @param share the share of the budget spent on the radius, in (0, 1)
     * @param kMin the smallest radius bucket, 2^kMin
     * @param kMax the largest radius bucket, 2^kMax (kMin &lt; kMax, both in [-1000, 1000])
     * @return the mechanism
     */
    public static AutoClippedGaussianMean of(double[] centre, Zcdp budget, double share, int kMin, int kMax) {
        Objects.requireNonNull(centre, "centre");
        Objects.requireNonNull(budget, "budget");
        if (!(budget.rho() > 0)) {
            throw new IllegalArgumentException("rho=" + budget.rho() + " must be > 0");
        }
        if (!(share > 0 && share < 1)) {
            throw new IllegalArgumentException("the radius share " + share + " is outside (0, 1): part of the"
                    + " budget finds the radius, the rest releases the mean");
        }
        if (!(kMin < kMax) || kMin < -1000 || kMax > 1000) {
            throw new IllegalArgumentException("the radius range 2^" + kMin + " .. 2^" + kMax + " must have"
                    + " -1000 <= kMin < kMax <= 1000");
        }
        ClippedGaussianMean.of(1.0, centre, Zcdp.of(budget.rho() * (1 - share))); // validates the centre
        return new AutoClippedGaussianMean(centre.clone(), budget, share, kMin, kMax);
    }

    /**
     * @param epsilon a target epsilon, met at delta by the {@link ConversionPolicy}
     * @param delta its delta
     * @param centre the public centre
     * @param share the radius share
     * @return the mechanism
     */
    public static AutoClippedGaussianMean forTarget(double epsilon, double delta, double[] centre, double share) {
        return of(centre, ConversionPolicy.rhoFor(epsilon, delta), share);
    }

    private double radiusRho() {
        return budget.rho() * share;
    }

    private double meanRho() {
        return budget.rho() - radiusRho();
    }

    /** The integer noise scale of the histogram counts. */
    double histogramSigma() {
        return Math.max(1.0, 1.0 / Math.sqrt(radiusRho()));
    }

    /** The count a bucket's noisy count must exceed to be taken as data. */
    double threshold() {
        int buckets = kMax - kMin + 1;
        double z = NormalDistribution.of(0, 1).inverseSurvivalProbability(BETA / buckets);
        return Math.ceil(histogramSigma()) * z;
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
        if (!ClippedGaussianMean.of(Math.scalb(1.0, kMax), centre, Zcdp.of(meanRho())).fitsGrid(n)) {
            throw new IllegalArgumentException("the centre is too far from the origin for the radius range up to 2^"
                    + kMax + ": subtract a public offset from the data first");
        }
        PrivacyGuarantee g = PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, budget, context.delta(), true,
                "private radius (noisy dyadic histogram of distances to the centre, rho=" + radiusRho()
                        + ") then the clipped Gaussian mean at that radius (rho=" + meanRho() + "); zCDP adds up");
        return Statement.builder(context, ID, g)
                .description("private mean, clipped Gaussian mechanism with a privately chosen radius")
                .parameters(PublicParameters.builder()
                        .put("n", n)
                        .put("d", centre.length)
                        .put("centre", centre)
                        .put("rho", budget.rho())
                        .put("radiusRho", radiusRho())
                        .put("meanRho", meanRho())
                        .put("radiusBucketsLog2", new double[] {kMin, kMax})
                        .put("histogramSigma", Math.ceil(histogramSigma()))
                        .put("bucketThreshold", threshold())
                        .build())
                .accounting(Release.zcdp(ID, NeighbouringRelation.REPLACE_ONE, budget))
                .accuracy(accuracy(n, ClippedGaussianMean.ACCURACY_PROBABILITY))
                .failMeaning("no distance bucket held enough rows to stand out of the radius-finding noise: the"
                        + " data are too few for this budget (each bucket needs about " + (long) Math.ceil(threshold())
                        + " rows); give a public --clip radius, a larger epsilon or more rows")
                .build();
    }

    /**
     * The a-priori error in units of the radius the release will choose: the noise of the clipped mean at radius C
     * has standard deviation {@code sigma(C)} per coordinate, nearly proportional to C; the statement uses the
     * largest {@code sigma(C)/C} over every radius the release can choose ({@code 2^kMin .. 2^kMax}), so it holds
     * whichever is chosen. Divide by nothing: multiply by the released {@code clipRadius} to get the L2 error.
     *
     * @param n the number of rows (public)
     * @param probability the probability of the bound
     * @return the statement
     */
    public org.dpgauss.release.Accuracy accuracy(int n, double probability) {
        double perUnit = 0;
        for (int k = kMin; k <= kMax; k++) {
            double c = Math.scalb(1.0, k);
            ClippedGaussianMean m = ClippedGaussianMean.of(c, centre, Zcdp.of(meanRho()));
            // a radius whose noise grid cannot hold the centre is never released (compute raises it to the smallest
            // power of two that fits, kMax at most): its sigma/C, inflated by the slack of the centre's magnitude,
            // must not set the statement (issue 29 replay: 2.7x the realised error at centre 0.5 on digits in [0,1])
            if (k < kMax && !m.fitsGrid(n)) {
                continue;
            }
            perUnit = Math.max(perUnit, m.sigma(n) / c);
        }
        return org.dpgauss.release.Accuracy.isotropicGaussianL2("L2 distance to the mean of the rows, in units of the"
                + " released clipRadius", perUnit, centre.length, probability, "every row lies within the released"
                + " clipRadius of the centre (rows beyond it are pulled onto the ball, biasing the mean towards the"
                + " centre; the radius covers every distance bucket that stands out of the radius-finding noise)");
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return compute(org.dpgauss.rows.LocalRows.of(data.matrix(), context.engine()), stated, context);
    }

    /**
     * Two passes: the histogram of distances to the centre (integer counts: the same whatever the layout), then the
     * clipped mean's exact column sums; the driver draws every noise value.
     */
    @Override
    public Outcome compute(org.dpgauss.rows.RowSource x, Statement stated, ReleaseContext context) {
        int n = (int) x.rows();
        double radius = radius(x, context.random());
        // the mean is computed on both branches so that a FAIL skips no work
        double r = Double.isNaN(radius) ? 1.0 : radius;
        ClippedGaussianMean mean = ClippedGaussianMean.of(r, centre, Zcdp.of(meanRho()));
        // a radius tiny against the centre's magnitude would leave the noise grid; raising it to the smallest
        // power of two that fits is a public function of the released radius (post-processing)
        while (!mean.fitsGrid(n) && r < Math.scalb(1.0, kMax)) {
            r *= 2;
            mean = ClippedGaussianMean.of(r, centre, Zcdp.of(meanRho()));
        }
        if (!Double.isNaN(radius)) {
            radius = r;
        }
        double[] m = mean.release(x, context.random());
        if (Double.isNaN(radius)) {
            return Outcome.fail();
        }
        return Outcome.pass().vector("mean", m).scalar("clipRadius", radius).scalar("noiseSigma", mean.sigma(n))
                .build();
    }

    /** The private radius 2^k*, or NaN when no bucket stands out. */
    double radius(RowBlockMatrix x, RandomSource random) {
        return radius(org.dpgauss.rows.LocalRows.of(x, org.dpgauss.engine.CpuEngine.instance()), random);
    }

    private double radius(org.dpgauss.rows.RowSource x, RandomSource random) {
        int lo = kMin;
        int hi = kMax;
        long[] counts = DistanceHistogram.counts(x, centre, kMax - kMin + 1, r -> bucket(r, lo, hi) - lo);
        int best = DistanceHistogram.largestAbove(counts, Math.ceil(histogramSigma()), threshold(), random);
        return best < 0 ? Double.NaN : Math.scalb(1.0, best + kMin);
    }

    /** ceil(log2 r) clamped to [kMin, kMax]; exact (no logarithm). */
    int bucket(double r) {
        return bucket(r, kMin, kMax);
    }

    private static int bucket(double r, int kMin, int kMax) {
        if (!(r > 0)) {
            return kMin;
        }
        if (Double.isInfinite(r)) {
            return kMax;
        }
        int e = Math.getExponent(r);
        if (e < Double.MIN_EXPONENT) { // subnormal
            return kMin;
        }
        int k = r == Math.scalb(1.0, e) ? e : e + 1;
        return Math.max(kMin, Math.min(kMax, k));
    }
}
