package org.dpgauss.bench.cpunative;

import static org.bytedeco.openblas.global.openblas.CblasColMajor;
import static org.bytedeco.openblas.global.openblas.CblasNoTrans;
import static org.bytedeco.openblas.global.openblas.CblasUpper;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.bytedeco.openblas.global.openblas;
import org.dpgauss.bench.MachineInfo;
import org.dpgauss.cpu.openblas.NativeBlas;
import org.dpgauss.cpu.openblas.OpenBlasPrimitives;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * Issue 16 item 2, measured: what it costs to get heap row blocks to native BLAS, on the weighted Gram (dsyrk) of
 * an n x d matrix. Variants, all with the same OpenBLAS thread count:
 * <ul>
 *   <li>{@code zero_copy}: dsyrk straight on an off-heap copy made beforehand (the lower bound: data already
 *       off-heap);</li>
 *   <li>{@code streamed}: the shipped path ({@link OpenBlasPrimitives#weightedGram}): each chunk of rows copied into a
 *       reused aligned direct buffer, dsyrk per chunk;</li>
 *   <li>{@code mirror_refresh}: a memcpy of the whole matrix into a cached off-heap mirror (what a per-matrix mirror
 *       costs every time it is invalidated), without the dsyrk;</li>
 *   <li>{@code fresh_buffer}: allocating a new direct buffer and copying the matrix into it (per call), without the
 *       dsyrk;</li>
 *   <li>{@code jni_array}: dsyrk on the {@code double[]} itself (javacpp copies it in and out through JNI).</li>
 * </ul>
 * Usage: {@code OffHeapCopyCost OUT_JSON n d repeat}. Medians of {@code repeat} runs after 3 warm-ups, wall time and
 * the process CPU time (pinned to one core with one BLAS thread: the work, GC and JIT threads included).
 */
public final class OffHeapCopyCost {

    private OffHeapCopyCost() {
    }

    private static double median(double[] v) {
        double[] sorted = v.clone();
        Arrays.sort(sorted);
        return sorted[v.length / 2];
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        int d = Integer.parseInt(args[2]);
        int repeat = Integer.parseInt(args[3]);
        if (NativeBlas.unavailableReason() != null) {
            throw new IllegalStateException(NativeBlas.unavailableReason());
        }
        RowBlockMatrix x = CpuNativeBench.data(n, d);
        double[] heap = new double[n * d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, heap, i * d);
        }
        DoubleBuffer offHeap = NativeBlas.allocate((long) n * d);
        offHeap.put(0, heap);
        DoubleBuffer c = NativeBlas.allocate((long) d * d);
        double[] heapC = new double[d * d];
        Map<String, Runnable> variants = new LinkedHashMap<>();
        variants.put("zero_copy", () -> openblas.cblas_dsyrk(CblasColMajor, CblasUpper, CblasNoTrans, d, n, 1.0,
                offHeap, d, 0.0, c, d));
        variants.put("streamed", () -> OpenBlasPrimitives.weightedGram(x, null, null, n));
        variants.put("mirror_refresh", () -> offHeap.put(0, heap));
        variants.put("fresh_buffer", () -> ByteBuffer.allocateDirect(n * d * Double.BYTES)
                .order(ByteOrder.nativeOrder()).asDoubleBuffer().put(0, heap));
        variants.put("jni_array", () -> openblas.cblas_dsyrk(CblasColMajor, CblasUpper, CblasNoTrans, d, n, 1.0,
                heap, d, 0.0, heapC, d));
        Map<String, Object> med = new LinkedHashMap<>();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        for (Map.Entry<String, Runnable> v : variants.entrySet()) {
            for (int w = 0; w < 3; w++) {
                v.getValue().run();
            }
            double[] s = new double[repeat];
            double[] cpu = new double[repeat];
            for (int r = 0; r < repeat; r++) {
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                v.getValue().run();
                s[r] = (System.nanoTime() - t0) / 1e9;
                cpu[r] = (os.getProcessCpuTime() - c0) / 1e9;
            }
            double wall = median(s);
            double work = median(cpu);
            med.put(v.getKey(), Map.of("seconds", s, "median_seconds", wall, "cpu_seconds", cpu,
                    "median_cpu_seconds", work));
            System.err.printf(Locale.ROOT, "%-15s n=%d d=%d median %.4f s wall, %.4f s CPU%n", v.getKey(), n, d, wall,
                    work);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("what", "cost of moving heap row blocks to native BLAS, on dsyrk (issue 16 item 2)");
        result.put("n", n);
        result.put("d", d);
        result.put("repeat", repeat);
        result.put("openblas_threads", NativeBlas.threads());
        result.put("machine", MachineInfo.describe());
        result.put("times", med);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), result);
    }
}
