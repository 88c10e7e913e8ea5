package org.dpgauss.kernels;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads the CUDA 13 math libraries through {@code dlopen} (java.lang.foreign), in the order of
 * {@link LibrarySearch}: the first place that holds the library and where it loads wins. A failure names every
 * place searched and what happened there (no such directory, no such file, or the dynamic linker's own error
 * from {@code dlerror}, e.g. a missing dependency), so the message says exactly what to fix.
 *
 * <p>In a directory, the library's CUDA dependencies found beside it ({@code libnvJitLink.so.13},
 * {@code libcublasLt.so.13}, {@code libcublas.so.13}, {@code libcusparse.so.12}) are loaded first, by path and
 * {@code RTLD_GLOBAL}, so the library's own {@code DT_NEEDED} entries resolve to that directory even where it
 * is not on the loader's path (the pip wheels' layout).
 */
final class FfmLibraries {

    private static final int RTLD_NOW = 2;
    private static final int RTLD_GLOBAL = 0x100;

    /** Dependencies loaded first from the directory that holds the library, in dependency order. */
    static final String[] CUDA_DEPENDENCIES = {"libnvJitLink.so.13", "libcublasLt.so.13", "libcublas.so.13",
        "libcusparse.so.12"};

    private static final Map<String, Object> CACHE = new HashMap<>();

    private FfmLibraries() {
    }

    /** A loaded library: its symbols, the file, the place of the search order, and why earlier places were passed over. */
    static final class Loaded {
        final String soname;
        final String file;
        final String place;
        final List<String> passedOver;
        final SymbolLookup symbols;

        Loaded(String soname, String file, String place, List<String> passedOver, SymbolLookup symbols) {
            this.soname = soname;
            this.file = file;
            this.place = place;
            this.passedOver = passedOver;
            this.symbols = symbols;
        }

        /** {@code libcublas.so.13 from /x/libcublas.so.13 (venv nvidia/cu13/lib; not from: 1. ...)}. */
        String describe() {
            return soname + " from " + file + " (" + place + (passedOver.isEmpty() ? "" : "; passed over: "
                    + String.join("; ", passedOver)) + ")";
        }

        /**
         * A downcall handle for exactly {@code name}: no fall-back names (a library's other names for a routine can
         * carry other signatures, e.g. cuBLAS's legacy API).
         */
        MethodHandle function(String name, FunctionDescriptor fd) {
            Optional<MemorySegment> sym = symbols.find(name);
            if (sym.isEmpty()) {
                throw new CudaFailure(file + " has no symbol " + name + ": not the CUDA 13 library dpgauss expects",
                        "DPGAUSS_NO_SYMBOL", null);
            }
            return Linker.nativeLinker().downcallHandle(sym.get(), fd);
        }
    }

    // ---------- dlopen / dlerror / dlsym through FFM -----------------------------------------------------

    private static final class Dl {
        static final MethodHandle OPEN;
        static final MethodHandle ERROR;
        static final MethodHandle SYM;

        static {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            SymbolLookup dl = libc.find("dlopen").isPresent() ? libc
                    : SymbolLookup.libraryLookup("libdl.so.2", Arena.global()); // glibc < 2.34
            OPEN = linker.downcallHandle(dl.find("dlopen").orElseThrow(), FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
            ERROR = linker.downcallHandle(dl.find("dlerror").orElseThrow(), FunctionDescriptor.of(ADDRESS));
            SYM = linker.downcallHandle(dl.find("dlsym").orElseThrow(), FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        }
    }

    /** dlopen(path or soname); the handle, or null with the linker's message in err[0]. */
    static MemorySegment dlopen(String name, String[] err) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = (MemorySegment) Dl.OPEN.invokeExact(arena.allocateFrom(name), RTLD_NOW | RTLD_GLOBAL);
            if (h.equals(MemorySegment.NULL)) {
                MemorySegment e = (MemorySegment) Dl.ERROR.invokeExact();
                err[0] = e.equals(MemorySegment.NULL) ? "dlopen failed" : e.reinterpret(4096).getString(0);
                return null;
            }
            return h;
        } catch (Throwable t) {
            err[0] = "dlopen could not be called: " + t;
            return null;
        }
    }

    private static SymbolLookup symbols(MemorySegment handle) {
        return name -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment p = (MemorySegment) Dl.SYM.invokeExact(handle, arena.allocateFrom(name));
                return p.equals(MemorySegment.NULL) ? Optional.empty() : Optional.of(p);
            } catch (Throwable t) {
                return Optional.empty();
            }
        };
    }

    /**
     * The library, from the first place of {@link LibrarySearch#places()} where it loads (cached per process).
     *
     * @throws CudaFailure (status DPGAUSS_NO_LIBRARY) naming every place searched and what happened there
     */
    static synchronized Loaded load(String soname) {
        Object c = CACHE.get(soname);
        if (c instanceof Loaded) {
            return (Loaded) c;
        }
        if (c instanceof CudaFailure) {
            throw (CudaFailure) c;
        }
        List<String> passed = new ArrayList<>();
        int k = 0;
        for (LibrarySearch.Place place : LibrarySearch.places()) {
            k++;
            String at = k + ". " + place.label();
            if (place.systemPath()) {
                String[] err = new String[1];
                MemorySegment h = dlopen(soname, err);
                if (h != null) {
                    Loaded l = new Loaded(soname, soname + " (system path)", at, passed, symbols(h));
                    CACHE.put(soname, l);
                    return l;
                }
                passed.add(at + ": " + err[0]);
                continue;
            }
            if (place.dir() == null) {
                passed.add(at + ": " + place.note());
                continue;
            }
            Path dir = place.dir();
            Path file = dir.resolve(soname);
            if (!Files.isDirectory(dir)) {
                passed.add(at + " " + dir + ": no such directory");
                continue;
            }
            if (!Files.exists(file)) {
                passed.add(at + " " + dir + ": no " + soname + " there");
                continue;
            }
            List<String> depNotes = new ArrayList<>();
            for (String dep : CUDA_DEPENDENCIES) {
                Path df = dir.resolve(dep);
                if (!dep.equals(soname) && Files.exists(df)) {
                    String[] err = new String[1];
                    if (dlopen(df.toString(), err) == null) {
                        depNotes.add(dep + ": " + err[0]);
                    }
                }
            }
            String[] err = new String[1];
            MemorySegment h = dlopen(file.toString(), err);
            if (h != null) {
                Loaded l = new Loaded(soname, file.toString(), at, passed, symbols(h));
                CACHE.put(soname, l);
                return l;
            }
            passed.add(at + " " + file + ": " + err[0] + (depNotes.isEmpty() ? "" : " (dependencies: "
                    + String.join("; ", depNotes) + ")"));
        }
        CudaFailure f = new CudaFailure(soname + " did not load; searched, in order: " + String.join("; ", passed)
                + ". Set DPGAUSS_CUDA_LIBDIR to the directory that holds " + soname + " (pip wheels: "
                + "site-packages/" + LibrarySearch.VENV_SUBDIR + "), or use --engine cpu", "DPGAUSS_NO_LIBRARY", null);
        CACHE.put(soname, f);
        return failWith(f);
    }

    private static Loaded failWith(CudaFailure f) {
        throw f;
    }

    /** Forgets earlier results (tests that change the search places). */
    static synchronized void forget() {
        CACHE.clear();
    }

    /** A report of the vendor libraries for probes: where each loads from, or why not. */
    static String report() {
        StringBuilder sb = new StringBuilder("FFM vendor libraries (Java " + Runtime.version().feature()
                + "), search order: " + LibrarySearch.describe());
        for (String lib : new String[] {FfmBlas.LIBRARY, FfmSolver.LIBRARY}) {
            String line;
            try {
                line = load(lib).describe();
            } catch (CudaFailure e) {
                line = e.getMessage();
            }
            sb.append("\n  ").append(line);
        }
        return sb.toString();
    }
}
