package org.dpgauss.gpu;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngineContractTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The contract run against the CUDA backend, data resident on the device, cuBLAS where it loads. Skipped (with
 * the reason) without a GPU; fails if any call fell back to the CPU.
 */
@Tag("gpu")
@EnabledIf(value = "org.dpgauss.gpu.GpuTestSupport#gpuUsable",
        disabledReason = "GPU-only: no usable CUDA device and compiled kernels on this machine")
class GpuEngineContractTest extends ComputeEngineContractTest {

    @Override
    protected ComputeEngine createEngine() {
        return GpuTestSupport.engine();
    }

    @AfterEach
    void noCallFellBackToTheCpu() {
        GpuTestSupport.assertNoFallbacks(engine);
    }
}
