package org.dpgauss.bench.exactsum;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.rows.ExactColumnSums;
import org.dpgauss.rows.ShewchukColumnSums;

/**
 * Exact column sums, warmed, in one JVM: the Shewchuk partials the engine used before, the superaccumulator
 * ({@link ExactColumnSums}, chunk-major) and the same superaccumulator column-major ({@link ColumnMajorSums}), on
 * the same n x d rows, plus the clipped mean's row pass (clip each row to a ball, then sum) with the clipped rows
 * materialised first and with clipping fused into the summation. Every variant's rounded sums must agree bit for
 * bit, or the run fails. Prints a table of thread CPU nanoseconds per value (median of the timed passes, taken
 * round-robin over the variants after each is warmed) and writes it as
 * JSON when given a path.
 *
 * <p>Usage: {@code ExactSumBench n d repeat [OUT_JSON]}. Data: synthetic rows {@code N(0, diag((1 + j/d)^2))} from a
 * fixed seed, in storage blocks of the default size; clipping radius the median row norm.
 */
public final class ExactSumBench {

    private static final java.lang.management.ThreadMXBean CPU =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private ExactSumBench() {
    }

    public static void main(String[] args) throws IOException {
        int n = Integer.parseInt(args[0]);
        int d = Integer.parseInt(args[1]);
        int repeat = Integer.parseInt(args[2]);
        RowBlockMatrix x = data(n, d);
        double[] centre = new double[d];
        double radius = Math.sqrt(d * 1.6); // near the median row norm of the data
        Map<String, double[]> results = new LinkedHashMap<>();
        Map<String, Runner> variants = new LinkedHashMap<>();
        variants.put("Shewchuk partials (before)", () -> {
            ShewchukColumnSums s = ShewchukColumnSums.zeros(d);
            forEachRow(x, s::add);
            return s.rounded();
        });
        variants.put("superaccumulator, chunk-major (after)", () -> {
            ExactColumnSums s = ExactColumnSums.zeros(d);
            forEachRow(x, s::add);
            return s.rounded();
        });
        variants.put("superaccumulator, column-major", () -> {
            ColumnMajorSums s = new ColumnMajorSums(d);
            forEachRow(x, s::add);
            return s; // rounded outside the timed pass (its BigDecimal rounding is slow)
        });
        variants.put("naive double sums (not exact; the floor)", () -> {
            double[] sum = new double[d];
            forEachRow(x, (data, off) -> {
                for (int j = 0; j < d; j++) {
                    sum[j] += data[off + j];
                }
            });
            return new Object();
        });
        variants.put("clip rows into a copy, then sum", () -> {
            RowBlockMatrix clipped = clipCopy(x, centre, radius);
            ExactColumnSums s = ExactColumnSums.zeros(d);
            forEachRow(clipped, s::add);
            return s.rounded();
        });
        variants.put("clip fused into the sum", () -> {
            ExactColumnSums s = ExactColumnSums.zeros(d);
            double[] row = new double[d];
            forEachRow(x, (data, off) -> {
                clip(data, off, centre, radius, row);
                s.add(row, 0);
            });
            return s.rounded();
        });
        // warm every variant, then time them round-robin so that load from other processes spreads over all
        Map<String, Object> last = new LinkedHashMap<>();
        for (Map.Entry<String, Runner> v : variants.entrySet()) {
            long warm = System.nanoTime();
            for (int w = 0; w < 3 || System.nanoTime() - warm < 1_000_000_000L; w++) {
                last.put(v.getKey(), v.getValue().run());
            }
        }
        Map<String, double[]> samples = new LinkedHashMap<>();
        for (int r = 0; r < repeat; r++) {
            for (Map.Entry<String, Runner> v : variants.entrySet()) {
                long t0 = CPU.getCurrentThreadCpuTime();
                last.put(v.getKey(), v.getValue().run());
                samples.computeIfAbsent(v.getKey(), k -> new double[repeat])[r] =
                        (CPU.getCurrentThreadCpuTime() - t0) / ((double) n * d);
            }
        }
        double[] reference = null;
        double[] clippedReference = null;
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "n = %d, d = %d, %d timed passes after "
                + "warm-up; thread CPU ns per value (median, min)%n", n, d, repeat));
        for (Map.Entry<String, Runner> v : variants.entrySet()) {
            Object result = last.get(v.getKey());
            if (!(result instanceof double[]) && !(result instanceof ColumnMajorSums)) {
                double[] sorted = samples.get(v.getKey()).clone();
                Arrays.sort(sorted);
                table.append(String.format(Locale.ROOT, "| %-48s | %7.2f | %7.2f |%n", v.getKey(), sorted[repeat / 2],
                    sorted[0]));
                continue;
            }
            double[] sums = result instanceof ColumnMajorSums c ? c.rounded() : (double[]) result;
            boolean clipping = v.getKey().startsWith("clip");
            double[] want = clipping ? clippedReference : reference;
            if (want == null) {
                if (clipping) {
                    clippedReference = sums;
                } else {
                    reference = sums;
                }
            } else if (!Arrays.equals(want, sums)) {
                throw new AssertionError(v.getKey() + ": rounded sums differ from the first variant's");
            }
            double[] sorted = samples.get(v.getKey()).clone();
            Arrays.sort(sorted);
            results.put(v.getKey(), new double[] {sorted[repeat / 2], sorted[0]});
            table.append(String.format(Locale.ROOT, "| %-48s | %7.2f | %7.2f |%n", v.getKey(), sorted[repeat / 2],
                    sorted[0]));
        }
        System.out.print(table);
        if (args.length > 3) {
            List<String> rows = new ArrayList<>();
            for (Map.Entry<String, double[]> e : results.entrySet()) {
                rows.add(String.format(Locale.ROOT, "    {\"variant\": \"%s\", \"ns_per_value_median\": %.3f, "
                        + "\"ns_per_value_min\": %.3f}", e.getKey(), e.getValue()[0], e.getValue()[1]));
            }
            Files.writeString(Path.of(args[3]), String.format(Locale.ROOT,
                    "{%n  \"n\": %d, \"d\": %d, \"repeat\": %d, \"java\": \"%s\",%n  \"results\": [%n%s%n  ]%n}%n", n, d,
                    repeat, System.getProperty("java.version"), String.join(",\n", rows)));
        }
    }

    @FunctionalInterface
    private interface Runner {
        Object run();
    }

    @FunctionalInterface
    private interface RowSink {
        void add(double[] data, int off);
    }

    private static void forEachRow(RowBlockMatrix x, RowSink sink) {
        int d = x.cols();
        for (int b = 0; b < x.blockCount(); b++) {
            double[] data = x.block(b);
            for (int r = 0, count = x.blockRowCount(b); r < count; r++) {
                sink.add(data, r * d);
            }
        }
    }

    /** t = s (x - c), s = min(1, C / ||x - c||), as the clipped mean computes it. */
    private static void clip(double[] data, int off, double[] centre, double radius, double[] out) {
        int d = centre.length;
        double norm2 = 0;
        for (int j = 0; j < d; j++) {
            double t = data[off + j] - centre[j];
            out[j] = t;
            norm2 += t * t;
        }
        double scale = norm2 > radius * radius ? radius / Math.sqrt(norm2) : 1.0;
        for (int j = 0; j < d; j++) {
            out[j] = scale * out[j];
        }
    }

    private static RowBlockMatrix clipCopy(RowBlockMatrix x, double[] centre, double radius) {
        int d = x.cols();
        RowBlockMatrix out = RowBlockMatrix.zeros(x.rows(), d);
        double[] row = new double[d];
        for (int i = 0; i < x.rows(); i++) {
            x.copyRow(i, row, 0);
            clip(row, 0, centre, radius, row);
            out.setRow(i, row);
        }
        return out;
    }

    private static RowBlockMatrix data(int n, int d) {
        SplittableRandom r = new SplittableRandom(20261125L);
        RowBlockMatrix x = RowBlockMatrix.zeros(n, d);
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double u = r.nextDouble();
                row[j] = Math.sqrt(-2 * Math.log(u == 0 ? Double.MIN_VALUE : u)) * Math.cos(2 * Math.PI * r.nextDouble())
                        * (1.0 + (double) j / d);
            }
            x.setRow(i, row);
        }
        return x;
    }
}
