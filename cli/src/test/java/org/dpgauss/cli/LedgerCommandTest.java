package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpgauss ledger ...} and {@code --ledger} on a private command: show/list/export, replay at no cost,
 * {@code --fresh}, the relation check, and every bad ledger refused with exit 1 before the input is read (the
 * input named here does not exist: reading it would fail with another message).
 */
class LedgerCommandTest {

    @TempDir
    Path dir;

    Path ledger;
    String loc; // a ledger URL that is not a path, when set
    Path data;
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    @BeforeEach
    void setUp() throws Exception {
        ledger = dir.resolve("l.db");
        data = dir.resolve("x.csv");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            sb.append(i % 5 - 2).append(',').append(i % 3).append('\n');
        }
        Files.writeString(data, sb);
        assertEquals(0, run("ledger", "create", "d", "--ledger", ledger.toString(), "--epsilon", "1", "--delta",
                "1e-6", "--relation", "replace-one"));
    }

    int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    String[] mean(Path input, String... extra) {
        String[] base = {"mean", "--input", input.toString(), "--method", "clipped", "--clip", "5", "--rho", "0.02",
            "--ledger", loc != null ? loc : ledger.toString(), "--dataset", "d", "--json"};
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    @Test
    void chargeReplayFreshAndShow() throws Exception {
        assertEquals(0, run(mean(data)));
        JsonNode first = Json.MAPPER.readTree(out.toString());
        assertEquals(0, run(mean(data)));
        JsonNode again = Json.MAPPER.readTree(out.toString());
        assertEquals(first.get("mean"), again.get("mean"), "a replay returns the stored values");
        assertEquals(1, again.get("parameters").get("ledgerReplayOf").asInt());
        assertTrue(err.toString().contains("no cost"), err.toString());
        assertEquals(Main.EXIT_BUDGET, run(mean(data, "--fresh")), "--fresh spends again: over the budget");
        assertTrue(err.toString().contains("epsilon left"), err.toString());
        assertEquals(0, run("ledger", "show", "d", "--ledger", ledger.toString(), "--json"));
        JsonNode show = Json.MAPPER.readTree(out.toString());
        assertEquals(1, show.get("releases").size());
        assertTrue(show.get("spent").get("epsilon").asDouble() <= 1.0);
        assertEquals("PASS", show.get("releases").get(0).get("status").asText());
        assertEquals(0, run("ledger", "list", "--ledger", ledger.toString()));
        assertTrue(out.toString().contains("d "), out.toString());
        assertEquals(0, run("ledger", "export", "d", "--ledger", ledger.toString()));
        assertTrue(Json.MAPPER.readTree(out.toString()).get("releases").get(0).has("outcome"));
    }

    @Test
    void theComposedReleasesChargeTheLedgerToo() throws Exception {
        // pca, regress and covariance are private commands like mean: one charge each, replayed at no cost
        String[][] commands = {
            {"pca", "--input", data.toString(), "--k", "1", "--radius", "4", "--rho", "0.002"},
            {"regress", "--input", data.toString(), "--target", "1", "--feature-bound", "3", "--target-bound", "2",
                "--rho", "0.002"},
            {"covariance", "--input", data.toString(), "--radius", "4", "--rho", "0.002"},
            {"second-moment", "--input", data.toString(), "--radius", "4", "--rho", "0.002"},
            {"pca", "--input", data.toString(), "--k", "1", "--radius", "4", "--rho", "0.002", "--method", "auto"}};
        for (String[] c : commands) {
            String[] args = java.util.Arrays.copyOf(c, c.length + 5);
            System.arraycopy(new String[] {"--ledger", ledger.toString(), "--dataset", "d", "--json"}, 0, args,
                    c.length, 5);
            assertEquals(0, run(args), c[0] + ": " + err);
            JsonNode first = Json.MAPPER.readTree(out.toString());
            assertEquals(0, run(args), c[0] + ": " + err);
            JsonNode again = Json.MAPPER.readTree(out.toString());
            assertTrue(again.get("parameters").has("ledgerReplayOf"), c[0] + " is replayed: " + again);
            assertEquals(first.get("guarantee"), again.get("guarantee"));
        }
        assertEquals(0, run("ledger", "show", "d", "--ledger", ledger.toString(), "--json"));
        assertEquals(commands.length, Json.MAPPER.readTree(out.toString()).get("releases").size(),
                "one charge per command");
    }

    /**
     * The charge precedes the data (issue 25 item 3): on a file whose first line is a well-formed row and whose
     * second is not, a release within the budget is charged, then fails reading (exit 1) and its charge stays
     * (refunding on a data error one neighbour could trigger would leak); the same query again is over the budget
     * and exits 4 with the budget left, the malformed row never reached. Charging after reading would make both
     * exit 1.
     */
    @Test
    void overBudgetIsRefusedBeforeTheDataAreRead() throws Exception {
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "1,2\n3,not-a-number\n5,6\n");
        assertEquals(Main.EXIT_ERROR, run(mean(bad)), err.toString());
        assertTrue(err.toString().contains("bad.csv"), "a data error, after the charge: " + err);
        assertEquals(0, run("ledger", "show", "d", "--ledger", ledger.toString(), "--json"));
        JsonNode show = Json.MAPPER.readTree(out.toString());
        assertEquals(1, show.get("releases").size(), "the charge stays");
        assertEquals("charged", show.get("releases").get(0).get("status").asText());
        assertEquals(Main.EXIT_BUDGET, run(mean(bad)), "refused before the malformed row is read: " + err);
        assertTrue(err.toString().contains("epsilon left"), "the remaining budget is printed: " + err);
        assertTrue(!err.toString().contains("not-a-number") && !err.toString().contains("line 2"), err.toString());
        assertEquals("", out.toString());
        // nothing but the schema is read before the charge: a file without read permission is refused by the
        // schema read (exit 1) and charges nothing
        Path locked = dir.resolve("locked.csv");
        Files.writeString(locked, "1,2\n");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        if (!Files.isReadable(locked)) { // root reads anything
            assertEquals(Main.EXIT_ERROR, run(mean(locked)));
            assertEquals(0, run("ledger", "show", "d", "--ledger", ledger.toString(), "--json"));
            assertEquals(1, Json.MAPPER.readTree(out.toString()).get("releases").size());
        }
    }

    /**
     * The replay key is made of public facts before the data are read: the same query on the same dataset is a
     * replay even when the file has changed (the dataset's name stands for its data); another option value is
     * another query.
     */
    @Test
    void theReplayKeyIsThePublicQuery() throws Exception {
        assertEquals(0, run(mean(data)));
        JsonNode first = Json.MAPPER.readTree(out.toString());
        assertEquals(0, run("ledger", "show", "d", "--ledger", ledger.toString(), "--json"));
        String key = Json.MAPPER.readTree(out.toString()).get("releases").get(0).get("parameters").asText();
        assertTrue(key.startsWith("mean ") && key.contains("--clip=5") && key.contains("--rho=0.02")
                && key.contains(" d=2") && key.contains(" stated="), key);
        assertTrue(!key.contains("x.csv") && !key.contains("n="), "no file name, no n: " + key);
        assertEquals(0, run(mean(data)));
        assertEquals(first.get("mean"), Json.MAPPER.readTree(out.toString()).get("mean"));
        assertEquals(Main.EXIT_BUDGET, run(mean(data, "--centre", "0.5")), "another centre is another query");
    }

    /**
     * {@code --method auto} picks its method from n (public under replace-one, unknown before the data are read):
     * the ledger is charged the (epsilon, delta) budget, which the chosen method's guarantee fits.
     */
    @Test
    void autoIsChargedItsEpsilonDeltaBudget() throws Exception {
        String[] args = {"mean", "--input", data.toString(), "--bounds", "-3:3", "--epsilon", "0.4", "--ledger",
            ledger.toString(), "--dataset", "d", "--json"};
        assertEquals(0, run(args), err.toString());
        assertEquals(0, run(args), err.toString());
        assertTrue(Json.MAPPER.readTree(out.toString()).get("parameters").has("ledgerReplayOf"));
        assertEquals(0, run("ledger", "show", "d", "--ledger", ledger.toString(), "--json"));
        JsonNode r = Json.MAPPER.readTree(out.toString()).get("releases");
        assertEquals(1, r.size());
        assertEquals("mean.auto", r.get(0).get("mechanism").asText());
    }

    @Test
    void theRelationMustMatchAndTheDatasetExist() {
        assertEquals(0, run("ledger", "create", "ar", "--ledger", ledger.toString(), "--epsilon", "1", "--delta",
                "1e-6", "--relation", "add-remove"));
        String[] args = mean(data);
        args[12] = "ar";
        assertEquals(Main.EXIT_ERROR, run(args));
        assertTrue(err.toString().contains("relation"), err.toString());
        args[12] = "nope";
        assertEquals(Main.EXIT_ERROR, run(args));
        assertTrue(err.toString().contains("no dataset 'nope'"), err.toString());
    }

    /** Exit 1, the problem named, nothing released, the input not read (it does not exist). */
    void refused(String problem) {
        Path absent = dir.resolve("absent.csv");
        assertEquals(Main.EXIT_ERROR, run(mean(absent)), err.toString());
        assertTrue(err.toString().contains(problem), err.toString());
        assertTrue(!err.toString().contains("absent.csv"), "the input must not be read first: " + err);
        assertEquals("", out.toString());
    }

    @Test
    void badLedgersAreRefusedBeforeTheDataAreRead() throws Exception {
        Path keep = ledger;
        ledger = dir.resolve("missing.db");
        refused("does not exist");
        ledger = dir.resolve("foreign.db");
        Files.writeString(ledger, "not a database at all\n");
        refused("not a SQLite database");
        ledger = dir.resolve("trunc.db");
        Files.copy(keep, ledger);
        try (RandomAccessFile f = new RandomAccessFile(ledger.toFile(), "rw")) {
            f.setLength(200);
        }
        refused("truncated");
        ledger = dir.resolve("ro.db");
        Files.copy(keep, ledger);
        Files.setPosixFilePermissions(ledger, PosixFilePermissions.fromString("r--------"));
        refused("read-only");
        ledger = dir.resolve("notable.db");
        Files.copy(keep, ledger);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ledger); Statement s = c.createStatement()) {
            s.execute("DROP TABLE dpgauss_dataset");
        }
        refused("table dpgauss_dataset is missing");
        ledger = dir.resolve("version.db");
        Files.copy(keep, ledger);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ledger); Statement s = c.createStatement()) {
            s.execute("UPDATE dpgauss_schema SET version = 99");
        }
        refused("schema version 99");
        loc = "jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2";
        refused("cannot reach the PostgreSQL server");
        loc = null;
        ledger = keep;
        System.setProperty("dpgauss.ledger.busyTimeoutMs", "300");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ledger); Statement s = c.createStatement()) {
            s.execute("BEGIN EXCLUSIVE");
            Path absent = dir.resolve("absent.csv");
            assertEquals(Main.EXIT_ERROR, run(mean(absent)));
            assertTrue(err.toString().contains("locked"), err.toString());
            s.execute("ROLLBACK");
        } finally {
            System.clearProperty("dpgauss.ledger.busyTimeoutMs");
        }
    }
}
