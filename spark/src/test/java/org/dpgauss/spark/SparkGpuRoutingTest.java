package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.resource.ResourceInformation;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowSourceMechanism;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * GPU routing on a cluster with GPU scheduling: {@code local-cluster[1,2,1024]} (one worker, one executor JVM with
 * two cores) whose worker and executor find two GPUs, addresses 0 and 1, through a discovery script, and whose tasks
 * ask for one GPU each. There is no GPU here: the executors' GPU backend is {@link RecordingGpuProvider}, which
 * records the device it was asked for and says it cannot run. Runs in its own test JVM (a surefire execution of its
 * own): a JVM holds one SparkContext, and the other Spark tests use {@code local[2]}.
 *
 * <p>The worker starts executors from {@code SPARK_HOME} (set by the surefire execution): a stand-in home built under
 * {@code target/} with an empty {@code RELEASE} and {@code jars/} linking this test's class path.
 *
 * <p>Tagged slow: 30-40 s on the 2-core shared machine (starting the worker and the executor JVM dominates); it
 * runs with {@code -Pall-tests}.
 */
@Tag("slow")
class SparkGpuRoutingTest {

    private static final int N = 1500;
    private static final int D = 4;
    private static final double DELTA = 1e-6;
    private static final long SEED = 20261125L;
    /** 24 blocks of 64 rows, 8 groups: tasks on both GPUs. */
    private static final RowLayout LAYOUT = RowLayout.of(64, 3);

    private static SparkSession spark;

    @BeforeAll
    static void startCluster() throws IOException {
        String home = System.getenv("SPARK_HOME");
        assertNotNull(home, "SPARK_HOME must name the stand-in Spark home (set by the spark module's surefire"
                + " execution 'local-cluster')");
        Path target = Paths.get(home).toAbsolutePath().getParent();
        standInHome(Paths.get(home));
        Path script = target.resolve("gpu-discovery.sh");
        Files.writeString(script, "#!/bin/sh\necho '{\"name\":\"gpu\",\"addresses\":[\"0\",\"1\"]}'\n",
                StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        // the double's services entry: on the executors' class path only
        Path services = target.resolve("gpu-double/META-INF/services");
        Files.createDirectories(services);
        Files.writeString(services.resolve("org.dpgauss.engine.ComputeEngineProvider"),
                RecordingGpuProvider.class.getName() + "\n", StandardCharsets.US_ASCII);
        String executorClassPath = target.resolve("gpu-double") + File.pathSeparator
                + System.getProperty("java.class.path");
        spark = SparkSession.builder()
                .master("local-cluster[1,2,1024]")
                .appName("dpgauss-gpu-routing-test")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.executor.extraClassPath", executorClassPath)
                .config("spark.executor.extraJavaOptions", moduleFlags())
                .config("spark.worker.resource.gpu.amount", "2")
                .config("spark.worker.resource.gpu.discoveryScript", script.toString())
                .config("spark.executor.resource.gpu.amount", "2")
                .config("spark.executor.resource.gpu.discoveryScript", script.toString())
                .config("spark.task.resource.gpu.amount", "1")
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
    }

    @AfterAll
    static void stopCluster() {
        if (spark != null) {
            spark.stop();
        }
    }

    /** {@code RELEASE} (marks a binary distribution) and {@code jars/} linking every jar of this class path. */
    private static void standInHome(Path home) throws IOException {
        Path jars = home.resolve("jars");
        Files.createDirectories(jars);
        Files.write(home.resolve("RELEASE"), new byte[0]);
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path jar = Paths.get(entry);
            Path link = jars.resolve(jar.getFileName().toString());
            if (entry.endsWith(".jar") && !Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(link, jar.toAbsolutePath());
            }
        }
    }

    /** The module flags this JVM runs with (Spark's, from the pom), for the executor JVM. */
    private static String moduleFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-") || a.startsWith("--enable-native-access")
                        || a.startsWith("--sun-misc-") || a.startsWith("-XX:+IgnoreUnrecognizedVMOptions")
                        || a.startsWith("-Djdk.reflect.") || a.startsWith("-Dio.netty."))
                .collect(Collectors.joining(" "));
    }

    /**
     * Per task: its partition, the GPU addresses it holds, the device the GPU backend was asked for, and the engine
     * and device routing chose; two tasks at once, so both GPUs are held.
     */
    private static List<String> routeTasks(String choice) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> parts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            parts.add(i);
        }
        return jsc.parallelize(parts, 4).mapPartitions(it -> {
            TaskContext task = TaskContext.get();
            ResourceInformation gpu = task.resources().get("gpu").get();
            RecordingGpuProvider.clear();
            ExecutorEngines.Routing r = ExecutorEngines.route(choice);
            String line = task.partitionId() + ";" + String.join(",", gpu.addresses()) + ";"
                    + RecordingGpuProvider.lastAsked() + ";" + r.engine().name() + ";" + r.device();
            Thread.sleep(300); // hold the GPU while the other slot's task starts
            return Collections.singletonList(line).iterator();
        }).collect();
    }

    @Test
    void autoAsksTheGpuBackendForTheTasksOwnGpuThenRunsTheCpu() {
        long t0 = System.nanoTime();
        List<String> tasks = routeTasks("auto");
        String cpu = ComputeEngines.select(EngineChoice.CPU).engine().name();
        Set<String> held = new TreeSet<>();
        for (String t : tasks) {
            String[] f = t.split(";");
            assertEquals(1, f[1].split(",").length, "each task holds exactly one GPU: " + t);
            held.add(f[1]);
            assertEquals(f[1], f[2], "the GPU backend was asked for the task's own GPU: " + t);
            assertEquals(cpu, f[3], "auto without a usable GPU runs the CPU engine: " + t);
            assertEquals("-1", f[4], "a CPU engine has no device: " + t);
        }
        assertEquals(4, tasks.size());
        assertEquals(Set.of("0", "1"), held, "tasks at once hold different GPUs: " + tasks);
        System.out.println("[gpu-routing] auto routing job: " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    @Test
    void gpuOnAnExecutorWhoseGpuCannotRunFailsSayingWhatToDo() {
        // Spark rethrows the task's failure as a SparkException (checked, thrown undeclared by collect)
        Exception e = assertThrows(Exception.class, () -> routeTasks("gpu"));
        String m = String.valueOf(rootMessage(e));
        assertTrue(m.contains("cannot run the gpu engine the driver asked for on GPU address "), m);
        assertTrue(m.contains(RecordingGpuProvider.REASON), m);
        assertTrue(m.contains("spark.executor.resource.gpu.amount")
                && m.contains("ask for auto or a CPU engine (--executor-engine"), m);
    }

    private static String rootMessage(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t.getMessage()).append(" | ");
        }
        return b.toString();
    }

    /** With {@code auto} and no usable GPU, a release on the cluster is the CPU release, bit for bit. */
    @Test
    void autoReleaseEqualsTheCpuReleaseBitForBit() {
        double[][] x = TestSpark.gaussian(N, D, 7);
        ComputeEngine cpu = ComputeEngines.select(EngineChoice.CPU).engine();
        RowSourceMechanism m = AnalyzeGauss.of(1.5, Zcdp.of(0.5));
        PrivateRelease local = TestSpark.local(m, x, LAYOUT, ReleaseContext.of(cpu,
                RandomSource.insecureSeeded(SEED)), DELTA);

        SparkRows rows = SparkRows.load(table(x, 3, 11), TestSpark.columns(D), "id", LAYOUT, 4, "auto");
        try {
            ReleaseContext ctx = ReleaseContext.of(cpu, RandomSource.insecureSeeded(SEED));
            Statement stated = Releases.state(m, PublicContext.forPlanning(N, D, m.relation(), DELTA));
            PrivateRelease onCluster = Releases.assemble(stated, m.compute(rows, stated, ctx), ctx.random());
            assertTrue(local.isPass());
            assertTrue(TestSpark.sameBits(local.toMap(), onCluster.toMap()),
                    TestSpark.show(local.toMap()) + "\n" + TestSpark.show(onCluster.toMap()));
        } finally {
            rows.unpersist();
        }
    }

    /** The rows with id {@code 7 i + 3}, in a shuffled order over {@code partitions} partitions. */
    private static Dataset<Row> table(double[][] x, int partitions, long shuffleSeed) {
        List<StructField> fields = new ArrayList<>();
        fields.add(DataTypes.createStructField("id", DataTypes.LongType, false));
        for (String c : TestSpark.columns(D)) {
            fields.add(DataTypes.createStructField(c, DataTypes.DoubleType, true));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(shuffleSeed));
        List<Row> out = new ArrayList<>();
        for (int i : order) {
            Object[] v = new Object[D + 1];
            v[0] = 7L * i + 3;
            for (int j = 0; j < D; j++) {
                v[j + 1] = x[i][j];
            }
            out.add(RowFactory.create(v));
        }
        return spark.createDataFrame(out, DataTypes.createStructType(fields)).repartition(partitions);
    }
}
