package org.dpgauss.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU backend is found at run time: this artifact's class path has no {@code dpgauss-gpu}, so a GPU request
 * names the artifact to add, and {@code auto} falls back to the CPU saying so. The selection logic with a provider
 * present is checked with two small providers defined here (one that reports itself unavailable, one that opens
 * the EJML engine under another name), and the {@link java.util.ServiceLoader} lookup with a services file written
 * to a temporary class-path entry.
 */
class ComputeEngineProviderTest {

    @Test
    void withoutTheGpuArtifactAGpuRequestNamesIt() {
        assertFalse(ComputeEngines.providerNames().contains(ComputeEngines.GPU), ComputeEngines.providerNames()::toString);
        EngineUnavailableException e = assertThrows(EngineUnavailableException.class,
                () -> ComputeEngines.select(EngineChoice.GPU));
        assertTrue(e.getMessage().startsWith("--engine gpu: the GPU engine cannot run here: "), e.getMessage());
        assertTrue(e.getMessage().contains("org.dpgauss:dpgauss-gpu"), e.getMessage());
        assertTrue(e.getMessage().endsWith("Use --engine cpu, --engine ejml or --engine auto."), e.getMessage());
        assertEquals(ComputeEngines.missing(), ComputeEngines.gpuUnavailableReason());
    }

    @Test
    void withoutTheGpuArtifactAutoRunsOnTheCpuAndSaysWhy() {
        EngineSelection auto = ComputeEngines.select(EngineChoice.AUTO);
        assertSame(ComputeEngines.select(EngineChoice.CPU).engine(), auto.engine());
        assertTrue(auto.reason().startsWith("auto: no GPU, because the GPU backend is not on the class path (add the "
                + "org.dpgauss:dpgauss-gpu artifact"), auto.reason());
    }

    @Test
    void anUnavailableProviderGivesItsOwnReason() {
        ComputeEngineProvider broken = new Unavailable();
        EngineUnavailableException e = assertThrows(EngineUnavailableException.class,
                () -> ComputeEngines.select(EngineChoice.GPU, broken));
        assertTrue(e.getMessage().contains("no device in this test"), e.getMessage());
        assertFalse(e.getMessage().contains("dpgauss-gpu"), e.getMessage());
        EngineSelection auto = ComputeEngines.select(EngineChoice.AUTO, broken);
        assertTrue(auto.reason().startsWith("auto: no GPU, because no device in this test"), auto.reason());
    }

    @Test
    void anAvailableProviderIsWhatGpuAndAutoPick() {
        ComputeEngineProvider ok = new OpensEjml();
        EngineSelection gpu = ComputeEngines.select(EngineChoice.GPU, ok);
        assertSame(CpuEngine.instance(), gpu.engine());
        assertEquals(EngineChoice.GPU, gpu.requested());
        EngineSelection auto = ComputeEngines.select(EngineChoice.AUTO, ok);
        assertSame(CpuEngine.instance(), auto.engine());
        assertTrue(auto.reason().startsWith("auto: "), auto.reason());
        // cpu and ejml never consult the provider
        assertSame(CpuEngine.instance(), ComputeEngines.select(EngineChoice.EJML, ok).engine());
    }

    @Test
    void serviceLoaderFindsAProviderListedInMetaInfServices(@TempDir Path dir) throws Exception {
        Path services = dir.resolve("META-INF/services");
        Files.createDirectories(services);
        Files.writeString(services.resolve(ComputeEngineProvider.class.getName()),
                "# a comment line\n" + Unavailable.class.getName() + "\n", StandardCharsets.UTF_8);
        Map<String, ComputeEngineProvider> found = new LinkedHashMap<>();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            ComputeEngines.discover(loader, found);
        }
        assertEquals(1, found.size(), found::toString);
        assertTrue(found.get("gpu") instanceof Unavailable, found::toString);
        assertNull(ComputeEngines.provider("no-such-engine"));
    }

    /** A provider whose probe fails. */
    public static final class Unavailable implements ComputeEngineProvider {
        @Override
        public String name() {
            return "gpu";
        }

        @Override
        public String unavailableReason() {
            return "no device in this test";
        }

        @Override
        public ComputeEngine open() {
            throw new EngineUnavailableException(unavailableReason());
        }
    }

    /** A provider that opens the EJML engine (stands for any backend that opens). */
    static final class OpensEjml implements ComputeEngineProvider {
        @Override
        public String name() {
            return "gpu";
        }

        @Override
        public String unavailableReason() {
            return null;
        }

        @Override
        public ComputeEngine open() {
            return CpuEngine.instance();
        }
    }
}
