package org.dpgauss.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.ledger.Ledger;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code SparkPrivacySession.builder(..).ledger(..)}: charged once, replayed at no cost, refused across sessions. */
class SparkLedgerTest {

    private static final int D = 3;

    @TempDir
    Path dir;

    private static SparkPrivacySession open(Dataset<Row> table, Ledger l) {
        return SparkPrivacySession.builder(table).valueColumns(TestSpark.columns(D)).idColumn("id").ledger(l, "d")
                .context(ReleaseContext.of(CpuEngine.instance(), RandomSource.secure())).open();
    }

    @Test
    void chargedReplayedAndRefusedAcrossSessions() {
        Dataset<Row> table = TestSpark.table(TestSpark.gaussian(200, D, 3), 2, 1);
        try (Ledger l = Ledger.openOrCreate(dir.resolve("l.db").toString())) {
            l.createDataset("d", NeighbouringRelation.REPLACE_ONE, ApproxDp.of(1, 1e-6));
            PrivateRelease first;
            PrivateRelease again;
            try (SparkPrivacySession s = open(table, l)) {
                first = s.release(ClippedGaussianMean.builder().clipRadius(5).rho(0.02).build(D));
                again = s.release(ClippedGaussianMean.builder().clipRadius(5).rho(0.02).build(D));
            }
            assertFalse(first.parameters().has("ledgerReplayOf"));
            assertTrue(again.parameters().has("ledgerReplayOf"));
            assertEquals(first.value("mean"), again.value("mean"));
            try (SparkPrivacySession other = open(table, l)) {
                assertThrows(BudgetExceededException.class,
                        () -> other.release(ClippedGaussianMean.builder().clipRadius(4).rho(0.02).build(D)));
            }
            assertEquals(1, l.entries("d").size());
            assertEquals("PASS", l.entries("d").get(0).status());
        }
    }
}
