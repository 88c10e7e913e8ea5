package org.dpgauss.engine;

import org.dpgauss.kernels.CudaFailure;
import org.dpgauss.kernels.CudaProbe;

/** Factory that picks the backend (the EJML {@code Factory} pattern). */
public final class ComputeEngines {

    private static GpuEngine gpu;
    /** Why the GPU engine failed to start (kept: a failed start is not retried in this process). */
    private static String gpuFailure;

    private ComputeEngines() {
    }

    /** The engine named by the {@code dpgauss.engine} system property (default auto). */
    public static EngineSelection fromSystemProperty() {
        return select(EngineChoice.fromSystemProperty());
    }

    /**
     * Resolves a choice. {@code cpu} always succeeds; {@code gpu} throws {@link EngineUnavailableException}
     * with the reason when no GPU backend can run; {@code auto} uses the GPU when one is usable, else falls
     * back to the CPU and says why.
     */
    public static EngineSelection select(EngineChoice choice) {
        if (choice == EngineChoice.CPU) {
            return new EngineSelection(CpuEngine.instance(), choice, "cpu requested");
        }
        String[] why = new String[1];
        GpuEngine g = openGpu(why);
        if (g != null) {
            return new EngineSelection(g, choice, (choice == EngineChoice.AUTO ? "auto: " : "") + g.description());
        }
        if (choice == EngineChoice.GPU) {
            throw new EngineUnavailableException("--engine gpu: the GPU engine cannot run here: " + why[0]
                    + ". Use --engine cpu or --engine auto.");
        }
        return new EngineSelection(CpuEngine.instance(), choice, "auto: cpu, because " + why[0]);
    }

    /** The process-wide GPU engine, or null with the reason in why[0]. */
    static synchronized GpuEngine openGpu(String[] why) {
        if (gpu != null) {
            return gpu;
        }
        if (gpuFailure != null) {
            why[0] = gpuFailure;
            return null;
        }
        CudaProbe.Result probe = CudaProbe.probe();
        if (!probe.deviceUsable() || !probe.kernelsPresent()) {
            why[0] = probe.reason();
            if (!Boolean.getBoolean("dpgauss.cuda.disable")) {
                gpuFailure = why[0]; // the driver and the jar do not change while the process runs
            }
            return null;
        }
        try {
            gpu = GpuEngine.open();
            return gpu;
        } catch (CudaFailure | LinkageError e) {
            gpuFailure = probe.reason() + ", but the GPU engine did not start: " + e.getMessage();
            why[0] = gpuFailure;
            return null;
        }
    }

    /** Why the GPU backend cannot be used, or null when it can. */
    static String gpuUnavailableReason() {
        String[] why = new String[1];
        return openGpu(why) == null ? why[0] : null;
    }
}
