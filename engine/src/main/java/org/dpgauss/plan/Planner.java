package org.dpgauss.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.Statement;

/**
 * Plans a release before any data are read: every applicable method's predicted error, its minimum n, what it
 * needs, and a recommendation (the applicable method with the smallest predicted expected error, with the reason).
 */
public final class Planner {

    private static final List<MethodProvider> PROVIDERS = List.of(new MeanMethods(), new ProjectMethods(),
            new SampleMethods(), new SecondMomentMethods(), new BlrMethods());

    private Planner() {
    }

    /** A plan: the methods and the recommended one. */
    public static final class Plan {
        private final PlanQuery query;
        private final List<PlannedMethod> methods;
        private final PlannedMethod recommended;
        private final String reason;
        private final List<String> warnings;

        Plan(PlanQuery query, List<PlannedMethod> methods, PlannedMethod recommended, String reason) {
            this.query = query;
            this.methods = List.copyOf(methods);
            this.recommended = recommended;
            this.reason = reason;
            this.warnings = List.copyOf(RadiusWarnings.of(query, this.methods, Optional.ofNullable(recommended)));
        }

        /** @return the query */
        public PlanQuery query() {
            return query;
        }

        /** @return every method of the family */
        public List<PlannedMethod> methods() {
            return methods;
        }

        /** @return the recommended method, if any applies */
        public Optional<PlannedMethod> recommended() {
            return Optional.ofNullable(recommended);
        }

        /** @return why it is recommended, or why none is */
        public String reason() {
            return reason;
        }

        /**
         * Warnings from public facts only (issue 29): a public radius or row bound large against the predicted error
         * it leads to, public per-column bounds or variances of very different scales.
         *
         * @return the warnings, possibly empty
         */
        public List<String> warnings() {
            return warnings;
        }

        /** @return a fresh JSON-ready map */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("family", query.family().id());
            m.put("n", query.rows());
            m.put("d", query.dimension());
            m.put("epsilon", query.budget().epsilon());
            m.put("delta", query.budget().delta());
            List<Map<String, Object>> list = new ArrayList<>();
            for (PlannedMethod p : methods) {
                list.add(p.toMap());
            }
            m.put("methods", list);
            m.put("recommended", recommended == null ? null : recommended.method());
            m.put("reason", reason);
            m.put("warnings", warnings);
            return m;
        }
    }

    /**
     * @param query the public facts
     * @return the plan
     */
    public static Plan plan(PlanQuery query) {
        Objects.requireNonNull(query, "query");
        List<PlannedMethod> methods = new ArrayList<>();
        for (MethodProvider p : PROVIDERS) {
            if (p.family() == query.family()) {
                methods.addAll(p.plan(query));
            }
        }
        if (methods.isEmpty()) {
            throw new IllegalArgumentException("the planner has no methods for " + query.family().id() + " yet");
        }
        // Compare only predictions in one metric: the one most methods state (the first such on a tie); a method
        // stated in another metric (e.g. a Mahalanobis statement among L2 ones) is listed but not compared.
        Map<String, Integer> byMetric = new LinkedHashMap<>();
        methods.stream().filter(PlannedMethod::applicable).filter(m -> m.predicted().isPresent())
                .forEach(m -> byMetric.merge(m.predicted().get().metric(), 1, Integer::sum));
        String metric = byMetric.entrySet().stream().reduce((a, b) -> b.getValue() > a.getValue() ? b : a)
                .map(Map.Entry::getKey).orElse(null);
        // with public per-column bounds, a mean is chosen among the methods that use them or a proxy (issue 27:
        // mean --method auto runs exactly this choice)
        boolean boxChoice = query.family() == Family.MEAN && query.bounds().isPresent();
        Optional<PlannedMethod> best = methods.stream().filter(PlannedMethod::applicable)
                .filter(m -> !boxChoice || MeanMethods.AUTO_CANDIDATES.contains(m.method()))
                .filter(m -> m.predicted().isPresent() && m.predicted().get().metric().equals(metric))
                .min(Comparator.comparingDouble(m -> m.predicted().get().expected()));
        if (best.isEmpty()) {
            // nothing predicts a number: take a method that needs no public bound (a private parameter finder)
            best = methods.stream().filter(PlannedMethod::applicable).filter(m -> m.predicted().isEmpty()).findFirst();
            if (best.isPresent()) {
                return new Plan(query, methods, best.get(), "no public bound was given, so no method can predict"
                        + " its error from public facts alone; this one finds its parameters privately");
            }
        }
        String reason;
        if (best.isPresent()) {
            PlannedMethod b = best.get();
            reason = "smallest predicted expected error (" + b.predicted().get().metric() + ") among the methods that"
                    + " run on these facts" + (boxChoice ? " and that --method auto chooses among ("
                    + String.join(", ", MeanMethods.AUTO_CANDIDATES) + ")" : "") + (byMetric.size() > 1 ? " (methods stated in another metric are not"
                    + " compared)" : "");
        } else {
            reason = "no method runs on these facts with a predicted error: see each method's reason and needs";
        }
        return new Plan(query, methods, best.orElse(null), reason);
    }

    /**
     * The choice of {@code mean --method auto} (issue 27): the plan of the mean family with public per-column
     * bounds restricted to the methods auto chooses among (box, box-pure, ball, anisotropic, folklore, coordinate),
     * with the same recommendation as {@link #plan} on the same query, without stating the other methods.
     *
     * @param query the public facts; family mean, with bounds
     * @return the plan of the candidates and the recommendation
     */
    public static Plan planMeanAuto(PlanQuery query) {
        Objects.requireNonNull(query, "query");
        if (query.family() != Family.MEAN || query.bounds().isEmpty()) {
            throw new IllegalArgumentException("mean --method auto needs the mean family and public bounds");
        }
        List<PlannedMethod> methods = MeanMethods.planAuto(query);
        Optional<PlannedMethod> best = methods.stream().filter(PlannedMethod::applicable)
                .filter(m -> m.predicted().isPresent() && m.predicted().get().metric().equals(
                        org.dpgauss.mean.BoxMean.METRIC))
                .min(Comparator.comparingDouble(m -> m.predicted().get().expected()));
        String reason = best.isPresent() ? "smallest predicted expected error (" + org.dpgauss.mean.BoxMean.METRIC
                + ") among the methods that run on these facts and that --method auto chooses among ("
                + String.join(", ", MeanMethods.AUTO_CANDIDATES) + ")" : "no candidate of --method auto runs on these"
                + " facts";
        return new Plan(query, methods, best.orElse(null), reason);
    }

    /**
     * The statement a mechanism makes on public facts alone (n, d, relation, delta), as the planner needs it.
     *
     * @param mechanism the mechanism
     * @param rows n
     * @param dimension d
     * @param delta the delta of stated conversions
     * @return the statement
     */
    public static Statement state(PrivateMechanism mechanism, int rows, int dimension, double delta) {
        return mechanism.state(PublicContext.forPlanning(rows, dimension, mechanism.relation(), delta));
    }

    /**
     * The smallest n in {@code [1, limit]} at which {@code make.apply(n)} can be stated on the facts (it refuses
     * smaller n with an {@link IllegalArgumentException}); assumes refusal is monotone in n. Returns -1 if even
     * {@code limit} is refused.
     *
     * @param make builds and states the mechanism at n, throwing below its minimum
     * @param limit the largest n tried
     * @return the smallest n, or -1
     */
    public static long minimumRows(IntFunction<?> make, int limit) {
        if (!runs(make, limit)) {
            return -1;
        }
        int lo = 0; // refused (or 0)
        int hi = limit; // runs
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            if (runs(make, mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    private static boolean runs(IntFunction<?> make, int n) {
        try {
            make.apply(n);
            return true;
        } catch (IllegalArgumentException | IllegalStateException e) {
            return false;
        }
    }

    /** The relation each family's mechanisms use, for callers that state by hand. */
    static NeighbouringRelation relationOf(PrivateMechanism m) {
        return m.relation();
    }
}
