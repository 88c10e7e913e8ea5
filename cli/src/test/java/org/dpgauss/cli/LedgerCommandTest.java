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
        // the same query again: the failed release never completes, so it is waited for only up to the replay
        // wait (here shortened from its 60 s default: docs/ledger.md "Replay"), then charged afresh, and refused
        String wait = System.getProperty("dpgauss.ledger.replayWaitMs");
        System.setProperty("dpgauss.ledger.replayWaitMs", "300");
        try {
            assertEquals(Main.EXIT_BUDGET, run(mean(bad)), "refused before the malformed row is read: " + err);
        } finally {
            if (wait == null) {
                System.clearProperty("dpgauss.ledger.replayWaitMs");
            } else {
                System.setProperty("dpgauss.ledger.replayWaitMs", wait);
            }
        }
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
     * {@code mean --method auto}: without {@code --variances} its choice (box, box-pure, ball) does not depend on n
     * and is charged its own cost, in a ledger whose first release was zCDP too; with {@code --variances} it may pick
     * a method that needs a minimum n, known only after the charge: it is charged its (epsilon, delta) budget as
     * {@code mean.auto}, which the chosen method's guarantee fits.
     */
    @Test
    void autoIsChargedItsChoiceOrItsEpsilonDeltaBudget() throws Exception {
        assertEquals(0, run("ledger", "create", "big", "--ledger", ledger.toString(), "--epsilon", "10", "--delta",
                "1e-6", "--relation", "replace-one"));
        String[] clipped = mean(data);
        clipped[12] = "big";
        assertEquals(0, run(clipped), err.toString());
        String[] auto = {"mean", "--input", data.toString(), "--bounds", "-3:3", "--epsilon", "0.4", "--ledger",
            ledger.toString(), "--dataset", "big", "--json"};
        assertEquals(0, run(auto), err.toString());
        String method = Json.MAPPER.readTree(out.toString()).get("method").asText();
        assertEquals(0, run(auto), err.toString());
        assertTrue(Json.MAPPER.readTree(out.toString()).get("parameters").has("ledgerReplayOf"));
        assertEquals(0, run("ledger", "show", "big", "--ledger", ledger.toString(), "--json"));
        JsonNode r = Json.MAPPER.readTree(out.toString()).get("releases");
        assertEquals(2, r.size());
        assertTrue(r.get(1).get("mechanism").asText().startsWith(method.startsWith("box") ? "mean.box" : "mean."
                + method), "charged as the method it runs (" + method + "): " + r.get(1));
        assertEquals("PASS", r.get(1).get("status").asText());

        assertEquals(0, run("ledger", "create", "dp", "--ledger", ledger.toString(), "--epsilon", "1", "--delta",
                "1e-6", "--relation", "replace-one"));
        String[] withProxy = {"mean", "--input", data.toString(), "--bounds", "-3:3", "--variances", "1,1",
            "--epsilon", "0.4", "--ledger", ledger.toString(), "--dataset", "dp", "--json"};
        assertEquals(0, run(withProxy), err.toString());
        assertEquals(0, run("ledger", "show", "dp", "--ledger", ledger.toString(), "--json"));
        JsonNode e = Json.MAPPER.readTree(out.toString()).get("releases").get(0);
        assertEquals("mean.auto", e.get("mechanism").asText());
        assertEquals("APPROX_DP", e.get("costKind").asText());
        assertEquals("PASS", e.get("status").asText());
    }

    /**
     * Every private command with {@code --ledger}: stated for a stand-in n before the data are read, charged, then
     * stated on the data, where its cost must be the one charged (a mechanism whose cost depended on n would fail
     * here with an IllegalStateException), and replayed at no cost. A FAIL (exit 3) is a release too. About 25 s
     * on the development machine: slow.
     */
    @Test
    @org.junit.jupiter.api.Tag("slow")
    void everyPrivateCommandChargesBeforeReadingAndReplays() throws Exception {
        Path x = dir.resolve("y.csv");
        Path labelled = dir.resolve("lab.csv");
        java.util.Random rnd = new java.util.Random(3);
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            double u = rnd.nextGaussian();
            double v = rnd.nextGaussian();
            double w = rnd.nextGaussian();
            a.append(u).append(',').append(v).append(',').append(w).append('\n');
            if (i < 200) { // blr and gpr: n x n work
                b.append(u).append(',').append(v).append(',').append(u + v > 0 ? 1 : -1).append('\n');
            }
        }
        Files.writeString(x, a);
        Files.writeString(labelled, b);
        Path out = dir.resolve("p.npy");
        String in = x.toString();
        String[][] replaceOne = {
            {"mean", "--input", in, "--method", "clipped", "--clip", "3", "--epsilon", "1"},
            {"mean", "--input", in, "--method", "clipped", "--clip", "auto", "--rho", "0.5"},
            {"mean", "--input", in, "--bounds", "-3:3", "--epsilon", "1"},
            {"mean", "--input", in, "--method", "box-pure", "--bounds", "-3:3", "--epsilon", "1"},
            {"mean", "--input", in, "--method", "anisotropic", "--variances", "1,1,1", "--epsilon", "5"},
            {"mean", "--input", in, "--method", "coordinate", "--variances", "1,1,1", "--epsilon", "5"},
            {"sample", "--input", in, "--epsilon", "1", "--delta", "0.1", "--constants", "n1=500,n2=150"},
            {"second-moment", "--input", in, "--clip", "3", "--rho", "0.5", "--method", "coinpress"},
            {"second-moment", "--input", in, "--clip", "3", "--rho", "0.5", "--method", "recursive",
                "--min-eigenvalue", "0.5"},
            {"second-moment", "--input", in, "--clip", "3", "--rho", "0.5", "--method", "recursive",
                "--lambda-epsilon", "1"}};
        String[][] addRemove = {
            {"project", "--input", in, "--output", out.toString(), "--epsilon", "2", "--delta", "0.01", "--rank", "2",
                "--row-bound", "4"},
            {"mechanism", "blr", "--input", labelled.toString(), "--max-rows", "4000", "--epsilon", "1", "--delta",
                "1e-5", "--lambda", "1", "--row-bound", "3"},
            {"mechanism", "gpr", "--input", labelled.toString(), "--max-rows", "4000", "--epsilon", "1", "--delta", "1e-5",
                "--lengthscale", "1", "--kernel-variance", "1", "--noise-variance", "1", "--label-bound", "3",
                "--query", "0,0"}};
        int k = 0;
        for (String[][] group : new String[][][] {replaceOne, addRemove}) {
            for (String[] c : group) {
                String name = "c" + (++k);
                assertEquals(0, run("ledger", "create", name, "--ledger", ledger.toString(), "--epsilon", "100",
                        "--delta", "0.5", "--relation", group == replaceOne ? "replace-one" : "add-remove"));
                String[] args = java.util.Arrays.copyOf(c, c.length + 5);
                System.arraycopy(new String[] {"--ledger", ledger.toString(), "--dataset", name, "--json"}, 0, args,
                        c.length, 5);
                int first = run(args);
                assertTrue(first == 0 || first == Main.EXIT_FAIL, String.join(" ", c) + ": " + err);
                assertEquals(first, run(args), String.join(" ", c) + ": " + err);
                assertTrue(err.toString().contains("no cost"), String.join(" ", c) + " is replayed: " + err);
                assertEquals(0, run("ledger", "show", name, "--ledger", ledger.toString(), "--json"));
                assertEquals(1, Json.MAPPER.readTree(this.out.toString()).get("releases").size(), name);
            }
        }
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
