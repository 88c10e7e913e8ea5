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
     * Resolves a choice. {@code ejml} always succeeds (the pure-Java engine); {@code cpu} always succeeds: the
     * native OpenBLAS engine where its natives load, otherwise EJML with the reason; {@code gpu} throws
     * {@link EngineUnavailableException} with the reason when no GPU backend can run; {@code auto} uses the GPU
     * when one is usable, else the CPU as for {@code cpu}, and says why.
     */
    public static EngineSelection select(EngineChoice choice) {
        if (choice == EngineChoice.EJML) {
            return new EngineSelection(CpuEngine.instance(), choice, "ejml requested: " + CpuEngine.instance().description());
        }
        if (choice == EngineChoice.CPU) {
            return cpu(choice, "cpu requested");
        }
        String[] why = new String[1];
        GpuEngine g = openGpu(why);
        if (g != null) {
            return new EngineSelection(g, choice, (choice == EngineChoice.AUTO ? "auto: " : "") + g.description());
        }
        if (choice == EngineChoice.GPU) {
            throw new EngineUnavailableException("--engine gpu: the GPU engine cannot run here: " + why[0]
                    + ". Use --engine cpu, --engine ejml or --engine auto.");
        }
        return cpu(choice, "auto: no GPU, because " + why[0]);
    }

    /** The CPU engine: OpenBLAS where its natives load, else EJML; the reason starts with {@code prefix}. */
    private static EngineSelection cpu(EngineChoice choice, String prefix) {
        String[] why = new String[1];
        OpenBlasEngine nativeCpu = OpenBlasEngine.open(why);
        if (nativeCpu != null) {
            return new EngineSelection(nativeCpu, choice, prefix + "; " + nativeCpu.description());
        }
        return new EngineSelection(CpuEngine.instance(), choice, prefix + "; " + CpuEngine.instance().description()
                + ", because " + why[0]);
    }

    /** Why the native OpenBLAS CPU engine cannot be used, or null when it can. */
    public static String openBlasUnavailableReason() {
        String[] why = new String[1];
        return OpenBlasEngine.open(why) == null ? why[0] : null;
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
