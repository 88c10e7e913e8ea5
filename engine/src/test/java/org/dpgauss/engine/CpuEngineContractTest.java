package org.dpgauss.engine;

/** The contract run against the EJML backend. */
class CpuEngineContractTest extends ComputeEngineContractTest {

    @Override
    protected ComputeEngine createEngine() {
        return CpuEngine.instance();
    }
}
