package org.dpgauss.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.projection.PoissonSubsampledProjection;
import org.dpgauss.projection.ProjectionRelease;
import org.dpgauss.projection.PtrProjection;
import org.dpgauss.projection.RandomProjectionMechanism;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Test;

/**
 * The projection planner: every method is planned from the real mechanisms, the recommendation is sensible, and
 * the predicted expected error is within a factor 2 of the realised median (fixed seeds; 100 releases per method)
 * on data meeting the assumptions (n rows of norm about l, uncentred).
 */
class ProjectMethodsTest {

    private static final ApproxDp BUDGET = ApproxDp.of(1, 1e-6);

    static Map<String, PlannedMethod> byName(Planner.Plan p) {
        return p.methods().stream().collect(Collectors.toMap(PlannedMethod::method, m -> m));
    }

    @Test
    void plansEveryWrapperAndRecommendsMrp() {
        PlanQuery q = PlanQuery.builder(Family.PROJECT, 5000, 20, BUDGET).rank(100).rowBound(1).build();
        Planner.Plan plan = Planner.plan(q);
        Map<String, PlannedMethod> m = byName(plan);
        assertEquals(List.of("none", "lsv", "poisson", "ptr"),
                plan.methods().stream().map(PlannedMethod::method).collect(Collectors.toList()));
        for (PlannedMethod p : plan.methods()) {
            assertTrue(p.applicable(), p.method() + ": " + p.reason());
            assertEquals(1L, p.minimumRows().getAsLong());
            assertTrue(p.command().startsWith("dpgauss project ") && p.command().contains("--max-rows 5000"),
                    p.command());
            assertEquals("spectral error of the Gram estimate (units of the data's squared norms)",
                    p.predicted().orElseThrow().metric());
        }
        assertEquals("none", plan.recommended().orElseThrow().method(), plan.reason());
        // the prediction is the mechanism's own statement, not a separate formula
        assertEquals(RandomProjectionMechanism.of(100, BUDGET, 1).maxRows(5000).accuracy(20).toMap(),
                m.get("none").predicted().orElseThrow().toMap());
        assertTrue(m.get("lsv").predicted().get().expected() > m.get("none").predicted().get().expected());
        assertTrue(m.get("ptr").command().contains("--wrapper ptr --ptr-noise "), m.get("ptr").command());
        assertTrue(m.get("poisson").command().contains("--wrapper poisson --q "), m.get("poisson").command());
        // small n: the ridge dominates, M_RP still has the smallest ridge
        Planner.Plan small = Planner.plan(PlanQuery.builder(Family.PROJECT, 3, 5, BUDGET).rank(10).rowBound(2)
                .build());
        assertEquals("none", small.recommended().orElseThrow().method());
    }

    @Test
    void withoutRankOrRowBoundNothingRunsAndTheReasonSaysWhatIsMissing() {
        Planner.Plan plan = Planner.plan(PlanQuery.builder(Family.PROJECT, 100, 5, BUDGET).rank(10).build());
        assertTrue(plan.recommended().isEmpty());
        for (PlannedMethod p : plan.methods()) {
            assertFalse(p.applicable());
            assertTrue(p.reason().contains("--row-bound"), p.reason());
            assertFalse(p.reason().contains("--rank"), p.reason());
        }
        Planner.Plan none = Planner.plan(PlanQuery.builder(Family.PROJECT, 100, 5, BUDGET).build());
        assertTrue(none.methods().get(0).reason().contains("--rank") && none.methods().get(0).reason()
                .contains("--row-bound"));
    }

    /** Uncentred Gaussian rows in the unit ball (mean of norm 0.7, spread 0.3). */
    static double[][] uncentred(int n, int d, long seed) {
        Random g = new Random(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                row[j] = 0.7 / Math.sqrt(d) + 0.3 * g.nextGaussian() / Math.sqrt(d);
                s += row[j] * row[j];
            }
            double f = Math.min(1, 1 / Math.sqrt(s)) * (1 - 1e-12);
            for (int j = 0; j < d; j++) {
                row[j] *= f;
            }
        }
        return x;
    }

    static double medianError(PrivateMechanism m, double[][] rows, long seed, int runs) {
        int d = rows[0].length;
        DMatrixRMaj x = new DMatrixRMaj(rows);
        DMatrixRMaj gram = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransA(x, x, gram);
        ReleaseContext ctx = ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(seed));
        double[] e = new double[runs];
        for (int t = 0; t < runs; t++) {
            DMatrixRMaj diff = ProjectionRelease.of(Releases.run(m, Dataset.of(rows), 1e-6, ctx)).gramEstimate();
            CommonOps_DDRM.subtractEquals(diff, gram);
            EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, false, true);
            assertTrue(eig.decompose(diff));
            for (int i = 0; i < d; i++) {
                e[t] = Math.max(e[t], Math.abs(eig.getEigenvalue(i).getReal()));
            }
        }
        Arrays.sort(e);
        return 0.5 * (e[runs / 2 - 1] + e[runs / 2]);
    }

    static double option(String command, String name) {
        List<String> t = Arrays.asList(command.split(" "));
        return Double.parseDouble(t.get(t.indexOf(name) + 1));
    }

    @Test
    void predictedErrorIsWithinAFactorTwoOfTheRealisedMedian() {
        int n = 500;
        int d = 6;
        int r = 40;
        PlanQuery q = PlanQuery.builder(Family.PROJECT, n, d, BUDGET).rank(r).rowBound(1).build();
        Map<String, PlannedMethod> m = byName(Planner.plan(q));
        double[][] rows = uncentred(n, d, 15);
        PoissonSubsampledProjection pois = PoissonSubsampledProjection.builder().rank(r).budget(BUDGET)
                .samplingRate(option(m.get("poisson").command(), "--q")).rowBound(1).maxRows(n).build();
        PtrProjection ptr = PtrProjection.builder().rank(r).budget(BUDGET)
                .testNoise(option(m.get("ptr").command(), "--ptr-noise")).rowBound(1).maxRows(n).build();
        Object[][] cases = {
            {"none", RandomProjectionMechanism.of(r, BUDGET, 1).maxRows(n)},
            {"lsv", RandomProjectionMechanism.lsvBaseline(r, BUDGET, 1).maxRows(n)},
            {"poisson", pois},
            {"ptr", ptr}};
        long seed = 40;
        for (Object[] c : cases) {
            String name = (String) c[0];
            double predicted = m.get(name).predicted().orElseThrow().expected();
            double median = medianError((PrivateMechanism) c[1], rows, seed++, 100);
            System.out.printf("plan %s: predicted %.4g, bound %.4g, realised median %.4g%n", name, predicted,
                    m.get(name).predicted().get().bound(), median);
            assertTrue(predicted <= 2 * median && median <= 2 * predicted,
                    name + ": predicted " + predicted + " vs realised median " + median);
        }
    }
}
