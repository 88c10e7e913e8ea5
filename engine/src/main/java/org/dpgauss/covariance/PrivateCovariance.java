package org.dpgauss.covariance;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.dpgauss.linalg.L2Clip;
import org.dpgauss.mean.ClippedGaussianMean;
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
import org.dpgauss.release.ReleasedValue;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.CentreAndClip;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowReleases;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.dpgauss.secondmoment.CoinPress;
import org.dpgauss.secondmoment.RecursiveSecondMoment;
import org.dpgauss.secondmoment.SecondMomentMethod;
import org.dpgauss.secondmoment.SecondMomentMethods;
import org.dpgauss.secondmoment.SecondMomentParams;
import org.dpgauss.secondmoment.SpectralAccuracy;
import org.dpgauss.secondmoment.SpectralMetrics;
import org.ejml.data.DMatrixRMaj;

/**
 * A private covariance matrix (issue 29): a private mean and a private second moment of the same centred, clipped
 * rows, composed into one release with one guarantee, and their post-processing
 * <pre>
 *   y_i = clip_R(x_i - c)                  (c a public centre, default the origin; R the public radius)
 *   m~  = ClippedGaussianMean(y; C = R, rho_m = f rho)
 *   S~  = second moment of y by a registered method (analyze-gauss default, recursive, coinpress), rho_S = (1-f) rho
 *   covariance = S~ - m~ m~^T,   mean = c + m~
 * </pre>
 *
 * <p><b>Guarantee: rho-zCDP under replace-one neighbours</b> (n public), for every input. Each part is a release of
 * the project (its own guarantee for every input: the rows y are within R of the origin and both parts clip again);
 * the map {@code x_i -> y_i} is row by row, so neighbouring inputs give neighbouring y; the two parts compose by
 * the accountant's rules ({@link PrivacyAccountant#composeSteps}; zCDP adds: {@code rho_m + rho_S = rho}), and the
 * covariance is post-processing. The session accounting form is {@code rho}-zCDP where both parts are zCDP.
 *
 * <p><b>Budget split</b> f (the share of rho spent on the mean): by default the planner's choice
 * ({@link #plannedMeanFraction}): the f on a grid of 0.01 steps in [0.01, 0.99] that minimises the stated bound
 * below, a function of public quantities only (n, d, R, rho, delta, the method); it can be fixed instead.
 *
 * <p><b>Accuracy</b> (metric {@link #METRIC}). With {@code m} the mean of the y and {@code e = m~ - m},
 * {@code C~ - C = (S~ - S) - (e m^T + m e^T + e e^T)}, and the rank-two term has spectral norm at most
 * {@code ||e|| (2 ||m|| + ||e||)} with {@code ||m|| <= R}. Bound at probability p: the parts' bounds at
 * {@code 1 - (1-p)/2} each, {@code B_S + 2 R B_e + B_e^2} (a union bound), for every input whose rows lie within R
 * of c (rows farther are clipped, which biases the covariance down; not counted). Expected value: the rank-two
 * term's norm is {@code |<e, m>| + ||e|| ||m||}, of mean {@code ||m|| (sigma_m sqrt(2/pi) + E||e||)}, and
 * {@code E||e e^T|| = d sigma_m^2}; the distance {@code D = ||m||} of the rows' mean from c is private, so the
 * statement takes the worst case {@code D = R}: {@code E_S + R (sigma_m sqrt(2/pi) + E||e||) + d sigma_m^2}, an
 * upper bound on the expected error for any mean within R (by the triangle inequality; pessimistic by the
 * {@code (R - D)} share of the middle term for a mean near c). It is labelled as such
 * ({@link Accuracy#expectedForScenario}), and a second-moment part whose own expected value is a scenario
 * (CoinPress, before the data are read) says so too. With CoinPress, a PASS carries the expected value computed
 * from the released values instead ({@link Accuracy#expectedFromRelease}, issue 26 item 0): CoinPress's own
 * release-based value on the released centred second moment plus the mean part at the released distance of the
 * mean from c (post-processing).
 *
 * <p>Under the release contract it releases {@code covariance} (d x d, symmetric, possibly indefinite),
 * {@code mean} (length d) and, when asked, {@code covariancePsd} (the PSD projection, post-processing). It FAILs
 * only where the second-moment part FAILs (see its fail meaning). Immutable; build it with {@link #builder()}.
 *
 * <p><b>Where it runs.</b> A {@link RowSourceMechanism}: both parts read the rows only through row passes over the
 * centred, clipped rows (a row map), so the release is the same, bit for bit, in memory and on a cluster
 * (dpgauss-spark, docs/spark.md).
 */
public final class PrivateCovariance implements RowSourceMechanism {

    /** The identifier family: releases are {@code covariance.METHOD}. */
    public static final String FAMILY = "covariance";

    /** The default second-moment method: needs no bound beyond R. */
    public static final String DEFAULT_METHOD = AnalyzeGauss.NAME;

    /** The metric of the statement, in words. */
    public static final String METRIC = "absolute spectral error ||C~ - C||_2 in the units of C, C = (1/n) sum_i"
            + " (x_i - xbar)(x_i - xbar)^T the covariance of the input rows as given (before any clipping)";

    /** The probability of the stated bound. */
    public static final double PROBABILITY = 0.95;

    private final Zcdp budget;
    private final double radius;
    private final double[] centre; // null: the origin
    private final String method;
    private final Double minEigenvalue;
    private final Double meanFraction; // null: the planner's choice
    private final boolean psd;

    private PrivateCovariance(Builder b) {
        this.budget = b.budget;
        this.radius = b.radius;
        this.centre = b.centre == null ? null : b.centre.clone();
        this.method = b.method;
        this.minEigenvalue = b.minEigenvalue;
        this.meanFraction = b.meanFraction;
        this.psd = b.psd;
    }

    /** @return a builder: {@code budget} and {@code radius} are required */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.REPLACE_ONE;
    }

    /** @return the total zCDP budget */
    public Zcdp budget() {
        return budget;
    }

    /** @return the second-moment method's registered name */
    public String method() {
        return method;
    }

    /**
     * The share f of rho spent on the mean for n rows of dimension d: the fixed one if given, else the planner's
     * ({@link #plannedMeanFraction}).
     *
     * @param n the number of rows (public)
     * @param d the dimension
     * @param delta the delta of the (epsilon, delta) statements
     * @return f in (0, 1)
     */
    public double meanFraction(int n, int d, double delta) {
        return meanFraction != null ? meanFraction : plannedMeanFraction(n, d, delta);
    }

    /**
     * The planner's split: the f in {0.01, 0.02, ..., 0.99} whose stated bound ({@link #accuracy}) is smallest
     * (the first on ties). Public quantities only.
     *
     * @param n the number of rows
     * @param d the dimension
     * @param delta the delta of the (epsilon, delta) statements
     * @return f
     */
    public double plannedMeanFraction(int n, int d, double delta) {
        double best = Double.POSITIVE_INFINITY;
        double bestF = 0.5;
        for (int k = 1; k <= 99; k++) {
            double f = k / 100.0;
            double b;
            try {
                b = accuracy(n, d, delta, f, PROBABILITY).bound();
            } catch (IllegalArgumentException e) { // a split the parts refuse (e.g. a noise off the grid)
                continue;
            }
            if (b < best) {
                best = b;
                bestF = f;
            }
        }
        return bestF;
    }

    private double[] centre(int d) {
        if (centre == null) {
            return new double[d];
        }
        if (centre.length != d) {
            throw new IllegalArgumentException("the centre has " + centre.length + " coordinates but the data have "
                    + d + " columns");
        }
        return centre.clone();
    }

    /** The mean part: the clipped Gaussian mean of the y (centred at the origin, C = R). */
    ClippedGaussianMean meanPart(int d, double f) {
        return ClippedGaussianMean.of(radius, new double[d], Zcdp.of(f * budget.rho()));
    }

    /** The second-moment part of the y. */
    SecondMomentMethod secondMomentPart(double f, double delta) {
        SecondMomentParams.Builder p = SecondMomentParams.builder().budget(Zcdp.of((1 - f) * budget.rho()))
                .radius(radius).delta(delta);
        if (minEigenvalue != null) {
            p.minEigenvalue(minEigenvalue);
        }
        return SecondMomentMethods.create(method, p.build());
    }

    /** The second-moment part's statement at another probability (the parts share the failure probability). */
    private static Accuracy secondMomentAccuracy(SecondMomentMethod m, int n, int d, double probability) {
        Accuracy a;
        if (m instanceof AnalyzeGauss) {
            a = ((AnalyzeGauss) m).accuracy(n, d, probability);
        } else if (m instanceof CoinPress) {
            a = ((CoinPress) m).accuracy(n, d, probability);
        } else if (m instanceof RecursiveSecondMoment) {
            a = ((RecursiveSecondMoment) m).accuracy(n, d, probability);
        } else {
            throw new IllegalArgumentException("second-moment method '" + m.name() + "' states no absolute spectral"
                    + " accuracy: the covariance composes " + AnalyzeGauss.NAME + ", " + RecursiveSecondMoment.NAME
                    + " or " + CoinPress.NAME);
        }
        if (!SpectralAccuracy.METRIC.equals(a.metric())) {
            throw new IllegalArgumentException("second-moment method '" + m.name() + "' states its accuracy in '"
                    + a.metric() + "', not the absolute spectral error the covariance's statement adds up");
        }
        return a;
    }

    /**
     * The a-priori accuracy of the covariance (see the class comment) for a given split.
     *
     * @param n the number of rows
     * @param d the dimension
     * @param delta the delta of the (epsilon, delta) statements
     * @param f the share of rho spent on the mean, in (0, 1)
     * @param probability the bound's probability, in (0, 1)
     * @return the statement
     */
    public Accuracy accuracy(int n, int d, double delta, double f, double probability) {
        if (!(probability > 0 && probability < 1)) {
            throw new IllegalArgumentException("probability=" + probability + " is outside (0, 1)");
        }
        double part = 1 - (1 - probability) / 2;
        ClippedGaussianMean mean = meanPart(d, f);
        Accuracy me = mean.accuracy(n, part);
        Accuracy sa = secondMomentAccuracy(secondMomentPart(f, delta), n, d, part);
        double sigmaM = mean.sigma(n);
        double bound = sa.bound() + 2 * radius * me.bound() + me.bound() * me.bound();
        // ||e m^T + m e^T|| = |<e, m>| + ||e|| ||m||, whose mean is ||m|| (sigma_m sqrt(2/pi) + E||e||); ||e e^T|| =
        // ||e||^2 with mean d sigma_m^2. With ||m|| = R (the worst mean) this is an upper bound on the expectation.
        double perDistance = sigmaM * Math.sqrt(2 / Math.PI) + me.expected();
        double expected = sa.expected() + radius * perDistance + d * sigmaM * sigmaM;
        String scenario = String.format(Locale.ROOT, "the rows' mean at distance R from the centre c, the worst"
                + " case, so an upper bound on the expected error for any mean within R of c; a mean at distance D"
                + " from c has up to (R - D) x %.4g less, a private quantity%s", perDistance,
                sa.isScenario() ? "; the second-moment part's own expected value is a scenario (" + sa.expectedBasis()
                        + ")" : "");
        Accuracy a = Accuracy.of(METRIC, fin(expected), fin(bound), probability, String.format(Locale.ROOT,
                "every row lies within R=%.4g of the centre (farther rows are pulled onto that ball, which biases C~"
                        + " down and is not counted); the bound is the sum of the second-moment part's bound (%.4g)"
                        + " and of 2 R B_e + B_e^2 for the mean part's bound B_e=%.4g, each at probability %.4g (a"
                        + " union bound), for any mean within R of c; mean share f=%.4g of rho=%.4g", radius,
                sa.bound(), me.bound(), part, f, budget.rho()));
        if (Double.isFinite(radius * radius)) {
            a = a.alsoIn(String.format(Locale.ROOT, "R^2 = %.4g (R the public radius around the centre)",
                    radius * radius), radius * radius);
        }
        return a.expectedForScenario(scenario);
    }

    /**
     * With CoinPress, the expected value computed from the released values (post-processing; issue 26 item 0): the
     * second-moment part's by {@link CoinPress#expectedFromRelease} on the released centred second moment
     * {@code C~ + (m~ - c)(m~ - c)^T}, plus the mean part's {@code D (sigma_m sqrt(2/pi) + E||e||) + d sigma_m^2} at
     * the released distance of the mean from the centre, {@code D^2 = ||m~ - c||^2 - d sigma_m^2} (its noise's share
     * removed) within {@code [0, R]}. The bound is the a-priori one.
     */
    private Accuracy coinPressFromRelease(Accuracy apriori, java.util.Map<String, ReleasedValue> values,
            CoinPress cp, double[] c, int n, double sigmaM, double perDistance) {
        double[][] cov = values.get("covariance").asMatrix();
        double[] mean = values.get("mean").asVector();
        int d = c.length;
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        double dist2 = 0;
        for (int i = 0; i < d; i++) {
            dist2 += (mean[i] - c[i]) * (mean[i] - c[i]);
            for (int j = 0; j < d; j++) {
                s.set(i, j, cov[i][j] + (mean[i] - c[i]) * (mean[j] - c[j]));
            }
        }
        double part = cp.expectedFromRelease(n, s);
        double dist = Math.min(radius, Math.sqrt(Math.max(0, dist2 - d * sigmaM * sigmaM)));
        double expected = fin(part + dist * perDistance + d * sigmaM * sigmaM);
        return apriori.expectedFromRelease(expected, String.format(Locale.ROOT, "computed from the release"
                + " (post-processing): the second-moment part's expected value %.4g (CoinPress: simulated runs of the"
                + " mechanism on Gaussian rows with the released centred second moment) plus the mean part's at the"
                + " released distance %.4g of the mean from the centre (the mean's noise removed); the parts' norms"
                + " are added (triangle inequality), so it is at least the expected error's size", part, dist));
    }

    private static double fin(double v) {
        return Double.isFinite(v) ? Math.max(0, v) : Double.MAX_VALUE;
    }

    private String id() {
        return FAMILY + "." + method;
    }

    @Override
    public Statement state(PublicContext context) {
        int n = context.rows();
        int d = context.dimension();
        double delta = context.delta();
        double[] c = centre(d);
        double f = meanFraction(n, d, delta);
        ClippedGaussianMean mean = meanPart(d, f);
        SecondMomentMethod sm = secondMomentPart(f, delta);
        Statement ms = mean.state(context);
        Statement ss = sm.state(context);
        List<Release> steps = List.of(ms.accounting(), ss.accounting());
        boolean certified = ms.guarantee().certified() && ss.guarantee().certified();
        String notes = String.format(Locale.ROOT, "private covariance: clipped Gaussian mean (rho_m=%.6g) and %s second"
                        + " moment (rho_S=%.6g) of the rows centred at a public c and clipped to R=%.6g, composed;"
                        + " covariance = S~ - m~ m~^T is post-processing; n=%d public", f * budget.rho(), method,
                        (1 - f) * budget.rho(), radius, n);
        boolean zcdp = ms.accounting().kind() == Release.Kind.ZCDP && ss.accounting().kind() == Release.Kind.ZCDP;
        // two zCDP parts: stated as the rho-zCDP their sum is (what --help and docs/cli.md promise, and what the
        // ledger charges), with its one conversion; the accountant's composition gives the same epsilon
        PrivacyGuarantee g = zcdp ? PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, budget, delta, certified,
                notes) : PrivacyAccountant.composeSteps(NeighbouringRelation.REPLACE_ONE, steps, delta, certified, notes);
        Release accounting = zcdp ? Release.zcdp(id(), NeighbouringRelation.REPLACE_ONE, budget)
                : Release.of(id(), g);
        PublicParameters params = PublicParameters.builder()
                .put("n", n)
                .put("d", d)
                .put("centre", c)
                .put("radius", radius)
                .put("rho", budget.rho())
                .put("meanFraction", f)
                .put("meanFractionChosenBy", meanFraction != null ? "given" : "planner: smallest stated bound")
                .put("secondMomentMethod", method)
                .put("mean", ms.parameters())
                .put("secondMoment", ss.parameters())
                .build();
        Statement.Builder b = Statement.builder(context, id(), g)
                .description("private covariance (d x d) and mean: " + method + " second moment and clipped"
                        + " Gaussian mean, composed")
                .parameters(params)
                .accounting(accounting)
                .accuracy(accuracy(n, d, delta, f, PROBABILITY));
        if (sm instanceof CoinPress) {
            // CoinPress's own expected value depends on the private S: computed from the release instead (issue 26
            // item 0), the released centred second moment S~ = C~ + (m~ - c)(m~ - c)^T being post-processing
            CoinPress cp = (CoinPress) sm;
            double sigmaM = mean.sigma(n);
            double perDistance = sigmaM * Math.sqrt(2 / Math.PI) + mean.accuracy(n, 1 - (1 - PROBABILITY) / 2)
                    .expected();
            b.accuracyFromRelease((a, values) -> coinPressFromRelease(a, values, cp, c, n, sigmaM, perDistance));
        }
        if (!ss.failMeaning().isEmpty()) {
            b.failMeaning(ss.failMeaning());
        }
        return b.build();
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        return compute(LocalRows.of(data.matrix(), context.engine()), stated, context);
    }

    /**
     * The release from row passes (in memory or on a cluster): the rows {@code y_i = clip_R(x_i - c)} are a row
     * map (formed block by block where the rows are), read by the mean part's pass and the second-moment part's
     * passes; the covariance is formed here.
     */
    @Override
    public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
        if (rows.rows() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the covariance states its parameters for at most 2^31-1 rows");
        }
        int n = (int) rows.rows();
        int d = rows.cols();
        double delta = stated.context().delta();
        double[] c = centre(d);
        double f = meanFraction(n, d, delta);
        // y_i = clip_R(x_i - c) by the one scale-safe routine (an overflowing difference is clipped, never an error)
        RowSource centred = rows.map(new CentreAndClip(c, L2Clip.safeTarget(radius, d)));
        PrivateRelease m = RowReleases.run(meanPart(d, f), centred, delta, context);
        SecondMomentMethod sp = secondMomentPart(f, delta);
        if (!(sp instanceof RowSourceMechanism)) { // every method the builder accepts runs as row passes
            throw new IllegalStateException("second-moment method " + sp.name() + " does not run as row passes");
        }
        PrivateRelease s = RowReleases.run((RowSourceMechanism) sp, centred, delta, context);
        if (!m.isPass() || !s.isPass()) {
            return Outcome.fail();
        }
        double[] mt = m.vector("mean");
        double[][] sm = s.matrix("secondMoment");
        double[][] cov = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                cov[i][j] = sm[i][j] - mt[i] * mt[j];
            }
        }
        double[] mean = new double[d];
        for (int j = 0; j < d; j++) {
            mean[j] = c[j] + mt[j];
        }
        Outcome.Builder out = Outcome.pass().matrix("covariance", cov).vector("mean", mean);
        if (psd) {
            DMatrixRMaj p = SpectralMetrics.psdProjection(new DMatrixRMaj(cov), 0);
            double[][] pr = new double[d][d];
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    pr[i][j] = p.get(i, j);
                }
            }
            out.matrix("covariancePsd", pr);
        }
        return out.build();
    }

    /** Builds a {@link PrivateCovariance} from named parameters (nothing can be swapped silently). */
    public static final class Builder {
        private Zcdp budget;
        private Double radiusValue;
        private double radius;
        private double[] centre;
        private String method = DEFAULT_METHOD;
        private Double minEigenvalue;
        private Double meanFraction;
        private boolean psd;

        private Builder() {
        }

        /** @param b the total zCDP budget (mean and second moment together) @return this builder */
        public Builder budget(Zcdp b) {
            this.budget = Objects.requireNonNull(b, "budget");
            return this;
        }

        /** @param r the public radius R around the centre; rows farther are clipped onto it @return this */
        public Builder radius(double r) {
            this.radiusValue = r;
            return this;
        }

        /** @param c the public centre (length d; default the origin) @return this builder */
        public Builder centre(double[] c) {
            this.centre = Objects.requireNonNull(c, "centre").clone();
            return this;
        }

        /**
         * @param name the second-moment method: {@code analyze-gauss} (default), {@code recursive} or
         *     {@code coinpress}
         * @return this builder
         */
        public Builder method(String name) {
            this.method = Objects.requireNonNull(name, "method").strip().toLowerCase(Locale.ROOT);
            return this;
        }

        /**
         * @param v a public lower bound on lambda_min of the centred second moment (for {@code recursive}), or null
         * @return this builder
         */
        public Builder minEigenvalue(Double v) {
            this.minEigenvalue = v;
            return this;
        }

        /** @param f the share of rho spent on the mean, in [0.001, 0.999], or null for the planner's @return this */
        public Builder meanFraction(Double f) {
            this.meanFraction = f;
            return this;
        }

        /** @param v also release {@code covariancePsd}, the PSD projection (post-processing) @return this */
        public Builder psdProjection(boolean v) {
            this.psd = v;
            return this;
        }

        /** @return the mechanism, validated (the parts are validated again when stated) */
        public PrivateCovariance build() {
            if (budget == null) {
                throw new IllegalStateException("budget(Zcdp.of(rho)) is required: the total zCDP budget");
            }
            if (radiusValue == null) {
                throw new IllegalStateException("radius(R) is required: the public radius around the centre");
            }
            radius = L2Clip.checkRadius("radius R", radiusValue);
            if (centre != null) {
                for (int j = 0; j < centre.length; j++) {
                    if (!Double.isFinite(centre[j])) {
                        throw new IllegalArgumentException("centre coordinate " + (j + 1) + " is not finite");
                    }
                }
            }
            if (meanFraction != null && !(meanFraction >= 0.001 && meanFraction <= 0.999)) {
                throw new IllegalArgumentException("mean fraction f=" + meanFraction + " is outside [0.001, 0.999]:"
                        + " both parts need a share of rho");
            }
            List<String> allowed = new ArrayList<>(List.of(AnalyzeGauss.NAME, RecursiveSecondMoment.NAME,
                    CoinPress.NAME));
            if (!allowed.contains(method)) {
                throw new IllegalArgumentException("second-moment method '" + method + "' is not available for the"
                        + " covariance; available: " + String.join(", ", allowed));
            }
            return new PrivateCovariance(this);
        }
    }
}
