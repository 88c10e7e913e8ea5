package org.dpgauss.engine;

/**
 * Gate of the GPU-only tests: {@code @EnabledIf("org.dpgauss.engine.GpuTestSupport#gpuUsable")} reports them
 * as skipped, with the reason, where no CUDA device and compiled kernels are usable (never silently passed).
 */
public final class GpuTestSupport {

    private static String reason;
    private static boolean probed;

    private GpuTestSupport() {
    }

    /** True when the GPU engine opens on this machine. */
    public static synchronized boolean gpuUsable() {
        if (!probed) {
            reason = ComputeEngines.gpuUnavailableReason();
            probed = true;
            if (reason != null) {
                System.err.println("[dpgauss GPU tests] skipped: " + reason);
            }
        }
        return reason == null;
    }

    /** The shared GPU engine (only call when {@link #gpuUsable()}). */
    static GpuEngine engine() {
        String[] why = new String[1];
        GpuEngine g = ComputeEngines.openGpu(why);
        if (g == null) {
            throw new IllegalStateException("GPU engine unavailable: " + why[0]);
        }
        return g;
    }
}
