package org.dpgauss.gpu;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngineContractTest;
import org.dpgauss.kernels.CudaDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The contract run against our own kernels only (cuBLAS switched off), data resident and uploaded whole before
 * the first kernel (no second stream): the path every GPU takes where the CUDA 13 vendor libraries do not load.
 * Fails if any call fell back to the CPU.
 */
@Tag("gpu")
@EnabledIf(value = "org.dpgauss.gpu.GpuTestSupport#gpuUsable",
        disabledReason = "GPU-only: no usable CUDA device and compiled kernels on this machine")
class GpuKernelsOnlyEngineContractTest extends ComputeEngineContractTest {

    @Override
    protected ComputeEngine createEngine() {
        GpuEngine g = GpuEngine.open(CudaDevice.shared(), Long.MAX_VALUE);
        g.useVendorBlas(false);
        g.useOverlappedUploads(false); // and the whole-matrix upload (the default engine overlaps)
        return g;
    }

    @AfterEach
    void noCallFellBackToTheCpu() {
        GpuTestSupport.assertNoFallbacks(engine);
    }
}
