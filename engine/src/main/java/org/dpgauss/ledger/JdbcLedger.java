package org.dpgauss.ledger;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.AccountingReport;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;

/**
 * The ledger on JDBC: one connection, every method its own transaction (synchronized, so one ledger object may be
 * shared by threads). The two stores differ only in how a charge takes its lock and in a few column types
 * ({@link Schema}): SQLite starts the charge with {@code BEGIN IMMEDIATE} (the database's write lock, taken before
 * anything is read, so two charges never interleave; WAL journal, busy timeout), PostgreSQL locks the dataset's row
 * with {@code SELECT ... FOR UPDATE} (charges on one dataset queue behind each other, other datasets proceed).
 */
final class JdbcLedger implements Ledger {

    /** How long a SQLite charge waits for another process's lock before it is refused (milliseconds). */
    static final String BUSY_TIMEOUT_PROPERTY = "dpgauss.ledger.busyTimeoutMs";
    private static final int DEFAULT_BUSY_TIMEOUT_MS = 30_000;
    /** SQLite's {@code synchronous} setting of a ledger: FULL (default) or NORMAL. */
    static final String SYNCHRONOUS_PROPERTY = "dpgauss.ledger.synchronous";
    /**
     * How long a charge waits for an identical query in flight to complete, and how young that query's charge must
     * be to be waited for (milliseconds; 0: never wait). Past it the in-flight charge counts as abandoned.
     */
    static final String REPLAY_WAIT_PROPERTY = "dpgauss.ledger.replayWaitMs";
    private static final long DEFAULT_REPLAY_WAIT_MS = 60_000;
    private static final byte[] SQLITE_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private final Schema.Dialect dialect;
    private final String location;
    private final Connection conn;
    private final int busyTimeoutMs;

    private JdbcLedger(Schema.Dialect dialect, String location, Connection conn, int busyTimeoutMs) {
        this.dialect = dialect;
        this.location = location;
        this.conn = conn;
        this.busyTimeoutMs = busyTimeoutMs;
    }

    static Ledger open(String location, boolean create) {
        Objects.requireNonNull(location, "ledger location");
        String loc = location.strip();
        if (loc.isEmpty()) {
            throw new LedgerException("the ledger location is empty: give a file path (SQLite) or a"
                    + " jdbc:postgresql:// URL");
        }
        if (loc.startsWith("jdbc:postgresql:")) {
            return openPostgres(loc, create);
        }
        if (loc.startsWith("jdbc:") && !loc.startsWith("jdbc:sqlite:")) {
            throw new LedgerException("ledger " + loc.replaceAll("\\?.*", "") + ": unsupported store; use a file path,"
                    + " jdbc:sqlite:PATH or jdbc:postgresql://HOST/DATABASE");
        }
        return openSqlite(Paths.get(loc.startsWith("jdbc:sqlite:") ? loc.substring("jdbc:sqlite:".length()) : loc),
                create);
    }

    // ------------------------------------------------------------------ opening

    private static Ledger openSqlite(Path path, boolean create) {
        String where = "ledger " + path;
        boolean exists = Files.exists(path);
        if (!exists && !create) {
            throw new LedgerException(where + " does not exist: create it with 'dpgauss ledger create NAME"
                    + " --ledger " + path + " ...' (or Ledger.openOrCreate)");
        }
        boolean fresh = false;
        try {
            if (!exists) {
                Path parent = path.toAbsolutePath().getParent();
                if (parent != null && !Files.isDirectory(parent)) {
                    throw new LedgerException(where + ": the directory " + parent + " does not exist");
                }
                try {
                    Files.createFile(path, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
                } catch (UnsupportedOperationException e) {
                    Files.createFile(path); // not a POSIX file system: the directory's protection applies
                }
                fresh = true;
            } else {
                checkSqliteFile(path, where);
            }
        } catch (IOException e) {
            throw new LedgerException(where + " cannot be opened: " + e.getMessage(), e);
        }
        int busy = Integer.getInteger(BUSY_TIMEOUT_PROPERTY, DEFAULT_BUSY_TIMEOUT_MS);
        Properties p = new Properties();
        p.setProperty("busy_timeout", Integer.toString(busy));
        p.setProperty("journal_mode", "WAL");
        // FULL (default): a committed charge survives power loss (one fsync of the WAL per commit); NORMAL: it
        // survives a killed process but not a power loss (docs/ledger.md)
        String sync = System.getProperty(SYNCHRONOUS_PROPERTY, "FULL").strip().toUpperCase(Locale.ROOT);
        if (!sync.equals("FULL") && !sync.equals("NORMAL")) {
            throw new LedgerException(SYNCHRONOUS_PROPERTY + "=" + sync + " is neither FULL nor NORMAL");
        }
        p.setProperty("synchronous", sync);
        p.setProperty("foreign_keys", "true");
        Connection c;
        try {
            c = DriverManager.getConnection("jdbc:sqlite:" + path, p);
        } catch (SQLException e) {
            throw sqliteError(where, e, busy);
        }
        JdbcLedger l = new JdbcLedger(Schema.Dialect.SQLITE, path.toString(), c, busy);
        l.checkSchema(create && fresh, create);
        return l;
    }

    /** Refuses, before SQLite sees it, a file that cannot be a writable ledger: read-only, empty, foreign. */
    private static void checkSqliteFile(Path path, String where) throws IOException {
        if (!Files.isRegularFile(path)) {
            throw new LedgerException(where + " is not a regular file");
        }
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(path);
            if (!perms.contains(PosixFilePermission.OWNER_WRITE)) {
                throw new LedgerException(where + " is read-only: a ledger must be writable to record charges"
                        + " (chmod u+w, or use a copy for reading)");
            }
        } catch (UnsupportedOperationException e) {
            if (!Files.isWritable(path)) {
                throw new LedgerException(where + " is read-only: a ledger must be writable to record charges");
            }
        }
        if (!Files.isReadable(path)) {
            throw new LedgerException(where + " is not readable");
        }
        long size = Files.size(path);
        if (size == 0) {
            throw new LedgerException(where + " is an empty file: not a dpgauss ledger (truncated?); a new ledger is"
                    + " created by 'dpgauss ledger create' at a path that does not exist yet");
        }
        byte[] head = new byte[SQLITE_MAGIC.length];
        int got;
        try (InputStream in = Files.newInputStream(path)) {
            got = in.readNBytes(head, 0, head.length);
        }
        if (got < head.length || !Arrays.equals(head, SQLITE_MAGIC)) {
            throw new LedgerException(where + " is not a SQLite database (a foreign or truncated file): not a"
                    + " dpgauss ledger");
        }
        if (size < 512) {
            throw new LedgerException(where + " is truncated (" + size + " bytes, shorter than one SQLite page)");
        }
    }

    private static Ledger openPostgres(String url, boolean create) {
        String where = "ledger " + publicUrl(url);
        Properties p = new Properties();
        if (!url.contains("connectTimeout=")) {
            p.setProperty("connectTimeout", "10");
        }
        if (!url.contains("socketTimeout=")) {
            p.setProperty("socketTimeout", "120");
        }
        String user = System.getenv("PGUSER");
        if (user != null && !url.contains("user=")) {
            p.setProperty("user", user);
        }
        String pw = System.getenv("PGPASSWORD");
        if (pw != null && !url.contains("password=")) {
            p.setProperty("password", pw);
        }
        Connection c;
        try {
            c = DriverManager.getConnection(url, p);
        } catch (SQLException e) {
            String msg = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new LedgerException(where + ": cannot reach the PostgreSQL server: " + msg, e);
        }
        JdbcLedger l = new JdbcLedger(Schema.Dialect.POSTGRES, publicUrl(url), c, 0);
        l.checkSchema(create, create);
        return l;
    }

    /** The URL without its query (which may hold a password) and without user info. */
    static String publicUrl(String url) {
        return url.replaceAll("\\?.*$", "").replaceAll("//[^/@]*@", "//");
    }

    // ------------------------------------------------------------------ schema

    /**
     * Checks the schema, installing it in an empty store when allowed, migrating an older one.
     *
     * @param installInEmpty whether an empty store may receive the schema
     */
    private void checkSchema(boolean installInEmpty, boolean createRequested) {
        try {
            Set<String> tables = tables();
            Set<String> ours = new HashSet<>(tables);
            ours.retainAll(Schema.TABLES);
            if (ours.isEmpty()) {
                if (tables.isEmpty() && (installInEmpty || (createRequested && dialect == Schema.Dialect.POSTGRES))) {
                    transaction(() -> {
                        for (String sql : Schema.install(dialect)) {
                            try (Statement s = conn.createStatement()) {
                                s.execute(sql);
                            }
                        }
                        return null;
                    });
                    return;
                }
                if (tables.isEmpty()) {
                    throw new LedgerException("ledger " + location + " holds no ledger tables: not a dpgauss ledger"
                            + (dialect == Schema.Dialect.SQLITE ? " (empty or truncated?)" : "")
                            + "; create one with 'dpgauss ledger create'");
                }
                throw new LedgerException("ledger " + location + " is a database of something else (tables "
                        + new java.util.TreeSet<>(tables) + "), not a dpgauss ledger");
            }
            for (String t : Schema.TABLES) {
                if (!tables.contains(t)) {
                    throw new LedgerException("ledger " + location + " is damaged: table " + t + " is missing"
                            + " (restore it from a backup; a ledger with lost charges must not be used)");
                }
            }
            int version = schemaVersion();
            if (version > Schema.VERSION) {
                throw new LedgerException("ledger " + location + " has schema version " + version + ", newer than"
                        + " this dpgauss reads (" + Schema.VERSION + "): upgrade dpgauss");
            }
            if (version < 1) {
                throw new LedgerException("ledger " + location + " has an invalid schema version " + version);
            }
            if (version < Schema.VERSION) {
                migrate(version);
            }
        } catch (SQLException e) {
            throw error("ledger " + location + " cannot be read", e);
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    private Set<String> tables() throws SQLException {
        Set<String> names = new HashSet<>();
        DatabaseMetaData md = conn.getMetaData();
        String schema = dialect == Schema.Dialect.POSTGRES ? conn.getSchema() : null;
        try (ResultSet rs = md.getTables(null, schema, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                names.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    private int schemaVersion() throws SQLException {
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT MAX(version) FROM dpgauss_schema")) {
            if (!rs.next()) {
                return 0;
            }
            int v = rs.getInt(1);
            return rs.wasNull() ? 0 : v;
        }
    }

    private void migrate(int from) {
        transaction(() -> {
            int v = schemaVersion(); // again, under the lock: another process may have migrated meanwhile
            for (; v < Schema.VERSION; v++) {
                for (String sql : Schema.migration(dialect, v)) {
                    try (Statement s = conn.createStatement()) {
                        s.execute(sql);
                    }
                }
            }
            return null;
        });
    }

    // ------------------------------------------------------------------ datasets

    @Override
    public String location() {
        return location;
    }

    @Override
    public synchronized DatasetBudget createDataset(String name, NeighbouringRelation relation, ApproxDp budget) {
        DatasetBudget.checkName(name);
        Objects.requireNonNull(relation, "relation");
        Objects.requireNonNull(budget, "budget");
        if (!(budget.delta() > 0 && budget.delta() < 1)) {
            throw new IllegalArgumentException("the budget's delta must be in (0, 1): zCDP and Gaussian releases"
                    + " are stated in (epsilon, delta) at that delta");
        }
        if (!(budget.epsilon() > 0) || Double.isInfinite(budget.epsilon())) {
            throw new IllegalArgumentException("the budget's epsilon must be finite and > 0");
        }
        String now = now();
        return transaction(() -> {
            if (findDataset(name, false) != null) {
                throw new LedgerException("ledger " + location + " already has a dataset '" + name + "'");
            }
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO dpgauss_dataset (name, relation, epsilon,"
                    + " delta, created_at) VALUES (?, ?, ?, ?, ?)")) {
                ps.setString(1, name);
                ps.setString(2, relation.id());
                ps.setDouble(3, budget.epsilon());
                ps.setDouble(4, budget.delta());
                ps.setString(5, now);
                ps.executeUpdate();
            }
            return new DatasetBudget(name, relation, budget, now);
        });
    }

    @Override
    public synchronized DatasetBudget dataset(String name) {
        return transaction(() -> requireDataset(name, false).budget);
    }

    @Override
    public synchronized List<DatasetBudget> datasets() {
        return transaction(() -> {
            List<DatasetBudget> out = new ArrayList<>();
            try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT id, name, relation, epsilon, delta, created_at FROM dpgauss_dataset ORDER BY name")) {
                while (rs.next()) {
                    out.add(readDataset(rs).budget);
                }
            }
            return out;
        });
    }

    @Override
    public synchronized List<LedgerEntry> entries(String dataset) {
        return transaction(() -> loadEntries(requireDataset(dataset, false)));
    }

    @Override
    public synchronized AccountingReport report(String dataset) {
        return transaction(() -> {
            Row d = requireDataset(dataset, false);
            return replay(d, loadEntries(d)).report();
        });
    }

    // ------------------------------------------------------------------ charging

    /**
     * Charges, or replays, or waits for an identical query in flight (docs/ledger.md "Replay"). Not synchronized:
     * the wait sleeps outside any transaction and outside this object's lock, so the thread (or process) computing
     * the awaited release can record its outcome meanwhile.
     */
    @Override
    public Charge charge(String dataset, String mechanism, String parameters, boolean insecure, Release cost,
            boolean fresh) {
        Objects.requireNonNull(mechanism, "mechanism");
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(cost, "cost");
        long waitMs = fresh ? 0 : Math.max(0L, Long.getLong(REPLAY_WAIT_PROPERTY, DEFAULT_REPLAY_WAIT_MS));
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        long sleepMs = 20;
        while (true) {
            boolean mayWait = waitMs > 0 && System.nanoTime() - deadline < 0;
            Charge c = chargeOnce(dataset, mechanism, parameters, insecure, cost, fresh, mayWait ? waitMs : 0);
            if (c != null) {
                return c;
            }
            // an identical query is in flight: poll until it completes (then replay it) or the wait runs out
            // (then charge afresh: an abandoned charge is never waited for beyond the bound)
            try {
                Thread.sleep(sleepMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LedgerException("ledger " + location + ": interrupted while waiting for an identical"
                        + " query in flight; nothing was charged", e);
            }
            sleepMs = Math.min(250, sleepMs * 2);
        }
    }

    /**
     * One charge transaction. Returns null, having charged nothing, when {@code waitMs > 0} and the only stored
     * release of the same query is in flight: charged less than {@code waitMs} ago and not completed.
     */
    private synchronized Charge chargeOnce(String dataset, String mechanism, String parameters, boolean insecure,
            Release cost, boolean fresh, long waitMs) {
        String now = now();
        return transaction(() -> {
            Row d = requireDataset(dataset, true); // PostgreSQL: FOR UPDATE, charges on this dataset queue here
            if (cost.relation() != d.budget.relation()) {
                throw new LedgerException("the release is stated under " + cost.relation().description()
                        + " but dataset '" + d.budget.name() + "' in ledger " + location + " under "
                        + d.budget.relation().description() + ": restate the release under the dataset's relation");
            }
            List<LedgerEntry> entries = loadEntries(d);
            if (!fresh) {
                boolean inFlight = false;
                for (LedgerEntry e : entries) {
                    if (e.mechanism().equals(mechanism) && e.parameters().equals(parameters)
                            && e.insecure() == insecure) {
                        if (!e.status().equals(LedgerEntry.CHARGED)) {
                            return new Charge(d.budget.name(), -1, e);
                        }
                        inFlight |= waitMs > 0 && isRecent(e.chargedAt(), now, waitMs);
                    }
                }
                if (inFlight) {
                    return null; // nothing written: the transaction commits empty
                }
            }
            PrivacyAccountant acc = replay(d, entries);
            acc.spend(cost); // BudgetExceededException: the transaction rolls back, nothing is recorded
            long seq = entries.size() + 1L;
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO dpgauss_release (dataset_id, seq,"
                    + " charged_at, mechanism, parameters, insecure, kind, epsilon, delta, rho, tau, pair, status)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setLong(1, d.id);
                ps.setLong(2, seq);
                ps.setString(3, now);
                ps.setString(4, mechanism);
                ps.setString(5, parameters);
                ps.setInt(6, insecure ? 1 : 0);
                CostColumns.write(ps, 7, cost);
                ps.setString(13, LedgerEntry.CHARGED);
                ps.executeUpdate();
            }
            long id;
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT id FROM dpgauss_release WHERE dataset_id = ? AND seq = ?")) {
                ps.setLong(1, d.id);
                ps.setLong(2, seq);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    id = rs.getLong(1);
                }
            }
            return new Charge(d.budget.name(), id, null);
        });
    }

    @Override
    public synchronized void complete(Charge charge, String status, String outcome) {
        Objects.requireNonNull(charge, "charge");
        if (charge.replayOf().isPresent()) {
            throw new IllegalArgumentException("a replay is not completed: nothing was charged");
        }
        if (!"PASS".equals(status) && !"FAIL".equals(status)) {
            throw new IllegalArgumentException("status must be PASS or FAIL, not " + status);
        }
        Objects.requireNonNull(outcome, "outcome");
        transaction(() -> {
            try (PreparedStatement ps = conn.prepareStatement("UPDATE dpgauss_release SET status = ?, outcome = ?"
                    + " WHERE id = ? AND status = ?")) {
                ps.setString(1, status);
                ps.setString(2, outcome);
                ps.setLong(3, charge.entryId());
                ps.setString(4, LedgerEntry.CHARGED);
                if (ps.executeUpdate() != 1) {
                    throw new LedgerException("ledger " + location + ": charge " + charge.entryId()
                            + " is not waiting for an outcome");
                }
            }
            return null;
        });
    }

    @Override
    public synchronized List<String> verify() {
        List<String> problems = new ArrayList<>();
        try {
            if (dialect == Schema.Dialect.SQLITE) {
                try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
                    while (rs.next()) {
                        String r = rs.getString(1);
                        if (!"ok".equals(r)) {
                            problems.add("integrity_check: " + r);
                        }
                    }
                }
                try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("PRAGMA foreign_key_check")) {
                    if (rs.next()) {
                        problems.add("foreign_key_check: a release refers to no dataset");
                    }
                }
            }
            if (schemaVersion() != Schema.VERSION) {
                problems.add("schema version " + schemaVersion() + ", expected " + Schema.VERSION);
            }
        } catch (SQLException e) {
            problems.add("cannot read the store: " + e.getMessage());
            return problems;
        }
        for (DatasetBudget b : datasets()) {
            try {
                List<LedgerEntry> entries = entries(b.name());
                for (int i = 0; i < entries.size(); i++) {
                    LedgerEntry e = entries.get(i);
                    if (e.sequence() != i + 1) {
                        problems.add(b.name() + ": release " + (i + 1) + " has sequence number " + e.sequence());
                    }
                    boolean done = e.status().equals("PASS") || e.status().equals("FAIL");
                    if (!done && !e.status().equals(LedgerEntry.CHARGED)) {
                        problems.add(b.name() + ": release " + e.sequence() + " has status " + e.status());
                    }
                    if (done != (e.outcome() != null)) {
                        problems.add(b.name() + ": release " + e.sequence() + " has status " + e.status()
                                + (done ? " but no outcome" : " and an outcome"));
                    }
                }
                AccountingReport r = report(b.name());
                if (!r.feasible() || r.spent().epsilon() > b.budget().epsilon()
                        || r.spent().delta() > b.budget().delta()) {
                    problems.add(b.name() + ": spends " + r.spent() + ", over its budget " + b.budget());
                }
            } catch (RuntimeException e) {
                problems.add(b.name() + ": " + e.getMessage());
            }
        }
        return problems;
    }

    @Override
    public synchronized void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            conn.close();
        } catch (SQLException e) {
            // closing: nothing left to protect
        }
    }

    // ------------------------------------------------------------------ internals

    /** A dataset row and its key. */
    private static final class Row {
        final long id;
        final DatasetBudget budget;

        Row(long id, DatasetBudget budget) {
            this.id = id;
            this.budget = budget;
        }
    }

    private Row requireDataset(String name, boolean forUpdate) throws SQLException {
        Row r = findDataset(name, forUpdate);
        if (r == null) {
            throw new LedgerException("ledger " + location + " has no dataset '" + name + "': create it with"
                    + " 'dpgauss ledger create " + name + " --epsilon E --delta D --relation replace-one|add-remove'");
        }
        return r;
    }

    private Row findDataset(String name, boolean forUpdate) throws SQLException {
        String sql = "SELECT id, name, relation, epsilon, delta, created_at FROM dpgauss_dataset WHERE name = ?"
                + (forUpdate && dialect == Schema.Dialect.POSTGRES ? " FOR UPDATE" : "");
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? readDataset(rs) : null;
            }
        }
    }

    private Row readDataset(ResultSet rs) throws SQLException {
        String name = rs.getString("name");
        NeighbouringRelation rel;
        try {
            rel = NeighbouringRelation.fromId(rs.getString("relation"));
        } catch (IllegalArgumentException e) {
            throw new LedgerException("ledger " + location + ": dataset '" + name + "' has an unknown relation");
        }
        return new Row(rs.getLong("id"), new DatasetBudget(name, rel,
                ApproxDp.of(rs.getDouble("epsilon"), rs.getDouble("delta")), rs.getString("created_at")));
    }

    private List<LedgerEntry> loadEntries(Row d) throws SQLException {
        List<LedgerEntry> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement("SELECT id, seq, charged_at, mechanism, parameters,"
                + " insecure, kind, epsilon, delta, rho, tau, pair, status, outcome FROM dpgauss_release"
                + " WHERE dataset_id = ? ORDER BY seq")) {
            ps.setLong(1, d.id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String mech = rs.getString("mechanism");
                    Release cost = CostColumns.read(rs, mech, d.budget.relation(), location);
                    out.add(new LedgerEntry(rs.getLong("id"), rs.getLong("seq"), rs.getString("charged_at"), mech,
                            rs.getString("parameters"), rs.getInt("insecure") != 0, cost, rs.getString("status"),
                            rs.getString("outcome")));
                }
            }
        }
        return out;
    }

    /**
     * A fresh accountant holding the stored costs: the composition rule is the accountant's, whatever it is.
     * Stored costs that no longer fit (a stricter rule in a newer build) leave the dataset unusable rather than
     * under-charged.
     */
    private PrivacyAccountant replay(Row d, List<LedgerEntry> entries) {
        PrivacyAccountant acc = PrivacyAccountant.create(d.budget.relation(), d.budget.budget());
        List<org.dpgauss.privacy.accounting.Release> costs = new ArrayList<>(entries.size());
        for (LedgerEntry e : entries) {
            costs.add(e.cost());
        }
        try {
            acc.restore(costs); // composed once: a charge costs O(history), not O(history^2)
        } catch (BudgetExceededException x) {
            throw new LedgerException("ledger " + location + ": the releases stored for dataset '"
                    + d.budget.name() + "' do not fit its budget under this build's composition rule; no"
                    + " further release is charged to it", x);
        }
        return acc;
    }

    /** One unit of work. */
    private interface Work<T> {
        T run() throws SQLException;
    }

    /**
     * Runs {@code w} in one transaction: SQLite {@code BEGIN IMMEDIATE} (the write lock before the first read),
     * PostgreSQL READ COMMITTED with the dataset row locked by the charge.
     */
    private <T> T transaction(Work<T> w) {
        boolean begun = false;
        try {
            if (dialect == Schema.Dialect.SQLITE) {
                try (Statement s = conn.createStatement()) {
                    s.execute("BEGIN IMMEDIATE");
                }
            } else {
                conn.setAutoCommit(false);
            }
            begun = true;
            T out = w.run();
            if (dialect == Schema.Dialect.SQLITE) {
                try (Statement s = conn.createStatement()) {
                    s.execute("COMMIT");
                }
            } else {
                conn.commit();
                conn.setAutoCommit(true);
            }
            return out;
        } catch (SQLException e) {
            if (begun) {
                rollback();
            }
            throw error("ledger " + location, e);
        } catch (RuntimeException e) {
            if (begun) {
                rollback();
            }
            throw e;
        }
    }

    private void rollback() {
        try {
            if (dialect == Schema.Dialect.SQLITE) {
                try (Statement s = conn.createStatement()) {
                    s.execute("ROLLBACK");
                }
            } else {
                conn.rollback();
                conn.setAutoCommit(true);
            }
        } catch (SQLException e) {
            // the transaction is gone with the connection's failure; nothing was committed
        }
    }

    private LedgerException error(String where, SQLException e) {
        return dialect == Schema.Dialect.SQLITE ? sqliteError(where, e, busyTimeoutMs)
                : new LedgerException(where + ": " + e.getMessage(), e);
    }

    private static LedgerException sqliteError(String where, SQLException e, int busyMs) {
        int code = e.getErrorCode() & 0xff;
        String msg = e.getMessage() == null ? "" : e.getMessage();
        switch (code) {
            case 5: // SQLITE_BUSY
            case 6: // SQLITE_LOCKED
                return new LedgerException(where + " is locked by another process (waited " + busyMs + " ms);"
                        + " nothing was charged: try again", e);
            case 8: // SQLITE_READONLY
                return new LedgerException(where + " is read-only: a ledger must be writable to record charges", e);
            case 11: // SQLITE_CORRUPT
                return new LedgerException(where + " is damaged (truncated or overwritten): restore it from a"
                        + " backup", e);
            case 14: // SQLITE_CANTOPEN
                return new LedgerException(where + " cannot be opened: " + msg, e);
            case 26: // SQLITE_NOTADB
                return new LedgerException(where + " is not a SQLite database (a foreign or truncated file)", e);
            default:
                return new LedgerException(where + ": " + msg, e);
        }
    }

    /**
     * Whether a charge made at {@code chargedAt} is younger than {@code waitMs} at {@code now} (both as {@link #now}
     * writes them, to the second): only such a charge may still be computing; an older one counts as abandoned.
     */
    static boolean isRecent(String chargedAt, String now, long waitMs) {
        try {
            return Instant.parse(chargedAt).plusMillis(waitMs).isAfter(Instant.parse(now));
        } catch (java.time.format.DateTimeParseException e) {
            return false; // not a time this build wrote: never wait for it
        }
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** The cost columns: the accountant's form of a release, written and read back exactly. */
    static final class CostColumns {

        private CostColumns() {
        }

        /** Writes columns {@code at .. at+5}: kind, epsilon, delta, rho, tau, pair. */
        static void write(PreparedStatement ps, int at, Release cost) throws SQLException {
            ps.setString(at, cost.kind().name());
            for (int i = 1; i <= 4; i++) {
                ps.setNull(at + i, java.sql.Types.DOUBLE);
            }
            ps.setNull(at + 5, java.sql.Types.VARCHAR);
            switch (cost.kind()) {
                case APPROX_DP:
                    ps.setDouble(at + 1, cost.approxDp().epsilon());
                    ps.setDouble(at + 2, cost.approxDp().delta());
                    break;
                case ZCDP:
                    ps.setDouble(at + 3, cost.zcdp().rho());
                    break;
                case GAUSSIAN:
                    ps.setDouble(at + 3, cost.zcdp().rho());
                    ps.setDouble(at + 4, cost.tau());
                    break;
                default:
                    ps.setString(at + 5, gaussian(cost.onDataset()) + ";" + gaussian(cost.onNeighbour()));
                    break;
            }
        }

        static Release read(ResultSet rs, String name, NeighbouringRelation relation, String location)
                throws SQLException {
            String kind = rs.getString("kind");
            try {
                switch (Release.Kind.valueOf(kind)) {
                    case APPROX_DP:
                        return Release.approxDp(name, relation, ApproxDp.of(rs.getDouble("epsilon"),
                                rs.getDouble("delta")));
                    case ZCDP:
                        return Release.zcdp(name, relation, Zcdp.of(rs.getDouble("rho")));
                    case GAUSSIAN:
                        // tau = Delta / sigma is what composes; stated with sigma = 1 it is read back exactly
                        return Release.gaussian(name, relation, rs.getDouble("tau"), 1.0);
                    default:
                        String[] two = rs.getString("pair").split(";", -1);
                        return Release.gaussianPair(name, relation, gaussian(two[0]), gaussian(two[1]));
                }
            } catch (RuntimeException e) {
                throw new LedgerException("ledger " + location + ": a stored cost of kind " + kind
                        + " cannot be read: " + e.getMessage(), e);
            }
        }

        /** {@code d|m_1,...,m_d|c_11,...,c_dd}: doubles as Java writes them (round-trip exact). */
        static String gaussian(Gaussian g) {
            StringBuilder sb = new StringBuilder().append(g.dimension()).append('|');
            double[] m = g.mean();
            for (int i = 0; i < m.length; i++) {
                sb.append(i == 0 ? "" : ",").append(m[i]);
            }
            sb.append('|');
            double[][] c = g.covarianceArray();
            boolean first = true;
            for (double[] row : c) {
                for (double x : row) {
                    sb.append(first ? "" : ",").append(x);
                    first = false;
                }
            }
            return sb.toString();
        }

        static Gaussian gaussian(String text) {
            String[] parts = text.split("\\|", -1);
            int d = Integer.parseInt(parts[0]);
            double[] mean = Arrays.stream(parts[1].split(",")).mapToDouble(Double::parseDouble).toArray();
            double[] flat = Arrays.stream(parts[2].split(",")).mapToDouble(Double::parseDouble).toArray();
            if (mean.length != d || flat.length != d * d) {
                throw new IllegalArgumentException("a stored Gaussian pair has the wrong shape");
            }
            double[][] cov = new double[d][d];
            for (int i = 0; i < d; i++) {
                System.arraycopy(flat, i * d, cov[i], 0, d);
            }
            return Gaussian.of(mean, cov);
        }
    }
}
