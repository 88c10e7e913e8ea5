package org.dpgauss.learn;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.dpgauss.linalg.L2Clip;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.mean.PrivateRadius;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.CentreAndClip;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowReleases;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.dpgauss.secondmoment.CoinPress;
import org.dpgauss.secondmoment.SecondMomentMethod;
import org.dpgauss.secondmoment.SecondMomentMethods;
import org.dpgauss.secondmoment.SecondMomentParams;
import org.dpgauss.secondmoment.SpectralAccuracy;

/**
 * Private principal component analysis: the top-k principal subspace and variances of the centred rows, as
 * post-processing of one private second-moment release of the centred rows (issue 26, item 1).
 *
 * <p><b>Algorithm.</b>
 * <ol>
 *   <li>Centre: a public centre c ({@link Builder#centre}), or a private mean {@code mu~} released by the clipped
 *       Gaussian mechanism ({@link ClippedGaussianMean}: rows clipped to {@code meanRadius} around the origin) with a
 *       share of the budget ({@link Builder#meanShare}); with a private radius that is searched, in two stages
 *       (below, "Two-stage centring").</li>
 *   <li>Clip: every centred row {@code x_i - c} is scaled onto the L2 ball of the public radius R by the one
 *       scale-safe routine {@link L2Clip#clipDifference} (no overflow even where {@code x_i - c} does not fit a
 *       double), so the second-moment step's domain holds by construction.</li>
 *   <li>Second moment: the centred, clipped rows' second moment {@code C~} is released by a registered second-moment
 *       method ({@link SecondMomentMethods}; default {@code analyze-gauss}, whose noise law is public and exact).</li>
 *   <li>Post-processing: the eigen-decomposition of {@code C~}; the k leading unit eigenvectors are released as
 *       {@code components} (rows), their eigenvalues as {@code variances}; with a private mean, {@code mean} too.</li>
 * </ol>
 *
 * <p><b>Guarantee.</b> Replace-one neighbours, n public. The centring step and the second-moment step are composed
 * by {@link PrivacyAccountant#composeSteps} (adaptive composition: the second step's input depends on the first
 * step's output; replacing row i changes only centred row i); the eigen-decomposition is post-processing. For the
 * session the accounting form is the sum of the steps' zCDP rho when every step is zCDP.
 *
 * <p><b>Accuracy (a-priori, public).</b> Let C be the target matrix: {@code (1/n) sum_i (x_i - xbar)(x_i - xbar)^T}
 * (the covariance of the rows as given) with a private mean, {@code (1/n) sum_i (x_i - c)(x_i - c)^T} with a public
 * centre c. When no row is clipped, {@code C~ - C = N + e e^T} with N the second-moment step's error and
 * {@code e = xbar - mu~} (zero with a public centre), so {@code ||C~ - C||_2 <= E := E_sm + b_mean^2}, where
 * {@code E_sm} is the second-moment statement's bound and {@code b_mean} the mean statement's bound, with probability
 * at least {@code p_sm + p_mean - 1} (a union bound). On that event:
 * <ul>
 *   <li>Captured variance (Ky Fan with Weyl): for the released orthonormal {@code V~} (d x k),
 *       {@code tr(V~^T C V~) >= tr(V~^T C~ V~) - kE >= sum_{i<=k} lambda_i(C~) - kE >= sum_{i<=k} lambda_i(C) - 2kE}:
 *       the stated metric is the top-k variance missed, {@code sum_{i<=k} lambda_i(C) - tr(V~^T C V~)}, bounded by
 *       {@code 2kE};</li>
 *   <li>variances (Weyl): {@code |variances_i - lambda_i(C)| <= E} for every i (public parameter
 *       {@code varianceErrorBound}).</li>
 * </ul>
 * The expected value given is {@code 2k (E[||N||] + E[||e||]^2)} from the steps' expected values (an estimate of an
 * upper bound, not an expectation of the loss).
 *
 * <p><b>Private radius ({@link Builder#radiusAuto}, {@code pca --radius auto}).</b> Instead of a public R, a share
 * of the budget ({@link Builder#radiusShare}) finds R below a public cap by the noisy histogram of the rows'
 * distances to the centre (public, or the released private mean): {@link PrivateRadius}, the rule of
 * {@code mean --clip auto} on a grid of {@link #RADIUS_STEPS} buckets per octave over {@link #RADIUS_OCTAVES} octaves
 * below the cap. R is the upper edge of the largest bucket whose noisy count stands out of the noise, so only
 * sparse tails are clipped (the noise of the second moment scales with R^2, so a radius near the bulk of the
 * distances rather than the box's diagonal decides the result: bench/results/realdata). If no bucket stands out
 * (too few rows for the share), R is the cap (a DP outcome; never a FAIL); where n is below
 * {@link #RADIUS_MIN_ROWS} times the bucket threshold (public), no search runs, R is the cap and the radius share goes
 * to the second moment ({@link #radiusSearched}); between 1.5 and 2.5 times the quarter-octave threshold the search
 * runs on a coarser grid ({@link #radiusSteps}: half-octave, else octave buckets), which finds a radius on the small
 * tables where a quarter-octave bucket would not stand out. R is released ({@code radius}). The steps (mean,
 * radius, with two-stage centring the refined centre, second moment) compose into one guarantee as above. The
 * accuracy is stated a priori at
 * the cap (the largest R the release can choose: analyze-gauss's error bound is proportional to R^2, so it holds for
 * every smaller R) and per unit of R^2 (public parameter {@code secondMomentErrorPerR2}): with the released R the
 * bound is {@code 2k (R^2 e1 + b_mean^2)}. Only analyze-gauss runs with a private radius.
 *
 * <p><b>Two-stage centring ({@link #twoStage}: a private centre and a searched radius).</b> The private mean about
 * the origin has noise proportional to the mean radius (the box's scale, e.g. sqrt(d)), which made the centring
 * error {@code e e^T} the largest error term on small tables. So: (1) the coarse mean mu0 (share {@code meanShare},
 * rows clipped to {@code meanRadius} about the origin); (2) the private radius R0 of the distances to mu0 (share
 * {@code radiusShare}, the rule above); (3) the refined centre: the clipped Gaussian mean of the rows
 * {@code clip_R0(x_i - mu0)} (share {@link Builder#centreShare}), whose noise scales with R0, the data's radius;
 * the centre is mu0 plus that mean weighted by {@code s0^2/(s0^2 + s1^2)} (the inverse-variance average of the two
 * estimates, s0 and s1 their public noise scales); (4) the second moment of {@code clip_R(x_i - mu)} with
 * {@code R} = the largest grid edge at most {@code sqrt(R0^2 - d s0^2)} and at least {@code R0/4}
 * ({@link #secondMomentRadius}: the distances to mu0 carry mu0's error, about {@code d s0^2} in squared norm,
 * which the refined centre removes). Every step reads only released values and public parameters; the four steps
 * compose into one zCDP guarantee (the sum of the shares is rho). The mean term of the bound is then
 * {@code (R0 b1)^2}, b1 the refined mean's bound per unit of R0 (the largest over the grid's edges; public
 * {@code meanErrorPerCentreRadius}), stated a priori at the cap; R0 is released ({@code centreRadius}).
 *
 * <p><b>CoinPress's expected loss.</b> With {@code coinpress} the expected value is computed from the release
 * (post-processing; {@link org.dpgauss.release.Accuracy#expectedFromRelease}): the released {@code spectrum} (all d
 * eigenvalues of the released second moment) is brought into CoinPress's feasible set and the top-k variance a
 * simulated release misses on it is the median over fixed-seed runs ({@code coinPressFromRelease}); the bound is
 * the a-priori one.
 *
 * <p><b>Where it runs.</b> A {@link RowSourceMechanism}: the mean step and the second-moment step read the rows
 * only through row passes (the centring is a row map), so the release is the same, bit for bit, in memory and on a
 * cluster (dpgauss-spark, docs/spark.md).
 *
 * <p>Build with {@link #builder()}. Immutable.
 */
public final class PrivatePca implements RowSourceMechanism {

    /** The mechanism's identifier. */
    public static final String ID = "pca.second-moment";

    /** The default share of the budget spent on the private centre. */
    public static final double DEFAULT_MEAN_SHARE = 0.1;

    /** The probability of the mean step's bound (the second-moment step's comes from its own statement). */
    static final double MEAN_PROBABILITY = 0.99;

    /**
     * With coinpress: a released spectrum whose positive trace exceeds this many times R^2 is flagged in the
     * expected value's basis as noise-dominated (no input's second moment has a trace above R^2).
     */
    static final double SATURATED_TRACE = 2;

    /** The default share of the budget spent on the private radius (with {@link Builder#radiusAuto}). */
    public static final double DEFAULT_RADIUS_SHARE = 0.1;

    /** The private radius's grid spans {@code cap * 2^-RADIUS_OCTAVES .. cap}. */
    public static final int RADIUS_OCTAVES = 10;

    /** Buckets per octave of the private radius's grid (a factor 2^(1/4), 19%, between edges). */
    public static final int RADIUS_STEPS = 4;

    /** The search runs when n is at least this many times the bucket threshold ({@link #radiusSearched}). */
    public static final double RADIUS_MIN_ROWS = 2.5;

    /**
     * Below {@link #RADIUS_MIN_ROWS} times the threshold of the quarter- and half-octave grids, the search still runs
     * on octave buckets when n is at least this many times their threshold ({@link #radiusSteps}).
     */
    public static final double RADIUS_MIN_ROWS_OCTAVE = 1.5;

    /**
     * The default share of the budget spent on the refined centre of the two-stage centring ({@link #twoStage}): the
     * clipped mean of the rows within the private radius of the coarse centre.
     */
    public static final double DEFAULT_CENTRE_SHARE = 0.15;

    private final int k;
    private final double radius; // with autoRadius: the public cap
    private final boolean autoRadius;
    private final double radiusShare;
    private final double centreShare;
    private final Zcdp budget;
    private final double[] centre; // null: private mean
    private final double meanShare;
    private final double meanRadius;
    private final String method;
    private final Double minEigenvalue;

    private PrivatePca(Builder b) {
        this.k = b.k;
        this.radius = b.radius;
        this.autoRadius = b.autoRadius;
        this.radiusShare = b.autoRadius ? b.radiusShare : 0;
        this.centreShare = b.centreShare;
        this.budget = b.budget;
        this.centre = b.centre;
        this.meanShare = b.meanShare;
        this.meanRadius = b.meanRadius != null ? b.meanRadius : b.radius;
        this.method = b.method;
        this.minEigenvalue = b.minEigenvalue;
    }

    /** @return a builder: {@code k}, {@code radius} and {@code budget} are required */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    /** The two sub-mechanisms for one release (public: a function of the parameters and delta). */
    private ClippedGaussianMean meanStep(int d) {
        return ClippedGaussianMean.of(meanRadius, new double[d], Zcdp.of(budget.rho() * meanShare));
    }

    private PrivateRadius radiusStep(int steps) {
        return PrivateRadius.of(radius, RADIUS_OCTAVES, steps, Zcdp.of(budget.rho() * radiusShare));
    }

    /** The radius search's grid at n rows ({@link #radiusSteps}); null when no search runs. */
    private PrivateRadius searchGrid(int n) {
        int st = radiusSteps(n);
        return st == 0 ? null : radiusStep(st);
    }

    /**
     * The private radius's grid resolution at n rows (public: n, rho, the share): {@link #RADIUS_STEPS} (4) buckets
     * per octave when n is at least {@link #RADIUS_MIN_ROWS} times that grid's bucket threshold; else 2 per octave
     * under the same rule; else octave buckets (1 per octave) when n is at least {@link #RADIUS_MIN_ROWS_OCTAVE}
     * times their threshold (an octave of distances around the centre holds most of the rows of a small table, so
     * the densest one stands out where a finer bucket would not); else 0: no search. A finer grid clips closer to
     * the bulk of the distances; a coarser one finds a radius at all on fewer rows.
     *
     * @param n the number of rows (public under replace-one)
     * @return buckets per octave, or 0 when no search runs (not {@link Builder#radiusAuto}, or too few rows)
     */
    public int radiusSteps(int n) {
        if (!autoRadius) {
            return 0;
        }
        for (int st = RADIUS_STEPS; st >= 2; st /= 2) {
            if (n >= RADIUS_MIN_ROWS * radiusStep(st).threshold()) {
                return st;
            }
        }
        return n >= RADIUS_MIN_ROWS_OCTAVE * radiusStep(1).threshold() ? 1 : 0;
    }

    private SecondMomentMethod secondMomentStep(double delta) {
        return secondMomentStep(delta, radius, autoRadius, autoRadius && centre == null);
    }

    /**
     * The refined centre's step of the two-stage centring: the clipped Gaussian mean of the rows
     * {@code clip_R0(x_i - mu0)} (within the private radius R0 of the coarse centre mu0, so their mean's noise scales
     * with R0, the data's radius, not with the mean radius around the origin), about the origin; the refined centre is
     * {@code mu0} plus its release (post-processing).
     */
    private ClippedGaussianMean centreStep(int d, double r0) {
        return ClippedGaussianMean.of(r0, new double[d], Zcdp.of(budget.rho() * centreShare));
    }

    /**
     * Whether the centring runs in two stages at n rows (private centre and a searched radius): the coarse private
     * mean mu0 (share {@link Builder#meanShare}, rows clipped to the mean radius about the origin), the private radius
     * R0 of the distances to mu0, then the refined centre mu1, the clipped mean of the rows within R0 of mu0 (share
     * {@link Builder#centreShare}); the second moment is taken about mu1.
     *
     * @param n the number of rows (public)
     * @return true when the refined centre is released
     */
    public boolean twoStage(int n) {
        return centre == null && radiusSearched(n);
    }

    /**
     * The second moment's clipping radius after the two-stage centring, a public function of the released R0 (an
     * edge of the grid) and public parameters: R0 measures the distances to the coarse centre, whose error adds about
     * {@code d sigma0^2} (its expected squared norm, sigma0 the coarse mean's public noise scale) to every squared
     * distance; the distances to the refined centre are shorter by that much, so R is the largest grid edge at most
     * {@code sqrt(R0^2 - d sigma0^2)}, and no less than {@code R0/4} (two octaves) or the grid's lowest edge. Being a
     * grid edge, R is covered by the per-R^2 statement {@code secondMomentErrorPerR2}.
     */
    double secondMomentRadius(double r0, int n, int d) {
        PrivateRadius rs = searchGrid(n);
        double sigma0 = meanStep(d).sigma(n);
        double target = Math.sqrt(Math.max(0, r0 * r0 - d * sigma0 * sigma0));
        int top = rs.buckets() - 1;
        int j0 = top;
        while (j0 > 0 && rs.edge(j0) > r0 * (1 + 1e-12)) {
            j0--;
        }
        int floor = Math.max(0, j0 - 2 * radiusSteps(n));
        int j = j0;
        while (j > floor && rs.edge(j) > target * (1 + 1e-12)) {
            j--;
        }
        return rs.edge(j);
    }

    /**
     * Whether the private radius is searched for at n rows: only when n is at least {@link #RADIUS_MIN_ROWS} times
     * the threshold a bucket's noisy count must exceed (public: n, rho, the share). Below that the densest
     * quarter-octave bucket (rarely 40% of the rows) would almost never stand out, the search would fall back to the
     * cap and only cost its share: R is then the cap and the share goes to the second moment.
     *
     * @param n the number of rows (public under replace-one)
     * @return true when a radius share is spent on the search
     */
    public boolean radiusSearched(int n) {
        return radiusSteps(n) > 0;
    }

    /**
     * The second-moment step at clipping radius r (the public R, or the private one, at most the cap), with the
     * budget the other steps leave: the mean's share (private centre), the radius's (searched) and the refined
     * centre's (two-stage).
     */
    private SecondMomentMethod secondMomentStep(double delta, double r, boolean searched, boolean twoStage) {
        double rho = budget.rho() * (1 - (centre == null ? meanShare : 0) - (searched ? radiusShare : 0)
                - (twoStage ? centreShare : 0));
        SecondMomentParams.Builder p = SecondMomentParams.builder().budget(Zcdp.of(rho)).radius(r)
                .clipToRadius(true).delta(delta).minEigenvalue(minEigenvalue);
        return SecondMomentMethods.create(method, p.build());
    }

    @Override
    public Statement state(PublicContext context) {
        int d = context.dimension();
        int n = context.rows();
        if (k > d) {
            throw new IllegalArgumentException("k=" + k + " components exceed the data's d=" + d + " columns");
        }
        if (centre != null && centre.length != d) {
            throw new IllegalArgumentException("the centre has " + centre.length + " coordinates but the data have "
                    + d + " columns");
        }
        boolean searched = radiusSearched(n);
        boolean two = twoStage(n);
        SecondMomentMethod sm = secondMomentStep(context.delta(), radius, searched, two);
        Statement smStated = Releases.state(sm, context);
        Accuracy smAcc = smStated.accuracy().orElseThrow(() -> new IllegalArgumentException("second-moment method "
                + method + " states no accuracy: PCA needs its spectral error bound"));
        if (!smAcc.metric().equals(SpectralAccuracy.METRIC)) {
            throw new IllegalArgumentException("second-moment method " + method + " states a " + smAcc.metric()
                    + ", not the absolute spectral error PCA's bound is built on; use analyze-gauss, coinpress or"
                    + " recursive");
        }
        List<Release> steps = new ArrayList<>();
        double meanBound = 0;
        double meanExpected = 0;
        double probability = smAcc.probability();
        Statement meanStated = null;
        if (centre == null) {
            ClippedGaussianMean m = meanStep(d);
            meanStated = Releases.state(m, context);
            Accuracy ma = m.accuracy(n, MEAN_PROBABILITY);
            meanBound = ma.bound();
            meanExpected = ma.expected();
            probability = smAcc.probability() + MEAN_PROBABILITY - 1;
            steps.add(meanStated.accounting());
        }
        PrivateRadius rs = null;
        double perR2 = 0;
        if (autoRadius) {
            rs = searched ? searchGrid(n) : radiusStep(RADIUS_STEPS);
        }
        if (searched) {
            steps.add(Release.zcdp(ID + ".radius", NeighbouringRelation.REPLACE_ONE,
                    Zcdp.of(budget.rho() * radiusShare)));
            if (two) {
                // the refined centre: a clipped Gaussian mean, rho-zCDP at its share whatever radius R0 it runs at
                steps.add(Release.zcdp(ID + ".centre", NeighbouringRelation.REPLACE_ONE,
                        Zcdp.of(budget.rho() * centreShare)));
            }
            // analyze-gauss's bound per unit of R^2 (its sigma is R^2/(n sqrt(rho)) up to the noise grid's
            // rounding): the largest over every radius the release can choose (the grid's edges, the cap the last),
            // so that R^2 e1 covers the one released
            // (not searched: R is the cap, and the bound at the cap is the second-moment step's own)
            perR2 = searched ? 0 : smAcc.bound() / (radius * radius);
            for (int j = 0; searched && j < rs.buckets(); j++) {
                double edge = rs.edge(j);
                double bj = Releases.state(secondMomentStep(context.delta(), edge, true, two), context).accuracy()
                        .orElseThrow().bound();
                perR2 = Math.max(perR2, bj / (edge * edge));
            }
        }
        // two-stage: the centring error is the refined centre's, whose noise scales with the released R0 (at most the
        // cap): its bound and expected value per unit of R0, the largest over every edge the release can choose
        double meanPerR0 = 0;
        double meanExpectedPerR0 = 0;
        for (int j = 0; two && j < rs.buckets(); j++) {
            double edge = rs.edge(j);
            Accuracy aj = centreStep(d, edge).accuracy(n, MEAN_PROBABILITY);
            meanPerR0 = Math.max(meanPerR0, aj.bound() / edge);
            meanExpectedPerR0 = Math.max(meanExpectedPerR0, aj.expected() / edge);
        }
        if (two) {
            meanBound = radius * meanPerR0;
            meanExpected = radius * meanExpectedPerR0;
        }
        steps.add(smStated.accounting());
        boolean certified = smStated.guarantee().certified()
                && (meanStated == null || meanStated.guarantee().certified());
        String notes = (centre == null ? "private centre (clipped Gaussian mean, share " + num(meanShare)
                + " of rho) then " : "public centre, then ") + (searched ? "a private radius R <= cap (noisy"
                + " histogram of the distances to the centre, share " + num(radiusShare) + " of rho), then " : "")
                + (two ? "the refined centre (clipped Gaussian mean of the rows within that radius of the centre,"
                + " share " + num(centreShare) + " of rho), then " : "")
                + "the second moment of the centred rows clipped to R by "
                + sm.name() + "; components and variances are post-processing (eigen-decomposition)";
        PrivacyGuarantee g = steps.size() == 1 ? smStated.guarantee()
                : PrivacyAccountant.composeSteps(NeighbouringRelation.REPLACE_ONE, steps, context.delta(), certified,
                        notes);
        Release accounting = accounting(steps, g);
        double e = (autoRadius ? Math.max(smAcc.bound(), radius * radius * perR2) : smAcc.bound())
                + meanBound * meanBound;
        double eExpected = smAcc.expected() + meanExpected * meanExpected;
        Accuracy acc = Accuracy.of("top-k variance missed: sum_{i<=k} lambda_i(C) - tr(V~^T C V~), V~ the released"
                + " components (orthonormal rows) and C = (1/n) sum_i (x_i - c)(x_i - c)^T with c "
                + (centre == null ? "the rows' mean (C their covariance)" : "the public centre"),
                finite(2.0 * k * eExpected), finite(2.0 * k * e), probability,
                String.format(Locale.ROOT, "every row has norm <= meanRadius=%.4g (mean step) and every centred row"
                        + " has norm <= R=%.4g%s (longer rows are clipped, which the bound does not count); then"
                        + " ||C~ - C||_2 <= E=%.4g (the second-moment step's bound%s) and the loss is at most 2kE (Ky"
                        + " Fan, Weyl); each released variance is within E of lambda_i(C).%s Second-moment step: %s",
                        meanRadius, radius, autoRadius ? " (the cap; R itself is private and released as radius)" : "",
                        e, centre == null ? " plus the squared mean-error bound" : "", two
                                ? String.format(Locale.ROOT, " With the released radius R and centreRadius R0 the"
                                        + " bound is 2k(R^2 e1 + (R0 b1)^2), e1=%.4g (secondMomentErrorPerR2),"
                                        + " b1=%.4g (meanErrorPerCentreRadius), every row within R0 of the coarse"
                                        + " centre (farther rows bias the refined centre), and C refers to the rows"
                                        + " clipped to R about the refined centre.", perR2, meanPerR0)
                                : autoRadius
                                ? String.format(Locale.ROOT, " With the released radius R the bound is 2k(R^2 e1 + "
                                        + "b^2), e1=%.4g (secondMomentErrorPerR2), b^2=%.4g, and C refers to the rows"
                                        + " clipped to R about the centre.", perR2, meanBound * meanBound) : "",
                        smAcc.assumptions()));
        // 2k E||C~ - C|| is the Ky Fan bound at the noise's mean, reached only when the noise turns the components
        // fully out of the top-k space; with an eigengap the loss is far smaller (issue 29 replay: 16-116x on
        // scikit-learn's tables at epsilon 1): labelled, so that only the bound is read as covering the data
        acc = acc.expectedForScenario("the worst case of the Ky Fan bound, 2k times the expected ||C~ - C||_2 (the"
                + " loss when the noise turns the components fully out of the top-k space), an upper bound on the"
                + " expected loss; with a clear gap after the k-th eigenvalue the loss is usually far smaller, by a"
                + " factor that depends on the private spectrum");
        if (Double.isFinite(radius * radius)) {
            acc = acc.alsoIn(String.format(Locale.ROOT, "R^2 = %.4g (the largest possible total variance)",
                    radius * radius), radius * radius);
        }
        PublicParameters.Builder p = PublicParameters.builder().put("n", n).put("d", d).put("k", k);
        if (autoRadius) {
            p.put("radius", "auto");
        } else {
            p.put("radius", radius);
        }
        p.put("rho", budget.rho()).put("secondMomentMethod", sm.name())
                .put("centring", centre == null ? (two ? "private-mean-two-stage" : "private-mean") : "public-centre");
        if (centre == null) {
            p.put("meanShare", meanShare).put("meanRadius", meanRadius);
        } else {
            p.put("centre", centre);
        }
        if (autoRadius) {
            p.put("radiusCap", radius).put("radiusShare", radiusShare).put("radiusSearched", searched)
                    .put("radiusGrid", String.format(Locale.ROOT, "%d buckets, edges cap * 2^(-j/%d), j = 0..%d",
                            rs.buckets(), searched ? radiusSteps(n) : RADIUS_STEPS, rs.buckets() - 1))
                    .put("radiusThreshold", rs.threshold()).put("secondMomentErrorPerR2", finite(perR2));
        }
        if (two) {
            p.put("centreShare", centreShare).put("meanErrorPerCentreRadius", finite(meanPerR0));
        }
        p.put("varianceErrorBound", finite(e)).put("secondMoment", smStated.parameters());
        Statement.Builder sb = Statement.builder(context, ID, g)
                .description("private principal components (top " + k + ") and variances of the centred rows")
                .parameters(p.build())
                .accounting(accounting)
                .failMeaning(smStated.failMeaning())
                .accuracy(acc);
        if (sm instanceof CoinPress) {
            // CoinPress's error depends on the private spectrum (its preconditioner locks onto it): the expected
            // loss is computed from the released spectrum instead (post-processing; issue 26 items 0 and 1)
            CoinPress cp = (CoinPress) sm;
            double sigmaMean = centre == null ? meanStep(d).sigma(n) : 0;
            sb.accuracyFromRelease((a, values) -> coinPressFromRelease(a, values.get("spectrum").asVector(), cp, n,
                    sigmaMean));
        }
        return sb.build();
    }

    /**
     * With CoinPress, the expected loss computed from the release (post-processing; issue 26 items 0 and 1): the
     * median over {@link CoinPress#simulations} runs of the top-k variance a simulated release misses. Each run
     * simulates CoinPress ({@link CoinPress#simulatedMedianLoss}: its noise, whitened clipping, preconditioning steps
     * and PSD projections, a fixed seed) on Gaussian rows whose second moment is {@code S + e e^T}: S the diagonal
     * matrix of the released {@code spectrum} brought into the public set every input's lies in
     * ({@link CoinPress#feasibleSecondMoment}), e the centring error (Gaussian of the private mean's public noise
     * scale, another fixed seed; zero with a public centre); the loss is {@code sum_{i<=k} lambda_i(S) - tr(V^T S V)}
     * for V the simulated release's top-k eigenvectors. The mechanism is equivariant under rotations (its noise, the
     * prior {@code u I} and the clipping are), so the spectrum is all the simulation needs. The bound is the a-priori
     * one.
     */
    private Accuracy coinPressFromRelease(Accuracy apriori, double[] spectrum, CoinPress cp, int n, double sigmaMean) {
        int d = spectrum.length;
        org.ejml.data.DMatrixRMaj diag = new org.ejml.data.DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            diag.set(i, i, spectrum[i]);
        }
        org.ejml.data.DMatrixRMaj s = cp.feasibleSecondMoment(diag);
        double[] lambda = new double[d];
        for (int i = 0; i < d; i++) {
            lambda[i] = s.get(i, i);
        }
        double[] sorted = lambda.clone();
        java.util.Arrays.sort(sorted);
        double top = 0;
        for (int i = 0; i < k; i++) {
            top += sorted[d - 1 - i];
        }
        int runs = CoinPress.simulations(d);
        java.util.SplittableRandom random = new java.util.SplittableRandom(0x5eedCA7L + 31L * d + n);
        double[][] e = new double[runs][d];
        for (double[] v : e) {
            for (int j = 0; j < d; j++) {
                v[j] = sigmaMean * random.nextGaussian();
            }
        }
        double total = top;
        double expected = cp.simulatedMedianLoss(n, d, run -> {
            org.ejml.data.DMatrixRMaj t = s.copy();
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    t.add(i, j, e[run][i] * e[run][j]);
                }
            }
            return t;
        }, runs, (run, released) -> {
            double[][] m = new double[d][d];
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    m[i][j] = 0.5 * (released.get(i, j) + released.get(j, i));
                }
            }
            SymmetricEigen eig = SymmetricEigen.of(m);
            if (eig == null) {
                return total;
            }
            double captured = 0;
            for (double[] v : eig.topVectors(k)) {
                for (int j = 0; j < d; j++) {
                    captured += lambda[j] * v[j] * v[j];
                }
            }
            return Math.max(0, total - captured);
        });
        // a released spectrum whose trace is far above R^2 (no input's can exceed it) is mostly CoinPress's noise:
        // the release then cannot tell how small the data's spread is, and the value computed on the feasible
        // matrix (trace R^2 at most) is an upper estimate; said so, from the release alone (public)
        double releasedTrace = 0;
        for (double v : spectrum) {
            releasedTrace += Math.max(0, v);
        }
        double excess = releasedTrace / (radius * radius);
        String saturated = excess > SATURATED_TRACE ? String.format(Locale.ROOT, " NOTE: the released spectrum's"
                + " trace is %.3g times R^2, which no input's exceeds: CoinPress's noise dominates this release, which"
                + " then cannot tell how small the data's spread is, so this value is an upper estimate that can be"
                + " far above the realised loss (15-73x on scikit-learn's tables at the box radius and epsilon 1,"
                + " bench/results/realdata/pca-radius-auto.md); a smaller --radius or more budget makes it informative",
                excess) : "";
        return apriori.expectedFromRelease(finite(expected), String.format(Locale.ROOT, "the median top-k variance"
                + " missed over %d simulated runs of this mechanism (CoinPress's noise, whitened clipping,"
                + " preconditioning steps and PSD projections, then the top-k eigenvectors) on Gaussian rows whose"
                + " second moment is the released spectrum brought into the public set every input's lies in%s;"
                + " computed from the released spectrum and public parameters only (post-processing). An estimate of"
                + " the expected loss for these rows (test PrivatePcaTest and bench/results/realdata: within a"
                + " factor 2 of the realised median on Gaussian rows and on scikit-learn's tables where the release"
                + " carries the data's spectrum).%s", runs,
                sigmaMean > 0 ? String.format(Locale.ROOT, ", plus the centring error e e^T (e Gaussian, the"
                        + " private mean's sigma=%.4g per coordinate)", sigmaMean) : "", saturated));
    }

    /** The session's form: the sum of the steps' rho when every step is zCDP, else the composed guarantee. */
    private static Release accounting(List<Release> steps, PrivacyGuarantee g) {
        double rho = 0;
        for (Release r : steps) {
            if (r.kind() != Release.Kind.ZCDP) {
                return Release.of(ID, g);
            }
            rho += r.zcdp().rho();
        }
        return Release.zcdp(ID, NeighbouringRelation.REPLACE_ONE, Zcdp.of(rho));
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return compute(LocalRows.of(data.matrix(), context.engine()), stated, context);
    }

    /**
     * The release from row passes (in memory or on a cluster): the mean step's pass, then the second-moment step's
     * passes over the centred, clipped rows (a row map, formed block by block where the rows are); the
     * eigen-decomposition runs here.
     */
    @Override
    public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
        int d = rows.cols();
        double delta = stated.context().delta();
        double[] c;
        double[] privateMean = null;
        if (centre == null) {
            PrivateRelease mr = RowReleases.run(meanStep(d), rows, delta, context);
            if (!mr.isPass()) {
                return Outcome.fail();
            }
            privateMean = mr.vector("mean");
            c = privateMean;
        } else {
            c = centre;
        }
        double r = radius;
        int n = (int) rows.rows();
        boolean searched = radiusSearched(n);
        boolean two = twoStage(n);
        double r0 = Double.NaN;
        if (searched) {
            double found = searchGrid(n).find(rows, c, context.random());
            // no bucket stood out (a DP outcome): the public cap, never a FAIL
            r = Double.isNaN(found) ? radius : Math.min(found, radius);
        }
        if (two) {
            // the refined centre: mu0 + the clipped mean of clip_R0(x_i - mu0) (the scale-safe row map, so every
            // shifted row is finite and within R0; its mean's noise scales with R0); mu0, R0 are released values
            r0 = r;
            PrivateRelease cr = RowReleases.run(centreStep(d, r0), rows.map(new CentreAndClip(c, r0)), delta,
                    context);
            if (!cr.isPass()) {
                return Outcome.fail();
            }
            double[] shift = cr.vector("mean");
            // mu0 and mu1 = mu0 + shift are two noisy estimates of the centre with public noise scales s0 and s1:
            // their inverse-variance weighted average, mu0 + w1 shift with w1 = s0^2/(s0^2 + s1^2), has the noise
            // of one mean at both shares where R0 is the mean radius (the search fell back to the cap), and is mu1
            // up to a small weight where R0 is far below it (post-processing of released values and public scales)
            double s0 = meanStep(d).sigma(n);
            double s1 = centreStep(d, r0).sigma(n);
            double w1 = s0 * s0 / (s0 * s0 + s1 * s1);
            double[] refined = new double[d];
            for (int j = 0; j < d; j++) {
                refined[j] = c[j] + w1 * shift[j];
            }
            privateMean = refined;
            c = refined;
            r = secondMomentRadius(r0, n, d);
        }
        RowSource centred = rows.map(new CentreAndClip(c, r));
        SecondMomentMethod sm = secondMomentStep(delta, r, searched, two);
        PrivateRelease sr = RowReleases.run(rowStep(sm), centred, delta, context);
        if (!sr.isPass()) {
            return Outcome.fail();
        }
        SymmetricEigen eig = SymmetricEigen.of(sr.matrix("secondMoment"));
        if (eig == null) {
            return Outcome.fail();
        }
        Outcome.Builder out = Outcome.pass().matrix("components", eig.topVectors(k)).vector("variances",
                eig.topValues(k));
        if (privateMean != null) {
            out.vector("mean", privateMean);
        }
        if (sm instanceof CoinPress) { // what the expected loss is computed from (post-processing)
            out.vector("spectrum", eig.values());
        }
        if (autoRadius) {
            out.scalar("radius", r);
        }
        if (two) {
            out.scalar("centreRadius", r0);
        }
        return out.build();
    }

    /** Every registered second-moment method runs as row passes; a method that did not could not run here. */
    private static RowSourceMechanism rowStep(SecondMomentMethod m) {
        if (!(m instanceof RowSourceMechanism)) {
            throw new IllegalArgumentException("second-moment method " + m.name() + " does not run as row passes,"
                    + " so PCA cannot use it");
        }
        return (RowSourceMechanism) m;
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? Math.max(0, v) : Double.MAX_VALUE;
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }

    /** @return the number of components k */
    public int k() {
        return k;
    }

    /** @return the public radius R of the centred rows (with a private radius: its public cap) */
    public double radius() {
        return radius;
    }

    /** @return whether the radius is found privately below the cap {@link #radius()} */
    public boolean autoRadius() {
        return autoRadius;
    }

    /** @return the total zCDP budget */
    public Zcdp budget() {
        return budget;
    }

    /** Builds a {@link PrivatePca} from named parameters. */
    public static final class Builder {
        private Integer k;
        private Double radius;
        private boolean autoRadius;
        private double radiusShare = DEFAULT_RADIUS_SHARE;
        private double centreShare = DEFAULT_CENTRE_SHARE;
        private Zcdp budget;
        private double[] centre;
        private double meanShare = DEFAULT_MEAN_SHARE;
        private Double meanRadius;
        private String method = AnalyzeGauss.NAME;
        private Double minEigenvalue;

        private Builder() {
        }

        /** @param v the number of components k &gt;= 1 (at most d) @return this builder */
        public Builder k(int v) {
            this.k = v;
            return this;
        }

        /**
         * @param r the public clipping radius R of the centred rows {@code x_i - c}, finite and &gt; 0
         * @return this builder
         */
        public Builder radius(double r) {
            this.radius = r;
            this.autoRadius = false;
            return this;
        }

        /**
         * A private radius: a share of the budget ({@link #radiusShare}) finds R at most the public cap (see the
         * class comment); rows beyond the found R are clipped. Needs the analyze-gauss second-moment method.
         *
         * @param cap the public cap on R, finite and &gt; 0 (e.g. the diameter of a public box); also the default
         *     mean radius
         * @return this builder
         */
        public Builder radiusAuto(double cap) {
            this.radius = cap;
            this.autoRadius = true;
            return this;
        }

        /**
         * @param s with {@link #radiusAuto}: the share of rho spent on the radius, in (0, 1) (default 0.1); the
         *     second-moment step gets what the mean and the radius leave
         * @return this builder
         */
        public Builder radiusShare(double s) {
            this.radiusShare = s;
            return this;
        }

        /**
         * @param s with {@link #radiusAuto} and a private centre, when the search runs ({@link PrivatePca#twoStage}):
         *     the share of rho spent on the refined centre, in (0, 1) (default 0.15)
         * @return this builder
         */
        public Builder centreShare(double s) {
            this.centreShare = s;
            return this;
        }

        /** @param b the total zCDP budget @return this builder */
        public Builder budget(Zcdp b) {
            this.budget = Objects.requireNonNull(b, "budget");
            return this;
        }

        /**
         * @param c a public centre (length d): no budget is spent on centring (default: a private mean)
         * @return this builder
         */
        public Builder centre(double[] c) {
            this.centre = Objects.requireNonNull(c, "centre").clone();
            return this;
        }

        /** @param s the share of rho spent on the private mean, in (0, 1) (default 0.1) @return this builder */
        public Builder meanShare(double s) {
            this.meanShare = s;
            return this;
        }

        /**
         * @param r the clipping radius around the origin of the private mean step (default: R)
         * @return this builder
         */
        public Builder meanRadius(double r) {
            this.meanRadius = r;
            return this;
        }

        /**
         * @param name a registered second-moment method (default {@code analyze-gauss})
         * @return this builder
         */
        public Builder method(String name) {
            this.method = Objects.requireNonNull(name, "method");
            return this;
        }

        /**
         * @param l a public lower bound on lambda_min of the centred rows' second moment (recursive needs one or
         *     finds it privately; the others use it only in their statements), or null
         * @return this builder
         */
        public Builder minEigenvalue(Double l) {
            this.minEigenvalue = l;
            return this;
        }

        /** @return the mechanism, validated (the second-moment method's parameters too) */
        public PrivatePca build() {
            if (k == null || k < 1) {
                throw new IllegalStateException("k(K >= 1) is required: the number of components");
            }
            if (radius == null) {
                throw new IllegalStateException("radius(R) is required: the public clipping radius of the centred rows");
            }
            if (budget == null || !(budget.rho() > 0)) {
                throw new IllegalStateException("budget(Zcdp.of(rho)) with rho > 0 is required");
            }
            L2Clip.checkRadius("radius R", radius);
            if (!(meanShare > 0 && meanShare < 1)) {
                throw new IllegalArgumentException("meanShare=" + meanShare + " is outside (0, 1)");
            }
            if (meanRadius != null) {
                L2Clip.checkRadius("meanRadius", meanRadius);
            }
            if (autoRadius) {
                if (!(radiusShare > 0 && radiusShare < 1)) {
                    throw new IllegalArgumentException("radiusShare=" + radiusShare + " is outside (0, 1)");
                }
                if (!(centreShare > 0 && centreShare < 1)) {
                    throw new IllegalArgumentException("centreShare=" + centreShare + " is outside (0, 1)");
                }
                double used = radiusShare + (centre == null ? meanShare + centreShare : 0);
                if (!(used < 1)) {
                    throw new IllegalArgumentException("the radius share " + radiusShare + (centre == null
                            ? ", the mean share " + meanShare + " and the centre share " + centreShare
                            : "") + " leave nothing for the second moment: their sum must be < 1");
                }
                if (!method.equals(AnalyzeGauss.NAME)) {
                    throw new IllegalArgumentException("a private radius needs the analyze-gauss second-moment method"
                            + " (its error bound scales as R^2, so the statement at the cap holds below it); got "
                            + method);
                }
            }
            if (centre != null) {
                for (double v : centre) {
                    if (!Double.isFinite(v)) {
                        throw new IllegalArgumentException("the centre must be finite");
                    }
                }
            }
            PrivatePca p = new PrivatePca(this);
            p.secondMomentStep(0.5e-6); // validates the method's parameters before any data are read
            return p;
        }
    }
}
