package org.dpgauss.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.dpgauss.ledger.Ledger;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.Release;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LedgerCharge#chargeQuery} and {@link LedgerCharge#release}: a release charged before its data are read
 * must, once stated on the data, cost what was charged (docs/ledger.md "Order of events").
 */
class LedgerChargeTest {

    private static final NeighbouringRelation R1 = NeighbouringRelation.REPLACE_ONE;

    @TempDir
    Path dir;

    private static Statement zcdp(double rho) {
        PublicContext pc = PublicContext.forPlanning(100, 2, R1, 1e-6);
        return Statement.builder(pc, "mean.test", PrivacyGuarantee.zcdp(R1, Zcdp.of(rho), 1e-6, true, null))
                .accounting(Release.zcdp("mean.test", R1, Zcdp.of(rho))).build();
    }

    @Test
    void aChargeCoversTheSameCostOrAnEpsilonDeltaBoundTheGuaranteeFits() {
        Release charged = Release.zcdp("x", R1, Zcdp.of(0.02));
        assertTrue(LedgerCharge.covers(charged, zcdp(0.02)));
        assertFalse(LedgerCharge.covers(charged, zcdp(0.03)), "more than charged");
        assertFalse(LedgerCharge.covers(charged, zcdp(0.01)), "another cost is a bug even when smaller");
        // rho = 0.02 at delta 1e-6 converts to epsilon ~0.90 (CKS20 Cor. 13)
        assertTrue(LedgerCharge.covers(Release.approxDp("x", R1, ApproxDp.of(1, 1e-6)), zcdp(0.02)));
        assertFalse(LedgerCharge.covers(Release.approxDp("x", R1, ApproxDp.of(0.8, 1e-6)), zcdp(0.02)));
        assertFalse(LedgerCharge.covers(Release.approxDp("x", R1, ApproxDp.of(1, 1e-7)), zcdp(0.02)));
    }

    @Test
    void aStatementThatCostsOtherThanTheChargeFailsLoudlyAndTheChargeStays() {
        try (Ledger l = Ledger.openOrCreate(dir.resolve("l.db").toString())) {
            l.createDataset("d", R1, ApproxDp.of(1, 1e-6));
            RandomSource random = RandomSource.fromOption(1L);
            LedgerCharge c = LedgerCharge.chargeQuery(l, "d", "mean.test", "q", Release.zcdp("mean.test", R1,
                    Zcdp.of(0.02)), random, false);
            assertFalse(c.isReplay());
            assertThrows(IllegalStateException.class, () -> c.release(zcdp(0.03), random, s -> {
                throw new AssertionError("nothing is computed");
            }));
            assertEquals(1, l.entries("d").size(), "the charge stays");
            PrivateRelease r = c.release(zcdp(0.02), random, s -> Releases.assemble(s,
                    Outcome.pass().scalar("m", 1.5).build(), random));
            assertEquals(1.5, r.values().get("m").asScalar());
            LedgerCharge again = LedgerCharge.chargeQuery(l, "d", "mean.test", "q", Release.zcdp("mean.test", R1,
                    Zcdp.of(0.02)), random, false);
            assertTrue(again.isReplay());
            PrivateRelease replay = again.release(zcdp(0.02), random, s -> {
                throw new AssertionError("a replay computes nothing");
            });
            assertEquals(1.5, replay.values().get("m").asScalar());
            assertTrue(replay.parameters().has("ledgerReplayOf"));
            assertEquals(1, l.entries("d").size(), "a replay costs nothing");
        }
    }
}
