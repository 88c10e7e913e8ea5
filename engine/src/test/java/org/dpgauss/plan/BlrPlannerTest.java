package org.dpgauss.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.mechanism.BayesianLogisticRegression;
import org.dpgauss.privacy.ApproxDp;
import org.junit.jupiter.api.Test;

/** {@code plan blr} (issue 29): the prediction is the mechanism's own statement; the recommended lambda. */
class BlrPlannerTest {

    private static final ApproxDp BUDGET = ApproxDp.of(1, 1e-5);

    @Test
    void recommendsTheSmallestLambdaWithSmallScoreNoise() {
        PlanQuery q = PlanQuery.builder(Family.BLR, 1000, 30, BUDGET).rowBound(1).build();
        Planner.Plan plan = Planner.plan(q);
        PlannedMethod m = plan.methods().get(0);
        assertTrue(m.applicable());
        assertEquals("blr", plan.recommended().get().method());
        double lambda = BlrMethods.recommendedLambda(q);
        double below = lambda / Math.pow(10, 0.25);
        assertTrue(BlrMethods.scoreNoise(BlrMethods.build(q, lambda), 1, lambda) <= BlrMethods.SCORE_NOISE);
        assertTrue(BlrMethods.scoreNoise(BlrMethods.build(q, below), 1, below) > BlrMethods.SCORE_NOISE);
        assertEquals(18, BlrMethods.round(lambda), 0.0); // 10^(5/4) = 17.8 at these facts (docs/cli.md quotes it)
        assertTrue(m.command().endsWith("--lambda 18 --row-bound 1 --max-rows 1000 --epsilon 1 --delta 0.00001"
                + " --output point"), m.command());
        assertTrue(String.join(";", m.needs()).contains("18 is recommended"));
        // the prediction is the mechanism's own accuracy statement at that lambda, of the point estimate (default)
        BayesianLogisticRegression b = BayesianLogisticRegression.builder().dimension(30).lambda(18).rowBound(1)
                .maxRows(1000).budget(BUDGET).pointEstimate(true).build();
        assertEquals(b.accuracy().expected(), m.predicted().get().expected(), 0.0);
        assertEquals(b.accuracy().bound(), m.predicted().get().bound(), 0.0);
        assertTrue(m.whenToChoose().contains("s l' = "), m.whenToChoose());
    }

    /**
     * Issue 26: the planner states the release its run line makes. By default the point estimate (output perturbation
     * at sensitivity l'/lambda + 2r; {@code --output point}); with {@code pointEstimate(false)} the posterior sample
     * ({@code --output sample}); the same recommended lambda for both (the rule is stated on the sample).
     */
    @Test
    void statesThePointEstimateByDefaultAndTheSampleWhenAsked() {
        PlanQuery.Builder facts = PlanQuery.builder(Family.BLR, 398, 30, ApproxDp.of(1, 1e-6)).rowBound(1)
                .intercept(0.5);
        assertTrue(facts.build().pointEstimate(), "point is the default");
        PlannedMethod point = Planner.plan(facts.build()).methods().get(0);
        PlannedMethod sample = Planner.plan(facts.pointEstimate(false).build()).methods().get(0);
        String lambda = option(point.command(), "--lambda");
        assertEquals(lambda, option(sample.command(), "--lambda"));
        assertEquals("point", option(point.command(), "--output"));
        assertEquals("sample", option(sample.command(), "--output"));
        for (boolean p : new boolean[] {true, false}) {
            BayesianLogisticRegression b = BayesianLogisticRegression.builder().dimension(30)
                    .lambda(Double.parseDouble(lambda)).rowBound(1).intercept(0.5).maxRows(398)
                    .budget(ApproxDp.of(1, 1e-6)).pointEstimate(p).build();
            // the release's own statement, on the facts a release of 398 rows (30 features and a label) states
            org.dpgauss.release.Accuracy stated = org.dpgauss.release.Releases.state(b,
                    org.dpgauss.release.PublicContext.forPlanning(398, 31,
                            org.dpgauss.privacy.NeighbouringRelation.ADD_REMOVE, 1e-6)).accuracy().get();
            assertEquals(stated.toMap(), (p ? point : sample).predicted().get().toMap());
        }
        // the point estimate has the smaller noise: its predicted error is below the sample's
        assertTrue(point.predicted().get().expected() < sample.predicted().get().expected() / 2,
                point.predicted().get().expected() + " vs " + sample.predicted().get().expected());
    }

    private static String option(String command, String name) {
        String[] t = command.split(" ");
        for (int i = 0; i + 1 < t.length; i++) {
            if (t[i].equals(name)) {
                return t[i + 1];
            }
        }
        throw new AssertionError(name + " not in " + command);
    }

    @Test
    void givenLambdaAndInterceptAreRepeated() {
        PlanQuery q = PlanQuery.builder(Family.BLR, 500, 4, BUDGET).rowBound(2).lambda(3).intercept(1.5).build();
        PlannedMethod m = Planner.plan(q).methods().get(0);
        assertTrue(m.command().contains("--lambda 3 --row-bound 2 --intercept 1.5 --max-rows 500"), m.command());
        BayesianLogisticRegression b = BayesianLogisticRegression.builder().dimension(4).lambda(3).rowBound(2)
                .intercept(1.5).maxRows(500).budget(BUDGET).pointEstimate(true).build();
        assertEquals(b.accuracy().expected(), m.predicted().get().expected(), 0.0);
        assertFalse(String.join(";", m.needs()).contains("recommended"));
        // lambda scales with the model bound squared: the recommendation at l' = 2.5 is 6.25 times that at 1
        PlanQuery unit = PlanQuery.builder(Family.BLR, 500, 4, BUDGET).rowBound(1).build();
        PlanQuery big = PlanQuery.builder(Family.BLR, 500, 4, BUDGET).rowBound(2).intercept(1.5).build();
        assertEquals(6.25 * BlrMethods.recommendedLambda(unit), BlrMethods.recommendedLambda(big), 1e-9);
    }

    @Test
    void withoutARowBoundItSaysWhatIsNeeded() {
        PlannedMethod m = Planner.plan(PlanQuery.builder(Family.BLR, 1000, 30, BUDGET).build()).methods().get(0);
        assertFalse(m.applicable());
        assertTrue(m.reason().contains("--row-bound"));
        assertEquals(Family.BLR, Family.fromId("blr"));
    }
}
