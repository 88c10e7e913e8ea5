package org.dpgauss.cpu.openblas;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import org.bytedeco.openblas.global.openblas;

/**
 * Loads bytedeco's bundled OpenBLAS (org.bytedeco:openblas, which carries its own libopenblas, so no system
 * BLAS is needed) once per process, fixes its thread count, and hands out aligned direct buffers.
 *
 * <h2>Thread policy</h2>
 * One policy at a time, never both. Default: OpenBLAS single-threaded (set explicitly with
 * {@code blas_set_num_threads(1)}), and the streamed primitives run fixed groups of row chunks on Java's common
 * pool, each BLAS call on the calling thread. With {@value #THREADS_PROPERTY}{@code =N > 1}: OpenBLAS runs N threads
 * and the Java side runs the same groups one after the other. Measured on the shared 2-core machine: with 2 OpenBLAS
 * threads, primitives that alternate Java work (gathering rows, generating G) with BLAS calls on chunks ran 2-7x
 * slower than with one (OpenBLAS's idle workers spin between calls and compete with the Java thread), hence the
 * default. The groups and their summation order are fixed, so results are bit-identical run to run (checked by
 * {@code OpenBlasDeterminismTest}) and do not depend on the core count.
 *
 * <h2>Memory</h2>
 * BLAS reads {@link DoubleBuffer}s allocated with {@link ByteBuffer#allocateDirect} and aligned to 64 bytes:
 * javacpp passes their address (plus position) to C without a copy. A {@code double[]} passed through javacpp
 * is copied in and out by JNI, which costs more than the BLAS call itself (see bench/README.md, "cpu-native").
 */
public final class NativeBlas {

    /** System property: OpenBLAS threads (default 1: Java runs the work groups in parallel instead). */
    public static final String THREADS_PROPERTY = "dpgauss.openblas.threads";
    /** System property: {@code true} keeps the natives unloaded (the EJML backend is used, with this reason). */
    public static final String DISABLE_PROPERTY = "dpgauss.openblas.disable";

    private static final int ALIGN = 64;

    private static String failure;
    private static int threads;
    private static boolean probed;

    private NativeBlas() {
    }

    /** Null when the natives are loaded and work; otherwise why not (no data involved). */
    public static synchronized String unavailableReason() {
        if (!probed) {
            probed = true;
            failure = load();
        }
        return failure;
    }

    /** True when the OpenBLAS path can run here. */
    public static boolean available() {
        return unavailableReason() == null;
    }

    /** Throws when the natives are not usable (callers check {@link #available()} first). */
    static void require() {
        String why = unavailableReason();
        if (why != null) {
            throw new IllegalStateException("OpenBLAS backend unavailable: " + why);
        }
    }

    /** True when the Java side may run work groups in parallel: OpenBLAS is single-threaded. */
    static boolean javaParallel() {
        return threads() <= 1;
    }

    /** OpenBLAS threads in use (0 before loading). */
    public static synchronized int threads() {
        return threads;
    }

    /** Library and version, for reports. */
    public static String version() {
        require();
        String v = openblas.OPENBLAS_VERSION.trim();
        return v.startsWith("OpenBLAS") ? v : "OpenBLAS " + v;
    }

    private static String load() {
        if (Boolean.getBoolean(DISABLE_PROPERTY)) {
            return "disabled by -D" + DISABLE_PROPERTY + "=true";
        }
        int wanted = 1;
        String p = System.getProperty(THREADS_PROPERTY);
        if (p != null && !p.isBlank()) {
            try {
                wanted = Integer.parseInt(p.trim());
            } catch (NumberFormatException e) {
                return "-D" + THREADS_PROPERTY + "=" + p + " is not an integer";
            }
            if (wanted < 1) {
                return "-D" + THREADS_PROPERTY + "=" + wanted + " must be >= 1";
            }
        }
        try {
            Class.forName("org.bytedeco.openblas.global.openblas", true, NativeBlas.class.getClassLoader());
            openblas.blas_set_num_threads(wanted);
            threads = openblas.blas_get_num_threads();
            // smoke test: a 2 x 2 product through the same path every primitive uses
            DoubleBuffer a = allocate(4);
            a.put(new double[] {1, 2, 3, 4}).clear();
            DoubleBuffer c = allocate(4);
            openblas.cblas_dgemm(openblas.CblasRowMajor, openblas.CblasNoTrans, openblas.CblasNoTrans, 2, 2, 2, 1.0,
                    a, 2, a, 2, 0.0, c, 2);
            if (c.get(0) != 7 || c.get(1) != 10 || c.get(2) != 15 || c.get(3) != 22) {
                return "OpenBLAS loaded but a 2 x 2 product came out wrong";
            }
            return null;
        } catch (LinkageError | RuntimeException | ClassNotFoundException e) {
            String msg = e.getMessage();
            Throwable cause = e.getCause();
            if ((msg == null || msg.isBlank()) && cause != null) {
                msg = cause.toString();
            }
            return "the OpenBLAS natives did not load on " + System.getProperty("os.name") + "/"
                    + System.getProperty("os.arch") + " (" + e.getClass().getSimpleName() + ": " + msg + ")";
        }
    }

    /** A zeroed direct buffer of {@code doubles} values, native order, 64-byte aligned, position 0. */
    public static DoubleBuffer allocate(long doubles) {
        long bytes = doubles * Double.BYTES;
        if (bytes > Integer.MAX_VALUE - ALIGN) {
            throw new IllegalArgumentException(doubles + " doubles exceed one direct buffer; use smaller chunks");
        }
        ByteBuffer raw = ByteBuffer.allocateDirect((int) bytes + ALIGN);
        int skip = (ALIGN - raw.alignmentOffset(0, ALIGN)) % ALIGN;
        raw.position(skip).limit(skip + (int) bytes);
        return raw.slice().order(ByteOrder.nativeOrder()).asDoubleBuffer();
    }

    /**
     * Per-thread scratch buffers reused across calls (allocation and zeroing of direct memory per call would
     * cost as much as a BLAS call on the chunk). {@code slot} picks one of a few independent buffers.
     */
    static DoubleBuffer scratch(int slot, long doubles) {
        if (doubles > MAX_CACHED) {
            return allocate(doubles); // rare and large: not kept alive by the thread
        }
        DoubleBuffer[] mine = SCRATCH.get();
        DoubleBuffer b = mine[slot];
        if (b == null || b.capacity() < doubles) {
            b = allocate(Math.min(MAX_CACHED, Math.max(doubles, b == null ? 0 : b.capacity() + b.capacity() / 2)));
            mine[slot] = b;
        }
        b.clear();
        return b;
    }

    /** A per-thread direct int buffer of at least {@code ints} values, position 0 (LAPACK integer workspace). */
    static java.nio.IntBuffer intScratch(int ints) {
        java.nio.IntBuffer b = INT_SCRATCH.get()[0];
        if (b == null || b.capacity() < ints) {
            ByteBuffer raw = ByteBuffer.allocateDirect(ints * Integer.BYTES + ALIGN);
            int skip = (ALIGN - raw.alignmentOffset(0, ALIGN)) % ALIGN;
            raw.position(skip).limit(skip + ints * Integer.BYTES);
            b = raw.slice().order(ByteOrder.nativeOrder()).asIntBuffer();
            INT_SCRATCH.get()[0] = b;
        }
        b.clear();
        return b;
    }

    /**
     * A per-thread heap array of at least {@code doubles} values with arbitrary contents, for results read back from
     * native memory and consumed within the call: reused, it stays in cache, where a fresh array is zeroed in cold
     * memory (measured 10 us for 80 KB at d = 100 on the default G1 heap). Above {@link #MAX_HEAP_CACHED} a fresh
     * array is returned and not kept.
     */
    static double[] heapScratch(int doubles) {
        if (doubles > MAX_HEAP_CACHED) {
            return new double[doubles];
        }
        double[][] mine = HEAP_SCRATCH.get();
        if (mine[0] == null || mine[0].length < doubles) {
            mine[0] = new double[doubles];
        }
        return mine[0];
    }

    /** Largest heap scratch kept per thread: 2^21 doubles (16 MiB), a 1448 x 1448 matrix. */
    static final int MAX_HEAP_CACHED = 1 << 21;
    private static final ThreadLocal<double[][]> HEAP_SCRATCH = ThreadLocal.withInitial(() -> new double[1][]);

    private static final ThreadLocal<java.nio.IntBuffer[]> INT_SCRATCH =
            ThreadLocal.withInitial(() -> new java.nio.IntBuffer[1]);

    static final int SLOTS = 4;
    /** Largest scratch buffer kept per thread and slot: 2^23 doubles (64 MiB). */
    static final long MAX_CACHED = 1L << 23;
    private static final ThreadLocal<DoubleBuffer[]> SCRATCH = ThreadLocal.withInitial(() -> new DoubleBuffer[SLOTS]);
}
