package org.dpgauss.gpu;

import java.util.HashMap;
import java.util.Map;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngineProvider;
import org.dpgauss.engine.EngineUnavailableException;
import org.dpgauss.kernels.CudaFailure;
import org.dpgauss.kernels.CudaProbe;

/**
 * The GPU backend as a {@link ComputeEngineProvider} (engine name {@code gpu}), registered in
 * {@code META-INF/services/org.dpgauss.engine.ComputeEngineProvider}: {@link org.dpgauss.engine.ComputeEngines}
 * finds it at run time when this artifact is on the class path. One {@link GpuEngine} per process and device; a failed start
 * is kept and not retried (the driver and the jar do not change while the process runs), except under
 * {@code -Ddpgauss.cuda.disable=true}, which a test may lift again.
 */
public final class GpuEngineProvider implements ComputeEngineProvider {

    /** The engines by device ordinal. */
    private static final Map<Integer, GpuEngine> GPUS = new HashMap<>();
    /** Why a device's engine failed to start (kept: a failed start is not retried in this process). */
    private static final Map<Integer, String> FAILURES = new HashMap<>();

    /** For {@link java.util.ServiceLoader}; the probe runs on first use, not here. */
    public GpuEngineProvider() {
    }

    @Override
    public String name() {
        return "gpu";
    }

    @Override
    public String unavailableReason() {
        return unavailableReason(0);
    }

    @Override
    public String unavailableReason(int device) {
        String[] why = new String[1];
        return shared(device, why) == null ? why[0] : null;
    }

    @Override
    public ComputeEngine open() {
        return open(0);
    }

    @Override
    public ComputeEngine open(int device) {
        String[] why = new String[1];
        GpuEngine g = shared(device, why);
        if (g == null) {
            throw new EngineUnavailableException("the GPU engine cannot run here: " + why[0]);
        }
        return g;
    }

    /** The process-wide GPU engine on device 0, or null with the reason in why[0]. */
    static GpuEngine shared(String[] why) {
        return shared(0, why);
    }

    /** The process-wide GPU engine on that device, or null with the reason in why[0]. */
    static synchronized GpuEngine shared(int device, String[] why) {
        if (device < 0) {
            why[0] = "GPU device " + device + ": device ordinals are 0 or more";
            return null;
        }
        GpuEngine gpu = GPUS.get(device);
        if (gpu != null) {
            return gpu;
        }
        String failure = FAILURES.get(device);
        if (failure != null) {
            why[0] = failure;
            return null;
        }
        CudaProbe.Result probe = CudaProbe.probe();
        if (!probe.deviceUsable() || !probe.kernelsPresent()) {
            why[0] = probe.reason();
            if (!Boolean.getBoolean("dpgauss.cuda.disable")) {
                FAILURES.put(device, why[0]);
            }
            return null;
        }
        try {
            gpu = GpuEngine.open(device);
            GPUS.put(device, gpu);
            return gpu;
        } catch (CudaFailure | LinkageError e) {
            failure = probe.reason() + ", but the GPU engine did not start on device " + device + ": " + e.getMessage();
            FAILURES.put(device, failure);
            why[0] = failure;
            return null;
        }
    }
}
