package org.dpgauss.cli;

import java.io.PrintWriter;
import org.dpgauss.ledger.Ledger;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.LedgerCharge;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import picocli.CommandLine.Option;

/**
 * {@code --ledger URL --dataset NAME [--fresh]} of every private command (docs/ledger.md): a mixin, so a command
 * gains them with one field. The ledger is opened and the dataset checked by {@link Main} before the command runs
 * (a bad ledger: exit 1, nothing read); the release is charged after it is stated and before it is computed.
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

    /** {@link Releases#run}, charged to the ledger when one is given. */
    PrivateRelease run(Main main, PrivateMechanism mechanism, Dataset data, double delta, ReleaseContext context) {
        if (!active()) {
            return Releases.run(mechanism, data, delta, context);
        }
        if (ledger == null) {
            open();
        }
        PrivateRelease r = LedgerCharge.run(ledger, dataset, fresh, mechanism, data, delta, context,
                LedgerOptions::pauseAfterCharge);
        PrintWriter err = main.spec.commandLine().getErr();
        if (r.parameters().has("ledgerReplayOf")) {
            err.println("ledger: the same query was released before on dataset '" + dataset + "' (release "
                    + r.parameters().toMap().get("ledgerReplayOf") + "): its stored release, at no cost;"
                    + " --fresh spends again");
        } else if (fresh) {
            err.println("ledger: --fresh: charged to dataset '" + dataset + "' again");
        }
        return r;
    }
}
