package org.dpgauss.ledger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The ledger contract on a real PostgreSQL server that the test starts itself ({@link PostgresServer}). Skipped,
 * with the reason, only where no PostgreSQL binaries are installed. Every test gets a new database.
 */
@Tag("slow")
class PostgresLedgerTest extends LedgerContractTest {

    private static PostgresServer server;

    @BeforeAll
    static void startServer() throws Exception {
        Assumptions.assumeTrue(PostgresServer.unavailable() == null, PostgresServer.unavailable());
        server = PostgresServer.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Override
    String newLedger() {
        return server.newDatabase();
    }
}
