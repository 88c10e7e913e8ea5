package org.dpgauss.ledger;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server for the tests (docs/ledger.md "Tests"): Debian's binaries ({@code /usr/lib/postgresql/*
 * /bin}), {@code initdb} into a temporary directory, {@code pg_ctl start} on a free port on 127.0.0.1, as the
 * {@code postgres} user through {@code runuser} when the tests run as root (PostgreSQL refuses root). Shared by the
 * engine's contract test and the command line's race test (test-jar).
 */
public final class PostgresServer implements AutoCloseable {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final String bin;
    private final Path dataDir;
    private final List<String> asUser;
    private final int port;

    private PostgresServer(String bin, Path dataDir, List<String> asUser, int port) {
        this.bin = bin;
        this.dataDir = dataDir;
        this.asUser = asUser;
        this.port = port;
    }

    /** @return the directory of the newest installed PostgreSQL server binaries, or null */
    public static String binaries() {
        File[] versions = new File("/usr/lib/postgresql").listFiles();
        String bin = null;
        if (versions != null) {
            Arrays.sort(versions, Comparator.comparing(File::getName));
            for (File v : versions) {
                if (new File(v, "bin/initdb").canExecute() && new File(v, "bin/pg_ctl").canExecute()) {
                    bin = new File(v, "bin").getPath();
                }
            }
        }
        return bin;
    }

    /** Why no server can start here, or null when one can. */
    public static String unavailable() {
        return binaries() == null ? "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt-get install"
                + " postgresql): the PostgreSQL ledger tests cannot start a server" : null;
    }

    /**
     * Starts a server.
     *
     * @return the running server
     * @throws Exception if it does not start (the message holds the tool's output)
     */
    public static PostgresServer start() throws Exception {
        String bin = binaries();
        if (bin == null) {
            throw new IllegalStateException(unavailable());
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        List<String> asUser = root ? List.of("runuser", "-u", "postgres", "--") : List.of();
        Path base = Files.createTempDirectory("dpgauss-pg");
        if (root) {
            run(List.of("chown", "-R", "postgres", base.toString()));
            run(List.of("chmod", "755", base.toString()));
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        PostgresServer p = new PostgresServer(bin, base.resolve("data"), asUser, port);
        run(p.cmd(bin + "/initdb", "-D", p.dataDir.toString(), "-U", "postgres", "--auth=trust", "-E", "UTF8"));
        run(p.cmd(bin + "/pg_ctl", "-D", p.dataDir.toString(), "-w", "-t", "60", "-l", base.resolve("log").toString(),
                "-o", "-p " + port + " -k " + base + " -c listen_addresses=127.0.0.1 -c max_connections=200", "start"));
        return p;
    }

    /**
     * @return the JDBC URL of a new, empty database on this server
     */
    public String newDatabase() {
        String name = "ledger_" + DATABASES.incrementAndGet() + "_" + ProcessHandle.current().pid();
        try (Connection c = DriverManager.getConnection(url("postgres")); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return url(name);
    }

    private String url(String db) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + db + "?user=postgres";
    }

    @Override
    public void close() throws Exception {
        run(cmd(bin + "/pg_ctl", "-D", dataDir.toString(), "-m", "immediate", "stop"));
    }

    private List<String> cmd(String... args) {
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
}
