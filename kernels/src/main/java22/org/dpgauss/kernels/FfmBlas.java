package org.dpgauss.kernels;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import jcuda.driver.CUstream;

/**
 * cuBLAS ({@code libcublas.so.13}, CUDA 13) through java.lang.foreign (Java 22+ section of the multi-release
 * jar), found by {@link FfmLibraries} in the order of {@link LibrarySearch}. The handle is bound to the stream of
 * {@link CudaDevice}, whose owning thread has device 0's primary context current (the runtime API that cuBLAS
 * uses works in that context). Scalars are host pointers (the default pointer mode); the default math mode, in
 * which FP64 products may use the FP64 tensor cores (IEEE double results).
 */
final class FfmBlas implements DenseBlas {

    static final String LIBRARY = "libcublas.so.13";

    private static final FfmCalls CALLS = new FfmCalls("cuBLAS", VendorStatus::cublas);

    private static final int OP_N = 0;
    private static final int OP_T = 1;
    private static final int FILL_LOWER = 0;
    private static final int FILL_UPPER = 1;
    private static final int SIDE_LEFT = 0;
    private static final int DIAG_NON_UNIT = 0;

    /**
     * Every routine this binding calls, resolved before a handle exists (a missing symbol leaks nothing), by
     * their {@code _v2} names only: CUDA 13's libcublas still exports {@code cublasDgemm}, {@code cublasDsyrk},
     * {@code cublasDtrsm} and {@code cublasGetVersion} with the legacy API's signatures (no handle, device
     * scalars), so calling one of those through these descriptors would crash the JVM; a library without the
     * {@code _v2} names is refused (DPGAUSS_NO_SYMBOL) instead.
     */
    private static final class Routines {
        final MethodHandle create;
        final MethodHandle destroy;
        final MethodHandle setStream;
        final MethodHandle getVersion;
        final MethodHandle dgemm;
        final MethodHandle dsyrk;
        final MethodHandle dtrsm;

        Routines(FfmLibraries.Loaded lib) {
            create = lib.function("cublasCreate_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
            destroy = lib.function("cublasDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
            setStream = lib.function("cublasSetStream_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
            getVersion = lib.function("cublasGetVersion_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
            dgemm = lib.function("cublasDgemm_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
            dsyrk = lib.function("cublasDsyrk_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
            dtrsm = lib.function("cublasDtrsm_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
        }
    }

    private final MemorySegment handle;
    private final String detail;
    private final Routines r;

    private FfmBlas(MemorySegment handle, Routines r, FfmLibraries.Loaded lib, int version) {
        this.handle = handle;
        this.r = r;
        this.detail = lib.describe() + ", cuBLAS version " + version;
    }

    static String unavailableReason() {
        return FfmCalls.unavailableReason(LIBRARY);
    }

    /**
     * A cuBLAS handle on the device stream; throws CudaFailure (DPGAUSS_NO_LIBRARY, DPGAUSS_NO_SYMBOL, or a cuBLAS
     * status). Once the handle exists, any later failure (GetVersion, SetStream) destroys it before throwing.
     */
    static FfmBlas open(CUstream stream) {
        FfmLibraries.Loaded lib = FfmLibraries.load(LIBRARY);
        Routines r = new Routines(lib);
        MemorySegment h;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            CALLS.call("cublasCreate_v2", r.create, out);
            h = out.get(ADDRESS, 0);
        }
        try {
            int version;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment v = arena.allocate(JAVA_INT);
                CALLS.call("cublasGetVersion_v2", r.getVersion, h, v);
                version = v.get(JAVA_INT, 0);
            }
            CALLS.call("cublasSetStream_v2", r.setStream, h, MemorySegment.ofAddress(Handles.address(stream)));
            return new FfmBlas(h, r, lib, version);
        } catch (RuntimeException | Error e) {
            try {
                CALLS.invoke(r.destroy, h); // no handle leaks; the first failure is the one reported
            } catch (RuntimeException | Error cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private static MemorySegment at(long address) {
        return MemorySegment.ofAddress(address);
    }

    @Override
    public String name() {
        return "cublas-ffm";
    }

    @Override
    public String detail() {
        return detail;
    }

    @Override
    public void gemm(boolean transA, boolean transB, int m, int n, int k, double alpha, long a, int lda, long b, int ldb,
            double beta, long c, int ldc) {
        try (Arena arena = Arena.ofConfined()) {
            CALLS.call("cublasDgemm_v2", r.dgemm, handle, transA ? OP_T : OP_N, transB ? OP_T : OP_N, m, n, k,
                    arena.allocateFrom(JAVA_DOUBLE, alpha), at(a), lda, at(b), ldb, arena.allocateFrom(JAVA_DOUBLE, beta),
                    at(c), ldc);
        }
    }

    @Override
    public void syrk(boolean upper, boolean trans, int n, int k, double alpha, long a, int lda, double beta, long c,
            int ldc) {
        try (Arena arena = Arena.ofConfined()) {
            CALLS.call("cublasDsyrk_v2", r.dsyrk, handle, upper ? FILL_UPPER : FILL_LOWER, trans ? OP_T : OP_N, n, k,
                    arena.allocateFrom(JAVA_DOUBLE, alpha), at(a), lda, arena.allocateFrom(JAVA_DOUBLE, beta), at(c), ldc);
        }
    }

    @Override
    public void trsm(boolean upper, boolean transA, int m, int n, double alpha, long a, int lda, long b, int ldb) {
        try (Arena arena = Arena.ofConfined()) {
            CALLS.call("cublasDtrsm_v2", r.dtrsm, handle, SIDE_LEFT, upper ? FILL_UPPER : FILL_LOWER, transA ? OP_T : OP_N,
                    DIAG_NON_UNIT, m, n, arena.allocateFrom(JAVA_DOUBLE, alpha), at(a), lda, at(b), ldb);
        }
    }

    @Override
    public void close() {
        CALLS.call("cublasDestroy_v2", r.destroy, handle);
    }
}
