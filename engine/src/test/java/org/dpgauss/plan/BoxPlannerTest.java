package org.dpgauss.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpgauss.privacy.ApproxDp;
import org.junit.jupiter.api.Test;

/** The planner with public per-column bounds (issue 27): the choice of {@code mean --method auto}. */
class BoxPlannerTest {

    private static Planner.Plan plan(int n, int d, double eps) {
        double[] lo = new double[d];
        double[] hi = new double[d];
        Arrays.fill(hi, 1);
        return Planner.plan(PlanQuery.builder(Family.MEAN, n, d, ApproxDp.of(eps, 1e-6)).bounds(lo, hi).build());
    }

    private static double expected(Planner.Plan p, String method) {
        return p.methods().stream().filter(m -> m.method().equals(method)).findFirst().orElseThrow().predicted()
                .orElseThrow().expected();
    }

    @Test
    void smallDimensionsChooseThePureMechanismLargeOnesTheGaussianAndTheBallNeverWins() {
        // K-norm: E||Z||^2 ~ d(d+1)(d+2)/(3 eps^2) (w/n)^2; Gaussian: ~ d^2/(2 rho) (w/n)^2 with rho(1, 1e-6) ~ 0.02:
        // the pure mechanism wins for small d, the Gaussian for d well above 60
        for (int d : new int[] {1, 2, 4, 13, 30}) {
            Planner.Plan p = plan(500, d, 1.0);
            assertEquals("box-pure", p.recommended().orElseThrow().method(), "d=" + d);
            assertTrue(p.reason().contains("--method auto"), p.reason());
        }
        for (int d : new int[] {120, 300}) {
            assertEquals("box", plan(500, d, 1.0).recommended().orElseThrow().method(), "d=" + d);
        }
        for (int d : new int[] {1, 4, 100}) {
            Planner.Plan p = plan(500, d, 1.0);
            assertTrue(expected(p, "ball") >= expected(p, "box") * (1 - 1e-9), "d=" + d);
        }
    }

    @Test
    void theAutoPlanRecommendsWhatTheFullPlanRecommends() {
        for (int d : new int[] {1, 4, 60, 70, 200}) {
            for (double eps : new double[] {0.1, 1, 8}) {
                double[] lo = new double[d];
                double[] hi = new double[d];
                Arrays.fill(hi, 1);
                hi[0] = 50; // unequal widths
                PlanQuery q = PlanQuery.builder(Family.MEAN, 700, d, ApproxDp.of(eps, 1e-6)).bounds(lo, hi).build();
                assertEquals(Planner.plan(q).recommended().orElseThrow().method(),
                        Planner.planMeanAuto(q).recommended().orElseThrow().method(), "d=" + d + ", eps=" + eps);
            }
        }
    }

    @Test
    void withoutBoundsTheBoxMethodsDoNotRun() {
        Planner.Plan p = Planner.plan(PlanQuery.builder(Family.MEAN, 500, 3, ApproxDp.of(1, 1e-6)).clipRadius(2)
                .build());
        for (String m : new String[] {"box", "box-pure", "ball"}) {
            assertFalse(p.methods().stream().filter(x -> x.method().equals(m)).findFirst().orElseThrow().applicable());
        }
        assertEquals("clipped", p.recommended().orElseThrow().method());
    }
}
