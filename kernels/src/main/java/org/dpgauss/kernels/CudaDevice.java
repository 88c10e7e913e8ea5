package org.dpgauss.kernels;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;

/**
 * The CUDA device as dpgauss uses it: one device's primary context (so vendor libraries share it),
 * made current on one owning thread that performs every driver call; one stream; a reusable pool of
 * device memory; two pinned staging buffers for asynchronous uploads; the kernel modules loaded from
 * the classpath fatbins. Public methods take plain arrays and run their work on the owning thread.
 *
 * <p>Failure policy: a driver error becomes a {@link CudaFailure} whose message names the call and a
 * remedy. After any failure other than out-of-memory the device is marked unusable for the rest of
 * the process (a failed launch leaves the context sticky-broken) and later calls fail fast with the
 * first reason, so callers can fall back to the CPU. Out-of-memory leaves the device usable.
 */
public final class CudaDevice implements AutoCloseable {

    /** The modules (one fatbin per CUDA source) and the kernels each one provides. */
    static final String[][] MODULES = {
        {"weighted_gram", "dp_weighted_gram", "dp_fold_partials"},
        {"whitening", "dp_whiten"},
        {"mahalanobis_norms", "dp_row_squared_norms"},
        {"reference_distances", "dp_largest_reference_distances"},
        {"neighbour_counts", "dp_neighbour_counts"},
        {"gaussian_projection", "dp_projection_cross", "dp_projection_fold_partials",
            "dp_projection_normals_chacha20", "dp_projection_normals_philox"},
        {"largest_good_subset_peeling", "dp_peel_verdicts"},
        {"counter_rng", "dp_chacha20_normals", "dp_philox_normals"},
    };

    /** Bytes per pinned staging buffer (two of them alternate). */
    static final int STAGE_BYTES = 8 << 20;
    /**
     * Rows per chunk of the cross products (weighted Gram, projection): fixed, so the summation order, and
     * the result, do not depend on the row blocks (see dp_common.cuh).
     */
    static final long CHUNK_ROWS = 512;
    /** Generated normals per projection sub-block (doubles). */
    static final long NORMALS_DOUBLES = 16L << 20;
    /** Per-launch output budget of the reference-distance kernel (doubles). */
    static final long DISTANCE_DOUBLES = 32L << 20;

    /** The open devices by ordinal (device 0 unless a cluster scheduler assigns another). */
    private static final Map<Integer, CudaDevice> SHARED = new HashMap<>();

    private final ExecutorService owner;
    private final String description;
    private volatile boolean closed;
    private volatile String brokenReason;

    // owning-thread state
    private CUdevice dev;
    private CUstream stream;
    /** Second stream: resident rows are uploaded on it while kernels on {@link #stream} work on earlier blocks. */
    private CUstream copyStream;
    private final Map<String, CUfunction> functions = new HashMap<>();
    private final Map<String, CUmodule> modules = new HashMap<>();
    private DevicePool pool;
    private final Pointer[] stage = new Pointer[2];
    private final ByteBuffer[] stageView = new ByteBuffer[2];
    private final CUevent[] stageFree = new CUevent[2];
    private final boolean[] stageUsed = new boolean[2];
    private int stageNext;
    private DenseSolver solver;
    private String solverReason;
    private String solverPassedOver;
    private boolean solverTried;
    private DenseBlas blas;
    private String blasReason;
    private boolean blasTried;
    private final CUevent[] timing = new CUevent[2];
    private volatile double lastDeviceSeconds = Double.NaN;
    private volatile double totalDeviceSeconds;

    /** Rows per fixed chunk of the vendor (cuBLAS) paths: sums run chunk by chunk in global row order. */
    static final long VENDOR_CHUNK_ROWS = 1L << 16;

    /** The process-wide device 0 (opened on first use). */
    public static CudaDevice shared() {
        return shared(0);
    }

    /**
     * The process-wide device of that ordinal (opened on first use; each device has its own context, stream and
     * owning thread).
     */
    public static synchronized CudaDevice shared(int ordinal) {
        if (ordinal < 0) {
            throw new IllegalArgumentException("CUDA device " + ordinal + ": device ordinals are 0 or more");
        }
        CudaDevice d = SHARED.get(ordinal);
        if (d == null || d.closed || d.brokenReason != null) {
            d = new CudaDevice(ordinal);
            SHARED.put(ordinal, d);
        }
        return d;
    }

    private CudaDevice(int ordinal) {
        owner = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "dpgauss-cuda");
            t.setDaemon(true);
            return t;
        });
        try {
            description = submit("open CUDA device " + ordinal, () -> open(ordinal));
        } catch (RuntimeException e) {
            owner.shutdownNow();
            throw e;
        }
    }

    private String open(int ordinal) {
        Object[] opened = DriverCalls.openPrimaryContext(ordinal);
        dev = (CUdevice) opened[0];
        CUcontext ctx = (CUcontext) opened[1];
        if (ctx == null) {
            throw new CudaFailure("no primary context", "DPGAUSS_NO_CONTEXT", null);
        }
        for (String[] m : MODULES) {
            byte[] image = fatbin(m[0]);
            CUmodule module = DriverCalls.loadModule(m[0], image);
            modules.put(m[0], module);
            for (int k = 1; k < m.length; k++) {
                functions.put(m[k], DriverCalls.function(module, m[k]));
            }
        }
        stream = DriverCalls.createStream();
        copyStream = DriverCalls.createStream();
        long[] mem = DriverCalls.memInfo();
        pool = new DevicePool(Math.max(64L << 20, mem[1] / 8));
        for (int s = 0; s < 2; s++) {
            stage[s] = DriverCalls.allocPinned(STAGE_BYTES);
            stageView[s] = DriverCalls.pinnedView(stage[s], STAGE_BYTES);
            stageFree[s] = DriverCalls.createEvent();
        }
        timing[0] = DriverCalls.createEvent();
        timing[1] = DriverCalls.createEvent();
        return (String) opened[2] + ", " + (mem[1] >> 20) + " MiB";
    }

    static byte[] fatbin(String module) {
        try (InputStream in = CudaDevice.class.getResourceAsStream(CudaProbe.FATBIN_DIR + module + ".fatbin")) {
            if (in == null) {
                throw new CudaFailure("kernel image " + module + ".fatbin is not in this build (nvcc was absent when "
                        + "it was built): rebuild on a machine with the CUDA toolkit, or use --engine cpu",
                        "DPGAUSS_NO_KERNELS", null);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new CudaFailure("cannot read " + module + ".fatbin: " + e.getMessage(), "DPGAUSS_NO_KERNELS", e);
        }
    }

    /** Device name, compute capability, driver API version and memory. */
    public String description() {
        return description;
    }

    /**
     * Device time of the last completed operation (CUDA events on the stream around its work: its uploads,
     * kernels, vendor calls and downloads, not the host's preparation), in seconds; NaN before the first.
     */
    public double lastDeviceSeconds() {
        return lastDeviceSeconds;
    }

    /**
     * Sum of {@link #lastDeviceSeconds()} over every operation so far: the device time of a call made of several
     * operations (LargestGoodSubset's rounds) is the difference of two readings.
     */
    public double totalDeviceSeconds() {
        return totalDeviceSeconds;
    }

    /** Null while usable; otherwise why the device was given up. */
    public String brokenReason() {
        return brokenReason;
    }

    // ---------- owning thread ----------------------------------------------------------------------

    private <T> T submit(String what, Callable<T> work) {
        Future<T> f = owner.submit(work);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CudaFailure(what + ": interrupted while the device was working", "DPGAUSS_INTERRUPTED", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof CudaFailure) {
                CudaFailure cf = (CudaFailure) c;
                if (!cf.isOutOfMemory()) {
                    brokenReason = cf.getMessage();
                }
                throw cf;
            }
            if (c instanceof RuntimeException) {
                throw (RuntimeException) c;
            }
            if (c instanceof Error) {
                brokenReason = what + ": " + c;
                throw new CudaFailure(what + " failed: " + c + "; use --engine cpu", "DPGAUSS_NATIVE_ERROR", c);
            }
            throw new CudaFailure(what + " failed: " + c, "DPGAUSS_UNEXPECTED", c);
        }
    }

    private <T> T onOwner(String what, Callable<T> work) {
        if (closed) {
            throw new IllegalStateException("the CUDA device was closed");
        }
        String broken = brokenReason;
        if (broken != null) {
            throw new CudaFailure("the CUDA device is unusable after an earlier failure (" + broken + ")",
                    "DPGAUSS_DEVICE_LOST", null);
        }
        return submit(what, () -> {
            pool.beginScope();
            try {
                DriverCalls.record(timing[0], stream);
                T result = work.call();
                DriverCalls.record(timing[1], stream);
                // the compute stream is idle at the end of every operation: buffers given back to the pool during
                // it can be reused by the next one on either stream (the copy stream's uploads rely on this)
                DriverCalls.waitFor(timing[1]);
                lastDeviceSeconds = DriverCalls.elapsedSeconds(timing[0], timing[1]);
                totalDeviceSeconds += lastDeviceSeconds; // owning thread only writes it
                pool.endScope(false);
                return result;
            } catch (Throwable t) {
                pool.endScope(true);
                throw t;
            }
        });
    }

    DevicePool pool() {
        return pool;
    }

    // ---------- transfers (owning thread) ----------------------------------------------------------

    /** Uploads doubles through the pinned staging buffers (asynchronous, ordered on the compute stream). */
    private void uploadDoubles(CUdeviceptr dst, double[] src, int off, int len) {
        uploadDoubles(dst, src, off, len, stream);
    }

    /** Uploads doubles through the pinned staging buffers, asynchronous and ordered on {@code on}. */
    private void uploadDoubles(CUdeviceptr dst, double[] src, int off, int len, CUstream on) {
        int per = STAGE_BYTES / 8;
        for (int done = 0; done < len; done += per) {
            int n = Math.min(per, len - done);
            int s = acquireStage();
            ByteBuffer bb = stageView[s];
            bb.clear();
            bb.asDoubleBuffer().put(src, off + done, n);
            DriverCalls.copyToDeviceAsync(dst.withByteOffset((long) done * 8), stage[s], (long) n * 8, on);
            releaseStage(s, on);
        }
    }

    private void uploadInts(CUdeviceptr dst, int[] src) {
        int per = STAGE_BYTES / 4;
        for (int done = 0; done < src.length; done += per) {
            int n = Math.min(per, src.length - done);
            int s = acquireStage();
            ByteBuffer bb = stageView[s];
            bb.clear();
            bb.asIntBuffer().put(src, done, n);
            DriverCalls.copyToDeviceAsync(dst.withByteOffset((long) done * 4), stage[s], (long) n * 4, stream);
            releaseStage(s, stream);
        }
    }

    private int acquireStage() {
        int s = stageNext;
        stageNext = 1 - s;
        if (stageUsed[s]) {
            DriverCalls.waitFor(stageFree[s]); // the copy that last read this buffer is done
        }
        return s;
    }

    private void releaseStage(int s, CUstream on) {
        DriverCalls.record(stageFree[s], on);
        stageUsed[s] = true;
    }

    DevicePool.Buffer uploadBlock(HostRows host, int b) {
        long bytes = (long) host.blockRowCount(b) * host.cols() * 8;
        DevicePool.Buffer buf = pool.takeOwned(bytes);
        uploadInto(buf.ptr, host, b);
        return buf;
    }

    void uploadInto(CUdeviceptr dst, HostRows host, int b) {
        uploadDoubles(dst, host.block(b), 0, host.blockRowCount(b) * host.cols());
    }

    /**
     * Block b uploaded on the copy stream; the returned event completes with it (the compute stream waits on it
     * with {@link #computeWaits} before a kernel reads the block).
     */
    CUevent uploadIntoOverlapped(CUdeviceptr dst, HostRows host, int b) {
        uploadDoubles(dst, host.block(b), 0, host.blockRowCount(b) * host.cols(), copyStream);
        CUevent done = DriverCalls.createEvent();
        DriverCalls.record(done, copyStream);
        return done;
    }

    void computeWaits(CUevent e) {
        DriverCalls.streamWait(stream, e);
    }

    /** Blocks the owning thread until every upload issued on the copy stream is done. */
    void copiesDone() {
        DriverCalls.synchronize(copyStream);
    }

    private DevicePool.Buffer upload(double[] a) {
        DevicePool.Buffer buf = pool.take((long) a.length * 8);
        uploadDoubles(buf.ptr, a, 0, a.length);
        return buf;
    }

    /** A secret (the ChaCha20 key): copied synchronously from the Java array, never through the staging buffers. */
    private DevicePool.Buffer uploadSecret(int[] a) {
        DevicePool.Buffer buf = pool.take((long) a.length * 4);
        DriverCalls.synchronize(stream);
        DriverCalls.copyToDevice(buf.ptr, Pointer.to(a), (long) a.length * 4);
        return buf;
    }

    /** Overwrites a secret on the device before its buffer goes back to the pool. */
    private void scrub(DevicePool.Buffer secret) {
        if (secret != null) {
            DriverCalls.zero32(secret.ptr, secret.bytes / 4, stream);
            DriverCalls.synchronize(stream);
            pool.give(secret);
        }
    }

    private DevicePool.Buffer upload(int[] a) {
        DevicePool.Buffer buf = pool.take((long) a.length * 4);
        uploadInts(buf.ptr, a);
        return buf;
    }

    private void download(double[] dst, int off, CUdeviceptr src, long count) {
        DriverCalls.synchronize(stream);
        DriverCalls.copyToHost(Pointer.to(dst).withByteOffset((long) off * 8), src, count * 8);
    }

    private void download(int[] dst, int off, CUdeviceptr src, long count) {
        DriverCalls.synchronize(stream);
        DriverCalls.copyToHost(Pointer.to(dst).withByteOffset((long) off * 4), src, count * 4);
    }

    private void download(byte[] dst, CUdeviceptr src, long count) {
        DriverCalls.synchronize(stream);
        DriverCalls.copyToHost(Pointer.to(dst), src, count);
    }

    private void launch(String kernel, int gx, int gy, int gz, int bx, int by, Pointer params) {
        DriverCalls.launch(kernel, functions.get(kernel), gx, gy, gz, bx, by, 1, stream, params);
    }

    private static Pointer ptr(CUdeviceptr p) {
        return Pointer.to(p == null ? new CUdeviceptr() : p);
    }

    private static Pointer ptr(DevicePool.Buffer b) {
        return ptr(b == null ? null : b.ptr);
    }

    private static Pointer i32(int v) {
        return Pointer.to(new int[] {v});
    }

    private static Pointer i64(long v) {
        return Pointer.to(new long[] {v});
    }

    private static Pointer f64(double v) {
        return Pointer.to(new double[] {v});
    }

    private static int gridFor(long work, int perBlock) {
        return (int) Math.max(1, Math.min(65535, (work + perBlock - 1) / perBlock));
    }

    private void give(DevicePool.Buffer... buffers) {
        for (DevicePool.Buffer b : buffers) {
            pool.give(b);
        }
    }

    // ---------- data residency -----------------------------------------------------------------------

    /**
     * Content fingerprint of host rows (a 64-bit hash of every value's bits, in parallel over blocks), so a
     * cached device copy is reused only for unchanged data.
     */
    public static long fingerprint(HostRows h) {
        int d = h.cols();
        long[] parts = IntStream.range(0, h.blockCount()).parallel().mapToLong(b -> {
            double[] a = h.block(b);
            int len = h.blockRowCount(b) * d;
            long x = 0x9E3779B97F4A7C15L * (b + 1);
            for (int k = 0; k < len; k++) {
                x = (x ^ Double.doubleToRawLongBits(a[k])) * 0xBF58476D1CE4E5B9L;
                x ^= x >>> 31;
            }
            return x;
        }).toArray();
        long h64 = ((long) h.rows() << 32) ^ d;
        for (long p : parts) {
            h64 = (h64 ^ p) * 0x94D049BB133111EBL;
            h64 ^= h64 >>> 29;
        }
        return h64;
    }

    /**
     * Makes host rows available on the device: resident when they fit in {@code maxResidentBytes} and in
     * 60% of the free device memory, else streamed block by block.
     */
    public DeviceRows upload(HostRows host, long maxResidentBytes, boolean withFingerprint) {
        return upload(host, maxResidentBytes, withFingerprint, false);
    }

    /**
     * As {@link #upload(HostRows, long, boolean)}; with {@code overlapped}, resident rows are not uploaded now but
     * block by block on a second stream as the first kernels ask for them, each kernel waiting (on the device)
     * for its block only, so the first primitive's transfers overlap its compute.
     */
    public DeviceRows upload(HostRows host, long maxResidentBytes, boolean withFingerprint, boolean overlapped) {
        long fp = withFingerprint ? fingerprint(host) : 0;
        return onOwner("upload rows", () -> {
            long bytes = (long) host.rows() * host.cols() * 8;
            long free = DriverCalls.memInfo()[0] + pool.cachedBytes();
            boolean resident = bytes <= maxResidentBytes && bytes <= (long) (0.6 * free);
            DeviceRows rows = new DeviceRows(this, host, resident, fp, overlapped);
            if (resident) {
                try {
                    rows.uploadAll();
                } catch (RuntimeException e) {
                    rows.release(); // blocks uploaded so far go back to the pool
                    throw e;
                }
            }
            return rows;
        });
    }

    void release(DeviceRows rows) {
        if (closed || brokenReason != null) {
            return;
        }
        onOwner("release rows", () -> {
            rows.release();
            return null;
        });
    }

    // ---------- primitives ---------------------------------------------------------------------------

    private static int count(DeviceRows y, int[][] localRows, int b) {
        return localRows == null || localRows[b] == null ? y.blockRowCount(b) : localRows[b].length;
    }

    /** Builds the kernel arguments of one chunked cross-product launch. */
    private interface CrossParams {
        Pointer make(long first, long chunkBase, DevicePool.Buffer init0, DevicePool.Buffer partial);
    }

    /**
     * A sum over rows in fixed global chunks of {@link #CHUNK_ROWS} (owning thread): each launch sums its
     * chunks row by row, the chunk still open at its end is carried into the next launch, and finished
     * chunks are folded into the total in chunk order.
     */
    private final class ChunkedSum {
        final long len;
        final String fold;
        final DevicePool.Buffer total;
        DevicePool.Buffer carry;
        boolean carrying;
        long position;

        ChunkedSum(long len, String fold) {
            this.len = len;
            this.fold = fold;
            total = pool.take(len * 8);
            DriverCalls.zero32(total.ptr, len * 2, stream);
        }

        void launch(String kernel, int gx, int gy, long count, CrossParams params) {
            if (count == 0) {
                return;
            }
            long first = position;
            long chunkBase = first / CHUNK_ROWS;
            int chunks = (int) ((first + count - 1) / CHUNK_ROWS - chunkBase + 1);
            if (chunks > 65535) {
                throw new IllegalArgumentException("too many rows in one launch: " + count);
            }
            DevicePool.Buffer partial = pool.take(chunks * len * 8);
            CudaDevice.this.launch(kernel, gx, gy, chunks, 16, 16,
                    params.make(first, chunkBase, carrying ? carry : null, partial));
            boolean open = (first + count) % CHUNK_ROWS != 0;
            int finished = open ? chunks - 1 : chunks;
            if (finished > 0) {
                foldInto(partial, finished);
            }
            if (open) {
                if (carry == null) {
                    carry = pool.take(len * 8);
                }
                DriverCalls.copyDeviceAsync(carry.ptr, partial.ptr.withByteOffset((long) (chunks - 1) * len * 8),
                        len * 8, stream);
            }
            carrying = open;
            position += count;
            give(partial); // later work on the stream is ordered after the kernels that read it
        }

        private void foldInto(DevicePool.Buffer partial, int chunks) {
            CudaDevice.this.launch(fold, gridFor(len, 256), 1, 1, 256, 1,
                    Pointer.to(ptr(partial), i32(chunks), i64(len), ptr(total)));
        }

        double[] finish() {
            if (carrying) {
                foldInto(carry, 1);
                carrying = false;
            }
            double[] out = new double[(int) len];
            download(out, 0, total.ptr, len);
            give(total, carry);
            return out;
        }
    }

    /**
     * {@code sum_k w_k y_k y_k^T} over the listed rows of every block (localRows[b]: indices within block b,
     * null: all its rows; localWeights[b]: w aligned with that list, null: ones). Blocks are added in
     * order; the d x d result (row-major) is exactly symmetric. The caller scales by 1/m.
     */
    public double[] weightedGram(DeviceRows y, int[][] localRows, double[][] localWeights) {
        return onOwner("weighted Gram", () -> {
            int d = y.cols;
            int tiles = (d + 15) / 16;
            ChunkedSum sum = new ChunkedSum((long) d * d, "dp_fold_partials");
            for (int b = 0; b < y.blockCount(); b++) {
                int count = count(y, localRows, b);
                if (count == 0) {
                    continue;
                }
                CUdeviceptr data = y.block(b);
                DevicePool.Buffer rows = localRows == null || localRows[b] == null ? null : upload(localRows[b]);
                DevicePool.Buffer w = localWeights == null || localWeights[b] == null ? null : upload(localWeights[b]);
                sum.launch("dp_weighted_gram", tiles, tiles, count, (first, base, init0, partial) -> Pointer.to(
                        ptr(data), i32(d), ptr(rows), ptr(w), i64(count), i64(first), i64(CHUNK_ROWS), i64(base),
                        ptr(init0), ptr(partial)));
                give(rows, w);
            }
            double[] total = sum.finish();
            for (int p = 0; p < d; p++) { // the kernel computes the lower triangle (tiles p >= q)
                for (int q = 0; q < p; q++) {
                    total[q * d + p] = total[p * d + q];
                }
            }
            return total;
        });
    }

    /**
     * Whitens the listed rows: {@code z_k = M x_k} with {@code M = L^{-1}} (d x d, row-major, lower).
     * Returns per block either the whitened rows (count x d) or, with {@code normsOnly}, their squared
     * norms (count).
     */
    public double[][] whiten(DeviceRows x, double[] inverseFactor, int[][] localRows, boolean normsOnly) {
        return onOwner(normsOnly ? "Mahalanobis norms" : "whitening", () -> {
            int d = x.cols;
            double[][] result = new double[x.blockCount()][];
            DevicePool.Buffer m = upload(inverseFactor);
            try {
                for (int b = 0; b < x.blockCount(); b++) {
                    int count = count(x, localRows, b);
                    result[b] = new double[normsOnly ? count : count * d];
                    if (count == 0) {
                        continue;
                    }
                    CUdeviceptr data = x.block(b);
                    DevicePool.Buffer rows = localRows == null || localRows[b] == null ? null : upload(localRows[b]);
                    DevicePool.Buffer z = pool.take((long) count * d * 8);
                    whitenInto(data, d, rows, count, m, z);
                    if (normsOnly) {
                        DevicePool.Buffer q = pool.take((long) count * 8);
                        launch("dp_row_squared_norms", gridFor(count, 256), 1, 1, 256, 1,
                                Pointer.to(ptr(z), i32(d), i64(count), ptr(q)));
                        download(result[b], 0, q.ptr, count);
                        give(q);
                    } else {
                        download(result[b], 0, z.ptr, (long) count * d);
                    }
                    give(rows, z);
                }
            } finally {
                give(m);
            }
            return result;
        });
    }

    private void whitenInto(CUdeviceptr data, int d, DevicePool.Buffer rows, long count, DevicePool.Buffer m,
            DevicePool.Buffer z) {
        long rowTiles = (count + 15) / 16;
        if (rowTiles > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many rows in one block: " + count);
        }
        launch("dp_whiten", (int) rowTiles, (d + 15) / 16, 1, 16, 16,
                Pointer.to(ptr(data), i32(d), ptr(rows), i64(count), ptr(m), ptr(z)));
    }

    /**
     * One peeling round on the device: norms of the listed rows w.r.t. {@code M = L^{-1}} turned into
     * verdict bytes (0 keep, 1 remove, 2 undecided; see largest_good_subset_peeling.cu), per block.
     */
    public byte[][] peelVerdicts(DeviceRows y, double[] inverseFactor, int[][] localRows, double lo, double hi) {
        return onOwner("LargestGoodSubset round", () -> {
            int d = y.cols;
            byte[][] result = new byte[y.blockCount()][];
            DevicePool.Buffer m = upload(inverseFactor);
            DevicePool.Buffer counters = pool.take(8);
            try {
                for (int b = 0; b < y.blockCount(); b++) {
                    int count = count(y, localRows, b);
                    result[b] = new byte[count];
                    if (count == 0) {
                        continue;
                    }
                    CUdeviceptr data = y.block(b);
                    DevicePool.Buffer rows = localRows == null || localRows[b] == null ? null : upload(localRows[b]);
                    DevicePool.Buffer z = pool.take((long) count * d * 8);
                    DevicePool.Buffer q = pool.take((long) count * 8);
                    DevicePool.Buffer v = pool.take(count);
                    whitenInto(data, d, rows, count, m, z);
                    launch("dp_row_squared_norms", gridFor(count, 256), 1, 1, 256, 1,
                            Pointer.to(ptr(z), i32(d), i64(count), ptr(q)));
                    DriverCalls.zero32(counters.ptr, 2, stream);
                    launch("dp_peel_verdicts", gridFor(count, 256), 1, 1, 256, 1,
                            Pointer.to(ptr(q), i64(count), f64(lo), f64(hi), ptr(v), ptr(counters)));
                    download(result[b], v.ptr, count);
                    give(rows, z, q, v);
                }
            } finally {
                give(m, counters);
            }
            return result;
        });
    }

    /**
     * For every row the {@code keep} largest squared distances to the reference rows (|R| x d, row-major),
     * descending; per block a count x keep array.
     */
    public double[][] largestReferenceDistances(DeviceRows x, double[] reference, int refRows, int keep) {
        return onOwner("reference distances", () -> {
            int d = x.cols;
            double[][] result = new double[x.blockCount()][];
            DevicePool.Buffer ref = upload(reference);
            try {
                for (int b = 0; b < x.blockCount(); b++) {
                    int count = x.blockRowCount(b);
                    result[b] = new double[count * keep];
                    long per = Math.max(1, DISTANCE_DOUBLES / keep);
                    for (long from = 0; from < count; from += per) {
                        long n = Math.min(per, count - from);
                        CUdeviceptr data = x.block(b).withByteOffset(from * d * 8);
                        DevicePool.Buffer out = pool.take(n * keep * 8);
                        launch("dp_largest_reference_distances", gridFor(n, 128), 1, 1, 128, 1,
                                Pointer.to(ptr(data), i64(n), i32(d), ptr(ref), i32(refRows), i32(keep), ptr(out)));
                        download(result[b], (int) (from * keep), out.ptr, n * keep);
                        give(out);
                    }
                }
            } finally {
                give(ref);
            }
            return result;
        });
    }

    /** {@code c_i = #{k : ||x_i - x_k||^2 <= r2}} over all pairs of blocks. */
    public int[] neighbourCounts(DeviceRows x, double r2) {
        return onOwner("neighbour counts", () -> {
            int d = x.cols;
            int[] counts = new int[x.rows];
            long maxK = 65535L * 64;
            for (int bi = 0; bi < x.blockCount(); bi++) {
                int ni = x.blockRowCount(bi);
                DevicePool.Buffer c = pool.take((long) ni * 4);
                DriverCalls.zero32(c.ptr, ni, stream);
                for (int bk = 0; bk < x.blockCount(); bk++) {
                    CUdeviceptr xi = x.block(bi); // refreshes bi's slot before bk may evict another
                    CUdeviceptr xk = x.block(bk);
                    int nk = x.blockRowCount(bk);
                    for (long k0 = 0; k0 < nk; k0 += maxK) {
                        long nks = Math.min(maxK, nk - k0);
                        launch("dp_neighbour_counts", (ni + 63) / 64, (int) ((nks + 63) / 64), 1, 16, 16,
                                Pointer.to(ptr(xi), i64(ni), ptr(xk.withByteOffset(k0 * d * 8)), i64(nks), i32(d),
                                        f64(r2), ptr(c)));
                    }
                }
                download(counts, x.blockStart(bi), c.ptr, ni);
                give(c);
            }
            return counts;
        });
    }

    /**
     * Gaussian random projection {@code X^T G} (d x r, row-major), {@code G_ij = normal(first + i*r + j)} of
     * ChaCha20 (key8 != null: 8 key words, stream) or Philox4x32-10 (philoxKey, stream), generated on the
     * device in sub-blocks of rows.
     */
    public double[] gaussianProjection(DeviceRows x, int r, int[] key8, long philoxKey, long streamId, long first) {
        return onOwner("Gaussian projection", () -> {
            int d = x.cols;
            long sub = Math.max(1, NORMALS_DOUBLES / r);
            DevicePool.Buffer key = key8 == null ? null : uploadSecret(key8);
            try {
                ChunkedSum sum = new ChunkedSum((long) d * r, "dp_projection_fold_partials");
                for (int b = 0; b < x.blockCount(); b++) {
                    int count = x.blockRowCount(b);
                    for (long s0 = 0; s0 < count; s0 += sub) {
                        long ns = Math.min(sub, count - s0);
                        long nG = ns * r;
                        long start = first + ((long) x.blockStart(b) + s0) * r;
                        DevicePool.Buffer g = pool.take(nG * 8);
                        if (key8 != null) {
                            launch("dp_projection_normals_chacha20", gridFor((nG + 7) / 8 + 1, 256), 1, 1, 256, 1,
                                    Pointer.to(ptr(key), i64(streamId), i64(start), ptr(g), i64(nG)));
                        } else {
                            launch("dp_projection_normals_philox", gridFor((nG + 1) / 2 + 1, 256), 1, 1, 256, 1,
                                    Pointer.to(i64(philoxKey), i64(streamId), i64(start), ptr(g), i64(nG)));
                        }
                        CUdeviceptr data = x.block(b).withByteOffset(s0 * d * 8);
                        sum.launch("dp_projection_cross", (r + 15) / 16, (d + 15) / 16, ns,
                                (firstRow, base, init0, partial) -> Pointer.to(ptr(data), i32(d), ptr(g), i32(r),
                                        i64(ns), i64(firstRow), i64(CHUNK_ROWS), i64(base), ptr(init0), ptr(partial)));
                        give(g);
                    }
                }
                return sum.finish();
            } finally {
                scrub(key);
            }
        });
    }

    /** Fills {@code out} with normals {@code start .. start+out.length-1} of a generator (parity checks). */
    public double[] normals(int[] key8, long philoxKey, long streamId, long start, int n) {
        return onOwner("normals", () -> {
            double[] out = new double[n];
            DevicePool.Buffer key = key8 == null ? null : uploadSecret(key8);
            DevicePool.Buffer g = pool.take((long) n * 8);
            if (key8 != null) {
                launch("dp_chacha20_normals", gridFor(n / 8 + 1, 256), 1, 1, 256, 1,
                        Pointer.to(ptr(key), i64(streamId), i64(start), ptr(g), i64(n)));
            } else {
                launch("dp_philox_normals", gridFor(n / 2 + 1, 256), 1, 1, 256, 1,
                        Pointer.to(i64(philoxKey), i64(streamId), i64(start), ptr(g), i64(n)));
            }
            download(out, 0, g.ptr, n);
            give(g);
            scrub(key);
            return out;
        });
    }

    // ---------- vendor (cuBLAS) paths on resident rows ------------------------------------------------

    private DenseBlas requireBlas(DeviceRows x) {
        if (!ensureBlas()) {
            throw new IllegalStateException("cuBLAS unavailable: " + blasReason);
        }
        if (!x.resident) {
            throw new IllegalStateException("the cuBLAS paths need resident rows");
        }
        return blas;
    }

    /**
     * {@code sum_k y_k y_k^T} over all rows with cuBLAS DSYRK, in fixed chunks of {@link #VENDOR_CHUNK_ROWS}
     * rows accumulated in row order (so the result does not depend on the host blocking); d x d row-major,
     * exactly symmetric. Resident rows only.
     */
    public double[] gramVendor(DeviceRows y) {
        return onOwner("weighted Gram (cuBLAS)", () -> {
            DenseBlas b = requireBlas(y);
            int d = y.cols;
            DevicePool.Buffer c = pool.take((long) d * d * 8);
            long cAt = Handles.address(c.ptr);
            DriverCalls.zero32(c.ptr, (long) d * d * 2, stream);
            for (long s0 = 0; s0 < y.rows; s0 += VENDOR_CHUNK_ROWS) {
                int k = (int) Math.min(VENDOR_CHUNK_ROWS, y.rows - s0);
                y.ready(s0, s0 + k);
                // row-major rows are column-major d x k (lda d): C = A A^T, upper (col-major) = row-major lower
                b.syrk(true, false, d, k, 1.0, y.address(s0), d, 1.0, cAt, d);
            }
            double[] total = new double[d * d];
            download(total, 0, c.ptr, (long) d * d);
            give(c);
            for (int p = 0; p < d; p++) {
                for (int q = 0; q < p; q++) {
                    total[q * d + p] = total[p * d + q];
                }
            }
            return total;
        });
    }

    /**
     * Gaussian projection {@code X^T G} (d x r, row-major) with the normals generated on the device (as
     * {@link #gaussianProjection}) and the product by cuBLAS DGEMM, in fixed row chunks accumulated in row order.
     */
    public double[] gaussianProjectionVendor(DeviceRows x, int r, int[] key8, long philoxKey, long streamId,
            long first) {
        return onOwner("Gaussian projection (cuBLAS)", () -> {
            DenseBlas b = requireBlas(x);
            int d = x.cols;
            long chunk = Math.max(CHUNK_ROWS, Math.min(VENDOR_CHUNK_ROWS, NORMALS_DOUBLES / r));
            DevicePool.Buffer key = key8 == null ? null : uploadSecret(key8);
            DevicePool.Buffer c = pool.take((long) d * r * 8);
            DevicePool.Buffer g = pool.take(Math.min(chunk, x.rows) * r * 8);
            try {
                DriverCalls.zero32(c.ptr, (long) d * r * 2, stream);
                long cAt = Handles.address(c.ptr);
                long gAt = Handles.address(g.ptr);
                for (long s0 = 0; s0 < x.rows; s0 += chunk) {
                    long ns = Math.min(chunk, x.rows - s0);
                    long nG = ns * r;
                    long start = first + s0 * r;
                    if (key8 != null) {
                        launch("dp_projection_normals_chacha20", gridFor((nG + 7) / 8 + 1, 256), 1, 1, 256, 1,
                                Pointer.to(ptr(key), i64(streamId), i64(start), ptr(g), i64(nG)));
                    } else {
                        launch("dp_projection_normals_philox", gridFor((nG + 1) / 2 + 1, 256), 1, 1, 256, 1,
                                Pointer.to(i64(philoxKey), i64(streamId), i64(start), ptr(g), i64(nG)));
                    }
                    x.ready(s0, s0 + ns);
                    // G (ns x r row-major) is column-major r x ns; X rows are column-major d x ns:
                    // C (column-major r x d = row-major d x r) += G X^T
                    b.gemm(false, true, r, d, (int) ns, 1.0, gAt, r, x.address(s0), d, 1.0, cAt, r);
                }
                double[] out = new double[d * r];
                download(out, 0, c.ptr, (long) d * r);
                return out;
            } finally {
                give(c, g);
                scrub(key);
            }
        });
    }

    /**
     * Whitening of all rows with cuBLAS DTRSM: {@code z_k = L^{-1} x_k} (L d x d row-major lower), per block the
     * whitened rows (count x d) or, with {@code normsOnly}, their squared norms.
     */
    public double[][] whitenVendor(DeviceRows x, double[] lower, boolean normsOnly) {
        return onOwner(normsOnly ? "Mahalanobis norms (cuBLAS)" : "whitening (cuBLAS)", () -> {
            DenseBlas b = requireBlas(x);
            int d = x.cols;
            long n = x.rows;
            DevicePool.Buffer l = upload(lower);
            DevicePool.Buffer z = pool.take(n * d * 8);
            DevicePool.Buffer q = normsOnly ? pool.take(n * 8) : null;
            try {
                x.ready(0, n);
                DriverCalls.copyDeviceAsync(z.ptr, x.block(0), n * d * 8, stream);
                long zAt = Handles.address(z.ptr);
                // L row-major is L^T column-major (upper): solve (L^T)^T Z = X, Z column-major d x n
                for (long s0 = 0; s0 < n; s0 += Integer.MAX_VALUE / 2) {
                    int cols = (int) Math.min(Integer.MAX_VALUE / 2, n - s0);
                    b.trsm(true, true, d, cols, 1.0, Handles.address(l.ptr), d, zAt + s0 * d * 8, d);
                }
                if (normsOnly) {
                    launch("dp_row_squared_norms", gridFor(n, 256), 1, 1, 256, 1,
                            Pointer.to(ptr(z), i32(d), i64(n), ptr(q)));
                }
                double[][] result = new double[x.blockCount()][];
                for (int blk = 0; blk < x.blockCount(); blk++) {
                    int count = x.blockRowCount(blk);
                    long start = x.blockStart(blk);
                    if (normsOnly) {
                        result[blk] = new double[count];
                        download(result[blk], 0, q.ptr.withByteOffset(start * 8), count);
                    } else {
                        result[blk] = new double[count * d];
                        download(result[blk], 0, z.ptr.withByteOffset(start * d * 8), (long) count * d);
                    }
                }
                return result;
            } finally {
                give(l, z, q);
            }
        });
    }

    // ---------- d x d factorizations: cuSOLVER where it loads ---------------------------------------

    private boolean ensureSolver() {
        if (!solverTried) {
            solverTried = true;
            // JCusolver (CUDA 12 libraries) first, then the FFM binding (Java 22+, CUDA 13 libraries)
            try {
                solver = SolverCalls.open(stream);
            } catch (CudaFailure e) {
                try {
                    solver = FfmSolver.open(stream);
                    solverPassedOver = "not JCusolver: " + e.getMessage();
                } catch (CudaFailure f) {
                    // the libraries did not load: the device itself is fine
                    solverReason = e.getMessage() + "; " + f.getMessage();
                } catch (LinkageError | RuntimeException f) {
                    solverReason = e.getMessage() + "; FFM binding: " + f;
                }
            }
        }
        return solver != null;
    }

    private boolean ensureBlas() {
        if (!blasTried) {
            blasTried = true;
            try {
                blas = FfmBlas.open(stream);
            } catch (CudaFailure e) {
                blasReason = e.getMessage(); // the library did not load: the device itself is fine
            } catch (LinkageError | RuntimeException e) {
                blasReason = "FFM cuBLAS binding: " + e;
            }
        }
        return blas != null;
    }

    /** The cuBLAS binding in use ({@code cublas-ffm}), or null (loads it on first call). */
    public String blasName() {
        return onOwner("cuBLAS", () -> ensureBlas() ? blas.name() : null);
    }

    /** Where cuBLAS was found, or why not: every place searched and what happened there. */
    public String blasDetail() {
        return onOwner("cuBLAS", () -> ensureBlas() ? blas.detail() : blasReason);
    }

    /** Where cuSOLVER was found, or why not. */
    public String solverDetail() {
        return onOwner("cuSOLVER", () -> ensureSolver()
                ? solver.detail() + (solverPassedOver == null ? "" : "; " + solverPassedOver) : solverReason);
    }

    /** The cuSOLVER binding in use ({@code cusolver-jcusolver} or {@code cusolver-ffm}), or null. */
    public String solverName() {
        return onOwner("cuSOLVER", () -> ensureSolver() ? solver.name() : null);
    }

    /** Null when cuSOLVER is usable, otherwise why not (loads it on first call). */
    public String solverUnavailableReason() {
        return onOwner("cuSOLVER", () -> ensureSolver() ? null : solverReason);
    }

    /**
     * Cholesky of a symmetric d x d matrix (row-major, lower triangle read) with cuSOLVER's dpotrf: the factor
     * L (row-major, upper triangle zero), or null when dpotrf reports a non-positive pivot (info > 0); info &lt; 0 (an
     * illegal argument) throws a CudaFailure ({@link VendorStatus#infoSucceeded}).
     */
    public double[] cholesky(double[] a, int d) {
        return onOwner("cuSOLVER Cholesky", () -> {
            if (!ensureSolver()) {
                throw new IllegalStateException("cuSOLVER unavailable: " + solverReason);
            }
            DevicePool.Buffer m = upload(a);
            DevicePool.Buffer info = pool.take(4);
            DevicePool.Buffer work = null;
            try {
                int lwork = solver.potrfWorkspace(d, m.ptr);
                work = pool.take(Math.max(1L, lwork) * 8);
                solver.potrf(d, m.ptr, work.ptr, lwork, info.ptr);
                int[] status = new int[1];
                download(status, 0, info.ptr, 1);
                if (!VendorStatus.infoSucceeded("cusolverDnDpotrf", status[0])) {
                    return null; // info > 0: a leading minor is not positive definite
                }
                double[] l = new double[d * d];
                download(l, 0, m.ptr, (long) d * d);
                for (int i = 0; i < d; i++) {
                    for (int j = i + 1; j < d; j++) {
                        l[i * d + j] = 0.0; // dpotrf leaves the other triangle as it was
                    }
                }
                return l;
            } finally {
                give(m, info, work);
            }
        });
    }

    /**
     * Symmetric eigendecomposition (row-major, lower triangle read) with cuSOLVER's dsyevd: {eigenvalues
     * ascending, eigenvectors as the rows of a row-major d x d array}, or null when dsyevd did not converge
     * (info > 0); info &lt; 0 (an illegal argument) throws a CudaFailure ({@link VendorStatus#infoSucceeded}).
     */
    public double[][] symmetricEigen(double[] a, int d) {
        return onOwner("cuSOLVER eigendecomposition", () -> {
            if (!ensureSolver()) {
                throw new IllegalStateException("cuSOLVER unavailable: " + solverReason);
            }
            DevicePool.Buffer m = upload(a);
            DevicePool.Buffer w = pool.take((long) d * 8);
            DevicePool.Buffer info = pool.take(4);
            DevicePool.Buffer work = null;
            try {
                int lwork = solver.syevdWorkspace(d, m.ptr, w.ptr);
                work = pool.take(Math.max(1L, lwork) * 8);
                solver.syevd(d, m.ptr, w.ptr, work.ptr, lwork, info.ptr);
                int[] status = new int[1];
                download(status, 0, info.ptr, 1);
                if (!VendorStatus.infoSucceeded("cusolverDnDsyevd", status[0])) {
                    return null; // info > 0: did not converge
                }
                double[] values = new double[d];
                double[] vectors = new double[d * d];
                download(values, 0, w.ptr, d);
                download(vectors, 0, m.ptr, (long) d * d); // column-major columns = row-major rows
                return new double[][] {values, vectors};
            } finally {
                give(m, w, info, work);
            }
        });
    }

    /** Device memory {free, total} in bytes. */
    public long[] memoryInfo() {
        return onOwner("memory info", DriverCalls::memInfo);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            if (brokenReason == null) {
                submit("close the CUDA device", () -> {
                    DriverCalls.synchronize(stream);
                    if (blas != null) {
                        blas.close();
                        blas = null;
                    }
                    if (solver != null) {
                        solver.close();
                        solver = null;
                    }
                    pool.releaseCached();
                    for (Pointer p : stage) {
                        if (p != null) {
                            DriverCalls.freePinned(p);
                        }
                    }
                    DriverCalls.releasePrimaryContext(dev);
                    return null;
                });
            }
        } finally {
            closed = true;
            owner.shutdown();
        }
    }
}
