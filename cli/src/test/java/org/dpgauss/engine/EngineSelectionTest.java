package org.dpgauss.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dpgauss.cli.Main;
import org.junit.jupiter.api.Test;

/** {@code --engine auto|cpu|ejml|gpu}: parsing, and which CPU engine each choice resolves to. */
class EngineSelectionTest {

    @Test
    void parsesEveryChoiceInAnyCase() {
        assertEquals(EngineChoice.EJML, EngineChoice.parse("ejml"));
        assertEquals(EngineChoice.EJML, EngineChoice.parse(" EJML "));
        assertEquals(EngineChoice.CPU, EngineChoice.parse("Cpu"));
        assertEquals(EngineChoice.AUTO, EngineChoice.parse("auto"));
        assertEquals(EngineChoice.GPU, EngineChoice.parse("gpu"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EngineChoice.parse("blas"));
        assertTrue(e.getMessage().contains("auto, cpu, ejml, gpu"), e.getMessage());
        assertEquals("ejml", EngineChoice.EJML.toString());
    }

    @Test
    void ejmlIsThePureJavaEngine() {
        EngineSelection s = ComputeEngines.select(EngineChoice.EJML);
        assertSame(CpuEngine.instance(), s.engine());
        assertEquals("cpu-ejml", s.engine().name());
        assertTrue(s.reason().startsWith("ejml requested"), s.reason());
    }

    @Test
    void cpuIsOpenBlasWhereTheNativesLoadAndSaysWhyOtherwise() {
        EngineSelection s = ComputeEngines.select(EngineChoice.CPU);
        String why = ComputeEngines.openBlasUnavailableReason();
        if (OpenBlasTestSupport.nativesExpected()) {
            // on linux-x86_64 the build fetched the natives: falling back here would be a defect
            assertNull(why, "OpenBLAS natives should load on linux-x86_64");
        }
        if (why == null) {
            assertEquals("cpu-openblas", s.engine().name());
            assertTrue(s.reason().contains("OpenBLAS"), s.reason());
        } else {
            assertSame(CpuEngine.instance(), s.engine());
            assertTrue(s.reason().contains(why), s.reason());
        }
    }

    @Test
    void autoWithoutAGpuPicksTheSameCpuEngineAsCpu() {
        if (ComputeEngines.gpuUnavailableReason() == null) {
            return; // auto picks the GPU there; GpuEngine's own tests cover it
        }
        EngineSelection auto = ComputeEngines.select(EngineChoice.AUTO);
        assertSame(ComputeEngines.select(EngineChoice.CPU).engine(), auto.engine());
        assertTrue(auto.reason().startsWith("auto: no GPU, because "), auto.reason());
    }

    @Test
    void theCommandLineCarriesTheGpuBackend() {
        // the shaded jar is built from this module's class path: the GPU provider must be on it
        assertTrue(ComputeEngines.providerNames().contains(ComputeEngines.GPU), ComputeEngines.providerNames()::toString);
    }

    @Test
    void withoutTheNativesCpuFallsBackToEjmlAndSaysWhy() throws Exception {
        // a fresh JVM: the natives are probed once per process. -Ddpgauss.openblas.disable=true stands for a
        // platform whose natives do not load; --engine cpu must still run, on EJML, and report why.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-D" + org.dpgauss.cpu.openblas.NativeBlas.DISABLE_PROPERTY
                + "=true", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "--engine", "cpu", "--json",
                "bench", "gram", "--n", "100", "--d", "3", "--repeat", "1", "--warmup", "0"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "finished");
        assertEquals(0, p.exitValue(), err);
        assertTrue(out.contains("\"engine\":\"cpu-ejml\""), out);
        assertTrue(out.contains("because disabled by -D" + org.dpgauss.cpu.openblas.NativeBlas.DISABLE_PROPERTY), out);
    }

    @Test
    void theCommandLineAcceptsEjmlAndReportsTheEngine() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"--engine", "ejml", "bench", "gram", "--n", "200", "--d", "3", "--repeat", "1",
            "--json"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        assertTrue(out.toString().contains("\"engine\":\"cpu-ejml\""), out.toString());
        StringWriter bad = new StringWriter();
        int usage = Main.run(new String[] {"--engine", "blas", "bench", "gram"}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(bad, true));
        assertEquals(2, usage, "usage error");
        assertTrue(bad.toString().contains("ejml"), bad.toString());
    }
}
