package org.dpgauss.bench.gpu;

import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.gpu.GpuEngine;
import org.dpgauss.kernels.VendorLibraries;

/**
 * Prints which engine {@code auto} picks and why (with the real error where the GPU engine did not open), which
 * paths the GPU engine takes (cuBLAS / cuSOLVER through FFM, or our kernels and the host, and why not the others),
 * and where the FFM search finds the CUDA 13 libraries; exit status 0 with a usable GPU engine, 3 without.
 */
public final class GpuProbe {

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
        System.exit(gpu ? 0 : 3);
    }
}
