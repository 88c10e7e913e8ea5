package org.dpgauss.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpgauss.mean.anisotropic.StableHistogram;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Statement;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.dpgauss.secondmoment.CoinPress;
import org.dpgauss.secondmoment.RecursiveSecondMoment;
import org.dpgauss.secondmoment.SecondMomentParams;
import org.dpgauss.secondmoment.SubsampleAndAggregate;

/**
 * The second-moment family's methods for the planner (metric: the absolute spectral error {@code ||S~ - S||_2}, whose
 * scale is public). The public facts used: the radius R ({@link PlanQuery#rowBound()}: every row has norm at most R)
 * and optionally a lower bound on {@code lambda_min(S)} ({@link PlanQuery#minEigenvalue()}, which also bounds
 * {@code ||S||_2} from below). The zCDP methods spend the rho that the budget's (epsilon, delta) allows by the
 * project's conversion; subsample-and-aggregate spends the (epsilon, delta) itself and states a relative error, so
 * it is listed but not compared.
 *
 * <p>How the methods compare: analyze-gauss adds one noise matrix of norm about {@code 2 R^2 sqrt(d)/(n sqrt(rho))}
 * whatever the rows; coinpress's error is about {@code 2 tau^2 sqrt(||S||_2 tr S)/(n sqrt(3 rho/4))} once its
 * preconditioner locks on ({@code tau^2 ~ d}), independent of R, so it wins when R is loose (and the statement's
 * scale, a public lower bound on {@code ||S||_2}, says so), and its step noise is amplified below its lock-on n;
 * recursive with one level is analyze-gauss with the paper's 2.8 times larger noise, with several levels it
 * amplifies its leaf noise along the directions it halves, and gives the multiplicative guarantee on every direction
 * (which this metric does not reward); subsample-and-aggregate is private only above Thm A.6's sample size (about
 * 1e9 rows at d = 100).
 */
final class SecondMomentMethods implements MethodProvider {

    @Override
    public Family family() {
        return Family.SECOND_MOMENT;
    }

    @Override
    public List<PlannedMethod> plan(PlanQuery q) {
        List<PlannedMethod> out = new ArrayList<>();
        out.add(analyzeGauss(q));
        out.add(coinPress(q));
        out.add(recursive(q));
        out.add(subsampleAggregate(q));
        return out;
    }

    private static Zcdp rho(PlanQuery q) {
        return ConversionPolicy.rhoFor(q.budget().epsilon(), q.budget().delta());
    }

    /**
     * The run: line repeats the facts as given (issue 29): the budget as {@code --epsilon/--delta} (second-moment runs
     * at the same rho, the one conversion) and the row bound as {@code --radius} (a public bound, the statement's
     * mode), not as a converted rho and a clipping radius.
     */
    private static String base(PlanQuery q, String method, double r) {
        return String.format(Locale.ROOT, "dpgauss second-moment --input FILE --method %s --epsilon %s --delta %s"
                + " --radius %s", method, MeanMethods.num(q.budget().epsilon()), MeanMethods.num(q.budget().delta()),
                MeanMethods.num(r));
    }

    private static String lambdaOption(PlanQuery q) {
        return q.minEigenvalue().isPresent() ? " --min-eigenvalue " + MeanMethods.num(q.minEigenvalue().getAsDouble())
                : "";
    }

    private static PlannedMethod noRadius(String method, String id, String when) {
        return PlannedMethod.notApplicable(method, id, "needs a public radius R that bounds every row's L2 norm"
                + " (--clip R clips longer rows, --radius R refuses them)", -1,
                List.of("a public row-norm bound R"), when);
    }

    private static PlannedMethod analyzeGauss(PlanQuery q) {
        String when = "rows with a public norm bound R not far above their typical norm: one noise draw of norm about"
                + " 2 R^2 sqrt(d)/(n sqrt(rho)), exact whatever the rows' distribution, never FAILs";
        if (q.rowBound().isEmpty()) {
            return noRadius(AnalyzeGauss.NAME, AnalyzeGauss.ID, when);
        }
        double r = q.rowBound().getAsDouble();
        AnalyzeGauss.Builder b = AnalyzeGauss.builder().radius(r).budget(rho(q));
        q.minEigenvalue().ifPresent(b::normLowerBound);
        AnalyzeGauss m = b.build();
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        long min = Planner.minimumRows(n -> Planner.state(m, n, q.dimension(), q.budget().delta()), q.rows());
        return PlannedMethod.applicable(AnalyzeGauss.NAME, AnalyzeGauss.ID, s.accuracy().orElse(null), min,
                needs(q, false), base(q, AnalyzeGauss.NAME, r) + lambdaOption(q), when);
    }

    private static PlannedMethod coinPress(PlanQuery q) {
        String when = "Gaussian-like (light-tailed) rows with n above its lock-on size: its error then scales with"
                + " ||S||_2 rather than R^2, so it beats analyze-gauss when R is loose (a public lower bound on"
                + " ||S||_2, --min-eigenvalue, sets its predicted scale; without one it assumes rows of norm about R);"
                + " heavy tails and outliers are clipped in whitened space and bias it down";
        if (q.rowBound().isEmpty()) {
            return noRadius(CoinPress.NAME, CoinPress.ID, when);
        }
        double r = q.rowBound().getAsDouble();
        CoinPress base = CoinPress.of(r * r, rho(q));
        CoinPress m = q.minEigenvalue().isPresent() ? base.withNormLowerBound(q.minEigenvalue().getAsDouble()) : base;
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        long min = Planner.minimumRows(n -> {
            if (!m.locksOn(n, q.dimension())) {
                throw new IllegalArgumentException("the preconditioner does not lock on at n=" + n);
            }
            return n;
        }, Integer.MAX_VALUE);
        return PlannedMethod.applicable(CoinPress.NAME, CoinPress.ID, s.accuracy().orElse(null), min,
                needs(q, false), base(q, CoinPress.NAME, r) + lambdaOption(q), when
                        + (min > q.rows() ? String.format(Locale.ROOT, "; at n=%d its preconditioner is not yet"
                                + " locked on (n >= %d rows)", q.rows(), min) : ""));
    }

    private static PlannedMethod recursive(PlanQuery q) {
        String when = "badly conditioned or heavy-tailed rows with a public lambda_min bound and n above the size at"
                + " which its noise stays below the eigen-split threshold: it then bounds the error in every direction"
                + " relative to S (a multiplicative guarantee); with one level (R^2/L small) it is analyze-gauss with"
                + " 2.8 times the noise; below that size its error is unpredictable";
        if (q.rowBound().isEmpty()) {
            return noRadius(RecursiveSecondMoment.NAME, RecursiveSecondMoment.ID, when);
        }
        double r = q.rowBound().getAsDouble();
        List<String> needs = needs(q, true);
        if (q.minEigenvalue().isEmpty()) {
            // Algorithm 4 can estimate lambda_min, but its schedule is then private and its accuracy only planned
            StableHistogram h = StableHistogram.of(q.budget().epsilon() / 2, q.budget().delta() / 2);
            int k = SecondMomentParams.DEFAULT_LAMBDA_GROUP_PER_DIMENSION * q.dimension();
            long rows = (long) k * (long) Math.ceil(h.threshold() + h.noiseScale() * Math.log(10));
            return PlannedMethod.notApplicable(RecursiveSecondMoment.NAME, RecursiveSecondMoment.ID, String.format(
                    Locale.ROOT, "needs a public lower bound on lambda_min(S) (--min-eigenvalue L) for a predictable"
                            + " accuracy; estimating it privately (--lambda-epsilon E) with half the epsilon needs"
                            + " n >= %d rows (groups of %d rows reaching the histogram threshold) and leaves the"
                            + " level schedule private", rows, k), rows, needs, when);
        }
        double lambda = q.minEigenvalue().getAsDouble();
        RecursiveSecondMoment m;
        Statement s;
        try {
            m = RecursiveSecondMoment.fromParams(SecondMomentParams.builder().budget(rho(q)).radius(r)
                    .minEigenvalue(lambda).delta(q.budget().delta()).build());
            s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        } catch (IllegalArgumentException e) {
            return PlannedMethod.notApplicable(RecursiveSecondMoment.NAME, RecursiveSecondMoment.ID, e.getMessage(),
                    -1, needs, when);
        }
        long min = m.rowsForProvenAccuracy(q.rows(), q.dimension());
        return PlannedMethod.applicable(RecursiveSecondMoment.NAME, RecursiveSecondMoment.ID,
                s.accuracy().orElse(null), min, needs, base(q, RecursiveSecondMoment.NAME, r) + lambdaOption(q),
                when + (min > q.rows() || min < 0 ? String.format(Locale.ROOT, "; n=%d is below the %s rows of its"
                        + " proven regime, so only its worst case is stated", q.rows(),
                        min < 0 ? "more than 2^31" : Long.toString(min)) : ""));
    }

    private static PlannedMethod subsampleAggregate(PlanQuery q) {
        String when = "only at very large n (Thm A.6's sample size): it needs no norm bound and its guarantee is"
                + " multiplicative, within a factor 1 +- 2 alpha of S";
        SubsampleAndAggregate m = SubsampleAndAggregate.builder().groupSize(q.dimension())
                .totalBudget(q.budget()).build();
        double need = m.minimumRowsForPrivacy(q.dimension());
        List<String> needs = List.of("(m, alpha, beta)-subsamplable rows at m = d (random groups of d rows agree"
                + " with S within 1 +- alpha)");
        long min = need >= Long.MAX_VALUE ? -1 : (long) Math.ceil(need);
        if (q.rows() < need) {
            return PlannedMethod.notApplicable(SubsampleAndAggregate.NAME, SubsampleAndAggregate.ID, String.format(
                    Locale.ROOT, "n=%d is below the %.4g rows Thm A.6 needs for privacy at d=%d, m=%d, epsilon=%s,"
                            + " delta=%s", q.rows(), need, q.dimension(), q.dimension(),
                    MeanMethods.num(q.budget().epsilon()), MeanMethods.num(q.budget().delta())), min, needs, when);
        }
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        String cmd = String.format(Locale.ROOT, "dpgauss second-moment --input FILE --method %s --rho %s --clip 1"
                + " --delta %s --option group-size=%d", SubsampleAndAggregate.NAME, MeanMethods.num(rho(q).rho()),
                MeanMethods.num(q.budget().delta()), q.dimension());
        return PlannedMethod.applicable(SubsampleAndAggregate.NAME, SubsampleAndAggregate.ID,
                s.accuracy().orElse(null), min, needs, cmd, when);
    }

    private static List<String> needs(PlanQuery q, boolean lambdaRequired) {
        List<String> n = new ArrayList<>();
        n.add("a public row-norm bound R (given: " + MeanMethods.num(q.rowBound().getAsDouble()) + ")");
        if (lambdaRequired) {
            n.add("a public lower bound L on lambda_min(S)" + (q.minEigenvalue().isPresent() ? " (given)" : ""));
        } else {
            n.add(q.minEigenvalue().isPresent() ? "the public lambda_min bound (given) as a lower bound on ||S||_2:"
                    + " the statement is then also relative to it"
                    : "optionally a public lower bound on lambda_min(S), for a statement relative to ||S||_2 too");
        }
        return n;
    }
}
