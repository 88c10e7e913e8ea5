package org.dpgauss.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSourceMechanism;

/** One local[2] SparkSession per test JVM, and the tables the tests release from. */
final class TestSpark {

    private static SparkSession session;

    private TestSpark() {
    }

    static synchronized SparkSession get() {
        if (session == null) {
            session = SparkSession.builder()
                    .master("local[2]")
                    .appName("dpgauss-spark-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", "4")
                    .getOrCreate();
            session.sparkContext().setLogLevel("WARN");
        }
        return session;
    }

    /** n x d rows, Gaussian around a non-zero mean with unequal scales (seeded). */
    static double[][] gaussian(int n, int d, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = 0.3 * (j % 3 - 1) + (0.2 + 0.15 * j) * r.nextGaussian();
            }
        }
        return x;
    }

    static List<String> columns(int d) {
        List<String> c = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            c.add("x" + (j + 1));
        }
        return c;
    }

    /**
     * The rows as a table with a long id column {@code id = 7 i + 3} (row i in id order), listed in a shuffled order
     * and spread over {@code partitions} partitions: only the id defines the order.
     */
    static Dataset<Row> table(double[][] x, int partitions, long shuffleSeed) {
        int d = x[0].length;
        List<StructField> fields = new ArrayList<>();
        fields.add(DataTypes.createStructField("id", DataTypes.LongType, false));
        for (String c : columns(d)) {
            fields.add(DataTypes.createStructField(c, DataTypes.DoubleType, true));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            order.add(i);
        }
        java.util.Collections.shuffle(order, new Random(shuffleSeed));
        List<Row> rows = new ArrayList<>();
        for (int i : order) {
            Object[] v = new Object[d + 1];
            v[0] = 7L * i + 3;
            for (int j = 0; j < d; j++) {
                v[j + 1] = x[i][j];
            }
            rows.add(RowFactory.create(v));
        }
        return get().createDataFrame(rows, DataTypes.createStructType(fields)).repartition(partitions);
    }

    /** The single-machine release of a row mechanism on rows in memory with a given layout. */
    static PrivateRelease local(RowSourceMechanism m, double[][] x, RowLayout layout, ReleaseContext ctx,
            double delta) {
        RowBlockMatrix mat = RowBlockMatrix.of(x);
        LocalRows rows = LocalRows.of(mat, ctx.engine(), layout);
        Statement stated = Releases.state(m, PublicContext.forPlanning(x.length, x[0].length, m.relation(), delta));
        return Releases.assemble(stated, m.compute(rows, stated, ctx), ctx.random());
    }

    /**
     * The releases of the mechanisms, in order, from one Spark session on {@code x}: the table read in
     * {@code inputPartitions} partitions with its rows stored in an order shuffled by {@code shuffle}, the session's
     * blocks in {@code blockPartitions} partitions and {@code layout} (null: the default).
     */
    static List<PrivateRelease> releases(double[][] x, org.dpgauss.privacy.NeighbouringRelation relation,
            org.dpgauss.privacy.ApproxDp budget, ReleaseContext context, RowLayout layout, int inputPartitions,
            int blockPartitions, long shuffle, List<? extends org.dpgauss.release.PrivateMechanism> mechanisms) {
        SparkPrivacySession.Builder b = SparkPrivacySession.builder(table(x, inputPartitions, shuffle))
                .valueColumns(columns(x[0].length)).idColumn("id").relation(relation).budget(budget)
                .context(context).partitions(blockPartitions);
        if (layout != null) {
            b.layout(layout);
        }
        List<PrivateRelease> out = new ArrayList<>();
        try (SparkPrivacySession s = b.open()) {
            for (org.dpgauss.release.PrivateMechanism m : mechanisms) {
                out.add(s.release(m));
            }
        }
        return out;
    }

    /** A release map with its arrays spelled out (for failure messages). */
    static String show(Object a) {
        if (a instanceof Map) {
            StringBuilder b = new StringBuilder("{");
            for (Map.Entry<?, ?> e : ((Map<?, ?>) a).entrySet()) {
                b.append(e.getKey()).append('=').append(show(e.getValue())).append(", ");
            }
            return b.append('}').toString();
        }
        if (a instanceof double[]) {
            return java.util.Arrays.toString((double[]) a);
        }
        if (a instanceof Object[]) {
            return java.util.Arrays.deepToString((Object[]) a);
        }
        return String.valueOf(a);
    }

    /**
     * Deep equality of two release maps, every double bit for bit; a release from Spark ({@code b}) may state
     * where it was computed, {@code executorEngine}, beyond the parameters of a single-machine release ({@code a}):
     * SparkExecutorEngineParameterTest checks that parameter.
     */
    static boolean sameBits(Object a, Object b) {
        return sameBitsDeep(a, withoutExecutorEngine(a, b));
    }

    /** {@code b} without the {@code executorEngine} parameter when {@code a} is a release map without it. */
    private static Object withoutExecutorEngine(Object a, Object b) {
        if (!(a instanceof Map && b instanceof Map)) {
            return b;
        }
        Object pa = ((Map<?, ?>) a).get("parameters");
        Object pb = ((Map<?, ?>) b).get("parameters");
        String key = org.dpgauss.rows.ClusterBackend.EXECUTOR_ENGINE;
        if (!(pa instanceof Map && pb instanceof Map) || ((Map<?, ?>) pa).containsKey(key)
                || !((Map<?, ?>) pb).containsKey(key)) {
            return b;
        }
        Map<Object, Object> params = new java.util.LinkedHashMap<>((Map<?, ?>) pb);
        params.remove(key);
        Map<Object, Object> out = new java.util.LinkedHashMap<>((Map<?, ?>) b);
        out.put("parameters", params);
        return out;
    }

    private static boolean sameBitsDeep(Object a, Object b) {
        if (a instanceof Map && b instanceof Map) {
            Map<?, ?> ma = (Map<?, ?>) a;
            Map<?, ?> mb = (Map<?, ?>) b;
            if (!ma.keySet().equals(mb.keySet())) {
                return false;
            }
            for (Object k : ma.keySet()) {
                if (!sameBitsDeep(ma.get(k), mb.get(k))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof List && b instanceof List) {
            List<?> la = (List<?>) a;
            List<?> lb = (List<?>) b;
            if (la.size() != lb.size()) {
                return false;
            }
            for (int i = 0; i < la.size(); i++) {
                if (!sameBitsDeep(la.get(i), lb.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof double[] && b instanceof double[]) {
            return java.util.Arrays.equals((double[]) a, (double[]) b);
        }
        if (a instanceof double[][] && b instanceof double[][]) {
            return java.util.Arrays.deepEquals((double[][]) a, (double[][]) b);
        }
        if (a instanceof Object[] && b instanceof Object[]) {
            return java.util.Arrays.deepEquals((Object[]) a, (Object[]) b);
        }
        return java.util.Objects.equals(a, b);
    }
}
