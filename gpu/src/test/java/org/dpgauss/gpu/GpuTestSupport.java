package org.dpgauss.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpgauss.engine.ComputeEngine;

/**
 * Gate of the GPU-only tests: {@code @EnabledIf("org.dpgauss.gpu.GpuTestSupport#gpuUsable")} reports them
 * as skipped, with the reason, where no CUDA device and compiled kernels are usable (never silently passed).
 *
 * <p>Honest runs (issue 17): the GPU engines of these tests are strict ({@value GpuEngine#STRICT_PROPERTY}=true:
 * a device failure throws instead of rerunning the call on the CPU) and every GPU test class checks after each
 * test that no call fell back to the CPU. With {@code -Ddpgauss.gpu.required=true} (the GPU suite sets it when
 * {@code nvidia-smi} sees a GPU) a GPU engine that does not open fails every GPU test with the reason instead of
 * skipping it; with {@code -Ddpgauss.gpu.requireVendor=true} the engine must also have loaded cuBLAS and cuSOLVER.
 */
public final class GpuTestSupport {

    /** System property: the GPU engine must open (fail, do not skip). */
    public static final String REQUIRED_PROPERTY = "dpgauss.gpu.required";
    /** System property: cuBLAS and cuSOLVER (FFM) must have loaded. */
    public static final String REQUIRE_VENDOR_PROPERTY = "dpgauss.gpu.requireVendor";

    private static String reason;
    private static boolean probed;

    static {
        if (System.getProperty(GpuEngine.STRICT_PROPERTY) == null) {
            System.setProperty(GpuEngine.STRICT_PROPERTY, "true");
        }
    }

    private GpuTestSupport() {
    }

    /** True when the GPU engine opens on this machine; throws (a failed test) when it must and does not. */
    public static synchronized boolean gpuUsable() {
        if (!probed) {
            reason = new GpuEngineProvider().unavailableReason();
            probed = true;
            if (reason != null) {
                System.err.println("[dpgauss GPU tests] " + (Boolean.getBoolean(REQUIRED_PROPERTY) ? "FAILED" : "skipped")
                        + ": " + reason);
            }
        }
        if (reason != null && Boolean.getBoolean(REQUIRED_PROPERTY)) {
            throw new IllegalStateException("-D" + REQUIRED_PROPERTY + "=true, but the GPU engine did not open: " + reason);
        }
        return reason == null;
    }

    /** The shared GPU engine (only call when {@link #gpuUsable()}). */
    static GpuEngine engine() {
        String[] why = new String[1];
        GpuEngine g = GpuEngineProvider.shared(why);
        if (g == null) {
            throw new IllegalStateException("GPU engine unavailable: " + why[0]);
        }
        return g;
    }

    /** Fails when the engine redid any call on the CPU (a GPU test must not pass on CPU results). */
    static void assertNoFallbacks(ComputeEngine e) {
        if (e instanceof GpuEngine) {
            GpuEngine g = (GpuEngine) e;
            assertEquals(0, g.fallbackCount(), () -> "calls fell back to the CPU: " + g.fallbacks());
        }
    }
}
