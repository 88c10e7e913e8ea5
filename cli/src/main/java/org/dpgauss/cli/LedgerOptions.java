package org.dpgauss.cli;

import java.io.PrintWriter;
import org.dpgauss.ledger.Ledger;
import org.dpgauss.io.DataReader;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.LedgerCharge;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --ledger URL --dataset NAME [--fresh]} of every private command (docs/ledger.md): a mixin, so a command
 * gains them with one field. The ledger is opened and the dataset checked by {@link Main} before the command runs
 * (a bad ledger: exit 1, nothing read); the release is charged from public facts (the options and the schema's
 * d) before the data are read, then stated on the data, checked to cost what was charged, computed and recorded.
 */
final class LedgerOptions {

    @Option(names = "--ledger", paramLabel = "URL", defaultValue = "${env:DPGAUSS_LEDGER}",
            description = "Privacy ledger to charge the release to: a SQLite file path or jdbc:postgresql://HOST/DB"
                    + " (default: $DPGAUSS_LEDGER). Needs --dataset. See docs/ledger.md.")
    String url;

    @Option(names = "--dataset", paramLabel = "NAME", defaultValue = "${env:DPGAUSS_DATASET}",
            description = "Dataset of the ledger the release is charged to (default: $DPGAUSS_DATASET).")
    String dataset;

    @Option(names = "--fresh", description = "With --ledger: charge and compute again even when the ledger holds"
            + " the release of the same query (default: return the stored release at no cost).")
    boolean fresh;

    private Ledger ledger;

    boolean active() {
        return url != null && !url.isBlank();
    }

    /** Opens the ledger and checks the dataset, before any data are read (called by {@link Main}). */
    void open() {
        if (!active()) {
            if (dataset != null && !dataset.isBlank()) {
                throw new IllegalArgumentException("--dataset " + dataset + " needs --ledger URL (or DPGAUSS_LEDGER)");
            }
            if (fresh) {
                throw new IllegalArgumentException("--fresh needs --ledger URL (or DPGAUSS_LEDGER)");
            }
            return;
        }
        if (dataset == null || dataset.isBlank()) {
            throw new IllegalArgumentException("--ledger needs --dataset NAME (or DPGAUSS_DATASET): the dataset the"
                    + " release is charged to");
        }
        ledger = Ledger.open(url);
        try {
            ledger.dataset(dataset);
        } catch (RuntimeException e) {
            ledger.close();
            ledger = null;
            throw e;
        }
    }

    void close() {
        if (ledger != null) {
            ledger.close();
            ledger = null;
        }
    }

    /**
     * Fault injection for the crash tests (LedgerProcessTest): with the system property
     * {@code dpgauss.test.pauseAfterChargeMs} the process waits that long between its committed charge and the
     * computation, so a test can kill it there. It only delays; unset, it does nothing.
     */
    private static void pauseAfterCharge() {
        Long ms = Long.getLong("dpgauss.test.pauseAfterChargeMs");
        if (ms != null && ms > 0) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The numbers of rows a release charged before the data are read is stated for, in this order, until one can be
     * stated: fixed stand-ins, public and the same in every run (the replay key includes the statement made with
     * the first that works); a mechanism whose public checks need many rows (a certified sampler) refuses the small
     * ones, one whose schedule is bounded refuses the large ones. The charged cost must not depend on n:
     * {@link LedgerCharge#release} checks that the statement made on the data costs the same.
     */
    static final int[] STAND_IN_ROWS = {1 << 20, 1 << 25, 1 << 30, 1 << 10};

    /**
     * Options that are not part of a query: where the data are, where the result goes, how it is computed. A plot
     * ({@code --plot FILE}, and {@code --plot-reference}: the user's own numbers, read for the picture only) is drawn
     * from the release, stored or fresh, so the same query with another picture or none is a replay.
     */
    private static final java.util.Set<String> NOT_THE_QUERY = java.util.Set.of("--input", "--ledger", "--dataset",
            "--fresh", "--json", "--progress", "--engine", "--master", "--executor-engine", "--insecure-seed",
            "--plot", "--plot-reference", "--help", "--version");

    /**
     * The replay key of a query (docs/ledger.md "Replay"): the command, every option that shapes the release with
     * its value (given or default, in name order), d, the noise seed of an insecure run, and a digest of the
     * statement made before the data are read (which captures the contents of public-parameter files, e.g. a
     * covariance proxy). Public facts only.
     */
    static String query(Main main, int d, Statement standIn) {
        StringBuilder sb = new StringBuilder();
        CommandLine.Model.CommandSpec spec = main.command;
        sb.append(spec.qualifiedName(" ").replaceFirst("^dpgauss ", ""));
        java.util.TreeMap<String, String> opts = new java.util.TreeMap<>();
        for (CommandLine.Model.OptionSpec o : spec.options()) {
            if (NOT_THE_QUERY.contains(o.longestName()) || o.usageHelp() || o.versionHelp()
                    || (o.type() == java.nio.file.Path.class && o.longestName().endsWith("output"))) {
                continue;
            }
            Object v = o.getValue();
            if (v == null || Boolean.FALSE.equals(v)) {
                continue;
            }
            opts.put(o.longestName(), text(v));
        }
        for (java.util.Map.Entry<String, String> e : opts.entrySet()) {
            sb.append(' ').append(e.getKey()).append('=').append(e.getValue());
        }
        for (CommandLine.Model.PositionalParamSpec p : spec.positionalParameters()) {
            Object v = p.getValue();
            if (v != null) {
                sb.append(' ').append(text(v));
            }
        }
        sb.append(" d=").append(d);
        if (main.insecureSeed != null) {
            sb.append(" insecureSeed=").append(main.insecureSeed);
        }
        String stated = standIn.mechanism() + '\n' + standIn.parameters() + '\n'
                + standIn.guarantee().describe() + '\n' + standIn.accuracy().map(Object::toString).orElse("");
        try {
            byte[] h = java.security.MessageDigest.getInstance("SHA-256").digest(
                    stated.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            sb.append(" stated=").append(java.util.HexFormat.of().formatHex(h, 0, 8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        return sb.toString();
    }

    private static String text(Object v) {
        if (v instanceof double[]) {
            return java.util.Arrays.toString((double[]) v);
        }
        if (v instanceof int[]) {
            return java.util.Arrays.toString((int[]) v);
        }
        if (v instanceof long[]) {
            return java.util.Arrays.toString((long[]) v);
        }
        if (v instanceof Object[]) {
            return java.util.Arrays.deepToString((Object[]) v);
        }
        return String.valueOf(v);
    }

    /**
     * States the release for the data's public shape with {@link #STAND_IN_ROWS} rows and charges it (or finds its
     * stored release): before anything but the schema (d) has been read.
     */
    private LedgerCharge chargeBeforeReading(Main main, int d,
            java.util.function.Function<Main.Shape, ? extends PrivateMechanism> mechanism, double delta,
            org.dpgauss.privacy.accounting.Release declared, ReleaseContext context) {
        if (ledger == null) {
            open();
        }
        Statement standIn = null;
        IllegalArgumentException refused = null;
        for (int n : STAND_IN_ROWS) {
            try {
                PrivateMechanism m = mechanism.apply(new Main.Shape(n, d));
                standIn = Releases.state(m, PublicContext.forPlanning(n, d, m.relation(), delta));
                break;
            } catch (IllegalArgumentException e) {
                refused = refused == null ? e : refused;
            }
        }
        if (standIn == null) {
            throw new IllegalArgumentException("with --ledger the release is stated before the data are read, for"
                    + " d=" + d + " and a stand-in n (docs/ledger.md), and it cannot be: " + refused.getMessage()
                    + " (nothing was charged)", refused);
        }
        org.dpgauss.privacy.accounting.Release cost = declared != null ? declared : standIn.accounting();
        LedgerCharge c = LedgerCharge.chargeQuery(ledger, dataset,
                declared != null ? declared.name() : standIn.mechanism(), query(main, d, standIn), cost,
                context.random(), fresh);
        if (!c.isReplay()) {
            pauseAfterCharge();
        }
        return c;
    }

    private static void requireDimension(int read, int stated, java.nio.file.Path input) {
        if (read != stated) {
            throw new IllegalArgumentException(input.getFileName() + " has " + read + " columns but its schema, read"
                    + " before the charge, " + stated + ": was the file changed meanwhile? (the charge stays)");
        }
    }

    /**
     * {@link Main#release}: the release charged (or its stored release found) before the data are read, then the
     * data read, the release stated on them (its cost must be the one charged), computed and recorded.
     */
    PrivateRelease run(Main main, java.nio.file.Path input,
            java.util.function.Function<Main.Shape, ? extends PrivateMechanism> mechanism, double delta,
            org.dpgauss.privacy.accounting.Release declared, ReleaseContext context) throws java.io.IOException {
        int d = DataReader.dimension(input); // the schema only
        LedgerCharge c = chargeBeforeReading(main, d, mechanism, delta, declared, context);
        Dataset data = Dataset.read(input);
        requireDimension(data.dimension(), d, input);
        PrivateMechanism m = mechanism.apply(new Main.Shape(data.size(), data.dimension()));
        Statement stated = Releases.state(m, data, delta);
        PrivateRelease r = c.release(stated, context.random(), s -> Releases.run(m, data, delta, context));
        say(main, r);
        return r;
    }

    /** {@link Main#releaseOnCluster}: charged on this process (the driver) before the table is opened. */
    PrivateRelease runOnCluster(Main main, ClusterOptions cluster, java.nio.file.Path input,
            java.util.function.Function<Main.Shape, ? extends org.dpgauss.rows.RowSourceMechanism> mechanism,
            double delta, org.dpgauss.privacy.accounting.Release declared, ReleaseContext context)
            throws java.io.IOException {
        int d = cluster.publicDimension(input);
        LedgerCharge c = chargeBeforeReading(main, d, mechanism, delta, declared, context);
        PrivateRelease r;
        try (ClusterOptions.Table t = cluster.open(context, input)) {
            Main.Shape shape = ClusterOptions.shape(t);
            requireDimension(shape.d(), d, input);
            org.dpgauss.rows.RowSourceMechanism m = mechanism.apply(shape);
            Statement stated = Releases.state(m, PublicContext.forPlanning(shape.n(), shape.d(), m.relation(),
                    delta));
            r = c.release(stated, context.random(), s -> ClusterOptions.release(m, t, delta, context));
        }
        say(main, r);
        return r;
    }

    private void say(Main main, PrivateRelease r) {
        PrintWriter err = main.spec.commandLine().getErr();
        if (r.parameters().has("ledgerReplayOf")) {
            err.println("ledger: the same query was released before on dataset '" + dataset + "' (release "
                    + r.parameters().toMap().get("ledgerReplayOf") + "): its stored release, at no cost;"
                    + " --fresh spends again");
        } else if (fresh) {
            err.println("ledger: --fresh: charged to dataset '" + dataset + "' again");
        }
    }
}
