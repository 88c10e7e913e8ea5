package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.dpgauss.covariance.PrivateCovariance;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.learn.PrivateLinearRegression;
import org.dpgauss.learn.PrivatePca;
import org.dpgauss.ledger.Ledger;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSourceMechanism;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Private PCA, private regression and the private covariance on Spark (issues 26 and 29): with the same insecure
 * seed each is the single-machine library release bit for bit (in the default layout, and against the library in
 * a multi-block layout, whatever the partitioning); a session refuses one over its budget before any Spark job and
 * charges nothing; through a ledger one is charged once, replayed at no cost and refused over the dataset's budget.
 */
class SparkLearnParityTest {

    private static final int N = 1200;
    private static final int D = 4;
    private static final double DELTA = 1e-6;
    private static final long SEED = 20261129L;
    private static final double[][] X = TestSpark.gaussian(N, D, 26);
    /** 1200 rows in blocks of 64: 19 blocks, 7 groups of 3 (the last block and group are short). */
    private static final RowLayout SMALL = RowLayout.of(64, 3);
    private static final SparkSessionContractTest.JobCounter JOBS = new SparkSessionContractTest.JobCounter();

    @TempDir
    Path dir;

    @BeforeAll
    static void listen() {
        TestSpark.get().sparkContext().addSparkListener(JOBS);
    }

    /**
     * The learners, fresh each time (immutable; released in this order from one noise stream): PCA with a private
     * centre and with a public one by CoinPress (its whitened Grams on the centred rows); regression with an
     * intercept and, through its centres, without; the covariance by Analyze Gauss with the PSD projection and by
     * the recursive estimator (its shrink-and-clip maps run after the centring map); PCA with a private radius.
     */
    private static List<RowSourceMechanism> learners() {
        List<RowSourceMechanism> m = new ArrayList<>();
        m.add(PrivatePca.builder().k(2).radius(2.0).budget(Zcdp.of(0.5)).build());
        m.add(PrivatePca.builder().k(1).radius(2.0).centre(new double[] {-0.3, 0, 0.3, -0.3}).method("coinpress")
                .budget(Zcdp.of(0.5)).build());
        m.add(PrivateLinearRegression.builder().target(3).featureBound(1.5).targetBound(1.5).budget(Zcdp.of(0.5))
                .build());
        m.add(PrivateLinearRegression.builder().target(0).featureBound(1.5).targetBound(1.0)
                .featureCentre(new double[] {0, 0.3, -0.3}).targetCentre(-0.3).intercept(false)
                .budget(Zcdp.of(0.5)).build());
        m.add(PrivateCovariance.builder().radius(2.0).budget(Zcdp.of(0.5)).psdProjection(true).build());
        m.add(PrivateCovariance.builder().radius(2.0).centre(new double[] {-0.3, 0, 0.3, -0.3}).method("recursive")
                .minEigenvalue(0.02).meanFraction(0.2).budget(Zcdp.of(0.5)).build());
        // AdaSSP with per-column bounds (the rows z and z y' as row maps under Analyze Gauss and the clipped mean)
        m.add(PrivateLinearRegression.builder().target(1).featureBox(new double[] {-3, -2, -3}, new double[] {3, 2, 3})
                .targetBound(2.0).targetCentre(0.1).budget(Zcdp.of(0.5)).build());
        // every bound found privately (the feature and target columns as row maps under the --clip auto finders)
        m.add(PrivateLinearRegression.builder().target(2).budget(Zcdp.of(2)).build());
        // the feature ball found privately inside the box (the box-scaled features as a row map)
        m.add(PrivateLinearRegression.builder().target(3).featureBox(new double[] {-3, -3, -3}, new double[] {3, 3, 3})
                .findFeatureBall(true).targetBound(3.0).budget(Zcdp.of(2)).build());
        // pca --radius auto: the private radius's histogram pass runs on the executors too (issue 26)
        m.add(PrivatePca.builder().k(2).radiusAuto(4.0).budget(Zcdp.of(0.5)).build());
        // regress's default (ssp) with the rows off the public centres: the private centre and both radius
        // histograms run on the executors, and the private centre is the one used (asserted below)
        m.add(PrivateLinearRegression.builder().target(1).featureBound(4.0).featureCentre(new double[] {-1.5, -1.5,
                -1.5}).targetBound(3.0).targetCentre(-1.5).budget(Zcdp.of(0.5)).build());
        return m;
    }

    private static ReleaseContext seeded() {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(SEED));
    }

    private static void assertSameReleases(List<PrivateRelease> expected, List<PrivateRelease> actual, String what) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            PrivateRelease e = expected.get(i);
            assertTrue(e.isPass(), e.mechanism() + " passes");
            assertTrue(TestSpark.sameBits(e.toMap(), actual.get(i).toMap()),
                    what + ": " + e.mechanism() + " (#" + i + ") differs from the single-machine release:\n"
                            + TestSpark.show(e.toMap()) + "\n" + TestSpark.show(actual.get(i).toMap()));
        }
    }

    @Test
    void defaultLayoutIsTheLibraryBitForBit() {
        ReleaseContext ctx = seeded();
        List<PrivateRelease> lib = new ArrayList<>();
        for (RowSourceMechanism m : learners()) { // the library's own path: Releases.run on a Dataset
            lib.add(Releases.run(m, Dataset.of(X), DELTA, ctx));
        }
        assertEquals("recursive", ((java.util.Map<?, ?>) lib.get(5).toMap().get("parameters")).get(
                "secondMomentMethod"));
        PrivateRelease ssp = lib.get(lib.size() - 1);
        assertEquals("centred", ssp.parameters().toMap().get("regime"));
        assertEquals(1.0, ssp.scalar("centred"), "the private centre is used: its passes are exercised");
        assertSameReleases(lib, TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(1000, DELTA),
                seeded(), null, 3, 2, 1, learners()), "default layout");
    }

    @Test
    void multiBlockLayoutIsTheLibraryInThatLayoutWhateverThePartitioning() {
        ReleaseContext ctx = seeded();
        List<PrivateRelease> lib = new ArrayList<>();
        for (RowSourceMechanism m : learners()) {
            lib.add(TestSpark.local(m, X, SMALL, ctx, DELTA));
        }
        assertSameReleases(lib, TestSpark.releases(X, NeighbouringRelation.REPLACE_ONE, ApproxDp.of(1000, DELTA),
                seeded(), SMALL, 2, 3, 2, learners()), "3 partitions");
    }

    /** The NDIS projection regression (add/remove): its projection of [z, y'] (a row map) runs on the executors. */
    private static List<RowSourceMechanism> projections() {
        return List.of(PrivateLinearRegression.builder().target(3).featureBound(1.5).targetBound(1.5)
                .projection(64, ApproxDp.of(1.0, DELTA)).build(), PrivateLinearRegression.builder().target(0)
                .featureBox(new double[] {-3, -3, -3}, new double[] {3, 3, 3}).targetBound(2.0).intercept(false)
                .projection(32, ApproxDp.of(2.0, DELTA)).build());
    }

    @Test
    void projectionRegressionIsTheLibraryBitForBitInBothLayouts() {
        for (int k = 0; k < projections().size(); k++) { // one session each: each spends the whole budget's delta
            RowSourceMechanism m = projections().get(k);
            PrivateRelease lib = Releases.run(m, Dataset.of(X), DELTA, seeded());
            assertEquals(PrivateLinearRegression.ID_PROJECTION, lib.mechanism());
            assertSameReleases(List.of(lib), TestSpark.releases(X, NeighbouringRelation.ADD_REMOVE,
                    ApproxDp.of(1000, DELTA), seeded(), null, 3, 2, 1, List.of(m)), "projection, default layout");
            PrivateRelease small = TestSpark.local(m, X, SMALL, seeded(), DELTA);
            assertSameReleases(List.of(small), TestSpark.releases(X, NeighbouringRelation.ADD_REMOVE,
                    ApproxDp.of(1000, DELTA), seeded(), SMALL, 2, 3, 2, List.of(m)), "projection, 3 partitions");
        }
    }

    private static SparkPrivacySession.Builder builder(org.apache.spark.sql.Dataset<Row> table) {
        return SparkPrivacySession.builder(table).valueColumns(TestSpark.columns(D)).idColumn("id")
                .context(ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(3)));
    }

    @Test
    void overTheBudgetNoJobRunsAndNothingIsCharged() throws InterruptedException {
        org.apache.spark.sql.Dataset<Row> table = TestSpark.table(TestSpark.gaussian(300, D, 5), 2, 1);
        try (SparkPrivacySession s = builder(table).relation(NeighbouringRelation.REPLACE_ONE)
                .budget(ApproxDp.of(1.0, DELTA)).open()) {
            TestSpark.get().sparkContext().setJobGroup("learn-over-budget", "learn-over-budget", false);
            // rho 0.5 is about epsilon 5.8 at delta 1e-6: each of the three is refused before anything is read
            assertThrows(BudgetExceededException.class, () -> s.release(PrivatePca.builder().k(1).radius(2.0)
                    .budget(Zcdp.of(0.5)).build()));
            assertThrows(BudgetExceededException.class, () -> s.release(PrivateLinearRegression.builder().target(0)
                    .featureBound(1).targetBound(1).budget(Zcdp.of(0.5)).build()));
            assertThrows(BudgetExceededException.class, () -> s.release(PrivateCovariance.builder().radius(2.0)
                    .budget(Zcdp.of(0.5)).build()));
            TestSpark.get().sparkContext().clearJobGroup();
            assertEquals(0, JOBS.jobs("learn-over-budget"), "no Spark job ran for a refused release");
            assertEquals(0.0, s.spent().epsilon());
            assertTrue(s.report().releases().isEmpty());
            // within the budget, the same learner runs, and is charged its composed rho (mean step and Gram step)
            PrivateRelease ok = s.release(PrivatePca.builder().k(1).radius(2.0).budget(Zcdp.of(0.005)).build());
            assertTrue(ok.isPass());
            assertEquals(1, s.report().releases().size());
            assertEquals(0.005, s.report().releases().get(0).zcdp().rho(), 1e-15);
        }
    }

    @Test
    void aLedgerChargesOnceReplaysAndRefusesAcrossSessions() {
        org.apache.spark.sql.Dataset<Row> table = TestSpark.table(TestSpark.gaussian(300, D, 6), 2, 2);
        try (Ledger l = Ledger.openOrCreate(dir.resolve("l.db").toString())) {
            l.createDataset("d", NeighbouringRelation.REPLACE_ONE, ApproxDp.of(2, DELTA));
            PrivateRelease first;
            PrivateRelease again;
            try (SparkPrivacySession s = builder(table).ledger(l, "d").open()) {
                first = s.release(PrivateCovariance.builder().radius(2.0).budget(Zcdp.of(0.02)).build());
                again = s.release(PrivateCovariance.builder().radius(2.0).budget(Zcdp.of(0.02)).build());
            }
            assertTrue(first.isPass());
            assertFalse(first.parameters().has("ledgerReplayOf"));
            assertTrue(again.parameters().has("ledgerReplayOf"), "the repeated query is the stored release");
            assertEquals(first.value("covariance"), again.value("covariance"));
            try (SparkPrivacySession other = builder(table).ledger(l, "d").open()) {
                // rho 0.02 + 0.2 is above epsilon 3 at delta 1e-6: refused over the dataset's budget (epsilon 2)
                assertThrows(BudgetExceededException.class, () -> other.release(PrivateLinearRegression.builder()
                        .target(3).featureBound(1).targetBound(1).budget(Zcdp.of(0.2)).build()));
                assertEquals(3, other.column("x4"), "a column by its name, for the regression's target");
                assertThrows(IllegalArgumentException.class, () -> other.column("id"));
                PrivateRelease reg = other.release(PrivateLinearRegression.builder().target(other.column("x4"))
                        .featureBound(1).targetBound(1).budget(Zcdp.of(0.01)).build());
                assertTrue(reg.isPass());
                assertEquals(3.0, reg.parameters().number("targetColumn"));
            }
            assertEquals(2, l.entries("d").size(), "the covariance and the regression, each once");
            assertEquals("PASS", l.entries("d").get(0).status());
        }
    }
}
