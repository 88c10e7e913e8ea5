package org.dpgauss.bench.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpgauss.io.SyntheticData;
import org.dpgauss.linalg.RowBlockMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GpuBench's plan (issue 28 item 2) on a machine without a GPU: the harness checks {@code --candidate cpu|none}. */
class GpuBenchTest {

    /** The parallel generator gives SyntheticData's values, whatever the row blocks. */
    @Test
    void parallelDataAreSyntheticDatasValues() {
        RowBlockMatrix a = GpuBench.standardNormal(1000, 7, 7, RowBlockMatrix.zeros(1000, 7, 64));
        RowBlockMatrix b = SyntheticData.standardNormal(1000, 7, 7);
        assertTrue(a.blockCount() > 10);
        for (int i = 0; i < 1000; i++) {
            for (int j = 0; j < 7; j++) {
                assertEquals(Double.doubleToLongBits(b.get(i, j)), Double.doubleToLongBits(a.get(i, j)), i + "," + j);
            }
        }
    }

    /** Every candidate row first, smallest shape first; then every CPU reference, once per primitive and shape. */
    @Test
    void candidateRowsSmallestShapeFirstThenCpuReferences(@TempDir Path out) throws Exception {
        int rc = GpuBench.run(new String[] {"--out", out.toString(), "--candidate", "cpu", "--shapes", "3000x6,500x4",
            "--pairs-rows", "300,200", "--repeat", "1", "--ops", "gram,neighbours"});
        assertEquals(0, rc);
        JsonNode r = new ObjectMapper().readTree(out.resolve("gpu-bench.json").toFile());
        assertTrue(r.get("complete").asBoolean());
        List<String> order = new ArrayList<>();
        for (JsonNode row : r.get("results")) {
            order.add(row.get("op").asText() + "@" + row.get("n").asInt() + "x" + row.get("d").asInt());
            assertTrue(row.get("cpuMedianSeconds").asDouble() > 0, row.toString());
            assertNotNull(row.get("cpu_over_gpu"), row.toString());
        }
        // 500x4 (2000 cells) before 3000x6 (18000 cells); its neighbour rows are the second --pairs-rows entry
        assertEquals(List.of("weightedGram@500x4", "neighbourCounts(n=200)@200x4", "weightedGram@3000x6",
                "neighbourCounts(n=300)@300x6"), order);
        assertEquals(4, r.get("cpuReferences").get("measured").asInt());
        assertEquals(0, r.get("cpuReferences").get("skipped").asInt());
    }

    /** A spent CPU budget skips the references: the GPU rows stay, without a CPU figure. */
    @Test
    void cpuReferencesStopAtTheirBudget(@TempDir Path out) throws Exception {
        int rc = GpuBench.run(new String[] {"--out", out.toString(), "--candidate", "none", "--shapes", "400x5",
            "--pairs-rows", "100", "--ops", "gram,norms,peel", "--cpu-budget", "0"});
        assertEquals(0, rc);
        JsonNode r = new ObjectMapper().readTree(out.resolve("gpu-bench.json").toFile());
        assertEquals(3, r.get("results").size());
        for (JsonNode row : r.get("results")) {
            assertNull(row.get("cpuMedianSeconds"), row.toString());
            assertTrue(row.get("cpuReference").asText().startsWith("skipped"), row.toString());
        }
        assertEquals(3, r.get("cpuReferences").get("skipped").asInt());
        assertTrue(r.get("status").asText().startsWith("harness-check"));
    }

    /**
     * A reference still running when the budget ends is abandoned (its row says at least how long it ran) and the
     * next ones are skipped; the run ends without waiting for it. Neighbour counts on 12000 rows (7.2e7 pairs of
     * 40 coordinates, 2.9e9 multiply-adds) take far longer than the 10 ms budget on any machine.
     */
    @Test
    void aReferenceRunningPastTheBudgetIsAbandoned(@TempDir Path out) throws Exception {
        int rc = GpuBench.run(new String[] {"--out", out.toString(), "--candidate", "none", "--shapes",
            "12000x40,13000x40", "--pairs-rows", "12000,100", "--ops", "neighbours", "--cpu-budget", "0.01"});
        assertEquals(0, rc);
        JsonNode r = new ObjectMapper().readTree(out.resolve("gpu-bench.json").toFile());
        JsonNode slow = r.get("results").get(0);
        JsonNode next = r.get("results").get(1);
        assertEquals("neighbourCounts(n=12000)", slow.get("op").asText());
        assertTrue(slow.get("cpuReference").asText().startsWith("abandoned"), slow.toString());
        assertTrue(slow.get("cpuAtLeastSeconds").asDouble() > 0, slow.toString());
        assertNull(slow.get("cpuMedianSeconds"), slow.toString());
        assertEquals("neighbourCounts(n=100)", next.get("op").asText());
        assertTrue(next.get("cpuReference").asText().startsWith("skipped"), next.toString());
        JsonNode summary = r.get("cpuReferences");
        assertEquals("neighbourCounts(n=12000)@12000x40", summary.get("abandoned").asText(), summary.toString());
        assertEquals(0, summary.get("measured").asInt());
        assertEquals(1, summary.get("skipped").asInt());
    }
}
