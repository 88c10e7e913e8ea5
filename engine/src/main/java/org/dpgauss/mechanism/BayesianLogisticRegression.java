package org.dpgauss.mechanism;

import java.util.Objects;
import org.dpgauss.calibration.AnalyticGaussian;
import org.dpgauss.linalg.L2Clip;
import org.dpgauss.linalg.Norms;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.LoewnerComparableBound.Variant;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.privacy.noise.MultivariateGaussianNoise;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * Private Bayesian logistic regression (spec ndis §6.6, Def. 7, Prop. 7): release
 * {@code theta ~ N(theta^, Sigma + sigma* I_d)} with {@code theta^} a point within a public distance r of
 * {@code theta* = argmin L(theta; D)}, {@code L = sum_i ln(1 + exp(-y_i x_i^T theta)) + (lambda/2)||theta||^2}, and
 * the Böhning covariance {@code Sigma = (lambda I + (1/4) sum_i x_i x_i^T)^{-1}}.
 *
 * <p><b>Guarantee.</b> {@code (epsilon, delta)}-DP under <b>add/remove</b> neighbours for records
 * {@code (x, y)} with {@code ||x||_2 <= l} and {@code y in {-1, +1}}, for datasets of at most the public size N
 * (spec §11.2: the actual size is not revealed). Sensitivities (sigma a variance, {@code top = 1/(lambda + N l^2/4)}):
 * {@code Delta = (l'/lambda + 2r)/sqrt(sigma + top)} ({@code l' = l (1 + 1e-12)} covers the few ulps by which a row
 * scaled onto the ball can exceed l), {@code rhoInf = log((sigma + 1/lambda)/(sigma + top))},
 * {@code nu = d rhoInf}. Calibration: {@link NdisGaussianMechanism}.
 *
 * <p><b>Why the computed point is covered (issue 14, finding 2).</b> Prop. 7 bounds the Euclidean distance of the
 * exact minimisers of neighbouring datasets by {@code l/lambda} and divides it by {@code sqrt(lambda_min)} of the
 * smaller output covariance, which is at least {@code sigma + top}. The released mean is not the exact minimiser but
 * a computed point {@code T(D)}; if {@code ||T(D) - theta*(D)|| <= r} for EVERY dataset D, then
 * {@code ||T(D) - T(D')|| <= l/lambda + 2r} for every neighbouring pair and Prop. 7 holds with {@code l/lambda}
 * replaced by {@code l/lambda + 2r}. Such a public r is obtained without any data-dependent stopping or failure:
 * <ol>
 *   <li><b>Newton with a certificate.</b> Damped Newton (Armijo backtracking) runs from 0 for at most
 *       {@value #NEWTON_ITERATIONS} iterations (it may stop earlier once the computed gradient is below
 *       {@code 1e-10} or has stopped improving on a certified iterate; that changes only the running time, which is
 *       outside the guarantee). An iterate is
 *       <i>certified</i> when {@code (||g~|| + E) / lambda <= r}, with {@code g~} the gradient computed with
 *       compensated sums and {@code E} a rigorous bound on its floating-point error (terms below); by strong
 *       convexity {@code ||theta - theta*|| <= ||grad L(theta)|| / lambda}, so a certified iterate is within r of
 *       theta*. The released point is the certified iterate with the smallest computed gradient. Newton always gets
 *       there in practice (the target {@code r = 1e-4 l/lambda} sits far above the floating-point floor of the
 *       gradient, about {@code 2^-52 n l}), but no useful public bound on Newton's iteration count exists, so:</li>
 *   <li><b>A covered fallback.</b> If no iterate is certified (or a Hessian factorisation fails), the released point
 *       is K steps of gradient descent from 0 with the public step {@code 1/M}, {@code M = lambda + N l^2/4} (L is
 *       lambda-strongly convex and M-smooth for every dataset of at most N rows). Then
 *       {@code ||theta_K - theta*|| <= (1 - lambda/M)^K ||theta*||} and {@code ||theta*|| <= R = sqrt(2 N ln 2 /
 *       lambda)} (since {@code (lambda/2)||theta*||^2 <= L(theta*) <= L(0) = n ln 2}), plus an accumulated
 *       rounding term {@code E_pub/lambda + 8 u R min(K, M/lambda)} (each step errs by at most
 *       {@code E_pub/M + 8uR}, and the contraction {@code 1 - lambda/M} sums these to at most
 *       {@code min(K, M/lambda)} times that). K is the public count that brings the first term to
 *       {@code 1e-4 l/lambda}; when that count would exceed the work {@code K N (d + 10) = 1e14} and
 *       {@code R <= 0.05 l/lambda}, K = 0 (the fallback is theta = 0, residual R). The fallback's residual
 *       {@code r_fb} is public; on ill-conditioned parameters ({@code M/lambda} large) the fallback can take long,
 *       but it is a path the certificate has not been seen to need.</li>
 * </ol>
 * The covered residual is {@code r = max(1e-4 l/lambda, r_fb)}, a public parameter ({@code residualBound}). The
 * fallback is a safety net: it adds to the noise of every release only where its residual exceeds
 * {@code 1e-4 l/lambda}: by its rounding term (a fraction of a percent of the sensitivity for large N), or, where
 * {@code M/lambda} is so large that the fallback is theta = 0, by at most 10 % of the sensitivity (the noise, of
 * the order of {@code l/lambda}, is then far above any {@code theta*} such data can produce).
 *
 * <p>Floating-point error of the gradient: each margin {@code x_i^T theta} errs by at most
 * {@code gamma_d ||x_i|| ||theta||}, which moves the sigmoid by at most a quarter of that; the sigmoid itself errs
 * by at most 4u and the product by 2u; compensated summation of the n terms errs by at most {@code (2u + O(n u^2))}
 * times their absolute sum: per coordinate {@code E_a <= 10.2u S1 + gamma_d ||theta|| S2 / 4 + 6 u lambda
 * ||theta||} with {@code S1 = sum ||x_i|| <= n l} and {@code S2 = sum ||x_i||^2 <= n l^2}, doubled for safety,
 * times {@code sqrt(d)} for the norm. The certificate uses the data's S1 and S2 (its outcome only selects between
 * two covered points); the fallback's rounding term uses the public {@code N l} and {@code N l^2}.
 *
 * <p>The covariance {@code Sigma} is computed by a Cholesky-based inverse; were that to fail in floating point, the
 * covariance {@code I/lambda} is used instead, which is also covered: {@code (lambda + n l^2/4)^{-1} I <= Sigma(D)
 * <= I/lambda} for every D, so the pair stays Loewner-comparable with log-eigenvalue ratios within {@code rhoInf}
 * and the mean shift is measured under a covariance {@code >= (sigma + top) I}.
 *
 * <p><b>Input.</b> The dataset's rows are the d features followed by the label. The mechanism is defined on every
 * finite row: a feature vector longer than l is scaled onto the ball of radius l (a per-record map, so neighbours
 * stay neighbours; the one clipping routine {@link L2Clip}) and the label is {@code +1} if the last value is
 * positive, else {@code -1} (a fixed public rule: 0/1 labels map 0 to -1 and 1 to +1). With an intercept
 * ({@link Builder#intercept}), the public constant c is appended to every clipped feature vector, so the model rows
 * have norm at most {@code sqrt(l^2 + c^2)}, the bound every formula above then uses with the model dimension d + 1
 * (exactly the mechanism without intercept on the augmented data under that bound). A dataset of more than N rows is reduced to a secret uniformly random N of them
 * ({@code LabelledRows}: add/remove neighbours of at most N rows get the stated guarantee, a pair with a larger
 * neighbour that of two add/remove steps). No row is an error (issue 24, item 5); {@code dpgauss validate
 * --row-bound l --binary-labels --max-rows N} reports such rows, non-privately.
 *
 * <p><b>Point estimate (issue 29).</b> With {@link Builder#pointEstimate} the release is instead
 * {@code theta^ + N(0, s^2 I)}: the computed point theta^ is within r of theta*, and theta* moves by at most
 * {@code l/lambda} between add/remove neighbours (the first line of spec §6.6's "Why", Prop. 7's proof), so theta^
 * has L2 sensitivity {@code l/lambda + 2r} and the Gaussian mechanism with s from the analytic calibration
 * ({@link AnalyticGaussian}) is {@code (epsilon, delta)}-DP (output perturbation, Chaudhuri, Monteleoni and Sarwate
 * 2011). It drops the Böhning covariance and with it the covariance-ratio term that forces sigma* up where lambda is
 * large, so it is the model to classify with; the posterior sample remains the default (a sample, not an estimate).
 *
 * <p>Under the release contract it releases {@code theta} (length d); it never FAILs. Build it with
 * {@link #builder()}. Immutable.
 */
public final class BayesianLogisticRegression implements PrivateMechanism {

    /** The mechanism's identifier in releases. */
    public static final String ID = "mechanism.blr";

    /** Newton stops early once the computed gradient norm is below this (a speed-up only: see the class comment). */
    static final double GRADIENT_TOLERANCE = 1e-10;
    /** The public cap on Newton iterations. */
    static final int NEWTON_ITERATIONS = 200;
    /** The certified residual target, as a fraction of {@code l/lambda}. */
    static final double RESIDUAL_FRACTION = 1e-4;
    /** Above this fallback work {@code K N (d + 10)}, theta = 0 is the fallback if its residual R is small enough. */
    static final double FALLBACK_WORK = 1e14;
    /** theta = 0 is the fallback beyond the work cap when {@code R <= 0.05 l/lambda}. */
    static final double ZERO_FALLBACK_FRACTION = 0.05;

    private static final double U = 0x1p-53;

    /** The model's dimension: the features, plus one for the intercept column if there is one. */
    private final int dimension;
    /** The number of feature columns d in the data (the label follows them). */
    private final int features;
    /** The public constant c of the intercept column, or 0 for none. */
    private final double intercept;
    /** The public bound on the feature vectors' norm. */
    private final double featureBound;
    private final double lambda;
    /** The public bound on the model rows' norm: {@code sqrt(l^2 + c^2)} with an intercept, else l. */
    private final double rowBound;
    private final int maxRows;
    private final ApproxDp budget;
    private final double residualTarget;
    private final long fallbackIterations;
    private final double fallbackResidual;
    private final double residualBound;
    private final NdisGaussianMechanism mechanism;
    /** Whether the release is the point estimate {@code theta^ + N(0, s^2 I)} rather than the posterior sample. */
    private final boolean point;
    /** The point estimate's noise standard deviation s (analytic Gaussian at sensitivity l/lambda + 2r), or NaN. */
    private final double pointSigma;

    private BayesianLogisticRegression(int features, double intercept, double lambda, double featureBound,
            int maxRows, ApproxDp budget, Variant variant, boolean point) {
        this.point = point;
        this.features = features;
        this.intercept = intercept;
        this.featureBound = featureBound;
        int dimension = features + (intercept > 0 ? 1 : 0);
        // a feature vector clipped to l with the constant c appended has norm sqrt(||x||^2 + c^2) <= sqrt(l^2 + c^2);
        // hypot is within an ulp of it, which the sensitivity's 1e-12 slack covers
        double rowBound = intercept > 0 ? Math.hypot(featureBound, intercept) : featureBound;
        this.dimension = dimension;
        this.lambda = lambda;
        this.rowBound = rowBound;
        this.maxRows = maxRows;
        this.budget = budget;
        this.residualTarget = RESIDUAL_FRACTION * rowBound / lambda;
        double m = smoothness(lambda, rowBound, maxRows);
        double r = Math.nextUp(Math.sqrt(2 * maxRows * Math.log(2) / lambda));
        double perStep = -Math.log1p(-lambda / m); // > 0
        long k = 0;
        if (r > residualTarget) {
            double needed = Math.ceil(Math.log(r / residualTarget) / perStep);
            boolean affordable = needed * maxRows * (dimension + 10.0) <= FALLBACK_WORK;
            // beyond the work cap, stay at theta = 0 when R alone costs at most 10 % of the sensitivity; otherwise
            // run the long fallback (a path Newton's certificate has not been seen to need)
            k = affordable || r > ZERO_FALLBACK_FRACTION * rowBound / lambda ? (long) Math.min(needed, 0x1p62) : 0;
        }
        this.fallbackIterations = k;
        double optimisation = r * Math.exp(-k * perStep);
        double rounding = k == 0 ? 0
                : publicGradientError(dimension, lambda, rowBound, maxRows, 3 * r) / lambda
                        + 8 * U * r * Math.min((double) k, m / lambda);
        this.fallbackResidual = Math.nextUp((optimisation + rounding) * (1 + 1e-12));
        this.residualBound = Math.max(residualTarget, fallbackResidual);
        this.mechanism = NdisGaussianMechanism.calibrate(budget.epsilon(), budget.delta(), dimension,
                sensitivity(dimension, lambda, rowBound, maxRows, residualBound), variant);
        // spec §6.6's "Why": ||theta^(D) - theta^(D')|| <= l/lambda for the exact minimisers, plus 2r for the
        // computed points (class comment), so theta^ alone has that L2 sensitivity: the Gaussian mechanism
        this.pointSigma = point ? AnalyticGaussian.sigma(budget.epsilon(), budget.delta(), pointSensitivity())
                : Double.NaN;
    }

    /** The L2 sensitivity of the computed point theta^ under add/remove: {@code l/lambda + 2r} (with ulp slack). */
    private double pointSensitivity() {
        return rowBound * (1 + 1e-12) / lambda + 2 * residualBound;
    }

    /** @return whether this releases the point estimate (output perturbation) rather than the posterior sample */
    public boolean isPointEstimate() {
        return point;
    }

    /** @return the point estimate's noise standard deviation s, or NaN for the posterior sample */
    public double pointSigma() {
        return pointSigma;
    }

    /** @return a builder; every parameter but the bound is required */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The sensitivity function of Prop. 7 (spec §6.6) for a computed point within {@code residual} of the exact
     * minimiser (see the class comment; {@code residual = 0} is the spec's exact-minimiser form).
     *
     * @param d the dimension
     * @param lambda the regulariser
     * @param l the row bound
     * @param n the public maximum number of rows
     * @param residual the public bound on the distance of the released point to the exact minimiser
     * @return the sensitivity function
     */
    public static SensitivityFunction sensitivity(int d, double lambda, double l, int n, double residual) {
        double top = 1 / (lambda + n * l * l / 4);
        double gap = (n * l * l / 4) / (lambda * (lambda + n * l * l / 4)); // 1/lambda - top, without cancellation
        double shift = l * (1 + 1e-12) / lambda + 2 * residual; // clipped rows may exceed l by a few ulps
        return sigma -> {
            double low = sigma + top;
            double rho = Math.log1p(gap / low);
            return new NdisSensitivity(shift / Math.sqrt(low), rho, d * rho);
        };
    }

    /** @return the calibrated Gaussian mechanism */
    public NdisGaussianMechanism mechanism() {
        return mechanism;
    }

    /** @return the public bound r on the distance of the released mean to the exact minimiser */
    public double residualBound() {
        return residualBound;
    }

    /** @return the public number of fallback gradient steps */
    public long fallbackIterations() {
        return fallbackIterations;
    }

    /** @return the guarantee of one release, as the recipe certifies it */
    public PrivacyGuarantee guarantee() {
        if (point) {
            return PrivacyGuarantee.approxDp(NeighbouringRelation.ADD_REMOVE, budget, true, "point estimate of"
                    + " Bayesian logistic regression by output perturbation: theta^ + N(0, s^2 I) with theta^ within"
                    + " the public residual " + residualBound + " of the exact regularised minimiser, whose add/remove"
                    + " L2 sensitivity is l/lambda (spec ndis §6.6, Prop. 7's proof), so l/lambda + 2r for theta^;"
                    + " s=" + pointSigma + " by the analytic Gaussian mechanism (spec ndis §7 item 2); records with"
                    + " ||x|| <= l and y in {-1, +1} (features clipped to l, labels sign-mapped: 0 -> -1)"
                    + (intercept > 0 ? ", the public constant c=" + intercept + " appended as an intercept column"
                            + " (model rows of norm <= sqrt(l^2 + c^2) = " + rowBound + ")" : "")
                    + ", at most " + maxRows + " rows; " + LabelledRows.note(maxRows) + "; idealised real-arithmetic"
                    + " Gaussian noise, floating-point effects of the noise not covered; running time is outside the"
                    + " guarantee");
        }
        return mechanism.guarantee("Bayesian logistic regression (spec ndis §6.6, Prop. 7) at a point within the public"
                + " residual " + residualBound + " of the exact minimiser (Newton with a certificate, else a"
                + " fixed-step gradient fallback), records with ||x|| <= l and y in {-1, +1} (features clipped to l,"
                + " labels sign-mapped: 0 -> -1)"
                + (intercept > 0 ? ", the public constant c=" + intercept + " appended as an intercept column (model"
                        + " rows of norm <= sqrt(l^2 + c^2) = " + rowBound + ")" : "") + ", at most " + maxRows + " rows; " + LabelledRows.note(maxRows));
    }

    @Override
    public NeighbouringRelation relation() {
        return NeighbouringRelation.ADD_REMOVE;
    }

    @Override
    public Statement state(PublicContext context) {
        if (context.dimension() != features + 1) {
            throw new IllegalArgumentException("the data have " + context.dimension() + " columns but the mechanism"
                    + " was built for d=" + features + " features plus the label column (" + (features + 1) + ")");
        }
        PublicParameters.Builder p = PublicParameters.builder()
                .put("d", features)
                .put("intercept", intercept)
                .put("modelDimension", dimension)
                .put("lambda", lambda)
                .put("rowBound", featureBound)
                .put("modelRowBound", rowBound)
                .put("maxRows", maxRows)
                .put("epsilon", budget.epsilon())
                .put("delta", budget.delta())
                .put("residualBound", residualBound)
                .put("newtonIterations", NEWTON_ITERATIONS)
                .put("fallbackIterations", fallbackIterations)
                .put("output", point ? "point" : "sample");
        if (point) {
            p.put("sensitivity", pointSensitivity()).put("noiseSigma", pointSigma);
        } else {
            mechanism.putParameters(p);
        }
        return Statement.builder(context, ID, guarantee())
                .description(point ? "private Bayesian logistic regression point estimate, Gaussian output"
                        + " perturbation" : "private Bayesian logistic regression sample, NDIS-calibrated Gaussian"
                        + " mechanism")
                .parameters(p.build())
                .accounting(Release.approxDp(ID, NeighbouringRelation.ADD_REMOVE, budget))
                .accuracy(accuracy())
                .build();
    }

    /** The probability of the stated accuracy bound. */
    public static final double ACCURACY_PROBABILITY = 0.95;

    /**
     * The a-priori accuracy of the released sample {@code theta}, from public quantities only: its L2 distance to the
     * exact posterior mode {@code theta* = argmin L}. {@code theta = theta^ + Z} with {@code ||theta^ - theta*|| <= r}
     * ({@code residualBound}) and {@code Z ~ N(0, Sigma + sigma* I)}, where the Böhning covariance satisfies
     * {@code Sigma <= I/lambda} for every dataset; so {@code ||Z||} is at most {@code sqrt(sigma* + 1/lambda)} times
     * a chi variable with d degrees of freedom, and the statement is that chi's mean and 0.95 quantile times
     * {@code sqrt(sigma* + 1/lambda)}, plus r. Exact (up to r) when the data add little curvature
     * ({@code (1/4) sum x x^T} small against {@code lambda I}); with much curvature the posterior part shrinks towards
     * {@code 1/(lambda + n l^2/4)} and the error towards the noise part {@code sqrt(sigma*)}. Also in units of
     * {@code sqrt(d/lambda)}, the spread of the prior {@code N(0, I/lambda)}.
     *
     * @return the statement
     */
    public org.dpgauss.release.Accuracy accuracy() {
        if (point) {
            org.dpgauss.release.Accuracy a = org.dpgauss.release.Accuracy.isotropicGaussianL2("L2 distance of the"
                    + " released theta to the posterior mode theta* = argmin L (the regularised logistic minimiser)",
                    pointSigma, dimension, ACCURACY_PROBABILITY, "");
            return org.dpgauss.release.Accuracy.of(a.metric(), a.expected() + residualBound,
                    a.bound() + residualBound, ACCURACY_PROBABILITY, String.format(java.util.Locale.ROOT, "point"
                            + " estimate theta = theta^ + Z, ||theta^ - theta*|| <= r=%.3g, Z ~ N(0, s^2 I) with"
                            + " s=%.4g; exact up to r", residualBound, pointSigma))
                    .alsoIn(String.format(java.util.Locale.ROOT, "sqrt(d/lambda) = %.4g (the L2 spread of the prior"
                            + " N(0, I/lambda))", Math.sqrt(dimension / lambda)), Math.sqrt(dimension / lambda));
        }
        double sigma2 = mechanism.variance();
        double scale = Math.sqrt(sigma2 + 1 / lambda);
        org.dpgauss.release.Accuracy a = org.dpgauss.release.Accuracy.isotropicGaussianL2("L2 distance of the"
                + " released theta to the posterior mode theta* = argmin L (the regularised logistic minimiser)", scale,
                dimension, ACCURACY_PROBABILITY, "");
        double top = 1 / (lambda + maxRows * rowBound * rowBound / 4);
        return org.dpgauss.release.Accuracy.of(a.metric(), a.expected() + residualBound, a.bound() + residualBound,
                ACCURACY_PROBABILITY, String.format(java.util.Locale.ROOT, "model rows (features"
                        + (intercept > 0 ? " and the intercept constant" : "") + ") with norm <= %.4g and labels"
                        + " +-1, at most N=%d rows; theta = theta^ + Z with ||theta^ - theta*|| <= r=%.3g and Z ~ N(0,"
                        + " Sigma + sigma* I), sigma*=%.4g the calibrated noise variance, Sigma <= I/lambda=%.4g (the"
                        + " statement takes Sigma at that bound, exact when the data add little curvature; with much"
                        + " curvature Sigma falls towards %.3g and the error towards sqrt(sigma*) chi_d, %.3g of the"
                        + " stated value)", rowBound, maxRows, residualBound, sigma2, 1 / lambda, top,
                        Math.sqrt((sigma2 + top) / (sigma2 + 1 / lambda))))
                .alsoIn(String.format(java.util.Locale.ROOT, "sqrt(d/lambda) = %.4g (the L2 spread of the prior"
                        + " N(0, I/lambda))", Math.sqrt(dimension / lambda)), Math.sqrt(dimension / lambda));
    }

    @Override
    public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
        double[][][] xy = records(data.matrix(), context.random());
        return Outcome.pass().vector("theta", release(xy[0], xy[1][0], context.random())).build();
    }

    /**
     * Keeps at most N rows ({@link LabelledRows#kept}), splits, clips and sign-maps them (the mechanism's per-record
     * map; see the class comment).
     */
    double[][][] records(RowBlockMatrix m, RandomSource random) {
        double clipTarget = L2Clip.safeTarget(featureBound, features);
        int[] kept = LabelledRows.kept(m, maxRows, random);
        int n = kept.length;
        double[][] x = new double[n][dimension];
        double[] y = new double[n];
        double[] row = new double[features + 1];
        for (int i = 0; i < n; i++) {
            m.copyRow(kept[i], row, 0);
            // the one scale-safe clipping routine: the norm compared with l, never squared (issue 24)
            L2Clip.clip(row, 0, features, clipTarget); // true norm <= l whatever d (L2Clip.safeTarget)
            System.arraycopy(row, 0, x[i], 0, features);
            if (intercept > 0) {
                x[i][features] = intercept; // the public constant column: the model row's norm <= sqrt(l^2 + c^2)
            }
            // a fixed public rule: 0/1 labels map 0 -> -1 and 1 -> +1, -1/+1 labels are kept
            y[i] = row[features] > 0 ? 1 : -1;
        }
        return new double[][][] {x, {y}};
    }

    /**
     * The output distribution {@code N(theta^, Sigma + sigma* I)} on clipped records (for audits; non-private).
     *
     * @param x the features, n x d, {@code ||x_i|| <= l}
     * @param y the labels, {@code +-1}
     * @return the distribution
     */
    Gaussian outputDistribution(double[][] x, double[] y) {
        return mechanism.outputDistribution(estimate(x, y), covariance(x));
    }

    /** One private posterior sample on clipped records; the computation behind {@link #compute}. */
    double[] release(double[][] x, double[] y, RandomSource random) {
        Objects.requireNonNull(random, "random source");
        if (point) {
            double[] theta = estimate(x, y);
            DMatrixRMaj cov = CommonOps_DDRM.identity(dimension);
            CommonOps_DDRM.scale(pointSigma * pointSigma, cov);
            double[] z = MultivariateGaussianNoise.ofCovariance(cov, random).sample();
            for (int i = 0; i < dimension; i++) {
                theta[i] += z[i];
            }
            return theta;
        }
        return mechanism.release(estimate(x, y), covariance(x), random);
    }

    /** The Böhning covariance, or the covered {@code I/lambda} should its inversion fail (class comment). */
    DMatrixRMaj covariance(double[][] x) {
        DMatrixRMaj c = bohningCovariance(x, lambda, dimension);
        if (c == null) {
            c = CommonOps_DDRM.identity(dimension);
            CommonOps_DDRM.scale(1 / lambda, c);
        }
        return c;
    }

    /**
     * The released mean theta^: the certified Newton iterate, else the public gradient-descent fallback (class
     * comment). Never throws on finite records with {@code ||x_i|| <= l}.
     */
    double[] estimate(double[][] x, double[] y) {
        double[] theta = newton(x, y);
        return theta != null ? theta : gradientDescent(x, y, fallbackIterations);
    }

    /** @return the certified Newton iterate with the smallest computed gradient, or null if none is certified */
    double[] newton(double[][] x, double[] y) {
        int d = dimension;
        int n = x.length;
        double[] theta = new double[d];
        double[] grad = new double[d];
        DMatrixRMaj h = new DMatrixRMaj(d, d);
        double s1 = 0;
        double s2 = 0;
        for (double[] row : x) {
            double r = Norms.euclidean(row, d);
            s1 += r;
            s2 += r * r;
        }
        double inflate = 1 + 4 * (n + d + 4) * U;
        s1 *= inflate;
        s2 *= inflate * inflate;
        double[] best = null;
        double bestNorm = Double.POSITIVE_INFINITY;
        int stalled = 0;
        LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_DDRM.chol(d);
        for (int it = 0; ; it++) {
            double gnorm = gradientAndHessian(x, y, lambda, theta, grad, h);
            if (!Double.isFinite(gnorm)) {
                break;
            }
            if (certified(gnorm, theta, s1, s2)) {
                if (gnorm < bestNorm) {
                    best = theta.clone();
                    bestNorm = gnorm;
                    stalled = 0;
                } else {
                    stalled++;
                }
                // early stops change only the running time (outside the guarantee), never what is covered
                if (gnorm < GRADIENT_TOLERANCE || stalled >= 3) {
                    break;
                }
            }
            if (it == NEWTON_ITERATIONS) {
                break;
            }
            if (!solver.setA(h)) {
                break;
            }
            DMatrixRMaj step = new DMatrixRMaj(d, 1);
            solver.solve(new DMatrixRMaj(d, 1, true, grad), step);
            double f0 = objective(x, y, lambda, theta);
            double slope = 0;
            for (int j = 0; j < d; j++) {
                slope += grad[j] * step.get(j);
            }
            if (!Double.isFinite(slope) || !Double.isFinite(f0)) {
                break;
            }
            double t = 1;
            double[] next = new double[d];
            for (int k = 0; k < 60; k++) {
                for (int j = 0; j < d; j++) {
                    next[j] = theta[j] - t * step.get(j);
                }
                // near the optimum the decrease is below the rounding of L: take the full (quadratically
                // convergent) Newton step instead of comparing rounded objective values
                if (slope < 1e-10 * (1 + Math.abs(f0))
                        || objective(x, y, lambda, next) <= f0 - 1e-4 * t * slope) {
                    break;
                }
                t *= 0.5;
            }
            theta = next;
        }
        return best;
    }

    /**
     * Whether {@code (||g~|| + E)/lambda <= r} at theta (class comment), with {@code s1 = sum ||x_i||} and
     * {@code s2 = sum ||x_i||^2} already inflated for their own rounding.
     */
    private boolean certified(double gnorm, double[] theta, double s1, double s2) {
        double tnorm = Math.sqrt(dot(theta, theta)) * (1 + 1e-12);
        double gammaD = (dimension + 1) * U / (1 - (dimension + 1) * U);
        double e = 2 * Math.sqrt(dimension) * (10.2 * U * s1 + gammaD * tnorm * s2 / 4 + 6 * U * lambda * tnorm);
        double bound = (gnorm * (1 + (dimension + 4) * U) + e) / lambda;
        return bound * (1 + 1e-9) <= residualTarget;
    }

    /** The public bound on the gradient's floating-point error at any {@code ||theta|| <= t}, n <= N rows. */
    static double publicGradientError(int d, double lambda, double l, int maxRows, double t) {
        double gammaD = (d + 1) * U / (1 - (d + 1) * U);
        double l1 = l * (1 + 1e-12);
        return 2 * Math.sqrt(d) * ((double) maxRows * l1 * (10.2 * U + gammaD * l1 * t / 4) + 6 * U * lambda * t);
    }

    /** K steps of gradient descent from 0 with the public step 1/M (class comment). */
    double[] gradientDescent(double[][] x, double[] y, long steps) {
        double eta = 1 / smoothness(lambda, rowBound, maxRows);
        double[] theta = new double[dimension];
        double[] grad = new double[dimension];
        for (long k = 0; k < steps; k++) {
            gradient(x, y, lambda, theta, grad);
            for (int j = 0; j < dimension; j++) {
                theta[j] -= eta * grad[j];
            }
        }
        return theta;
    }

    private static double smoothness(double lambda, double l, int n) {
        return lambda + (double) n * l * l / 4;
    }

    /**
     * {@code (lambda I + (1/4) sum x_i x_i^T)^{-1}} (spec §6.6), or null if the inversion fails in floating point.
     */
    static DMatrixRMaj bohningCovariance(double[][] x, double lambda, int d) {
        DMatrixRMaj p = CommonOps_DDRM.identity(d);
        CommonOps_DDRM.scale(lambda, p);
        for (double[] row : x) {
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    p.add(a, b, 0.25 * row[a] * row[b]);
                }
            }
        }
        DMatrixRMaj inv = new DMatrixRMaj(d, d);
        if (!CommonOps_DDRM.invertSPD(p, inv)) {
            return null;
        }
        // symmetrise against rounding
        for (int a = 0; a < d; a++) {
            for (int b = a + 1; b < d; b++) {
                double v = 0.5 * (inv.get(a, b) + inv.get(b, a));
                inv.set(a, b, v);
                inv.set(b, a, v);
            }
        }
        for (int i = 0; i < d * d; i++) {
            if (!Double.isFinite(inv.data[i])) {
                return null;
            }
        }
        return inv;
    }

    static double objective(double[][] x, double[] y, double lambda, double[] theta) {
        double f = 0;
        for (int i = 0; i < x.length; i++) {
            f += softplus(-y[i] * dot(x[i], theta));
        }
        return f + 0.5 * lambda * dot(theta, theta);
    }

    /** The gradient with compensated (Kahan) sums; returns its norm. */
    static double gradient(double[][] x, double[] y, double lambda, double[] theta, double[] grad) {
        int d = theta.length;
        double[] comp = new double[d];
        for (int j = 0; j < d; j++) {
            grad[j] = lambda * theta[j];
        }
        for (int i = 0; i < x.length; i++) {
            double s = sigmoid(-y[i] * dot(x[i], theta)); // d/dm ln(1+e^-m) = -s
            for (int a = 0; a < d; a++) {
                double v = -y[i] * s * x[i][a] - comp[a];
                double t = grad[a] + v;
                comp[a] = (t - grad[a]) - v;
                grad[a] = t;
            }
        }
        return Math.sqrt(dot(grad, grad));
    }

    private static double gradientAndHessian(double[][] x, double[] y, double lambda, double[] theta, double[] grad,
            DMatrixRMaj h) {
        int d = theta.length;
        h.zero();
        for (int a = 0; a < d; a++) {
            h.set(a, a, lambda);
        }
        for (int i = 0; i < x.length; i++) {
            double s = sigmoid(-y[i] * dot(x[i], theta));
            double w = s * (1 - s);
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    h.add(a, b, w * x[i][a] * x[i][b]);
                }
            }
        }
        return gradient(x, y, lambda, theta, grad);
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static double softplus(double t) {
        return t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t));
    }

    static double sigmoid(double t) {
        if (t >= 0) {
            return 1 / (1 + Math.exp(-t));
        }
        double e = Math.exp(t);
        return e / (1 + e);
    }

    /** Builds a {@link BayesianLogisticRegression} from named parameters (nothing can be swapped silently). */
    public static final class Builder extends NdisBuilder<Builder> {
        private Integer dimension;
        private Double lambda;
        private Double rowBound;
        private double intercept;
        private boolean point;

        private Builder() {
        }

        /**
         * @param d the number of features d &gt;= 1 (the data have d + 1 columns: the label is the last)
         * @return this builder
         */
        public Builder dimension(int d) {
            this.dimension = d;
            return this;
        }

        /**
         * @param value the public regulariser lambda &gt; 0
         * @return this builder
         */
        public Builder lambda(double value) {
            this.lambda = value;
            return this;
        }

        /**
         * @param l the public bound l &gt; 0 on {@code ||x||_2}
         * @return this builder
         */
        public Builder rowBound(double l) {
            this.rowBound = l;
            return this;
        }

        /**
         * An intercept: the public constant {@code c} appended to every feature vector, so the model is
         * {@code x^T w + c b} and {@code theta = (w, b)} has d + 1 entries. The sensitivity then rests on the model
         * rows' bound {@code sqrt(l^2 + c^2)}; {@code c = 0} (the default) means no intercept. A c of the order of
         * l balances the intercept's prior {@code N(0, 1/lambda)} (on {@code b}, i.e. {@code c b} has spread
         * {@code c/sqrt(lambda)}) against the extra noise.
         *
         * @param c the public constant, {@code c >= 0} (0: no intercept)
         * @return this builder
         */
        public Builder intercept(double c) {
            this.intercept = c;
            return this;
        }

        /**
         * Release the point estimate {@code theta^ + N(0, s^2 I)} (output perturbation: theta^'s L2 sensitivity is
         * {@code l/lambda + 2r}, s by the analytic Gaussian mechanism) instead of the posterior sample
         * {@code N(theta^, Sigma + sigma* I)}: the model to classify with, with less noise (no Böhning
         * covariance, no covariance-ratio term).
         *
         * @param value true for the point estimate (default false: the posterior sample of spec §6.6)
         * @return this builder
         */
        public Builder pointEstimate(boolean value) {
            this.point = value;
            return this;
        }

        /**
         * @return the calibrated mechanism
         * @throws IllegalArgumentException if a parameter is out of range
         * @throws IllegalStateException if a required parameter is missing
         */
        public BayesianLogisticRegression build() {
            if (dimension == null || lambda == null || rowBound == null || maxRows == null || budget == null) {
                throw new IllegalStateException("dimension, lambda, rowBound, maxRows and budget are required");
            }
            if (dimension < 1) {
                throw new IllegalArgumentException("dimension=" + dimension + " is outside [1, inf): at least one"
                        + " feature");
            }
            positive("lambda", lambda, "the regulariser makes L strongly convex and bounds the sensitivity l/lambda");
            positive("rowBound", rowBound, "the public bound l on ||x|| must be a positive norm");
            L2Clip.checkRadius("rowBound", rowBound);
            if (!(intercept >= 0) || !Double.isFinite(intercept)) {
                throw new IllegalArgumentException("intercept=" + intercept + " is outside [0, inf): the public"
                        + " constant of the intercept column (0 for none)");
            }
            double model = intercept > 0 ? Math.hypot(rowBound, intercept) : rowBound;
            if (intercept > 0) {
                L2Clip.checkRadius("sqrt(rowBound^2 + intercept^2)", model);
            }
            checkMaxRows("§6.6");
            double m = smoothness(lambda, model, maxRows);
            if (!(m < 1e300) || !(lambda / m > 0)) {
                throw new IllegalArgumentException("lambda + maxRows * rowBound^2 / 4 = " + m + " with lambda=" + lambda
                        + ": the objective's curvature bounds must be finite and their ratio representable; rescale"
                        + " the features (a smaller rowBound) or raise lambda");
            }
            if (!(budget.delta() > 0)) {
                throw new IllegalArgumentException("delta=" + budget.delta() + " is outside (0, 1): the NDIS bound"
                        + " needs delta > 0 (spec ndis §6.5.3)");
            }
            return new BayesianLogisticRegression(dimension, intercept, lambda, rowBound, maxRows, budget, variant,
                    point);
        }
    }
}
