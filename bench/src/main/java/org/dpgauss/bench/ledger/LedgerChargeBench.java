package org.dpgauss.bench.ledger;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.dpgauss.ledger.Charge;
import org.dpgauss.ledger.Ledger;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.Release;

/**
 * What the SQLite ledger adds to one release (issue 25: target under 20 ms): the charge transaction (open
 * {@code BEGIN IMMEDIATE}, read the dataset's stored costs, replay them into a fresh accountant, insert, commit
 * with {@code synchronous=FULL}) plus the transaction that records the outcome, on a dataset that already holds
 * {@code prior} releases. Opening the ledger (once per command) is timed separately. Prints one JSON object.
 *
 * <p>Usage: {@code LedgerChargeBench DIR [PRIOR1,PRIOR2,..] [REPS]}.
 */
public final class LedgerChargeBench {

    private LedgerChargeBench() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir"));
        int[] priors = Arrays.stream((args.length > 1 ? args[1] : "0,10,100,1000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 50;
        Files.createDirectories(dir);
        StringBuilder json = new StringBuilder("{\"store\":\"sqlite\",\"reps\":" + reps + ",\"results\":[");
        for (int pi = 0; pi < priors.length; pi++) {
            int prior = priors[pi];
            Path file = dir.resolve("bench-" + prior + "-" + System.nanoTime() + ".db");
            double[] open = new double[reps];
            double[] charge = new double[reps];
            try (Ledger l = Ledger.openOrCreate(file.toString())) {
                // a budget no release of the bench exceeds: the cost is what is timed, not a refusal
                l.createDataset("d", NeighbouringRelation.REPLACE_ONE, ApproxDp.of(1e6, 1e-6));
                for (int i = 0; i < prior; i++) {
                    Charge c = l.charge("d", "mean.clipped", "{prior=" + i + "}", false, cost(), true);
                    l.complete(c, "PASS", "PASS\nmean\tVECTOR\t0.1,0.2,0.3");
                }
            }
            for (int r = -10; r < reps; r++) { // 10 warm-up rounds
                long t0 = System.nanoTime();
                try (Ledger l = Ledger.open(file.toString())) {
                    l.dataset("d");
                    long t1 = System.nanoTime();
                    Charge c = l.charge("d", "mean.clipped", "{run=" + r + "}", false, cost(), true);
                    l.complete(c, "PASS", "PASS\nmean\tVECTOR\t0.1,0.2,0.3");
                    long t2 = System.nanoTime();
                    if (r >= 0) {
                        open[r] = (t1 - t0) / 1e6;
                        charge[r] = (t2 - t1) / 1e6;
                    }
                }
            }
            Arrays.sort(open);
            Arrays.sort(charge);
            json.append(pi == 0 ? "" : ",").append(String.format(Locale.ROOT,
                    "{\"priorReleases\":%d,\"chargeAndRecordMs\":{\"median\":%.3f,\"p90\":%.3f,\"max\":%.3f},"
                            + "\"openMs\":{\"median\":%.3f,\"p90\":%.3f}}",
                    prior, charge[reps / 2], charge[reps * 9 / 10], charge[reps - 1], open[reps / 2],
                    open[reps * 9 / 10]));
            System.err.printf(Locale.ROOT, "prior %5d: charge+record median %.2f ms, p90 %.2f ms; open median %.2f ms%n",
                    prior, charge[reps / 2], charge[reps * 9 / 10], open[reps / 2]);
        }
        System.out.println(json.append("]}"));
    }

    private static Release cost() {
        return Release.zcdp("mean.clipped", NeighbouringRelation.REPLACE_ONE, Zcdp.of(1e-6));
    }
}
