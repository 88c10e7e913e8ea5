package org.dpgauss.engine;

import org.junit.jupiter.api.condition.EnabledIf;

/**
 * End-to-end parity of the OpenBLAS engine with EJML ({@link EngineParityTest}): identical neighbour counts,
 * LargestGoodSubset sets and rounds, BasicFilter output; matrices within 1e-10 relative; projections within
 * 1e-12 relative (same G from the same counters).
 */
@EnabledIf("org.dpgauss.engine.OpenBlasTestSupport#openBlasUsable")
class OpenBlasParityTest extends EngineParityTest {

    @Override
    protected ComputeEngine candidate() {
        return OpenBlasEngine.instance();
    }
}
