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
            "How (sufficient-statistics perturbation as AdaSSP, Wang 2018): features are scaled per column by "
                    + "--bounds (or centred at --feature-centre), clipped to the L2 ball of --feature-bound, the "
                    + "target clamped to --target-bound around --target-centre; (1/n) sum z z^T (z = [features, 1]) "
                    + "and (1/n) sum z y are released by two Gaussian mechanisms, half the budget each; the ridge E "
                    + "(the public bound on the noise) and the solve are free post-processing. Bounds not given are "
                    + "found privately with --bounds-share of the budget (as mean --clip auto).",
            "Guarantee: rho-zCDP under replace-one neighbours (n public), also stated as (epsilon, delta)-DP.",
            "Output: \"coefficients\" (one per feature column, in file order without the target), \"intercept\", "
                    + "\"ridge\" (the ridge used, scaled units), the found bounds where not given, and \"accuracy\": "
                    + "the excess mean squared error over the best linear predictor in a comparator ball, at most "
                    + "B_Y^2 E (2 + 2T^2) with the stated probability."})
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

    @Option(names = "--bounds", paramLabel = "LO:HI|FILE",
            description = "Public per-column bounds of every column, the target's included (as diffprivlib's "
                    + "bounds_X and bounds_y): one range LO:HI for all, or a file with one range per column (CSV "
                    + "lines lo,hi or JSON, as mean --bounds). Features are centred at the midpoints and divided by "
                    + "the half-widths; the target's range gives --target-centre and --target-bound unless those are "
                    + "given. Values outside are clipped, never an error.")
    String bounds;

    @Option(names = "--feature-bound", paramLabel = "B_X",
            description = "Public L2 bound B_X > 0 on each row's feature vector minus --feature-centre (with "
                    + "--bounds: on the scaled features, default sqrt(number of features), the box's corner); longer "
                    + "feature vectors are scaled onto the ball (never an error). Without it and without --bounds it "
                    + "is found privately.")
    Double featureBound;

    @Option(names = "--target-bound", paramLabel = "B_Y",
            description = "Public bound B_Y > 0 on |target - --target-centre|; targets beyond are clamped. The "
                    + "stated excess error scales as B_Y^2. Without it and without --bounds it is found privately.")
    Double targetBound;

    @Option(names = "--feature-centre", split = ",", paramLabel = "c1,c2,..",
            description = "Public centre of the features (one value per feature column; default: the origin; with "
                    + "a private --feature-bound, the search's start). A centre near the data's middle allows a "
                    + "smaller --feature-bound.")
    double[] featureCentre;

    @Option(names = "--target-centre", paramLabel = "C",
            description = "Public centre of the target (default: 0, or the midpoint of its --bounds range; with a "
                    + "private --target-bound, the search's start).")
    Double targetCentre;

    @Option(names = "--private-feature-ball",
            description = "With --bounds: find the centre and L2 radius of the box-scaled features privately (with "
                    + "--bounds-share of the budget) instead of the box's midpoints and corner; when too few rows "
                    + "stand out of the noise the midpoints and corner are used (never a FAIL). Not with "
                    + "--feature-bound.")
    boolean privateFeatureBall;

    @Option(names = "--bounds-share", defaultValue = "0.2", paramLabel = "S",
            description = "Share of the budget, in (0, 1), spent finding the feature and target bounds and centres "
                    + "that are not given (each by two runs of the mean --clip auto machinery); unused when both "
                    + "bounds are given (default: ${DEFAULT-VALUE}).")
    double boundsShare;

    @Option(names = "--method", defaultValue = "ssp", paramLabel = "ssp|adassp|projection",
            description = "ssp (default): one Analyze Gauss release of the joint second moment of [features, 1, "
                    + "target] about the box's centre or, where the rows allow, a private centre, clipped at a "
                    + "private radius (rho-zCDP, replace-one). adassp: X^T X and X^T y released separately at the "
                    + "box's corner radius (rho-zCDP, replace-one). projection: the NDIS paper's private regression, one random projection of "
                    + "[features, 1, target] (M_RP) and the sketched normal equations; (epsilon, delta)-DP under "
                    + "add/remove neighbours by the exact NDIS accounting (give --epsilon); bounds required.")
    String method;

    @Option(names = "--rank", paramLabel = "r",
            description = "--method projection only: the projection's rank r (default: the smallest at which the "
                    + "stated accuracy has kappa = 3, about ((sqrt(d + 1) + 2.7)/0.22)^2).")
    Integer rank;

    @Option(names = "--comparator-norm", defaultValue = "1", paramLabel = "T",
            description = "Accuracy statement only: the radius T of the comparator ball, in units where features "
                    + "are divided by B_X and the target by B_Y (default: ${DEFAULT-VALUE}).")
    double comparatorNorm;

    @Option(names = "--no-intercept",
            description = "Fit through the centres: no intercept column (the released intercept is the target centre"
                    + " minus coefficients . the feature centre); the rows' norm bound drops from sqrt(2) to 1, so "
                    + "the noise is half as large.")
    boolean noIntercept;

    @picocli.CommandLine.Mixin
    BudgetOptions budget = new BudgetOptions();

    @Override
    public Integer call() throws IOException {
        double delta = budget.delta();
        // a table Spark reads by its column names (--master with --id-column) names its target among them, once open
        boolean named = cluster.active() && cluster.idColumn != null;
        int column = named ? 0 : targetColumn(input, target);
        BoxBounds box = bounds != null ? BoxBounds.parse(bounds) : null; // public: parsed before the data are read
        String how = method.strip().toLowerCase(Locale.ROOT);
        if (!how.equals("ssp") && !how.equals("adassp") && !how.equals("projection")) {
            throw new IllegalArgumentException("--method " + method + ": ssp, adassp or projection");
        }
        boolean projection = how.equals("projection");
        if (privateFeatureBall && (box == null || featureBound != null || projection)) {
            throw new IllegalArgumentException("--private-feature-ball needs --bounds, and neither --feature-bound nor"
                    + " --method projection");
        }
        if (rank != null && !projection) {
            throw new IllegalArgumentException("--rank is for --method projection");
        }
        if (projection && budget.epsilon() == null) {
            throw new IllegalArgumentException("--method projection takes --epsilon (its guarantee is (epsilon, delta)-DP"
                    + " by the exact NDIS accounting), not --rho");
        }
        if (projection && box == null && (featureBound == null || targetBound == null)) {
            throw new IllegalArgumentException("--method projection needs the bounds: --bounds, or --feature-bound and"
                    + " --target-bound (it finds none privately)");
        }
        if (box != null && featureCentre != null) {
            throw new IllegalArgumentException("--bounds gives the feature centre (the midpoints): leave out"
                    + " --feature-centre");
        }
        if (box == null && (!projection || rank != null)) {
            mechanism(column, -1, box, projection); // parameters are validated before the data are read
        }
        PrivateRelease r;
        boolean charged = main.ledger != null && main.ledger.active();
        if (named && !charged) { // the target's name is found among the table's value columns once it is open
            org.dpgauss.release.ReleaseContext context = main.releaseContext();
            try (ClusterOptions.Table t = cluster.open(context, input)) {
                column = targetColumn(t.columnNames(), target);
                PrivateLinearRegression m = mechanism(column, ClusterOptions.shape(t).d(), box, projection);
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
            }
            int fixed = column;
            r = cluster.active()
                    ? main.releaseOnCluster(cluster, input, shape -> mechanism(fixed, shape.d(), box, projection),
                            delta, null)
                    : main.release(input, shape -> mechanism(fixed, shape.d(), box, projection), delta);
        }
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        ctx.put("targetColumn", column);
        return ReleasePrinter.print(main, r, ctx);
    }

    /**
     * The mechanism for the data's public number of columns d (the schema): the per-column --bounds and the
     * projection's default rank follow from d; a fresh builder each time, as the ledger may state it for several
     * stand-in shapes.
     *
     * @param column the target column, 0-based
     * @param d the number of columns, or -1 to validate the options that do not depend on it
     */
    private PrivateLinearRegression mechanism(int column, int d, BoxBounds box, boolean projection) {
        PrivateLinearRegression.Builder b = PrivateLinearRegression.builder().target(column)
                .comparatorNorm(comparatorNorm).intercept(!noIntercept).boundsShare(boundsShare);
        if (method.strip().toLowerCase(Locale.ROOT).equals("adassp")) {
            b.method(PrivateLinearRegression.Method.ADASSP);
        }
        if (!projection) {
            b.budget(budget.zcdp());
        } else if (rank != null) {
            b.projection(rank, budget.approxDp());
        }
        if (featureBound != null) {
            b.featureBound(featureBound);
        }
        if (featureCentre != null) {
            b.featureCentre(featureCentre);
        }
        if (box == null) {
            if (targetBound != null) {
                b.targetBound(targetBound);
            }
            if (targetCentre != null) {
                b.targetCentre(targetCentre);
            }
        } else { // the number of columns is public (the schema)
            if (column >= d) {
                throw new IllegalArgumentException("--target " + column + " (0-based) is beyond the data's " + d
                        + " columns");
            }
            double[][] lu = box.forDimension(d);
            double[] lo = new double[d - 1];
            double[] hi = new double[d - 1];
            for (int j = 0, f = 0; j < d; j++) {
                if (j != column) {
                    lo[f] = lu[0][j];
                    hi[f++] = lu[1][j];
                }
            }
            b.featureBox(lo, hi).findFeatureBall(privateFeatureBall);
            double tl = lu[0][column];
            double th = lu[1][column];
            b.targetCentre(targetCentre != null ? targetCentre : tl / 2 + th / 2);
            b.targetBound(targetBound != null ? targetBound : th / 2 - tl / 2);
        }
        if (projection && rank == null) { // the default rank follows from d, a public fact
            b.projection(PrivateLinearRegression.defaultRank(d, !noIntercept), budget.approxDp());
        }
        return b.build();
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
