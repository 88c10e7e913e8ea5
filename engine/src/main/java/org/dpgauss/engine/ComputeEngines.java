package org.dpgauss.engine;

import org.dpgauss.kernels.CudaProbe;

/** Factory that picks the backend (the EJML {@code Factory} pattern). */
public final class ComputeEngines {

    private ComputeEngines() {
    }

    /** The engine named by the {@code dpgauss.engine} system property (default auto). */
    public static EngineSelection fromSystemProperty() {
        return select(EngineChoice.fromSystemProperty());
    }

    /**
     * Resolves a choice. {@code cpu} always succeeds; {@code gpu} throws {@link EngineUnavailableException}
     * with the reason when no GPU backend can run; {@code auto} falls back to the CPU and says why.
     */
    public static EngineSelection select(EngineChoice choice) {
        if (choice == EngineChoice.CPU) {
            return new EngineSelection(CpuEngine.instance(), choice, "cpu requested");
        }
        String why = gpuUnavailableReason();
        if (choice == EngineChoice.GPU) {
            throw new EngineUnavailableException("--engine gpu: the GPU engine cannot run here: " + why
                    + ". Use --engine cpu or --engine auto.");
        }
        return new EngineSelection(CpuEngine.instance(), choice, "auto: cpu, because " + why);
    }

    /**
     * Why the GPU backend cannot be used. This build has no CUDA backend adapter yet (the kernels module
     * only probes the device and carries compiled kernels), so the answer is never "usable".
     */
    static String gpuUnavailableReason() {
        CudaProbe.Result probe = CudaProbe.probe();
        if (!probe.deviceUsable()) {
            return probe.reason();
        }
        return probe.reason() + "; this build has no CUDA engine adapter (the GPU backend is issue 5)";
    }
}
