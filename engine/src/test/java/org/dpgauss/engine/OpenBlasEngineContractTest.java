package org.dpgauss.engine;

import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The contract run against the native OpenBLAS backend, with the same checks, verdicts and tolerance (1e-11
 * relative to the naive reference) as the EJML backend. Skipped, with the reason on stderr, only where the
 * natives cannot load (another platform); on linux-x86_64 the build fetches them, so it runs in CI.
 */
@EnabledIf("org.dpgauss.engine.OpenBlasTestSupport#openBlasUsable")
class OpenBlasEngineContractTest extends ComputeEngineContractTest {

    @Override
    protected ComputeEngine createEngine() {
        return OpenBlasEngine.instance();
    }
}
