package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpgauss mechanism blr|gpr}. */
class MechanismCommandTest {

    @TempDir
    Path dir;

    private Path csv(String name, String... lines) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, String.join("\n", lines) + "\n");
        return p;
    }

    @Test
    void blrReleasesThetaWithTheContractJson() throws Exception {
        Path in = csv("blr.csv", "x1,x2,y", "0.5,0.1,1", "-0.3,0.2,-1", "0.7,-0.6,1", "-0.1,-0.9,-1", "0.2,0.2,1");
        MainTest.Run r = ProjectCommandTest.run("mechanism", "blr", "--input", in.toString(), "--lambda", "1",
                "--row-bound", "1", "--max-rows", "1000", "--epsilon", "1", "--delta", "1e-5", "--json",
                "--insecure-seed", "4");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals(2, j.get("theta").size());
        assertEquals(2, j.get("d").asInt());
        assertEquals("SOUND_EXACT_HARD", j.get("bound").asText());
        assertTrue(j.get("bound_delta").asDouble() <= 1e-5);
        assertEquals("add-remove", j.get("guarantee").get("relation").asText());
        assertTrue(j.get("noise_variance").asDouble() > 1);

        MainTest.Run p = ProjectCommandTest.run("mechanism", "blr", "--input", in.toString(), "--lambda", "1",
                "--row-bound", "1", "--max-rows", "1000", "--epsilon", "1", "--delta", "1e-5", "--json",
                "--bound", "paper-faithful");
        assertEquals(0, p.code, p.err);
        assertFalse(p.json().get("guarantee").get("certified").asBoolean(), "paper-faithful is never certified");
        assertTrue(p.json().get("noise_variance").asDouble() < j.get("noise_variance").asDouble());
    }

    @Test
    void blrRejectsBadLabelsAndRows() throws Exception {
        Path labels = csv("l.csv", "0.5,0.1,1", "-0.3,0.2,0");
        MainTest.Run r = ProjectCommandTest.run("mechanism", "blr", "--input", labels.toString(), "--lambda", "1",
                "--row-bound", "1", "--max-rows", "10", "--epsilon", "1", "--delta", "1e-5");
        assertEquals(1, r.code);
        assertTrue(r.err.contains("row 1 (0-based) has label 0.0"), r.err);
        Path big = csv("b.csv", "0.5,0.1,1", "3,0.2,-1");
        MainTest.Run b = ProjectCommandTest.run("mechanism", "blr", "--input", big.toString(), "--lambda", "1",
                "--row-bound", "1", "--max-rows", "10", "--epsilon", "1", "--delta", "1e-5");
        assertTrue(b.err.contains("row 1 (0-based)"), b.err);
        MainTest.Run n = ProjectCommandTest.run("mechanism", "blr", "--input", big.toString(), "--lambda", "1",
                "--row-bound", "5", "--max-rows", "1", "--epsilon", "1", "--delta", "1e-5");
        assertTrue(n.err.contains("public maximum n=1"), n.err);
    }

    @Test
    void gprReleasesOnePrediction() throws Exception {
        Path in = csv("gpr.csv", "0.1,0.5", "0.4,-0.2", "0.9,1");
        MainTest.Run r = ProjectCommandTest.run("mechanism", "gpr", "--input", in.toString(), "--query", "0.3",
                "--noise-variance", "1", "--label-bound", "1", "--max-rows", "1", "--epsilon", "1", "--delta",
                "1e-5", "--json");
        assertEquals(1, r.code, "3 rows > --max-rows 1");
        MainTest.Run ok = ProjectCommandTest.run("mechanism", "gpr", "--input", in.toString(), "--query", "0.3",
                "--noise-variance", "1", "--label-bound", "1", "--max-rows", "10", "--epsilon", "1", "--delta",
                "1e-5", "--json");
        assertEquals(0, ok.code, ok.err);
        JsonNode j = ok.json();
        assertEquals(1, j.get("prediction").size());
        assertEquals("PASS", j.get("status").asText());
        MainTest.Run one = ProjectCommandTest.run("mechanism", "gpr", "--input", in.toString(), "--query", "0.3",
                "--noise-variance", "1", "--label-bound", "1", "--max-rows", "1", "--epsilon", "1", "--delta",
                "1e-5", "--json");
        assertTrue(one.err.contains("public maximum"), one.err);
        MainTest.Run dims = ProjectCommandTest.run("mechanism", "gpr", "--input", in.toString(), "--query", "0.3,1",
                "--noise-variance", "1", "--label-bound", "1", "--max-rows", "10", "--epsilon", "1", "--delta",
                "1e-5");
        assertTrue(dims.err.contains("--query has 2 coordinates"), dims.err);
    }

    @Test
    void helpStatesGuaranteeAndNeighbours() {
        MainTest.Run h = ProjectCommandTest.run("mechanism", "blr", "--help");
        assertEquals(0, h.code);
        assertTrue(h.out.contains("add/remove"));
        assertTrue(ProjectCommandTest.run("mechanism", "gpr", "--help").out.contains("(epsilon, delta)-DP"));
    }
}
