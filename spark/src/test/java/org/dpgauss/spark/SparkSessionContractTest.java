package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.dpgauss.release.Outcome;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.RowSource;
import org.dpgauss.rows.RowSourceMechanism;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The session's order of steps (budget before any job, validation before any charge), FAIL, and bad input. */
class SparkSessionContractTest {

    private static final int D = 3;
    private static final double[][] X = TestSpark.gaussian(300, D, 11);
    private static final JobCounter JOBS = new JobCounter();

    @BeforeAll
    static void listen() {
        TestSpark.get().sparkContext().addSparkListener(JOBS);
    }

    /** Counts job starts per job group (listener events arrive asynchronously, in order). */
    static final class JobCounter extends SparkListener {
        private final Map<String, AtomicInteger> byGroup = new ConcurrentHashMap<>();

        @Override
        public void onJobStart(SparkListenerJobStart start) {
            String g = start.properties() == null ? "" : start.properties().getProperty("spark.jobGroup.id", "");
            byGroup.computeIfAbsent(g, k -> new AtomicInteger()).incrementAndGet();
        }

        /** Jobs started in group g, once every event before a sentinel job has been delivered. */
        int jobs(String g) throws InterruptedException {
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(TestSpark.get().sparkContext());
            String sentinel = "sentinel-" + System.nanoTime();
            sc.setJobGroup(sentinel, "sentinel", false);
            sc.parallelize(List.of(1)).count();
            sc.clearJobGroup();
            for (int i = 0; i < 200 && !byGroup.containsKey(sentinel); i++) {
                Thread.sleep(50);
            }
            assertTrue(byGroup.containsKey(sentinel), "the listener saw the sentinel job");
            AtomicInteger c = byGroup.get(g);
            return c == null ? 0 : c.get();
        }
    }

    private static SparkPrivacySession open(Dataset<Row> table, ApproxDp budget) {
        return SparkPrivacySession.builder(table).valueColumns(TestSpark.columns(D)).idColumn("id")
                .relation(NeighbouringRelation.REPLACE_ONE).budget(budget)
                .context(ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(5))).open();
    }

    private static void group(String g) {
        TestSpark.get().sparkContext().setJobGroup(g, g, false);
    }

    @Test
    void anOverBudgetReleaseRunsNoJobAndChargesNothing() throws InterruptedException {
        try (SparkPrivacySession s = open(TestSpark.table(X, 2, 1), ApproxDp.of(1.0, 1e-6))) {
            group("over-budget");
            // public-bound mode: nothing reads the rows before the charge, so no job runs for a refused release
            assertThrows(BudgetExceededException.class, () -> s.release(AnalyzeGauss.builder().radius(50.0)
                    .budget(Zcdp.of(5.0)).clipToRadius(false).build()));
            TestSpark.get().sparkContext().clearJobGroup();
            assertEquals(0, JOBS.jobs("over-budget"), "no Spark job ran for a refused release");
            assertEquals(0.0, s.spent().epsilon());
            group("within-budget");
            PrivateRelease ok = s.release(AnalyzeGauss.of(2.0, Zcdp.of(0.01)));
            TestSpark.get().sparkContext().clearJobGroup();
            assertTrue(ok.isPass());
            assertTrue(JOBS.jobs("within-budget") > 0, "a release within budget runs its passes as Spark jobs");
            assertTrue(s.spent().epsilon() > 0);
        }
    }

    /**
     * Issue 24, items 5 and 6 on Spark: a row above the public radius is clipped (no error one neighbour alone
     * triggers), the release is charged before any job reads a row, and the neighbours D and D with that row
     * replaced by a short one give the same status, fields, parameters and charge. Failed before issue 24 (the
     * release threw "row .. has an L2 norm above the public covering radius", for free).
     */
    @Test
    void aRowAboveTheBoundIsClippedAndCharged() {
        double[][] shortRow = X.clone();
        shortRow[0] = new double[X[0].length];
        PrivateRelease[] r = new PrivateRelease[2];
        ApproxDp[] spent = new ApproxDp[2];
        int k = 0;
        for (double[][] x : new double[][][] {X, shortRow}) {
            try (SparkPrivacySession s = open(TestSpark.table(x, 2, 2), ApproxDp.of(5.0, 1e-6))) {
                r[k] = s.release(AnalyzeGauss.builder().radius(0.05).budget(Zcdp.of(0.1)).clipToRadius(false)
                        .build());
                spent[k] = s.spent();
                assertEquals(1, s.report().releases().size());
                k++;
            }
        }
        assertEquals(r[0].status(), r[1].status());
        assertEquals(r[0].values().keySet(), r[1].values().keySet());
        assertEquals(r[0].parameters(), r[1].parameters());
        assertEquals(spent[0], spent[1]);
        assertTrue(spent[0].epsilon() > 0);
    }

    /** Runs a pass, then FAILs: the release carries the statement and no value, and stays charged. */
    static final class FailsAfterAPass implements RowSourceMechanism {
        private final AnalyzeGauss inner = AnalyzeGauss.of(2.0, Zcdp.of(0.1));

        @Override
        public NeighbouringRelation relation() {
            return inner.relation();
        }

        @Override
        public Statement state(PublicContext context) {
            return inner.state(context);
        }

        @Override
        public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
            rows.gram(rows.rows());
            return Outcome.fail();
        }

        @Override
        public Outcome compute(org.dpgauss.release.Dataset data, Statement stated, ReleaseContext context) {
            return Outcome.fail();
        }
    }

    /**
     * Issue 24, item 1 on Spark: the clipped mean's executors clip with the same scale-safe routine, so one row at
     * 1e205 with C = 1e200 moves the mean by at most C/n (it moved it to 1e205/n with the C*C comparison).
     */
    @Test
    void theClippedMeanClipsAtAHugeRadiusOnTheCluster() {
        double[][] x = new double[X.length][D];
        x[7][0] = 1e205;
        try (SparkPrivacySession s = open(TestSpark.table(x, 2, 5), ApproxDp.of(50.0, 1e-6))) {
            org.dpgauss.mean.ClippedGaussianMean m = org.dpgauss.mean.ClippedGaussianMean.builder().clipRadius(1e200)
                    .rho(10).build(D);
            double[] mean = s.release(m).vector("mean");
            double sigma = m.sigma(x.length);
            assertTrue(Math.abs(mean[0]) <= 1e200 / x.length + 6 * sigma, mean[0] + " (sigma " + sigma + ")");
        }
    }

    /** Runs a pass, then throws: a data-dependent failure after the charge (issue 24, item 6). */
    static final class ThrowsAfterAPass implements RowSourceMechanism {
        private final AnalyzeGauss inner = AnalyzeGauss.of(2.0, Zcdp.of(0.1));

        @Override
        public NeighbouringRelation relation() {
            return inner.relation();
        }

        @Override
        public Statement state(PublicContext context) {
            return inner.state(context);
        }

        @Override
        public Outcome compute(RowSource rows, Statement stated, ReleaseContext context) {
            rows.gram(rows.rows());
            throw new IllegalStateException("a failure after reading the rows");
        }

        @Override
        public Outcome compute(org.dpgauss.release.Dataset data, Statement stated, ReleaseContext context) {
            throw new IllegalStateException("a failure after reading the rows");
        }
    }

    /** The charge comes before anything reads a row: a failure after a pass stays charged. */
    @Test
    void aFailureAfterReadingStaysCharged() {
        try (SparkPrivacySession s = open(TestSpark.table(X, 2, 4), ApproxDp.of(5.0, 1e-6))) {
            assertThrows(IllegalStateException.class, () -> s.release(new ThrowsAfterAPass()));
            assertEquals(1, s.report().releases().size(), "charged before the rows were read");
            assertTrue(s.spent().epsilon() > 0);
        }
    }

    @Test
    void failReleasesNothingButTheStatementAndStaysCharged() {
        try (SparkPrivacySession s = open(TestSpark.table(X, 2, 3), ApproxDp.of(5.0, 1e-6))) {
            PrivateRelease r = s.release(new FailsAfterAPass());
            assertFalse(r.isPass());
            assertTrue(r.values().isEmpty());
            Map<String, Object> m = r.toMap();
            assertEquals("FAIL", m.get("status"));
            assertFalse(m.containsKey("secondMoment"));
            assertTrue(s.spent().epsilon() > 0, "a FAIL was charged (it read the data)");
        }
    }

    /** A mechanism that reads a {@code Dataset} only. */
    static final class InMemoryOnly implements PrivateMechanism {
        private final AnalyzeGauss inner = AnalyzeGauss.of(2.0, Zcdp.of(0.1));

        @Override
        public NeighbouringRelation relation() {
            return inner.relation();
        }

        @Override
        public Statement state(PublicContext context) {
            return inner.state(context);
        }

        @Override
        public Outcome compute(org.dpgauss.release.Dataset data, Statement stated, ReleaseContext context) {
            return Outcome.fail();
        }
    }

    @Test
    void aMechanismWithoutRowPassesIsRefusedBeforeAnyCharge() {
        try (SparkPrivacySession s = open(TestSpark.table(X, 1, 4), ApproxDp.of(5.0, 1e-6))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> s.release(new InMemoryOnly()));
            assertTrue(e.getMessage().contains("does not run on Spark"), e.getMessage());
            assertEquals(0.0, s.spent().epsilon());
        }
    }

    private static Dataset<Row> table(List<Object[]> rows, boolean stringColumn) {
        List<StructField> f = new ArrayList<>();
        f.add(DataTypes.createStructField("id", DataTypes.LongType, true));
        f.add(DataTypes.createStructField("x1", DataTypes.DoubleType, true));
        f.add(DataTypes.createStructField("x2", DataTypes.DoubleType, true));
        f.add(DataTypes.createStructField("x3", stringColumn ? DataTypes.StringType : DataTypes.DoubleType, true));
        List<Row> r = new ArrayList<>();
        for (Object[] v : rows) {
            r.add(RowFactory.create(v));
        }
        return TestSpark.get().createDataFrame(r, DataTypes.createStructType(f));
    }

    private static List<Object[]> good() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rows.add(new Object[] {(long) (100 - i), 0.25 * i, -1.5, 3.0});
        }
        return rows;
    }

    private static String refusal(Dataset<Row> t) {
        return assertThrows(IllegalArgumentException.class, () -> open(t, ApproxDp.of(1, 1e-6))).getMessage();
    }

    @Test
    void badInputIsRefusedNamingRowAndColumnNeverTheValue() {
        List<Object[]> nan = good();
        nan.get(3)[2] = Double.NaN; // id 97: row 4 from the end, i.e. 17th in id order
        assertEquals("row 17 (in id order), column 'x2' is not a finite number (NaN or infinite): every value must"
                + " be finite", refusal(table(nan, false)));
        List<Object[]> missing = good();
        missing.get(0)[3] = null; // id 100: the last row
        assertTrue(refusal(table(missing, false)).startsWith("row 20 (in id order), column 'x3' is missing"));
        // a repeated id is no error (issue 24 item 5: one neighbour could trigger it); its rows are ordered by value
        List<Object[]> dup = good();
        dup.get(5)[0] = 100L;
        try (SparkPrivacySession s = open(table(dup, false), ApproxDp.of(1, 1e-6))) {
            assertEquals(0.0, s.spent().epsilon());
        }
        List<Object[]> noId = good();
        noId.get(7)[0] = null;
        assertTrue(refusal(table(noId, false)).contains("has a missing (null) value"));
        List<Object[]> text = good();
        for (Object[] r : text) {
            r[3] = "3.0";
        }
        assertTrue(refusal(table(text, true)).startsWith("value column 'x3' has type string"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SparkPrivacySession
                .builder(table(good(), false)).valueColumns(List.of("x1", "y")).idColumn("id")
                .relation(NeighbouringRelation.REPLACE_ONE).budget(ApproxDp.of(1, 1e-6)).open());
        assertTrue(e.getMessage().startsWith("the value column 'y' is not in the table"), e.getMessage());
    }
}
