package org.dpgauss.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.projection.PoissonSubsampledProjection;
import org.dpgauss.projection.PtrProjection;
import org.dpgauss.projection.RandomProjectionMechanism;
import org.dpgauss.release.Statement;

/**
 * The random-projection family's methods for the planner: M_RP ({@code none}), the LSV baseline ({@code lsv}), the
 * Poisson wrapper ({@code poisson}, at the sampling rate of a small grid with the smallest predicted error) and PTR
 * ({@code ptr}, at the test noise of a small grid with the smallest Prop. 5 threshold). Each is built from the
 * query and stated with {@link Planner#state}; the query's n is used as the public bound on the number of rows
 * (the mechanisms are add/remove, so n itself is never used), which makes the statement the absolute spectral
 * error of the Gram estimate. They run at any n: the minimum is 1 row.
 */
final class ProjectMethods implements MethodProvider {

    /** Sampling rates the planner tries for the Poisson wrapper. */
    static final double[] RATES = {0.9, 0.7, 0.5, 0.3, 0.2, 0.1, 0.05, 0.02, 0.01};

    /** Test noise levels, in units of l^2, the planner tries for PTR. */
    static final double[] TEST_NOISE = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};

    private static final List<String> NEEDS = List.of("the projection rank r (--rank)",
            "a public bound l on every row's L2 norm (--row-bound; rows beyond it are refused, or clipped with"
                    + " --clip-rows)",
            "a public upper bound on the number of rows (--max-rows) for the absolute accuracy statement");

    @Override
    public Family family() {
        return Family.PROJECT;
    }

    @Override
    public List<PlannedMethod> plan(PlanQuery q) {
        List<PlannedMethod> out = new ArrayList<>();
        if (q.rank().isEmpty() || q.rowBound().isEmpty()) {
            String reason = "needs " + (q.rank().isEmpty() ? "the projection rank r (--rank)" : "")
                    + (q.rank().isEmpty() && q.rowBound().isEmpty() ? " and " : "")
                    + (q.rowBound().isEmpty() ? "a public bound l on every row's L2 norm (--row-bound)" : "");
            for (String[] m : new String[][] {{"none", RandomProjectionMechanism.ID, WHEN_RP},
                    {"lsv", RandomProjectionMechanism.LSV_ID, WHEN_LSV},
                    {"poisson", PoissonSubsampledProjection.ID, WHEN_POISSON},
                    {"ptr", PtrProjection.ID, WHEN_PTR}}) {
                out.add(PlannedMethod.notApplicable(m[0], m[1], reason, -1, NEEDS, m[2]));
            }
            return out;
        }
        int r = q.rank().getAsInt();
        double l = q.rowBound().getAsDouble();
        out.add(rp(q, r, l));
        out.add(lsv(q, r, l));
        out.add(poisson(q, r, l));
        out.add(ptr(q, r, l));
        return out;
    }

    private static final String WHEN_RP = "the default: the smallest ridge for the guarantee (exact NDIS curve),"
            + " it never FAILs and needs nothing but r and l";
    private static final String WHEN_LSV = "only to compare with Sheffet's calibration: the same mechanism with a"
            + " larger ridge, so more error at the same guarantee";
    private static final String WHEN_POISSON = "rarely for the Gram estimate: its smaller ridge is divided by q and"
            + " sampling adds error; it helps when the data are highly redundant and few rows suffice";
    private static final String WHEN_PTR = "when lambda_min(D^T D) is known to be large: its ridge then shrinks below"
            + " M_RP's; the prediction is for the worst case (lambda_min = 0)";

    private static String base(PlanQuery q, int r, double l) {
        return String.format(Locale.ROOT, "dpgauss project --input D.csv --rank %d --epsilon %s --delta %s"
                + " --row-bound %s --max-rows %d", r, MeanMethods.num(q.budget().epsilon()),
                MeanMethods.num(q.budget().delta()), MeanMethods.num(l), q.rows());
    }

    private static Statement state(org.dpgauss.release.PrivateMechanism m, PlanQuery q) {
        return Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
    }

    private static ApproxDp budget(PlanQuery q) {
        return ApproxDp.of(q.budget().epsilon(), q.budget().delta());
    }

    private static PlannedMethod rp(PlanQuery q, int r, double l) {
        RandomProjectionMechanism m = RandomProjectionMechanism.of(r, budget(q), l).maxRows(q.rows());
        return PlannedMethod.applicable("none", RandomProjectionMechanism.ID, state(m, q).accuracy().orElse(null),
                1, NEEDS, base(q, r, l) + " --output M.npy --gram-output S.npy", WHEN_RP);
    }

    private static PlannedMethod lsv(PlanQuery q, int r, double l) {
        RandomProjectionMechanism m = RandomProjectionMechanism.lsvBaseline(r, budget(q), l).maxRows(q.rows());
        return PlannedMethod.applicable("lsv", RandomProjectionMechanism.LSV_ID, state(m, q).accuracy().orElse(null),
                1, NEEDS, base(q, r, l) + " --wrapper lsv --output M.npy --gram-output S.npy", WHEN_LSV);
    }

    private static PlannedMethod poisson(PlanQuery q, int r, double l) {
        Statement best = null;
        double bestRate = 0;
        for (double rate : RATES) {
            if (!(rate > q.budget().delta())) {
                continue;
            }
            Statement s = state(PoissonSubsampledProjection.builder().rank(r).budget(budget(q)).samplingRate(rate)
                    .rowBound(l).maxRows(q.rows()).build(), q);
            if (best == null || s.accuracy().get().expected() < best.accuracy().get().expected()) {
                best = s;
                bestRate = rate;
            }
        }
        if (best == null) {
            return PlannedMethod.notApplicable("poisson", PoissonSubsampledProjection.ID, "needs a sampling rate q"
                    + " above delta=" + q.budget().delta() + " and at most 1", -1, NEEDS, WHEN_POISSON);
        }
        List<String> needs = new ArrayList<>(NEEDS);
        needs.add("a sampling rate q in (delta, 1] (--q; the planner's choice: " + MeanMethods.num(bestRate) + ")");
        return PlannedMethod.applicable("poisson", PoissonSubsampledProjection.ID, best.accuracy().orElse(null), 1,
                needs, base(q, r, l) + " --wrapper poisson --q " + MeanMethods.num(bestRate)
                        + " --output M.npy --gram-output S.npy", WHEN_POISSON);
    }

    private static PlannedMethod ptr(PlanQuery q, int r, double l) {
        PtrProjection best = null;
        for (double k : TEST_NOISE) {
            try {
                PtrProjection p = PtrProjection.builder().rank(r).budget(budget(q)).testNoise(k * l * l).rowBound(l)
                        .maxRows(q.rows()).build();
                if (best == null || p.propositionFiveThreshold() < best.propositionFiveThreshold()) {
                    best = p;
                }
            } catch (IllegalArgumentException e) {
                // this test noise costs more than epsilon; try a larger one
            }
        }
        if (best == null) {
            return PlannedMethod.notApplicable("ptr", PtrProjection.ID, "every test noise up to "
                    + MeanMethods.num(TEST_NOISE[TEST_NOISE.length - 1]) + " l^2 spends more than epsilon="
                    + q.budget().epsilon() + " on the test", -1, NEEDS, WHEN_PTR);
        }
        List<String> needs = new ArrayList<>(NEEDS);
        needs.add("the test noise s_T (--ptr-noise; the planner's choice: " + MeanMethods.num(best.testNoise())
                + ", the smallest Prop. 5 threshold of its grid)");
        String when = WHEN_PTR + String.format(Locale.ROOT, "; it adds less ridge than M_RP when lambda_min(D^T D)"
                + " exceeds about %.4g and the test noise is not negative", best.propositionFiveThreshold());
        return PlannedMethod.applicable("ptr", PtrProjection.ID, state(best, q).accuracy().orElse(null), 1, needs,
                base(q, r, l) + " --wrapper ptr --ptr-noise " + MeanMethods.num(best.testNoise())
                        + " --output M.npy --gram-output S.npy", when);
    }
}
