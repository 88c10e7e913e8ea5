package org.dpgauss.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpgauss.mechanism.BayesianLogisticRegression;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.release.Statement;

/**
 * The blr family for the planner ({@code plan blr}, issue 29): Bayesian logistic regression ({@code mechanism blr},
 * spec ndis §6.6) stated on public facts: n is the public maximum {@code --max-rows}, d the number of features, the
 * row bound l on the feature vectors, the regulariser lambda and the intercept constant c. The prediction is the
 * mechanism's own accuracy statement (the L2 distance of the released theta to the posterior mode) for the output
 * planned ({@link PlanQuery#pointEstimate}): by default the point estimate {@code theta^ + N(0, s^2 I)} (output
 * perturbation at sensitivity {@code l'/lambda + 2r}, {@code --output point}), the model to classify with (issue 26:
 * 0.944 held-out accuracy on breast cancer against 0.921 for diffprivlib, 0.868 for the sample), else the posterior
 * sample; the run line names the same output, so it releases what was stated.
 *
 * <p><b>Choosing lambda.</b> The noise variance sigma* falls as lambda grows (the sensitivity is {@code l/lambda}),
 * while a larger lambda shrinks theta* towards 0. What a classifier feels is the noise on the score
 * {@code x^T theta} of a row: for a row at the bound its standard deviation is at most
 * {@code l' sqrt(sigma* + 1/lambda)} (l' the model rows' bound, with the intercept column), in log-odds units. The
 * recommended lambda is the smallest on a grid of {@code l'^2 * 10^(k/4)} for which that score noise is at most
 * {@value #SCORE_NOISE} log-odds: enough noise to leave the sign of a confident score (log-odds of 2-4) mostly
 * intact, with as little shrinkage as that allows. It uses public facts only; bench/realdata/blr_accuracy.py measures
 * it (docs/cli.md). The rule is the posterior sample's for both outputs: the point estimate's score noise
 * {@code l' s} is smaller at the same lambda, and the point estimate at this lambda is what was measured against
 * diffprivlib (bench/results/realdata/learn-vs-diffprivlib.md), so the recommendation does not move with
 * {@code --output}. A rule on {@code l' s <= 1.5} would stop far lower (3.2 instead of 18 on breast cancer at
 * (1, 1e-6)), where the point estimate classifies worse (median held-out accuracy 0.918 against 0.942 at 18 in
 * bench/realdata/blr_point_lambda.py): with little noise the shrinkage, not the noise, limits it.
 */
final class BlrMethods implements MethodProvider {

    /** The target standard deviation of the noise on a bound row's score, in log-odds. */
    static final double SCORE_NOISE = 1.5;

    @Override
    public Family family() {
        return Family.BLR;
    }

    @Override
    public List<PlannedMethod> plan(PlanQuery q) {
        List<PlannedMethod> out = new ArrayList<>();
        out.add(blr(q));
        return out;
    }

    /** The posterior sample's mechanism at lambda (the recommendation's rule is stated on it). */
    static BayesianLogisticRegression build(PlanQuery q, double lambda) {
        return build(q, lambda, false);
    }

    /** The mechanism at lambda: the point estimate ({@code --output point}) or the posterior sample. */
    static BayesianLogisticRegression build(PlanQuery q, double lambda, boolean point) {
        return BayesianLogisticRegression.builder().dimension(q.dimension()).lambda(lambda)
                .rowBound(q.rowBound().getAsDouble()).intercept(q.intercept()).maxRows(q.rows()).budget(q.budget())
                .pointEstimate(point).build();
    }

    /** The standard deviation of the noise on the score of a row at the model bound (class comment). */
    static double scoreNoise(BayesianLogisticRegression m, double modelBound, double lambda) {
        return modelBound * Math.sqrt(m.mechanism().variance() + 1 / lambda);
    }

    /**
     * The recommended lambda (class comment): the smallest {@code l'^2 10^(k/4)}, k from -8 to 24, whose score noise
     * is at most {@link #SCORE_NOISE}; the largest of the grid if none is.
     *
     * @param q the facts (with a row bound)
     * @return lambda
     */
    static double recommendedLambda(PlanQuery q) {
        double l = q.rowBound().getAsDouble();
        double c = q.intercept();
        double model = c > 0 ? Math.hypot(l, c) : l;
        double lambda = 0;
        for (int k = -8; k <= 24; k++) {
            lambda = model * model * Math.pow(10, k / 4.0);
            if (scoreNoise(build(q, lambda), model, lambda) <= SCORE_NOISE) {
                break;
            }
        }
        return lambda;
    }

    private static PlannedMethod blr(PlanQuery q) {
        String method = "blr";
        boolean point = q.pointEstimate();
        String when = "to fit a logistic-regression classifier: scale every feature to a public centre and spread"
                + " (e.g. (x - centre) / spread / sqrt(d)) so typical rows have norm about 1, take --row-bound 1,"
                + " add --intercept 1 only if the classes are unbalanced after centring, use --output point (the"
                + " point estimate by output perturbation: less noise than the posterior sample, --output sample) and"
                + " the released theta itself as the model (sign(x^T w + c b))";
        List<String> needs = new ArrayList<>(List.of("--row-bound l: a public bound on the feature vectors' norm (longer"
                + " ones are scaled onto it)", "n is --max-rows, a public maximum on the rows"));
        ApproxDp t = q.budget();
        if (q.rowBound().isEmpty()) {
            return PlannedMethod.notApplicable(method, BayesianLogisticRegression.ID, "needs --row-bound l, a public"
                    + " bound on the feature vectors' norm (scale the features so typical rows have norm about 1,"
                    + " then l = 1)", -1, needs, when);
        }
        if (!(t.delta() > 0)) {
            return PlannedMethod.notApplicable(method, BayesianLogisticRegression.ID, "needs delta > 0 (the NDIS"
                    + " bound, spec ndis §6.5.3)", -1, needs, when);
        }
        double lambda;
        if (q.lambda().isPresent()) {
            lambda = q.lambda().getAsDouble();
        } else {
            lambda = recommendedLambda(q);
            needs.add(String.format(Locale.ROOT, "--lambda: none given; %s is recommended (the smallest lambda whose"
                    + " posterior-sample noise on a bound row's score is at most %s log-odds; measured with both"
                    + " outputs, bench/results/realdata/learn-vs-diffprivlib.md)", MeanMethods.num(round(lambda)),
                    MeanMethods.num(SCORE_NOISE)));
            lambda = round(lambda);
        }
        BayesianLogisticRegression m;
        try {
            m = build(q, lambda, point);
        } catch (IllegalArgumentException e) {
            return PlannedMethod.notApplicable(method, BayesianLogisticRegression.ID, e.getMessage(), -1, needs,
                    when);
        }
        double l = q.rowBound().getAsDouble();
        double model = q.intercept() > 0 ? Math.hypot(l, q.intercept()) : l;
        double sampleNoise = scoreNoise(m, model, lambda);
        // the statement is the release's own: the point estimate's (noise s at sensitivity l'/lambda + 2r) or the
        // posterior sample's, as the run line below releases it
        Statement s = Planner.state(m, q.rows(), q.dimension() + 1, t.delta());
        String cmd = String.format(Locale.ROOT, "dpgauss mechanism blr --lambda %s --row-bound %s%s --max-rows %d"
                + " --epsilon %s --delta %s --output %s", MeanMethods.num(lambda), MeanMethods.num(l),
                q.intercept() > 0 ? " --intercept " + MeanMethods.num(q.intercept()) : "", q.rows(),
                MeanMethods.num(t.epsilon()), MeanMethods.num(t.delta()), point ? "point" : "sample");
        String scale = "the noise scales as l/lambda, so lambda must scale with l^2 (features twice as large need"
                + " lambda four times as large)";
        String advice;
        if (point) {
            double noise = model * m.pointSigma();
            advice = String.format(Locale.ROOT, "%s; at lambda=%s the point estimate's noise has standard deviation"
                    + " s=%.4g per coordinate (the analytic Gaussian at sensitivity l'/lambda + 2r), so s l' = %.3g"
                    + " log-odds on a bound row's score x^T theta (a posterior sample, --output sample: up to %.3g):"
                    + " %s", when, MeanMethods.num(lambda), m.pointSigma(), noise, sampleNoise, scale);
        } else {
            advice = String.format(Locale.ROOT, "%s; at lambda=%s the noise variance is sigma*=%.4g and the noise"
                    + " on a bound row's score x^T theta has standard deviation at most %.3g log-odds (%s): %s", when,
                    MeanMethods.num(lambda), m.mechanism().variance(), sampleNoise,
                    sampleNoise <= SCORE_NOISE ? "small enough for confident rows to keep their sign"
                            : "large: raise lambda, or more rows per feature are needed", scale);
        }
        return PlannedMethod.applicable(method, BayesianLogisticRegression.ID, s.accuracy().orElse(null), -1, needs,
                cmd, advice);
    }

    /** Two significant digits, so the printed command repeats the value used. */
    static double round(double x) {
        return new java.math.BigDecimal(x).round(new java.math.MathContext(2)).doubleValue();
    }
}
