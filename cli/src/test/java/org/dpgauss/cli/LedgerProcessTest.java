package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.dpgauss.ledger.Ledger;
import org.dpgauss.ledger.LedgerEntry;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger under real processes (issue 25): {@code dpgauss} command lines, each its own JVM started with the
 * test class path, racing on one SQLite ledger and killed with SIGKILL.
 */
class LedgerProcessTest {

    @TempDir
    Path dir;

    Path data;

    @BeforeEach
    void writeData() throws Exception {
        data = dir.resolve("x.csv");
        StringBuilder sb = new StringBuilder();
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 300; i++) {
            sb.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f%n", r.nextDouble() * 2 - 1, r.nextDouble(),
                    r.nextDouble() - 0.5));
        }
        Files.writeString(data, sb);
    }

    static Process start(List<String> args, Path out, String... jvm) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-XX:+UseSerialGC");
        cmd.addAll(List.of(jvm));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().remove("DPGAUSS_LEDGER");
        pb.environment().remove("DPGAUSS_DATASET");
        return pb.start();
    }

    /** How many zCDP releases of {@code rho} the accountant admits on {@code budget} (replace-one). */
    static int admitted(double rho, ApproxDp budget) {
        PrivacyAccountant a = PrivacyAccountant.create(NeighbouringRelation.REPLACE_ONE, budget);
        int k = 0;
        try {
            while (true) {
                a.spend(Release.zcdp("q", NeighbouringRelation.REPLACE_ONE, Zcdp.of(rho)));
                k++;
            }
        } catch (BudgetExceededException e) {
            return k;
        }
    }

    static int cli(String... args) {
        return Main.run(args, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    }

    List<String> mean(Object ledger, String clip, double rho) {
        return List.of("mean", "--input", data.toString(), "--method", "clipped", "--clip", clip, "--rho",
                Double.toString(rho), "--ledger", ledger.toString(), "--dataset", "d", "--progress", "never");
    }

    @Test
    void eightProcessesRaceOnABudgetThatAdmitsThree() throws Exception {
        race(dir.resolve("race.db").toString());
    }

    @Test
    @Tag("slow")
    void eightProcessesRaceOnPostgres() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(org.dpgauss.ledger.PostgresServer.unavailable() == null,
                org.dpgauss.ledger.PostgresServer.unavailable());
        try (org.dpgauss.ledger.PostgresServer pg = org.dpgauss.ledger.PostgresServer.start()) {
            race(pg.newDatabase());
        }
    }

    void race(String ledger) throws Exception {
        double rho = 0.02;
        // the smallest epsilon that admits exactly 3 (the accountant decides; 3 * 0.02 = 0.06 -> eps ~ 1.6)
        double eps = 1.0;
        while (admitted(rho, ApproxDp.of(eps, 1e-6)) < 3) {
            eps += 0.01;
        }
        assertEquals(3, admitted(rho, ApproxDp.of(eps, 1e-6)));
        assertEquals(0, cli("ledger", "create", "d", "--ledger", ledger.toString(), "--epsilon",
                Double.toString(eps), "--delta", "1e-6", "--relation", "replace-one"));
        int n = 8;
        List<Process> ps = new ArrayList<>();
        List<Path> outs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path out = dir.resolve("race-" + i + ".txt");
            outs.add(out);
            ps.add(start(mean(ledger, Double.toString(3 + i), rho), out)); // distinct queries: no replay
        }
        int ok = 0;
        int refused = 0;
        for (int i = 0; i < n; i++) {
            assertTrue(ps.get(i).waitFor(120, TimeUnit.SECONDS), "process " + i + " hung");
            int rc = ps.get(i).exitValue();
            String text = Files.readString(outs.get(i));
            if (rc == 0) {
                ok++;
                assertTrue(text.contains("PASS"), text);
            } else {
                assertEquals(Main.EXIT_BUDGET, rc, text);
                assertTrue(text.contains("epsilon left"), text);
                assertTrue(!text.contains("mean:"), "a refused process releases nothing: " + text);
                refused++;
            }
        }
        assertEquals(3, ok);
        assertEquals(n - 3, refused);
        try (Ledger l = Ledger.open(ledger.toString())) {
            assertEquals(3, l.entries("d").size());
            assertTrue(l.verify().isEmpty(), l.verify().toString());
        }
    }

    @Test
    void aProcessKilledAfterItsChargeKeepsTheCharge() throws Exception {
        Path ledger = dir.resolve("kill.db");
        assertEquals(0, cli("ledger", "create", "d", "--ledger", ledger.toString(), "--epsilon", "1", "--delta",
                "1e-6", "--relation", "replace-one"));
        Process p = start(mean(ledger, "5", 0.01), dir.resolve("kill.txt"), "-Ddpgauss.test.pauseAfterChargeMs=60000");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int entries = 0;
        while (entries == 0 && System.nanoTime() < deadline && p.isAlive()) {
            Thread.sleep(50);
            try (Ledger l = Ledger.open(ledger.toString())) {
                entries = l.entries("d").size();
            }
        }
        assertEquals(1, entries, "the charge is committed before the computation");
        p.destroyForcibly(); // SIGKILL on Linux
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(137, p.exitValue());
        try (Ledger l = Ledger.open(ledger.toString())) {
            List<LedgerEntry> es = l.entries("d");
            assertEquals(1, es.size());
            assertEquals(LedgerEntry.CHARGED, es.get(0).status());
            assertEquals(1, l.report("d").releases().size(), "the killed release counts in the composition");
            assertTrue(l.verify().isEmpty(), l.verify().toString());
        }
        // the same query again is charged again: a charge without an outcome is never replayed; it is waited for
        // (it might be in flight) only up to the replay wait, here shortened from its 60 s default
        String old = System.getProperty("dpgauss.ledger.replayWaitMs");
        System.setProperty("dpgauss.ledger.replayWaitMs", "500");
        try {
            assertEquals(0, cli(mean(ledger, "5", 0.01).toArray(new String[0])));
        } finally {
            if (old == null) {
                System.clearProperty("dpgauss.ledger.replayWaitMs");
            } else {
                System.setProperty("dpgauss.ledger.replayWaitMs", old);
            }
        }
        try (Ledger l = Ledger.open(ledger.toString())) {
            assertEquals(2, l.entries("d").size());
        }
    }

    /**
     * An identical query started while the first is in flight (charged, paused before computing by the test-only
     * hook) waits for it and replays it: both processes exit 0 with the same values and the ledger holds one
     * charge. The budget admits one such release only, so a second charge would be refused (exit 4).
     */
    @Test
    void anIdenticalQueryInFlightIsAwaitedAndReplayedAcrossProcesses() throws Exception {
        Path ledger = dir.resolve("inflight.db");
        double rho = 0.02;
        double eps = 1.0;
        while (admitted(rho, ApproxDp.of(eps, 1e-6)) < 1) {
            eps += 0.01;
        }
        assertEquals(1, admitted(rho, ApproxDp.of(eps, 1e-6)));
        assertEquals(0, cli("ledger", "create", "d", "--ledger", ledger.toString(), "--epsilon",
                Double.toString(eps), "--delta", "1e-6", "--relation", "replace-one"));
        Path out1 = dir.resolve("first.txt");
        Path out2 = dir.resolve("second.txt");
        Process first = start(mean(ledger, "5", rho), out1, "-Ddpgauss.test.pauseAfterChargeMs=4000");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int entries = 0;
        while (entries == 0 && System.nanoTime() < deadline && first.isAlive()) {
            Thread.sleep(50);
            try (Ledger l = Ledger.open(ledger.toString())) {
                entries = l.entries("d").size();
            }
        }
        assertEquals(1, entries, "the first is charged and paused before computing");
        Process second = start(mean(ledger, "5", rho), out2);
        assertTrue(second.waitFor(120, TimeUnit.SECONDS), "the second hung");
        assertTrue(first.waitFor(120, TimeUnit.SECONDS), "the first hung");
        String t1 = Files.readString(out1);
        String t2 = Files.readString(out2);
        assertEquals(0, first.exitValue(), t1);
        assertEquals(0, second.exitValue(), t2);
        assertTrue(t2.contains("at no cost"), "the second is a replay: " + t2);
        assertEquals(values(t1), values(t2), t1 + "\n---\n" + t2);
        assertTrue(!values(t1).isEmpty(), t1);
        StringWriter json = new StringWriter();
        assertEquals(0, Main.run(new String[] {"ledger", "show", "d", "--ledger", ledger.toString(), "--json"},
                new PrintWriter(json, true), new PrintWriter(new StringWriter())));
        assertEquals(1, json.toString().split("\"sequence\"", -1).length - 1, json.toString());
        try (Ledger l = Ledger.open(ledger.toString())) {
            assertEquals(1, l.entries("d").size(), "one charge");
            assertEquals("PASS", l.entries("d").get(0).status());
        }
    }

    /** The released values of a {@code mean} output: its {@code mean:} line. */
    static List<String> values(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\\R")) {
            if (line.strip().startsWith("mean:")) {
                out.add(line);
            }
        }
        return out;
    }

    @Test
    @Tag("slow")
    void fiftyRandomKillsNeverLeaveTheLedgerUnreadableOrUnderCharged() throws Exception {
        Path ledger = dir.resolve("random.db");
        assertEquals(0, cli("ledger", "create", "d", "--ledger", ledger.toString(), "--epsilon", "5", "--delta",
                "1e-6", "--relation", "replace-one"));
        SplittableRandom r = new SplittableRandom(25);
        int released = 0;
        int killedAfterCharge = 0;
        for (int run = 0; run < 50; run++) {
            int before;
            try (Ledger l = Ledger.open(ledger.toString())) {
                before = l.entries("d").size();
            }
            Path out = dir.resolve("run-" + run + ".txt");
            // every fifth run is killed once its charge is recorded (it then pauses 30 s), so that the window between
            // the charge and the outcome is hit however slowly the JVMs start on a loaded machine; the others at a
            // random time
            boolean afterCharge = run % 5 == 0;
            int pause = r.nextInt(400);
            Process p = start(mean(ledger, Double.toString(1 + run), 1e-4), out,
                    "-Ddpgauss.test.pauseAfterChargeMs=" + (afterCharge ? 30_000 : pause));
            boolean done;
            if (afterCharge) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (p.isAlive() && System.nanoTime() < deadline && entries(ledger) == before) {
                    Thread.sleep(20);
                }
                done = !p.isAlive();
            } else {
                done = p.waitFor(r.nextInt(2500), TimeUnit.MILLISECONDS);
            }
            if (!done) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
            int rc = p.exitValue();
            try (Ledger l = Ledger.open(ledger.toString())) { // readable after every kill
                assertTrue(l.verify().isEmpty(), "run " + run + ": " + l.verify());
                List<LedgerEntry> es = l.entries("d");
                if (rc == 0) {
                    released++;
                    assertEquals(before + 1, es.size(), "run " + run + " released without a charge");
                    assertEquals("PASS", es.get(es.size() - 1).status());
                } else {
                    assertTrue(es.size() == before || es.size() == before + 1, "run " + run);
                    if (es.size() == before + 1) {
                        // killed between the charge and the outcome (charged), or after the outcome was recorded
                        String st = es.get(es.size() - 1).status();
                        assertTrue(st.equals(LedgerEntry.CHARGED) || st.equals("PASS"), st);
                        if (st.equals(LedgerEntry.CHARGED)) {
                            killedAfterCharge++;
                        }
                    }
                }
                assertEquals(es.size(), l.report("d").releases().size());
            }
        }
        assertTrue(released > 0 && killedAfterCharge > 0, "released " + released + ", killed after charge "
                + killedAfterCharge + ": the kill times must cover both");
    }

    private static int entries(Path ledger) {
        try (Ledger l = Ledger.open(ledger.toString())) {
            return l.entries("d").size();
        }
    }
}
