package org.dpgauss.kernels;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;

/**
 * cuSOLVER through java.lang.foreign (Java 22+ section of the multi-release jar): reaches
 * {@code libcusolver.so.12} (CUDA 13), which JCusolver 12.6 cannot load, found by {@link FfmLibraries} in the
 * order of {@link LibrarySearch} (DPGAUSS_CUDA_LIBDIR, the venv's nvidia/cu13/lib, /usr/local/cuda/lib64, the
 * system path). The handle is bound to the
 * stream of {@link CudaDevice}, whose owning thread has the device's primary context current, so cuSOLVER
 * works in that context. Every status other than CUSOLVER_STATUS_SUCCESS becomes a {@link CudaFailure}.
 */
final class FfmSolver implements DenseSolver {

    /** The CUDA 13 cuSOLVER, found by {@link FfmLibraries} in the order of {@link LibrarySearch}. */
    static final String LIBRARY = "libcusolver.so.12";

    private static final FfmCalls CALLS = new FfmCalls("cuSOLVER", VendorStatus::cusolver);

    private static final int FILL_UPPER = 1;   // cublasFillMode_t CUBLAS_FILL_MODE_UPPER
    private static final int EIG_VECTORS = 1;  // cusolverEigMode_t CUSOLVER_EIG_MODE_VECTOR

    /** Every routine this binding calls, resolved before a handle exists (a missing symbol leaks nothing). */
    private static final class Routines {
        final MethodHandle create;
        final MethodHandle destroy;
        final MethodHandle setStream;
        final MethodHandle getVersion;
        final MethodHandle potrfBufferSize;
        final MethodHandle potrf;
        final MethodHandle syevdBufferSize;
        final MethodHandle syevd;

        Routines(FfmLibraries.Loaded lib) {
            create = lib.function("cusolverDnCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS));
            destroy = lib.function("cusolverDnDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
            setStream = lib.function("cusolverDnSetStream", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
            getVersion = lib.function("cusolverGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
            potrfBufferSize = lib.function("cusolverDnDpotrf_bufferSize",
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
            potrf = lib.function("cusolverDnDpotrf", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
                    ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
            syevdBufferSize = lib.function("cusolverDnDsyevd_bufferSize", FunctionDescriptor.of(JAVA_INT, ADDRESS,
                    JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
            syevd = lib.function("cusolverDnDsyevd", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
                    JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));
        }
    }

    private final MemorySegment handle;
    private final Routines r;
    private final String detail;

    private FfmSolver(MemorySegment handle, Routines r, FfmLibraries.Loaded lib, int version) {
        this.handle = handle;
        this.r = r;
        this.detail = lib.describe() + ", cuSOLVER version " + version;
    }

    static String unavailableReason() {
        return FfmCalls.unavailableReason(LIBRARY);
    }

    /**
     * A cuSOLVER dense handle on the device stream; throws CudaFailure (DPGAUSS_NO_LIBRARY, DPGAUSS_NO_SYMBOL or a
     * cuSOLVER status). Once the handle exists, a later failure (SetStream) destroys it before throwing.
     */
    static FfmSolver open(CUstream stream) {
        FfmLibraries.Loaded lib = FfmLibraries.load(LIBRARY);
        Routines r = new Routines(lib);
        MemorySegment h;
        int version;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(JAVA_INT);
            CALLS.call("cusolverGetVersion", r.getVersion, v);
            version = v.get(JAVA_INT, 0);
            MemorySegment out = arena.allocate(ADDRESS);
            CALLS.call("cusolverDnCreate", r.create, out);
            h = out.get(ADDRESS, 0);
        }
        try {
            CALLS.call("cusolverDnSetStream", r.setStream, h, MemorySegment.ofAddress(Handles.address(stream)));
            return new FfmSolver(h, r, lib, version);
        } catch (RuntimeException | Error e) {
            try {
                CALLS.invoke(r.destroy, h); // no handle leaks; the first failure is the one reported
            } catch (RuntimeException | Error cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
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
    public String detail() {
        return detail;
    }

    @Override
    public int potrfWorkspace(int d, CUdeviceptr a) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment lwork = arena.allocate(JAVA_INT);
            CALLS.call("cusolverDnDpotrf_bufferSize", r.potrfBufferSize, handle, FILL_UPPER, d, at(a), d, lwork);
            return lwork.get(JAVA_INT, 0);
        }
    }

    @Override
    public void potrf(int d, CUdeviceptr a, CUdeviceptr work, int lwork, CUdeviceptr info) {
        CALLS.call("cusolverDnDpotrf", r.potrf, handle, FILL_UPPER, d, at(a), d, at(work), lwork, at(info));
    }

    @Override
    public int syevdWorkspace(int d, CUdeviceptr a, CUdeviceptr w) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment lwork = arena.allocate(JAVA_INT);
            CALLS.call("cusolverDnDsyevd_bufferSize", r.syevdBufferSize, handle, EIG_VECTORS, FILL_UPPER, d, at(a), d,
                    at(w), lwork);
            return lwork.get(JAVA_INT, 0);
        }
    }

    @Override
    public void syevd(int d, CUdeviceptr a, CUdeviceptr w, CUdeviceptr work, int lwork, CUdeviceptr info) {
        CALLS.call("cusolverDnDsyevd", r.syevd, handle, EIG_VECTORS, FILL_UPPER, d, at(a), d, at(w), at(work), lwork,
                at(info));
    }

    @Override
    public void close() {
        CALLS.call("cusolverDnDestroy", r.destroy, handle);
    }
}
