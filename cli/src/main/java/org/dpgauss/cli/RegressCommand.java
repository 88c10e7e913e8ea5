package org.dpgauss.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.learn.PrivateLinearRegression;
import org.dpgauss.release.PrivateRelease;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Private linear regression of one column on the others (issue 26, item 2). */
@Command(name = "regress", mixinStandardHelpOptions = true,
        description = {"Release a differentially private linear (ridge) regression of one column of a CSV or .npy "
                + "file (--target) on the other columns, with an intercept.",
            "How (sufficient-statistics perturbation with an adaptive ridge, as AdaSSP, Wang 2018): features are "
                    + "clipped to the L2 ball of --feature-bound around --feature-centre and the target clamped to "
                    + "--target-bound around --target-centre; the second moment of [features/B_X, 1, target/B_Y] is "
                    + "released once by Analyze Gauss; the ridge max(E, 2E - lambda_min) (E the public noise-norm "
                    + "bound) and the solve are free post-processing.",
            "Guarantee: rho-zCDP under replace-one neighbours (n public), also stated as (epsilon, delta)-DP.",
            "Output: \"coefficients\" (one per feature column, in file order without the target), \"intercept\", "
                    + "\"ridge\" (the ridge used, scaled units), and \"accuracy\": the excess mean squared error over "
                    + "the best linear predictor in a comparator ball, at most B_Y^2 E (2 + 4T^2) with the stated "
                    + "probability."})
final class RegressCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @picocli.CommandLine.Mixin
    LedgerOptions ledger = new LedgerOptions();

    @picocli.CommandLine.Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy), n x d.")
    Path input;

    @Option(names = "--target", required = true, paramLabel = "COLUMN",
            description = "The target column: a 0-based index, or a name from the CSV file's header line (with "
                    + "--master and --id-column: a name among the value columns, or a 0-based index among them).")
    String target;

    @Option(names = "--feature-bound", required = true, paramLabel = "B_X",
            description = "Public L2 bound B_X > 0 on each row's feature vector minus --feature-centre; longer "
                    + "feature vectors are scaled onto the ball (never an error). The noise on the coefficients "
                    + "grows with a loose bound.")
    double featureBound;

    @Option(names = "--target-bound", required = true, paramLabel = "B_Y",
            description = "Public bound B_Y > 0 on |target - --target-centre|; targets beyond are clamped. The "
                    + "stated excess error scales as B_Y^2.")
    double targetBound;

    @Option(names = "--feature-centre", split = ",", paramLabel = "c1,c2,..",
            description = "Public centre of the features (one value per feature column; default: the origin). A "
                    + "centre near the data's middle allows a smaller --feature-bound.")
    double[] featureCentre;

    @Option(names = "--target-centre", defaultValue = "0", paramLabel = "C",
            description = "Public centre of the target (default: ${DEFAULT-VALUE}).")
    double targetCentre;

    @Option(names = "--comparator-norm", defaultValue = "1", paramLabel = "T",
            description = "Accuracy statement only: the radius T of the comparator ball, in units where features "
                    + "are divided by B_X and the target by B_Y (default: ${DEFAULT-VALUE}).")
    double comparatorNorm;

    @Option(names = "--no-intercept",
            description = "Fit through the centres: no intercept column (the released intercept is then --target-centre"
                    + " minus coefficients . --feature-centre); the scaled rows' norm bound drops from sqrt(3) to "
                    + "sqrt(2), so the noise is 2/3 as large.")
    boolean noIntercept;

    @picocli.CommandLine.Mixin
    BudgetOptions budget = new BudgetOptions();

    @Override
    public Integer call() throws IOException {
        double delta = budget.delta();
        org.dpgauss.privacy.Zcdp rho = budget.zcdp();
        // a table Spark reads by its column names (--master with --id-column) names its target among them, once open
        boolean named = cluster.active() && cluster.idColumn != null;
        int column = named ? 0 : targetColumn(input, target);
        PrivateLinearRegression.Builder b = PrivateLinearRegression.builder().target(column)
                .featureBound(featureBound).targetBound(targetBound).targetCentre(targetCentre)
                .comparatorNorm(comparatorNorm).intercept(!noIntercept).budget(rho);
        if (featureCentre != null) {
            b.featureCentre(featureCentre);
        }
        PrivateLinearRegression m = b.build(); // parameters are validated before the data are read
        PrivateRelease r;
        boolean charged = main.ledger != null && main.ledger.active();
        if (named && !charged) { // the target's name is found among the table's value columns once it is open
            org.dpgauss.release.ReleaseContext context = main.releaseContext();
            try (ClusterOptions.Table t = cluster.open(context, input)) {
                column = targetColumn(t.columnNames(), target);
                m = b.target(column).build();
                r = ClusterOptions.release(m, t, delta, context);
            }
        } else {
            if (named) { // charged before the table is opened: the names must be public facts given here
                if (cluster.columns == null) {
                    throw new IllegalArgumentException("--ledger with --master --id-column and a --target given by "
                            + "name needs --columns c1,..: the release is charged before the table is opened (or "
                            + "give --target as a 0-based index of the value columns)");
                }
                column = targetColumn(cluster.columns, target);
                m = b.target(column).build();
            }
            PrivateLinearRegression fixed = m;
            r = cluster.active() ? main.releaseOnCluster(cluster, input, shape -> fixed, delta, null)
                    : main.release(input, shape -> fixed, delta);
        }
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        ctx.put("targetColumn", column);
        return ReleasePrinter.print(main, r, ctx);
    }

    /**
     * The 0-based target column of a table read by its column names (--master with --id-column): the number itself,
     * or the position of the name among the value columns (the public schema: --columns, or every column but the id).
     */
    static int targetColumn(List<String> names, String column) {
        String c = column.strip();
        if (c.matches("\\d+")) {
            return Integer.parseInt(c);
        }
        int i = names.indexOf(c);
        if (i < 0) {
            throw new IllegalArgumentException("--target " + column + " is not one of the value columns (" + String.join(
                    ", ", names.size() <= 50 ? names : names.subList(0, 50)) + "); give one of them or a 0-based"
                    + " index among them");
        }
        return i;
    }

    /**
     * The 0-based target column: the number itself, or the position of the name in the CSV file's header line (the
     * first line that is neither blank nor a {@code #} comment; the header is the public schema, not data).
     */
    static int targetColumn(Path input, String column) throws IOException {
        String c = column.strip();
        if (c.matches("\\d+")) {
            return Integer.parseInt(c);
        }
        if (input.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".npy")) {
            throw new IllegalArgumentException("--target " + column + ": a .npy file has no column names; give a"
                    + " 0-based index");
        }
        List<String> names = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(input, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("#")) {
                    continue;
                }
                for (String cell : s.split(",", -1)) {
                    String name = cell.strip();
                    if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
                        name = name.substring(1, name.length() - 1).replace("\"\"", "\"");
                    }
                    names.add(name);
                }
                break;
            }
        }
        boolean header = false;
        for (String n : names) {
            try {
                Double.parseDouble(n);
            } catch (NumberFormatException e) {
                header = true; // a non-numeric cell: the line is a header (names are the schema, not data)
            }
        }
        if (!header) { // the first line is data: its values must not appear in a message
            throw new IllegalArgumentException("--target " + column + ": " + input.getFileName() + " has no header"
                    + " line of column names; give a 0-based index");
        }
        int i = names.indexOf(c);
        if (i < 0) {
            throw new IllegalArgumentException("--target " + column + " is not a column name of the header line of "
                    + input.getFileName() + " (names: " + String.join(", ", names.size() <= 50 ? names
                    : names.subList(0, 50)) + "); give a name from the header or a 0-based index");
        }
        return i;
    }
}
