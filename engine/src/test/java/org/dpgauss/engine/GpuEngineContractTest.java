package org.dpgauss.engine;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIf;

/** The contract run against the CUDA backend, data resident on the device. Skipped (with the reason) without a GPU. */
@Tag("gpu")
@EnabledIf(value = "org.dpgauss.engine.GpuTestSupport#gpuUsable",
        disabledReason = "GPU-only: no usable CUDA device and compiled kernels on this machine")
class GpuEngineContractTest extends ComputeEngineContractTest {

    @Override
    protected ComputeEngine createEngine() {
        return GpuTestSupport.engine();
    }
}
