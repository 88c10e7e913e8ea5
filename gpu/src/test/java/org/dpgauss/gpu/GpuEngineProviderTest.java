package org.dpgauss.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.engine.EngineChoice;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.engine.EngineUnavailableException;
import org.junit.jupiter.api.Test;

/**
 * With this artifact on the class path the library finds the GPU backend through {@link java.util.ServiceLoader}
 * (no compile-time link from the engine). Runs on every machine: where no GPU is usable the answers carry the
 * device probe's reason, never the "artifact missing" one; where one is usable {@code gpu} and {@code auto} pick it.
 */
class GpuEngineProviderTest {

    @Test
    void theServiceFileRegistersTheGpuProvider() {
        assertTrue(ComputeEngines.providerNames().contains("gpu"), ComputeEngines.providerNames()::toString);
        assertEquals("gpu", new GpuEngineProvider().name());
    }

    @Test
    void selectionUsesTheProvidersProbe() {
        // first through the GPU tests' gate: it makes the shared engine strict before anything opens it
        boolean usable = GpuTestSupport.gpuUsable();
        String why = new GpuEngineProvider().unavailableReason();
        assertEquals(usable, why == null, () -> "gate and provider disagree: " + why);
        assertEquals(why, ComputeEngines.gpuUnavailableReason());
        if (why == null) {
            EngineSelection s = ComputeEngines.select(EngineChoice.GPU);
            assertTrue(s.engine() instanceof GpuEngine, s.engine()::toString);
            assertSame(s.engine(), ComputeEngines.select(EngineChoice.AUTO).engine());
            return;
        }
        // the device probe's reason, never the engine's "artifact missing" one (which names the artifact); the
        // reason may quote paths that happen to hold "dpgauss-gpu" (a temporary directory, a checkout)
        assertFalse(why.contains(ComputeEngines.GPU_ARTIFACT) || why.contains("is not on the class path"), why);
        EngineUnavailableException e = assertThrows(EngineUnavailableException.class,
                () -> ComputeEngines.select(EngineChoice.GPU));
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertTrue(ComputeEngines.select(EngineChoice.AUTO).reason().startsWith("auto: no GPU, because " + why),
                ComputeEngines.select(EngineChoice.AUTO).reason());
        assertThrows(EngineUnavailableException.class, () -> new GpuEngineProvider().open());
    }
}
