package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.dpgauss.cli.Main;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --ledger} with {@code --master} (issue 25): the release is charged on the driver before the table is
 * opened, replayed at no cost, and refused over the budget with exit code 4 before any Spark job or read of the
 * rows (the refused run names a file whose second row is malformed: reading it would exit 1).
 */
class CliMasterLedgerTest {

    private static final int D = 3;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    @BeforeAll
    static void files() throws IOException {
        StringBuilder csv = new StringBuilder();
        for (double[] r : TestSpark.gaussian(300, D, 5)) {
            for (int j = 0; j < D; j++) {
                csv.append(j == 0 ? "" : ",").append(r[j]);
            }
            csv.append('\n');
        }
        Files.writeString(dir.resolve("x.csv"), csv);
        Files.writeString(dir.resolve("bad.csv"), "1,2,3\n4,five,6\n");
        Files.createDirectories(dir.resolve("t.parquet"));
    }

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    private static String[] mean(Path ledger, String input, String... extra) {
        List<String> a = new ArrayList<>(List.of("mean", "--input", dir.resolve(input).toString(), "--method",
                "clipped", "--clip", "3", "--rho", "0.02", "--master", "local[2]", "--ledger", ledger.toString(),
                "--dataset", "d", "--json", "--engine", "ejml"));
        a.addAll(Arrays.asList(extra));
        return run(a.toArray(new String[0]));
    }

    @Test
    void chargedOnTheDriverReplayedAndRefusedOverBudget() throws IOException {
        Path ledger = dir.resolve("l.db");
        String[] c = run("ledger", "create", "d", "--ledger", ledger.toString(), "--epsilon", "1", "--delta", "1e-6",
                "--relation", "replace-one");
        assertEquals("0", c[0], c[2]);
        String[] first = mean(ledger, "x.csv");
        assertEquals("0", first[0], first[2]);
        JsonNode r1 = JSON.readTree(first[1]);
        assertEquals("PASS", r1.get("status").asText());
        String[] again = mean(ledger, "x.csv");
        assertEquals("0", again[0], again[2]);
        JsonNode r2 = JSON.readTree(again[1]);
        assertEquals(r1.get("mean"), r2.get("mean"), "the replay returns the stored values");
        assertEquals(1, r2.get("parameters").get("ledgerReplayOf").asInt());
        // over the budget: refused before the table is opened (bad.csv would fail on its second row)
        String[] refused = mean(ledger, "bad.csv", "--fresh");
        assertEquals("4", refused[0], refused[2]);
        assertTrue(refused[2].contains("epsilon left"), refused[2]);
        assertEquals("", refused[1]);
        String[] show = run("ledger", "show", "d", "--ledger", ledger.toString(), "--json");
        JsonNode releases = JSON.readTree(show[1]).get("releases");
        assertEquals(1, releases.size(), "one charge: the replay and the refusal cost nothing");
        assertEquals("PASS", releases.get(0).get("status").asText());
        assertTrue(JSON.readTree(show[1]).get("spent").get("epsilon").asDouble() <= 1.0);
        // a Parquet table's number of columns is read by Spark: without --columns it is refused, not guessed
        String[] parquet = run("mean", "--input", dir.resolve("t.parquet").toString(), "--clip", "3", "--rho",
                "0.02", "--master", "local[2]", "--id-column", "id", "--ledger", ledger.toString(), "--dataset", "d");
        assertEquals("1", parquet[0], parquet[2]);
        assertTrue(parquet[2].contains("needs --columns"), parquet[2]);
    }
}
