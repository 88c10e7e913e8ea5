package org.dpgauss.gpu;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngineProvider;
import org.dpgauss.engine.EngineUnavailableException;
import org.dpgauss.kernels.CudaFailure;
import org.dpgauss.kernels.CudaProbe;

/**
 * The GPU backend as a {@link ComputeEngineProvider} (engine name {@code gpu}), registered in
 * {@code META-INF/services/org.dpgauss.engine.ComputeEngineProvider}: {@link org.dpgauss.engine.ComputeEngines}
 * finds it at run time when this artifact is on the class path. One {@link GpuEngine} per process; a failed start
 * is kept and not retried (the driver and the jar do not change while the process runs), except under
 * {@code -Ddpgauss.cuda.disable=true}, which a test may lift again.
 */
public final class GpuEngineProvider implements ComputeEngineProvider {

    private static GpuEngine gpu;
    /** Why the GPU engine failed to start (kept: a failed start is not retried in this process). */
    private static String failure;

    /** For {@link java.util.ServiceLoader}; the probe runs on first use, not here. */
    public GpuEngineProvider() {
    }

    @Override
    public String name() {
        return "gpu";
    }

    @Override
    public String unavailableReason() {
        String[] why = new String[1];
        return shared(why) == null ? why[0] : null;
    }

    @Override
    public ComputeEngine open() {
        String[] why = new String[1];
        GpuEngine g = shared(why);
        if (g == null) {
            throw new EngineUnavailableException("the GPU engine cannot run here: " + why[0]);
        }
        return g;
    }

    /** The process-wide GPU engine, or null with the reason in why[0]. */
    static synchronized GpuEngine shared(String[] why) {
        if (gpu != null) {
            return gpu;
        }
        if (failure != null) {
            why[0] = failure;
            return null;
        }
        CudaProbe.Result probe = CudaProbe.probe();
        if (!probe.deviceUsable() || !probe.kernelsPresent()) {
            why[0] = probe.reason();
            if (!Boolean.getBoolean("dpgauss.cuda.disable")) {
                failure = why[0];
            }
            return null;
        }
        try {
            gpu = GpuEngine.open();
            return gpu;
        } catch (CudaFailure | LinkageError e) {
            failure = probe.reason() + ", but the GPU engine did not start: " + e.getMessage();
            why[0] = failure;
            return null;
        }
    }
}
