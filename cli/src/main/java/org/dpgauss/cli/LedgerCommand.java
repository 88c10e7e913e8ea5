package org.dpgauss.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.ledger.DatasetBudget;
import org.dpgauss.ledger.Ledger;
import org.dpgauss.ledger.LedgerEntry;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.accounting.AccountingReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code dpgauss ledger create|show|list|export}: datasets with budgets in a privacy ledger (docs/ledger.md). */
@Command(name = "ledger", mixinStandardHelpOptions = true,
        description = {"Datasets with privacy budgets in a durable ledger (SQLite file or PostgreSQL), charged by every"
                + " private command given --ledger URL --dataset NAME. Releases nothing private.",
            "See docs/ledger.md."},
        subcommands = {LedgerCommand.Create.class, LedgerCommand.Show.class, LedgerCommand.ListDatasets.class,
            LedgerCommand.Export.class})
final class LedgerCommand extends CommandGroup {

    /** The ledger location of every subcommand. */
    static final class Location {
        @Option(names = "--ledger", paramLabel = "URL", defaultValue = "${env:DPGAUSS_LEDGER}",
                description = "The ledger: a SQLite file path or jdbc:postgresql://HOST/DB (default: $DPGAUSS_LEDGER).")
        String url;

        String require() {
            if (url == null || url.isBlank()) {
                throw new IllegalArgumentException("give the ledger with --ledger URL (or DPGAUSS_LEDGER)");
            }
            return url;
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create a dataset with a total budget (and the ledger itself when the file does not exist"
                    + " yet, owner-only permissions).")
    static final class Create implements Callable<Integer> {
        @ParentCommand
        LedgerCommand parent;

        @picocli.CommandLine.Mixin
        Location location = new Location();

        @Parameters(index = "0", paramLabel = "NAME", description = "Dataset name (letters, digits, . _ -).")
        String name;

        @Option(names = "--epsilon", required = true, description = "Total epsilon of the dataset's budget (> 0).")
        double epsilon;

        @Option(names = "--delta", required = true, description = "Total delta of the dataset's budget, in (0, 1).")
        double delta;

        @Option(names = "--relation", required = true, paramLabel = "replace-one|add-remove",
                description = "The neighbouring relation every release on the dataset must be stated under.")
        String relation;

        @Override
        public Integer call() {
            NeighbouringRelation rel = NeighbouringRelation.fromId(relation);
            DatasetBudget.checkName(name);
            ApproxDp budget = ApproxDp.of(epsilon, delta);
            try (Ledger l = Ledger.openOrCreate(location.require())) {
                DatasetBudget b = l.createDataset(name, rel, budget);
                PrintWriter out = parent.main.spec.commandLine().getOut();
                if (parent.main.json) {
                    out.println(Json.write(datasetMap(b)));
                } else {
                    out.println("created dataset " + b.name() + " in ledger " + l.location() + ": budget "
                            + b.budget() + ", " + b.relation().id());
                }
            }
            return 0;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "A dataset's budget, what its releases spend (tightest valid composition), what is left,"
                    + " and one row per release.")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        LedgerCommand parent;

        @picocli.CommandLine.Mixin
        Location location = new Location();

        @Parameters(index = "0", paramLabel = "NAME", description = "Dataset name.")
        String name;

        @Override
        public Integer call() {
            try (Ledger l = Ledger.open(location.require())) {
                print(parent.main, l, name, false);
            }
            return 0;
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Everything the ledger holds on a dataset, released values included, as JSON.")
    static final class Export implements Callable<Integer> {
        @ParentCommand
        LedgerCommand parent;

        @picocli.CommandLine.Mixin
        Location location = new Location();

        @Parameters(index = "0", paramLabel = "NAME", description = "Dataset name.")
        String name;

        @Override
        public Integer call() {
            try (Ledger l = Ledger.open(location.require())) {
                parent.main.spec.commandLine().getOut().println(Json.write(showMap(l, name, true)));
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "The ledger's datasets and their budgets.")
    static final class ListDatasets implements Callable<Integer> {
        @ParentCommand
        LedgerCommand parent;

        @picocli.CommandLine.Mixin
        Location location = new Location();

        @Override
        public Integer call() {
            try (Ledger l = Ledger.open(location.require())) {
                PrintWriter out = parent.main.spec.commandLine().getOut();
                List<Map<String, Object>> rows = new ArrayList<>();
                for (DatasetBudget b : l.datasets()) {
                    Map<String, Object> m = datasetMap(b);
                    AccountingReport r = l.report(b.name());
                    m.put("spent", approx(r.spent()));
                    m.put("releases", r.releases().size());
                    rows.add(m);
                    if (!parent.main.json) {
                        out.printf(Locale.ROOT, "%-24s %-11s budget %s  spent %s  (%d releases)%n", b.name(),
                                b.relation().id(), b.budget(), r.spent(), r.releases().size());
                    }
                }
                if (parent.main.json) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("ledger", l.location());
                    m.put("datasets", rows);
                    out.println(Json.write(m));
                }
            }
            return 0;
        }
    }

    static void print(Main main, Ledger l, String name, boolean values) {
        PrintWriter out = main.spec.commandLine().getOut();
        Map<String, Object> m = showMap(l, name, values);
        if (main.json) {
            out.println(Json.write(m));
            return;
        }
        DatasetBudget b = l.dataset(name);
        AccountingReport r = l.report(name);
        out.println("dataset " + b.name() + " (" + b.relation().id() + ") in ledger " + l.location());
        out.println("  budget     " + b.budget());
        out.println("  spent      " + r.spent() + " by " + r.composition());
        out.printf(Locale.ROOT, "  remaining  epsilon %.6g at delta <= %.6g%n", r.epsilonLeft(),
                b.budget().delta());
        out.println("  releases   " + l.entries(name).size());
        for (LedgerEntry e : l.entries(name)) {
            out.println("  #" + e.sequence() + "  " + e.chargedAt() + "  " + e.status() + "  " + e.mechanism() + "  "
                    + e.cost().describeGuarantee() + (e.insecure() ? "  INSECURE" : "") + "  " + e.parameters());
        }
    }

    static Map<String, Object> showMap(Ledger l, String name, boolean values) {
        DatasetBudget b = l.dataset(name);
        AccountingReport r = l.report(name);
        Map<String, Object> m = datasetMap(b);
        m.put("ledger", l.location());
        m.put("spent", approx(r.spent()));
        m.put("composition", r.composition());
        Map<String, Object> left = new LinkedHashMap<>();
        left.put("epsilon", r.epsilonLeft());
        left.put("delta", b.budget().delta());
        m.put("remaining", left);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (LedgerEntry e : l.entries(name)) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("sequence", e.sequence());
            x.put("chargedAt", e.chargedAt());
            x.put("mechanism", e.mechanism());
            x.put("parameters", e.parameters());
            x.put("cost", e.cost().describeGuarantee());
            x.put("costKind", e.cost().kind().name());
            x.put("insecure", e.insecure());
            x.put("status", e.status());
            if (values) {
                x.put("outcome", e.outcome());
            }
            rows.add(x);
        }
        m.put("releases", rows);
        return m;
    }

    static Map<String, Object> datasetMap(DatasetBudget b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dataset", b.name());
        m.put("relation", b.relation().id());
        m.put("budget", approx(b.budget()));
        m.put("createdAt", b.createdAt());
        return m;
    }

    static Map<String, Object> approx(ApproxDp a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epsilon", a.epsilon());
        m.put("delta", a.delta());
        return m;
    }
}
