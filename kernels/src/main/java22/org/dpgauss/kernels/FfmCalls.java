package org.dpgauss.kernels;

import java.lang.invoke.MethodHandle;
import java.util.function.IntFunction;

/**
 * The boundary to one CUDA library called through java.lang.foreign. Every routine returns a status code, 0 on
 * success; any other code becomes a {@link CudaFailure} that names the routine and the status and says what to do,
 * and a failure of the call itself (linkage, argument types) becomes a CudaFailure with status
 * {@code DPGAUSS_NATIVE_ERROR}. Immutable.
 */
final class FfmCalls {

    private final String library;
    private final IntFunction<String> statusName;

    /**
     * @param library the library's name in messages, e.g. {@code cuBLAS}
     * @param statusName the name of each status code of the library
     */
    FfmCalls(String library, IntFunction<String> statusName) {
        this.library = library;
        this.statusName = statusName;
    }

    /** Calls {@code routine} and throws a CudaFailure unless it returns success. */
    void call(String routine, MethodHandle m, Object... args) {
        check(routine, invoke(m, args));
    }

    /** Calls a routine and returns its status code without checking it (for clean-up after a failure). */
    int invoke(MethodHandle m, Object... args) {
        try {
            return (int) m.invokeWithArguments(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new CudaFailure(library + " call failed: " + t, "DPGAUSS_NATIVE_ERROR", t);
        }
    }

    /** Throws a CudaFailure naming {@code routine} and the status unless {@code status} is 0 (success). */
    void check(String routine, int status) {
        if (status != 0) {
            String name = statusName.apply(status);
            throw new CudaFailure(routine + " returned " + name + " (" + status + "); use --engine cpu if it persists",
                    name, null);
        }
    }

    /** @return null if {@code libraryFile} loads, else why not (the search path and the loader's words) */
    static String unavailableReason(String libraryFile) {
        try {
            FfmLibraries.load(libraryFile);
            return null;
        } catch (CudaFailure e) {
            return e.getMessage();
        }
    }
}
