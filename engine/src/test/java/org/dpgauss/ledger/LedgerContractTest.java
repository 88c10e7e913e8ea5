package org.dpgauss.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.AccountingReport;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivacySession;
import org.dpgauss.release.PrivateRelease;
import org.junit.jupiter.api.Test;

/**
 * The ledger's contract, run on every store (one subclass each, as the engine contract is): datasets, charges up to
 * the budget and not one more, replays at no cost, the relation check, the stored costs composing exactly as the
 * in-memory accountant composes them, durability across reopening, concurrent charges.
 */
abstract class LedgerContractTest {

    static final NeighbouringRelation R1 = NeighbouringRelation.REPLACE_ONE;

    /** @return the location of a new, empty ledger (a file that does not exist, or an empty database) */
    abstract String newLedger();

    private static Release rho(double r) {
        return Release.zcdp("q", R1, Zcdp.of(r));
    }

    @Test
    void createListAndShowDatasets() {
        String url = newLedger();
        try (Ledger l = Ledger.openOrCreate(url)) {
            l.createDataset("b", R1, ApproxDp.of(1, 1e-6));
            l.createDataset("a", NeighbouringRelation.ADD_REMOVE, ApproxDp.of(2, 1e-7));
            assertEquals(List.of("a", "b"), l.datasets().stream().map(DatasetBudget::name).toList());
            assertEquals(NeighbouringRelation.ADD_REMOVE, l.dataset("a").relation());
            assertEquals(ApproxDp.of(2, 1e-7), l.dataset("a").budget());
            assertThrows(LedgerException.class, () -> l.createDataset("a", R1, ApproxDp.of(1, 1e-6)));
            assertThrows(LedgerException.class, () -> l.dataset("missing"));
            assertEquals(0, l.report("b").releases().size());
            assertTrue(l.verify().isEmpty(), l.verify().toString());
        }
    }

    @Test
    void chargesUpToTheBudgetAndNotOneMore() {
        String url = newLedger();
        try (Ledger l = Ledger.openOrCreate(url)) {
            l.createDataset("d", R1, ApproxDp.of(1, 1e-6));
            // rho = 0.02 -> eps 0.90 at delta 1e-6: one fits, two do not (two: eps 1.30)
            Charge c = l.charge("d", "m", "{k=1}", false, rho(0.02), false);
            assertTrue(c.replayOf().isEmpty());
            BudgetExceededException e = assertThrows(BudgetExceededException.class,
                    () -> l.charge("d", "m", "{k=2}", false, rho(0.02), false));
            assertTrue(e.getMessage().contains("epsilon left"), e.getMessage());
            assertEquals(1, l.entries("d").size(), "a refused charge records nothing");
            // a smaller one still fits: the rule is the accountant's, not a count
            l.charge("d", "m", "{k=3}", false, rho(0.001), false);
            assertEquals(2, l.entries("d").size());
            assertTrue(l.verify().isEmpty(), l.verify().toString());
        }
    }

    @Test
    void storedCostsComposeExactlyAsTheAccountantDoes() {
        String url = newLedger();
        // the session's privacy filter (docs/design/adaptive-composition.md): the first release fixes the rule; an
        // (eps, delta) release first admits the zCDP and Gaussian ones after it, converted (Gaussian pairs are refused)
        List<Release> costs = List.of(
                Release.approxDp("c", R1, ApproxDp.of(0.05, 1e-9)),
                Release.zcdp("a", R1, Zcdp.of(0.01)),
                Release.gaussian("b", R1, 2.0, 7.3));
        PrivacyAccountant mem = PrivacyAccountant.create(R1, ApproxDp.of(3, 1e-6));
        try (Ledger l = Ledger.openOrCreate(url)) {
            l.createDataset("d", R1, ApproxDp.of(3, 1e-6));
            int i = 0;
            for (Release r : costs) {
                mem.spend(r);
                l.charge("d", "m", "{i=" + i++ + "}", false, r, false);
            }
        }
        try (Ledger l = Ledger.open(url)) { // durable: read back by a new connection
            AccountingReport stored = l.report("d");
            assertEquals(mem.report().spent(), stored.spent());
            assertEquals(mem.report().composition(), stored.composition());
            List<LedgerEntry> es = l.entries("d");
            for (int i = 0; i < costs.size(); i++) {
                assertEquals(costs.get(i).kind(), es.get(i).cost().kind());
                assertEquals(costs.get(i).describeGuarantee(), es.get(i).cost().describeGuarantee());
                assertEquals(i + 1, es.get(i).sequence());
                assertEquals(LedgerEntry.CHARGED, es.get(i).status());
            }
        }
    }

    @Test
    void aRepeatedQueryIsReplayedAtNoCostAndFreshSpendsAgain() {
        String url = newLedger();
        try (Ledger l = Ledger.openOrCreate(url)) {
            l.createDataset("d", R1, ApproxDp.of(10, 1e-6));
            Charge c = l.charge("d", "m", "{p=1}", false, rho(0.1), false);
            // not completed yet, and waiting disabled: a second identical query is charged (its outcome is unknown)
            Charge c2 = withReplayWait(0, () -> l.charge("d", "m", "{p=1}", false, rho(0.1), false));
            assertTrue(c2.replayOf().isEmpty());
            l.complete(c, "PASS", "PASS\nmean\tSCALAR\t1.5");
            Charge again = l.charge("d", "m", "{p=1}", false, rho(0.1), false);
            assertTrue(again.replayOf().isPresent());
            assertEquals("PASS\nmean\tSCALAR\t1.5", again.replayOf().get().outcome());
            assertEquals(2, l.entries("d").size(), "a replay costs nothing");
            assertTrue(l.charge("d", "m", "{p=2}", false, rho(0.1), false).replayOf().isEmpty());
            assertTrue(l.charge("d", "m2", "{p=1}", false, rho(0.1), false).replayOf().isEmpty());
            assertTrue(l.charge("d", "m", "{p=1}", true, rho(0.1), false).replayOf().isEmpty(),
                    "an insecure release never stands in for a secure one");
            assertTrue(l.charge("d", "m", "{p=1}", false, rho(0.1), true).replayOf().isEmpty(), "--fresh");
            assertEquals(6, l.entries("d").size());
            assertThrows(LedgerException.class, () -> l.complete(c, "PASS", "PASS"), "completed once");
        }
    }

    /** Runs {@code r} with {@link JdbcLedger#REPLAY_WAIT_PROPERTY} set to {@code ms}, then restores it. */
    static <T> T withReplayWait(long ms, java.util.function.Supplier<T> r) {
        String old = System.getProperty(JdbcLedger.REPLAY_WAIT_PROPERTY);
        System.setProperty(JdbcLedger.REPLAY_WAIT_PROPERTY, Long.toString(ms));
        try {
            return r.get();
        } finally {
            if (old == null) {
                System.clearProperty(JdbcLedger.REPLAY_WAIT_PROPERTY);
            } else {
                System.setProperty(JdbcLedger.REPLAY_WAIT_PROPERTY, old);
            }
        }
    }

    /**
     * An identical query that arrives while the first is in flight (charged, not completed) waits for it and
     * replays its outcome at no cost, even where the budget has no room for a second charge; a FAIL is replayed as
     * FAIL; an in-flight charge that never completes (its process died) is waited for no longer than the bound,
     * then the query is charged afresh. Two connections, as two processes would have.
     */
    @Test
    void anIdenticalQueryInFlightIsAwaitedAndReplayed() throws Exception {
        String url = newLedger();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Ledger first = Ledger.openOrCreate(url); Ledger second = Ledger.open(url)) {
            first.createDataset("d", R1, ApproxDp.of(1, 1e-6));
            // rho 0.02: one fits, two do not; the waiting query must not be refused
            Charge c = first.charge("d", "m", "{p=1}", false, rho(0.02), false);
            Future<Charge> waiting = pool.submit(() -> second.charge("d", "m", "{p=1}", false, rho(0.02), false));
            Thread.sleep(300);
            assertFalse(waiting.isDone(), "it waits while the first is in flight");
            first.complete(c, "PASS", "PASS\nmean\tSCALAR\t1.5");
            Charge r = waiting.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(r.replayOf().isPresent(), "replayed, not charged");
            assertEquals("PASS\nmean\tSCALAR\t1.5", r.replayOf().get().outcome());
            assertEquals(1, first.entries("d").size(), "one charge");

            // a FAIL in flight is replayed as the same FAIL
            first.createDataset("f", R1, ApproxDp.of(10, 1e-6));
            Charge cf = first.charge("f", "m", "{p=1}", false, rho(0.02), false);
            Future<Charge> waitingF = pool.submit(() -> second.charge("f", "m", "{p=1}", false, rho(0.02), false));
            Thread.sleep(200);
            first.complete(cf, "FAIL", "FAIL");
            LedgerEntry e = waitingF.get(30, java.util.concurrent.TimeUnit.SECONDS).replayOf().orElseThrow();
            assertEquals("FAIL", e.status());
            assertEquals(1, first.entries("f").size());

            // --fresh never waits
            assertTrue(second.charge("f", "m", "{p=2}", false, rho(0.02), false).replayOf().isEmpty());
            long t0 = System.nanoTime();
            assertTrue(second.charge("f", "m", "{p=2}", false, rho(0.02), true).replayOf().isEmpty());
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L);

            // abandoned: never completed, so after the (here short) bound the query is charged afresh; the ledger
            // stores charge times in whole seconds, so a wait of W ms ends between W - 1000 and W ms after the
            // charge: 1500 ms leaves at least 500 ms of waiting to see
            Charge abandoned = withReplayWait(1500, () -> second.charge("f", "m", "{p=3}", false, rho(0.02), false));
            assertTrue(abandoned.replayOf().isEmpty());
            long t1 = System.nanoTime();
            Charge afresh = withReplayWait(1500, () -> second.charge("f", "m", "{p=3}", false, rho(0.02), false));
            long waitedMs = (System.nanoTime() - t1) / 1_000_000;
            assertTrue(afresh.replayOf().isEmpty(), "charged afresh");
            assertTrue(waitedMs >= 300, "it waited for the in-flight charge first: " + waitedMs + " ms");
            assertEquals(5, first.entries("f").size());
            assertTrue(first.verify().isEmpty(), first.verify().toString());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theRelationMustBeTheDatasets() {
        String url = newLedger();
        try (Ledger l = Ledger.openOrCreate(url)) {
            l.createDataset("d", NeighbouringRelation.ADD_REMOVE, ApproxDp.of(1, 1e-6));
            LedgerException e = assertThrows(LedgerException.class,
                    () -> l.charge("d", "m", "{}", false, rho(0.01), false));
            assertTrue(e.getMessage().contains("relation"), e.getMessage());
            assertEquals(0, l.entries("d").size());
        }
    }

    @Test
    void concurrentChargesFromSeparateConnectionsNeverOverspend() throws Exception {
        String url = newLedger();
        try (Ledger l = Ledger.openOrCreate(url)) {
            l.createDataset("d", R1, ApproxDp.of(1, 1e-6));
        }
        // rho 0.004 each: how many fit is what the in-memory accountant admits (k < threads)
        int threads = 8;
        int k = admitted(0.004, ApproxDp.of(1, 1e-6));
        assertTrue(k >= 1 && k < threads, "k=" + k);
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            fs.add(pool.submit(() -> {
                try (Ledger l = Ledger.open(url)) {
                    l.charge("d", "m", "{t=" + id + "}", false, rho(0.004), false);
                    ok.incrementAndGet();
                } catch (BudgetExceededException e) {
                    refused.incrementAndGet();
                }
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        assertEquals(k, ok.get());
        assertEquals(threads - k, refused.get());
        try (Ledger l = Ledger.open(url)) {
            assertEquals(k, l.entries("d").size());
            assertTrue(l.verify().isEmpty(), l.verify().toString());
        }
    }

    /** How many zCDP releases of {@code r} the accountant admits on {@code budget}. */
    static int admitted(double r, ApproxDp budget) {
        PrivacyAccountant a = PrivacyAccountant.create(R1, budget);
        int k = 0;
        try {
            while (true) {
                a.spend(rho(r));
                k++;
            }
        } catch (BudgetExceededException e) {
            return k;
        }
    }

    @Test
    void aSessionWithALedgerChargesReplaysAndRefuses() {
        String url = newLedger();
        double[][] rows = new double[50][2];
        for (int i = 0; i < rows.length; i++) {
            rows[i][0] = i % 7 - 3;
            rows[i][1] = (i * 31 % 11) / 3.0;
        }
        Dataset data = Dataset.of(rows);
        try (Ledger l = Ledger.openOrCreate(url)) {
            l.createDataset("d", R1, ApproxDp.of(1, 1e-6));
            PrivacySession s = PrivacySession.builder(data).ledger(l, "d").open();
            assertEquals(ApproxDp.of(1, 1e-6), s.budget());
            PrivateRelease first = s.release(ClippedGaussianMean.builder().clipRadius(5).rho(0.02).build(2));
            PrivateRelease again = s.release(ClippedGaussianMean.builder().clipRadius(5).rho(0.02).build(2));
            assertFalse(first.parameters().has("ledgerReplayOf"));
            assertTrue(again.parameters().has("ledgerReplayOf"));
            assertEquals(first.value("mean"), again.value("mean"), "the stored values, not new noise");
            // a second session (another process, in effect) sees the spent budget
            PrivacySession other = PrivacySession.builder(data).ledger(l, "d").open();
            assertThrows(BudgetExceededException.class,
                    () -> other.release(ClippedGaussianMean.builder().clipRadius(4).rho(0.02).build(2)));
            assertEquals(1, l.entries("d").size());
            assertEquals("PASS", l.entries("d").get(0).status());
            assertThrows(IllegalArgumentException.class, () -> PrivacySession.builder(data)
                    .relation(NeighbouringRelation.ADD_REMOVE).ledger(l, "d").open());
        }
    }
}
