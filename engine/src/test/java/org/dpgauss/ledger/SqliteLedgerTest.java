package org.dpgauss.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on SQLite, and the bad files a SQLite ledger can meet: each a clear {@link LedgerException}. */
class SqliteLedgerTest extends LedgerContractTest {

    @TempDir
    Path dir;

    private int n;

    @Override
    String newLedger() {
        return dir.resolve("ledger-" + n++ + ".db").toString();
    }

    private Path ledgerWithDataset() {
        Path p = Path.of(newLedger());
        try (Ledger l = Ledger.openOrCreate(p.toString())) {
            l.createDataset("d", NeighbouringRelation.REPLACE_ONE, ApproxDp.of(1, 1e-6));
        }
        return p;
    }

    private static String refusal(Path p) {
        return assertThrows(LedgerException.class, () -> Ledger.open(p.toString()).close()).getMessage();
    }

    @Test
    void aNewLedgerIsOwnerOnlyAndWal() throws Exception {
        Path p = ledgerWithDataset();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p); Statement s = c.createStatement()) {
            var rs = s.executeQuery("PRAGMA journal_mode");
            rs.next();
            assertEquals("wal", rs.getString(1));
        }
    }

    @Test
    void missingFile() {
        assertTrue(refusal(dir.resolve("nope.db")).contains("does not exist"));
    }

    @Test
    void readOnlyFile() throws IOException {
        Path p = ledgerWithDataset();
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("r--------"));
        assertTrue(refusal(p).contains("read-only"), refusal(p));
    }

    @Test
    void emptyTruncatedAndForeignFiles() throws IOException {
        Path empty = dir.resolve("empty.db");
        Files.createFile(empty);
        assertTrue(refusal(empty).contains("empty file"), refusal(empty));
        Path foreign = dir.resolve("foreign.db");
        Files.writeString(foreign, "a,b\n1,2\n");
        assertTrue(refusal(foreign).contains("not a SQLite database"), refusal(foreign));
        Path cut = ledgerWithDataset();
        try (RandomAccessFile f = new RandomAccessFile(cut.toFile(), "rw")) {
            f.setLength(100);
        }
        assertTrue(refusal(cut).contains("truncated"), refusal(cut));
        Path half = ledgerWithDataset();
        try (RandomAccessFile f = new RandomAccessFile(half.toFile(), "rw")) {
            f.setLength(f.length() / 2);
        }
        String m = assertThrows(LedgerException.class, () -> {
            try (Ledger l = Ledger.open(half.toString())) {
                l.report("d");
            }
        }).getMessage();
        assertTrue(m.contains("ledger"), m);
    }

    @Test
    void anotherProgramsDatabase() throws Exception {
        Path p = dir.resolve("other.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customers (id INTEGER)");
        }
        assertTrue(refusal(p).contains("something else"), refusal(p));
    }

    @Test
    void missingTableAndWrongSchemaVersion() throws Exception {
        Path p = ledgerWithDataset();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p); Statement s = c.createStatement()) {
            s.execute("DROP TABLE dpgauss_release");
        }
        assertTrue(refusal(p).contains("table dpgauss_release is missing"), refusal(p));
        Path q = ledgerWithDataset();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + q); Statement s = c.createStatement()) {
            s.execute("INSERT INTO dpgauss_schema VALUES (" + (Schema.VERSION + 1) + ", 'x')");
        }
        assertTrue(refusal(q).contains("schema version " + (Schema.VERSION + 1)), refusal(q));
    }

    @Test
    void aLockedLedgerIsRefusedAfterTheBusyTimeout() throws Exception {
        Path p = ledgerWithDataset();
        String old = System.getProperty(JdbcLedger.BUSY_TIMEOUT_PROPERTY);
        System.setProperty(JdbcLedger.BUSY_TIMEOUT_PROPERTY, "300");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + p); Statement s = c.createStatement();
                Ledger l = Ledger.open(p.toString())) {
            s.execute("BEGIN EXCLUSIVE");
            String m = assertThrows(LedgerException.class, () -> l.charge("d", "m", "{}", false,
                    org.dpgauss.privacy.accounting.Release.zcdp("q", NeighbouringRelation.REPLACE_ONE,
                            org.dpgauss.privacy.Zcdp.of(0.001)), false)).getMessage();
            assertTrue(m.contains("locked"), m);
            s.execute("ROLLBACK");
        } finally {
            if (old == null) {
                System.clearProperty(JdbcLedger.BUSY_TIMEOUT_PROPERTY);
            } else {
                System.setProperty(JdbcLedger.BUSY_TIMEOUT_PROPERTY, old);
            }
        }
        try (Ledger l = Ledger.open(p.toString())) {
            assertEquals(0, l.entries("d").size());
        }
    }
}
