package org.dpgauss.ledger;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The ledger contract on a real PostgreSQL server that the test starts itself (docs/ledger.md "Tests"): Debian's
 * binaries, {@code initdb} into a temporary directory, {@code pg_ctl start} on a free port, as the
 * {@code postgres} user through {@code runuser} when the tests run as root. Skipped, with the reason, only where
 * no PostgreSQL binaries are installed. Every test gets a new database.
 */
@Tag("slow")
class PostgresLedgerTest extends LedgerContractTest {

    private static Path dataDir;
    private static List<String> asUser;
    private static String bin;
    private static int port;
    private static int databases;

    @BeforeAll
    static void startServer() throws Exception {
        File[] versions = new File("/usr/lib/postgresql").listFiles();
        if (versions != null) {
            Arrays.sort(versions, Comparator.comparing(File::getName));
            for (File v : versions) {
                if (new File(v, "bin/initdb").canExecute()) {
                    bin = new File(v, "bin").getPath();
                }
            }
        }
        Assumptions.assumeTrue(bin != null, "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin"
                + " (apt-get install postgresql): the PostgreSQL store's contract test cannot start a server");
        boolean root = "root".equals(System.getProperty("user.name"));
        asUser = root ? List.of("runuser", "-u", "postgres", "--") : List.of();
        Path base = Files.createTempDirectory("dpgauss-pg");
        dataDir = base.resolve("data");
        if (root) {
            run(List.of("chown", "-R", "postgres", base.toString()));
            run(List.of("chmod", "755", base.toString()));
        }
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        run(cmd(bin + "/initdb", "-D", dataDir.toString(), "-U", "postgres", "--auth=trust", "-E", "UTF8"));
        run(cmd(bin + "/pg_ctl", "-D", dataDir.toString(), "-w", "-t", "60", "-l", base.resolve("log").toString(),
                "-o", "-p " + port + " -k " + base + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"));
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (dataDir != null && bin != null) {
            run(cmd(bin + "/pg_ctl", "-D", dataDir.toString(), "-m", "immediate", "stop"));
        }
    }

    private static List<String> cmd(String... args) {
        List<String> c = new ArrayList<>(asUser);
        c.addAll(List.of(args));
        return c;
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
        }
    }

    @Override
    String newLedger() {
        String name = "ledger_" + databases++;
        String admin = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
        try (Connection c = DriverManager.getConnection(admin); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + name + "?user=postgres";
    }
}
