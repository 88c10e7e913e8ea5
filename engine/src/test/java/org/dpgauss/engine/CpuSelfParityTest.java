package org.dpgauss.engine;

/**
 * The parity suite with the CPU as its own candidate: keeps the suite's logic exercised on machines
 * without a GPU and checks that seeded runs repeat exactly.
 */
class CpuSelfParityTest extends EngineParityTest {

    @Override
    protected ComputeEngine candidate() {
        return CpuEngine.instance();
    }
}
