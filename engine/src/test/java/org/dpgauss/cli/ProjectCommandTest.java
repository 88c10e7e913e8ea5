package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpgauss project} . */
class ProjectCommandTest {

    @TempDir
    Path dir;

    /** Runs the real command line (Main registers project and mechanism). */
    static MainTest.Run run(String... args) {
        return MainTest.run(args);
    }

    private Path csv(String... lines) throws Exception {
        Path p = dir.resolve("d" + lines.length + ".csv");
        Files.writeString(p, String.join("\n", lines) + "\n");
        return p;
    }

    @Test
    void projectWritesTheMatrixAndTheContractJson() throws Exception {
        Path in = csv("a,b,c", "0.1,0.2,0.3", "0.5,-0.5,0", "0,0,0.9", "0.3,0.3,0.3");
        Path out = dir.resolve("M.npy");
        Path gram = dir.resolve("S.npy");
        MainTest.Run r = run("project", "--input", in.toString(), "--rank", "5", "--epsilon", "1", "--delta", "1e-6",
                "--row-bound", "1", "--output", out.toString(), "--gram-output", gram.toString(), "--json",
                "--insecure-seed", "3");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals("none", j.get("wrapper").asText());
        assertEquals(5, j.get("rank").asInt());
        assertEquals(3, j.get("d").asInt());
        assertEquals(org.dpgauss.calibration.RandomProjectionCurve.ridge(1, 1e-6, 5, 1), j.get("ridge").asDouble());
        assertEquals("add-remove", j.get("guarantee").get("relation").asText());
        assertEquals(1.0, j.get("guarantee").get("epsilon").asDouble());
        assertFalse(j.get("guarantee").get("certified").asBoolean());
        assertTrue(j.get("insecure").asBoolean());
        assertFalse(j.has("n"), "the number of rows is not released");
        RowBlockMatrix m = DataReader.read(out);
        assertEquals(3, m.rows());
        assertEquals(5, m.cols());
        assertEquals(3, DataReader.read(gram).cols());
        // reproducible with the same insecure seed
        MainTest.Run again = run("project", "--input", in.toString(), "--rank", "5", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", dir.resolve("M2.npy").toString(), "--insecure-seed", "3");
        assertEquals(0, again.code, again.err);
        assertEquals(m, DataReader.read(dir.resolve("M2.npy")));
        assertTrue(again.out.contains("NOT private"), again.out);
    }

    @Test
    void rowsAboveTheBoundFailNamingTheRowUnlessClipped() throws Exception {
        Path in = csv("0.1,0.2", "3,4", "0,0.5");
        Path out = dir.resolve("M.npy");
        MainTest.Run r = run("project", "--input", in.toString(), "--rank", "2", "--epsilon", "1", "--delta", "1e-6",
                "--row-bound", "1", "--output", out.toString(), "--json");
        assertEquals(1, r.code);
        assertTrue(r.err.contains("row 1 (0-based)"), r.err);
        assertFalse(Files.exists(out));
        MainTest.Run c = run("project", "--input", in.toString(), "--rank", "2", "--epsilon", "1", "--delta", "1e-6",
                "--row-bound", "1", "--output", out.toString(), "--clip-rows", "--json");
        assertEquals(0, c.code, c.err);
        assertEquals(1, c.json().get("clipped_rows").asInt());
    }

    @Test
    void wrappers() throws Exception {
        Path in = csv("0.1,0.2", "0.6,0.1", "0,0.5", "0.2,0.2");
        Path out = dir.resolve("M.npy");
        MainTest.Run p = run("project", "--input", in.toString(), "--rank", "100", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "poisson", "--q", "0.1", "--json");
        assertEquals(0, p.code, p.err);
        assertEquals(12.691, p.json().get("ridge").asDouble(), 1e-3);
        assertEquals(2.90048, p.json().get("details").get("epsilon0").asDouble(), 1e-5);
        MainTest.Run t = run("project", "--input", in.toString(), "--rank", "100", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "ptr", "--ptr-noise", "10",
                "--json");
        assertEquals(0, t.code, t.err);
        assertEquals(0.42145, t.json().get("details").get("epsilon_T").asDouble(), 1e-4);
        assertEquals(1e-6, t.json().get("guarantee").get("delta").asDouble(), 1e-18);
        MainTest.Run l = run("project", "--input", in.toString(), "--rank", "100", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "lsv", "--json");
        assertEquals(281.37, l.json().get("ridge").asDouble(), 0.01);

        MainTest.Run bad = run("project", "--input", in.toString(), "--rank", "10", "--epsilon", "1", "--delta",
                "1e-3", "--row-bound", "1", "--output", out.toString(), "--wrapper", "poisson", "--q", "1e-4");
        assertEquals(1, bad.code);
        assertTrue(bad.err.contains("q=1.0E-4"), bad.err);
        MainTest.Run noNoise = run("project", "--input", in.toString(), "--rank", "10", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "ptr");
        assertTrue(noNoise.err.contains("--ptr-noise"), noNoise.err);
        MainTest.Run tooSmall = run("project", "--input", in.toString(), "--rank", "10", "--epsilon", "1",
                "--delta", "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "ptr",
                "--ptr-noise", "1");
        assertEquals(1, tooSmall.code);
        assertTrue(tooSmall.err.contains("eps_T="), tooSmall.err);
        MainTest.Run stray = run("project", "--input", in.toString(), "--rank", "10", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--q", "0.5");
        assertTrue(stray.err.contains("--q applies only"), stray.err);
    }

    @Test
    void helpStatesGuaranteeAndNeighbours() {
        MainTest.Run h = run("project", "--help");
        assertEquals(0, h.code);
        assertTrue(h.out.contains("add/remove"));
        assertTrue(h.out.contains("(epsilon, delta)-DP"));
    }

    @Test
    void demoProjectionReport() {
        Map<String, Object> rep = DemoProjection.report(org.dpgauss.engine.CpuEngine.instance(),
                org.dpgauss.privacy.RandomSource.insecureSeeded(1), 2000, 5);
        assertEquals("PASS", rep.get("status"));
        double err = (Double) rep.get("relative_gram_error");
        assertTrue(err > 0 && err < 1, "relative error " + err);
        assertTrue(rep.containsKey("guarantee"));
    }
}
