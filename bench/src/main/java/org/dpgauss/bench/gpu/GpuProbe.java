package org.dpgauss.bench.gpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.gpu.GpuEngine;
import org.dpgauss.kernels.VendorLibraries;

/**
 * Prints which engine {@code auto} picks and why (with the real error where the GPU engine did not open), which
 * paths the GPU engine takes (cuBLAS / cuSOLVER through FFM, or our kernels and the host, and why not the others),
 * where the FFM search finds the CUDA 13 libraries, and, from {@code /proc/self/maps}, the file each CUDA library
 * of this process was loaded from ({@code library: NAME <- FILE} or {@code library: NAME not loaded}; the GPU
 * suite quotes these lines in its verdict, issue 28 item 5); exit status 0 with a usable GPU engine, 3 without.
 */
public final class GpuProbe {

    /** The libraries the verdict names, by the prefix of their file names. */
    static final String[] LIBRARIES = {"libcuda.so", "libcublas.so", "libcublasLt.so", "libcusolver.so",
        "libJCudaDriver"};

    private GpuProbe() {
    }

    public static void main(String[] args) {
        EngineSelection s = ComputeEngines.select(EngineChoice.AUTO);
        System.out.println("engine: " + s.engine().name());
        System.out.println(s.reason());
        System.out.println("java: " + Runtime.version() + ", multi-release FFM section in use: "
                + VendorLibraries.ffmSection());
        System.out.println(VendorLibraries.report());
        boolean gpu = s.engine() instanceof GpuEngine;
        if (gpu) {
            GpuEngine g = (GpuEngine) s.engine();
            System.out.println("GPU engine: " + g.description());
            System.out.println(g.vendorDetail());
        }
        for (String line : loaded(Path.of("/proc/self/maps"))) {
            System.out.println(line);
        }
        System.exit(gpu ? 0 : 3);
    }

    /** One line per library of {@link #LIBRARIES}: the file(s) the process mapped, or that it is not loaded. */
    static List<String> loaded(Path maps) {
        List<String> files = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(maps)) {
                int slash = line.indexOf('/');
                if (slash >= 0 && !files.contains(line.substring(slash))) {
                    files.add(line.substring(slash));
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of("library: (" + maps + " unreadable: " + e + ")");
        }
        List<String> out = new ArrayList<>();
        for (String lib : LIBRARIES) {
            List<String> at = new ArrayList<>();
            for (String f : files) {
                String name = f.substring(f.lastIndexOf('/') + 1);
                if (name.startsWith(lib + ".") || name.equals(lib) || (lib.startsWith("libJCuda") && name.startsWith(lib))) {
                    at.add(f);
                }
            }
            out.add("library: " + lib + (at.isEmpty() ? " not loaded" : " <- " + String.join(", ", at)));
        }
        return out;
    }
}
