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

    private static final FfmCalls CALLS = new FfmCalls("cuBLAS", FfmBlas::statusName);

    private static final int OP_N = 0;
    private static final int OP_T = 1;
    private static final int FILL_LOWER = 0;
    private static final int FILL_UPPER = 1;
    private static final int SIDE_LEFT = 0;
    private static final int DIAG_NON_UNIT = 0;

    private final MemorySegment handle;
    private final String detail;
    private final MethodHandle dgemm;
    private final MethodHandle dsyrk;
    private final MethodHandle dtrsm;
    private final MethodHandle destroy;

    private FfmBlas(MemorySegment handle, FfmLibraries.Loaded lib, int version) {
        this.handle = handle;
        this.detail = lib.describe() + ", cuBLAS version " + version;
        dgemm = lib.function("cublasDgemm_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT,
                JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), "cublasDgemm");
        dsyrk = lib.function("cublasDsyrk_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT,
                JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), "cublasDsyrk");
        dtrsm = lib.function("cublasDtrsm_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT,
                JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT), "cublasDtrsm");
        destroy = lib.function("cublasDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS), "cublasDestroy");
    }

    static String unavailableReason() {
        return FfmCalls.unavailableReason(LIBRARY);
    }

    /** A cuBLAS handle on the device stream; throws CudaFailure (DPGAUSS_NO_LIBRARY, or a cuBLAS status). */
    static FfmBlas open(CUstream stream) {
        FfmLibraries.Loaded lib = FfmLibraries.load(LIBRARY);
        MethodHandle create = lib.function("cublasCreate_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS), "cublasCreate");
        MethodHandle setStream = lib.function("cublasSetStream_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS),
                "cublasSetStream");
        MethodHandle getVersion = lib.function("cublasGetVersion_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS),
                "cublasGetVersion");
        MemorySegment h;
        int version;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            CALLS.call("cublasCreate", create, out);
            h = out.get(ADDRESS, 0);
            MemorySegment v = arena.allocate(JAVA_INT);
            CALLS.call("cublasGetVersion", getVersion, h, v);
            version = v.get(JAVA_INT, 0);
        }
        CALLS.call("cublasSetStream", setStream, h, MemorySegment.ofAddress(Handles.address(stream)));
        try {
            return new FfmBlas(h, lib, version); // resolves the routines' symbols
        } catch (CudaFailure e) {
            CALLS.invoke(lib.function("cublasDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS), "cublasDestroy"), h); // no leak
            throw e;
        }
    }

    static String statusName(int s) {
        switch (s) {
            case 1: return "CUBLAS_STATUS_NOT_INITIALIZED";
            case 3: return "CUBLAS_STATUS_ALLOC_FAILED";
            case 7: return "CUBLAS_STATUS_INVALID_VALUE";
            case 8: return "CUBLAS_STATUS_ARCH_MISMATCH";
            case 11: return "CUBLAS_STATUS_MAPPING_ERROR";
            case 13: return "CUBLAS_STATUS_EXECUTION_FAILED";
            case 14: return "CUBLAS_STATUS_INTERNAL_ERROR";
            case 15: return "CUBLAS_STATUS_NOT_SUPPORTED";
            case 16: return "CUBLAS_STATUS_LICENSE_ERROR";
            default: return "CUBLAS_STATUS_" + s;
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
            CALLS.call("cublasDgemm", dgemm, handle, transA ? OP_T : OP_N, transB ? OP_T : OP_N, m, n, k,
                    arena.allocateFrom(JAVA_DOUBLE, alpha), at(a), lda, at(b), ldb, arena.allocateFrom(JAVA_DOUBLE, beta),
                    at(c), ldc);
        }
    }

    @Override
    public void syrk(boolean upper, boolean trans, int n, int k, double alpha, long a, int lda, double beta, long c,
            int ldc) {
        try (Arena arena = Arena.ofConfined()) {
            CALLS.call("cublasDsyrk", dsyrk, handle, upper ? FILL_UPPER : FILL_LOWER, trans ? OP_T : OP_N, n, k,
                    arena.allocateFrom(JAVA_DOUBLE, alpha), at(a), lda, arena.allocateFrom(JAVA_DOUBLE, beta), at(c), ldc);
        }
    }

    @Override
    public void trsm(boolean upper, boolean transA, int m, int n, double alpha, long a, int lda, long b, int ldb) {
        try (Arena arena = Arena.ofConfined()) {
            CALLS.call("cublasDtrsm", dtrsm, handle, SIDE_LEFT, upper ? FILL_UPPER : FILL_LOWER, transA ? OP_T : OP_N,
                    DIAG_NON_UNIT, m, n, arena.allocateFrom(JAVA_DOUBLE, alpha), at(a), lda, at(b), ldb);
        }
    }

    @Override
    public void close() {
        CALLS.call("cublasDestroy", destroy, handle);
    }
}
