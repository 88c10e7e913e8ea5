package org.dpgauss.spark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.mean.anisotropic.RescaledAveraging;
import org.dpgauss.mean.anisotropic.ShapeMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.rows.RowReleases;
import org.dpgauss.rows.RowSourceMechanism;
import org.dpgauss.sampling.CovarianceAwareMean;
import org.dpgauss.sampling.PtrMechanism;
import org.dpgauss.spark.GeneratedRows;
import org.dpgauss.spark.SparkRows;

/**
 * Local-mode scaling of the passes the covariance-aware mean and the anisotropic mean add (bench/run-spark.sh with
 * {@code stable} or {@code anisotropic}): one release per n on rows generated inside the tasks ({@link
 * GeneratedRows}, N(0, 0.25) entries, default layout), every pass logged with its kind, time and the bytes Spark's
 * task metrics report (results to the driver, shuffle writes). {@code stable}: the pairing shuffle, the StableCov
 * (LargestGoodSubset) rounds on the cached pairs, the StableMean passes on the rows. {@code anisotropic}: the
 * blocked self-join of the neighbour counts and the sum pass; n values whose self-join would exceed the time limit,
 * extrapolated as n^2 from the last one run, are skipped. Also a pass that only generates the rows, so a pass over
 * the rows costs its time less that. One JSON file per n. Timings only: insecure noise, nothing released is kept.
 *
 * <p>Arguments: output folder, master, {@code stable} or {@code anisotropic}, comma-separated n values, d, and
 * (anisotropic) the self-join time limit in seconds (default 300).
 */
public final class SparkPassScaling {

    private SparkPassScaling() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        String master = args[1];
        String what = args[2];
        if (!what.equals("stable") && !what.equals("anisotropic")) {
            throw new IllegalArgumentException("'" + what + "': stable or anisotropic");
        }
        long[] ns = Arrays.stream(args[3].split(",")).mapToLong(s -> (long) Double.parseDouble(s)).toArray();
        int d = Integer.parseInt(args[4]);
        double limit = args.length > 5 ? Double.parseDouble(args[5]) : 300;
        Files.createDirectories(out);
        SparkSession spark = SparkScaling.session(master);
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        int cores = spark.sparkContext().defaultParallelism();
        ComputeEngine engine = ComputeEngines.select(EngineChoice.CPU).engine();
        SparkBytes bytes = SparkBytes.attach(spark.sparkContext());
        long lastN = 0;
        double lastJoin = 0;
        for (long n : ns) {
            if (what.equals("anisotropic") && lastN > 0 && lastJoin * Math.pow((double) n / lastN, 2) > limit) {
                System.err.printf(Locale.ROOT, "skip n=%d: the self-join would take about %.0f s (limit %.0f)%n", n,
                        lastJoin * Math.pow((double) n / lastN, 2), limit);
                continue;
            }
            String before = SparkScaling.loadavg();
            SparkRows rows = GeneratedRows.gaussian(sc, n, d, 0.5, 20261125L, null, engine.name());
            int blocks = rows.layout().blockCount(n);
            int groups = rows.layout().groupOf(blocks - 1) + 1;
            rows.reduce((b, m, e) -> (long) m.rows(), (a, p) -> a == null ? p : a + p); // warm-up
            double[] gen = new double[3];
            double[] genCpu = new double[3];
            for (int k = 0; k < gen.length; k++) {
                long t = System.nanoTime();
                long c = TimedRows.cpuNanos();
                rows.reduce((b, m, e) -> (long) m.rows(), (a, p) -> a == null ? p : a + p);
                gen[k] = SparkScaling.seconds(t);
                genCpu[k] = (TimedRows.cpuNanos() - c) * 1e-9;
            }
            RowSourceMechanism m = what.equals("stable")
                    ? CovarianceAwareMean.of(Math.toIntExact(n), d, ApproxDp.of(1, 0.1), 0.05, Double.NaN,
                            PtrMechanism.SOUND, true)
                    : RescaledAveraging.knownCovariance(ShapeMatrix.diagonal(filled(d, 0.25)), Math.toIntExact(n),
                            0.05, ApproxDp.of(8, 1e-6));
            TimedRows timed = new TimedRows(rows, "rows", bytes);
            long t = System.nanoTime();
            RowReleases.run(m, timed, 1e-6, ReleaseContext.of(engine, RandomSource.insecureSeeded(1)));
            double total = SparkScaling.seconds(t);
            List<TimedRows.Pass> log = timed.log();
            for (TimedRows.Pass p : log) {
                if (p.kind().equals("self-join")) {
                    lastN = n;
                    lastJoin = p.seconds();
                }
            }
            String json = String.format(Locale.ROOT, "{\"mechanism\":\"%s\",\"n\":%d,\"d\":%d,\"master\":\"%s\","
                    + "\"cores\":%d,\"engine\":\"%s\",\"source\":\"generated\",\"blockRows\":%d,\"blocks\":%d,"
                    + "\"groups\":%d,\"generate_pass_s\":{\"median\":%.4f,\"runs\":%s,\"cpu_s\":%s},\"release_s\":%.4f,"
                    + "\"passes\":%d,\"passes_s\":%.4f,\"driver_s\":%.4f,\"log\":%s,\"max_heap_bytes\":%d,"
                    + "\"loadavg_before\":\"%s\",\"loadavg_after\":\"%s\"}",
                    m.getClass().getSimpleName(), n, d, master, cores, engine.name(), rows.layout().blockRows(),
                    blocks, groups, SparkScaling.median(gen), Arrays.toString(gen), Arrays.toString(genCpu), total, log.size(),
                    timed.seconds(), total - timed.seconds(),
                    log.stream().map(TimedRows.Pass::json).collect(Collectors.joining(",", "[", "]")),
                    Runtime.getRuntime().maxMemory(), before, SparkScaling.loadavg());
            Path f = out.resolve(what + "-" + SparkScaling.name(n, d));
            Files.writeString(f, json);
            System.err.println(f + ": " + json);
        }
        spark.stop();
    }

    private static double[] filled(int d, double v) {
        double[] a = new double[d];
        Arrays.fill(a, v);
        return a;
    }
}
