package org.dpgauss.gpu;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngineContractTest;
import org.dpgauss.kernels.CudaDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The contract run against the CUDA backend with a zero residency budget, so every input is streamed
 * through the device block by block (the path taken by inputs larger than device memory).
 */
@Tag("gpu")
@EnabledIf(value = "org.dpgauss.gpu.GpuTestSupport#gpuUsable",
        disabledReason = "GPU-only: no usable CUDA device and compiled kernels on this machine")
class GpuStreamedEngineContractTest extends ComputeEngineContractTest {

    @Override
    protected ComputeEngine createEngine() {
        return GpuEngine.open(CudaDevice.shared(), 0L);
    }

    @AfterEach
    void noCallFellBackToTheCpu() {
        GpuTestSupport.assertNoFallbacks(engine);
    }
}
