package org.dpgauss.kernels;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;

/**
 * cuSOLVER through java.lang.foreign (Java 22+ section of the multi-release jar): reaches
 * {@code libcusolver.so.12} (CUDA 13), which JCusolver 12.6 cannot load. The handle is bound to the
 * stream of {@link CudaDevice}, whose owning thread has the device's primary context current, so cuSOLVER
 * works in that context. Every status other than CUSOLVER_STATUS_SUCCESS becomes a {@link CudaFailure}.
 */
final class FfmSolver implements DenseSolver {

    /** Library names tried in order. */
    static final String[] LIBRARIES = {"libcusolver.so.12", "libcusolver.so"};

    private static final int FILL_UPPER = 1;   // cublasFillMode_t CUBLAS_FILL_MODE_UPPER
    private static final int EIG_VECTORS = 1;  // cusolverEigMode_t CUSOLVER_EIG_MODE_VECTOR

    private final MemorySegment handle;
    private final MethodHandle potrfBufferSize;
    private final MethodHandle potrf;
    private final MethodHandle syevdBufferSize;
    private final MethodHandle syevd;
    private final MethodHandle destroy;

    private FfmSolver(MemorySegment handle, SymbolLookup lib, Linker linker) {
        this.handle = handle;
        potrfBufferSize = fn(lib, linker, "cusolverDnDpotrf_bufferSize",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        potrf = fn(lib, linker, "cusolverDnDpotrf",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
        syevdBufferSize = fn(lib, linker, "cusolverDnDsyevd_bufferSize",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
        syevd = fn(lib, linker, "cusolverDnDsyevd", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
                JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        destroy = fn(lib, linker, "cusolverDnDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    static String unavailableReason() {
        try {
            lookup();
            return null;
        } catch (CudaFailure e) {
            return e.getMessage();
        }
    }

    private static SymbolLookup lookup() {
        StringBuilder tried = new StringBuilder();
        for (String name : LIBRARIES) {
            try {
                return SymbolLookup.libraryLookup(name, Arena.global());
            } catch (IllegalArgumentException e) {
                tried.append(tried.length() == 0 ? "" : ", ").append(name);
            }
        }
        throw new CudaFailure("the FFM cuSOLVER binding found none of " + tried + " on the library path "
                + "(install the CUDA 13 math libraries or set LD_LIBRARY_PATH)", "DPGAUSS_NO_CUSOLVER", null);
    }

    private static MethodHandle fn(SymbolLookup lib, Linker linker, String name, FunctionDescriptor fd) {
        MemorySegment sym = lib.find(name).orElseThrow(() -> new CudaFailure("the cuSOLVER library has no symbol "
                + name, "DPGAUSS_NO_CUSOLVER", null));
        return linker.downcallHandle(sym, fd);
    }

    static FfmSolver open(CUstream stream) {
        SymbolLookup lib = lookup();
        Linker linker = Linker.nativeLinker();
        MethodHandle create = fn(lib, linker, "cusolverDnCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        MethodHandle setStream = fn(lib, linker, "cusolverDnSetStream",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        MemorySegment h;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            check("cusolverDnCreate", invoke(create, out));
            h = out.get(ADDRESS, 0);
        }
        check("cusolverDnSetStream", invoke(setStream, h, MemorySegment.ofAddress(Handles.address(stream))));
        return new FfmSolver(h, lib, linker);
    }

    private static int invoke(MethodHandle m, Object... args) {
        try {
            return (int) m.invokeWithArguments(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new CudaFailure("cuSOLVER call failed: " + t, "DPGAUSS_NATIVE_ERROR", t);
        }
    }

    static void check(String what, int status) {
        if (status != 0) {
            String name = statusName(status);
            throw new CudaFailure(what + " returned " + name + " (" + status + "); use --engine cpu if it persists",
                    name, null);
        }
    }

    static String statusName(int s) {
        switch (s) {
            case 1: return "CUSOLVER_STATUS_NOT_INITIALIZED";
            case 2: return "CUSOLVER_STATUS_ALLOC_FAILED";
            case 3: return "CUSOLVER_STATUS_INVALID_VALUE";
            case 4: return "CUSOLVER_STATUS_ARCH_MISMATCH";
            case 6: return "CUSOLVER_STATUS_EXECUTION_FAILED";
            case 7: return "CUSOLVER_STATUS_INTERNAL_ERROR";
            case 8: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
            default: return "CUSOLVER_STATUS_" + s;
        }
    }

    private static MemorySegment at(CUdeviceptr p) {
        return MemorySegment.ofAddress(Handles.address(p));
    }

    @Override
    public String name() {
        return "cusolver-ffm";
    }

    @Override
    public int potrfWorkspace(int d, CUdeviceptr a) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment lwork = arena.allocate(JAVA_INT);
            check("cusolverDnDpotrf_bufferSize", invoke(potrfBufferSize, handle, FILL_UPPER, d, at(a), d, lwork));
            return lwork.get(JAVA_INT, 0);
        }
    }

    @Override
    public void potrf(int d, CUdeviceptr a, CUdeviceptr work, int lwork, CUdeviceptr info) {
        check("cusolverDnDpotrf", invoke(potrf, handle, FILL_UPPER, d, at(a), d, at(work), lwork, at(info)));
    }

    @Override
    public int syevdWorkspace(int d, CUdeviceptr a, CUdeviceptr w) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment lwork = arena.allocate(JAVA_INT);
            check("cusolverDnDsyevd_bufferSize",
                    invoke(syevdBufferSize, handle, EIG_VECTORS, FILL_UPPER, d, at(a), d, at(w), lwork));
            return lwork.get(JAVA_INT, 0);
        }
    }

    @Override
    public void syevd(int d, CUdeviceptr a, CUdeviceptr w, CUdeviceptr work, int lwork, CUdeviceptr info) {
        check("cusolverDnDsyevd",
                invoke(syevd, handle, EIG_VECTORS, FILL_UPPER, d, at(a), d, at(w), at(work), lwork, at(info)));
    }

    @Override
    public void close() {
        check("cusolverDnDestroy", invoke(destroy, handle));
    }
}
