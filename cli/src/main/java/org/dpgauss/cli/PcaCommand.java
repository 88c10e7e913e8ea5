package org.dpgauss.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.learn.PrivatePca;
import org.dpgauss.release.PrivateRelease;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Private principal component analysis of a data file (issue 26, item 1). */
@Command(name = "pca", mixinStandardHelpOptions = true,
        description = {"Release the top-k principal components and their variances of the centred rows of a CSV or "
                + ".npy file, differentially privately, as one release with one guarantee.",
            "How: the rows are centred (by a private clipped Gaussian mean with a share of the budget, or by a public "
                    + "--centre), clipped to the public radius --radius, their second moment is released by a "
                    + "second-moment method (--method, default analyze-gauss), and its eigen-decomposition is free "
                    + "post-processing.",
            "Guarantee: replace-one neighbours (n public); the centring and the second-moment steps are composed by "
                    + "the privacy accountant into one (epsilon, delta)-DP statement at --delta.",
            "Output: \"components\" (k rows of d entries, unit vectors, largest variance first), \"variances\" (k "
                    + "private eigenvalues), \"mean\" (the private centre, when no --centre is given), and "
                    + "\"accuracy\": the top-k variance missed, sum of the k largest eigenvalues of the covariance minus "
                    + "the variance the released components capture, at most 2kE with the stated probability, where E "
                    + "(parameter varianceErrorBound) also bounds every released variance's error."})
final class PcaCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @picocli.CommandLine.Mixin
    LedgerOptions ledger = new LedgerOptions();

    @picocli.CommandLine.Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy), n x d.")
    Path input;

    @Option(names = "--k", required = true, paramLabel = "K",
            description = "Number of components, 1 <= K <= d. The stated loss bound grows as 2KE.")
    int k;

    @Option(names = "--radius", paramLabel = "R|auto",
            description = "Public clipping radius R > 0 of the centred rows: a centred row longer than R is scaled "
                    + "onto the ball (part of the mechanism, never an error). The noise scales as R^2; rows beyond R "
                    + "bias the variances down, which the stated accuracy does not count. Or auto (needs "
                    + "--radius-cap): a share of the budget (--radius-share) finds R <= the cap privately from a "
                    + "noisy histogram of the distances to the centre; R is released as \"radius\". Without --radius, "
                    + "--radius-cap is required and means auto.")
    String radius;

    @Option(names = "--radius-cap", paramLabel = "CAP",
            description = "With --radius auto: the public cap CAP > 0 on the radius (e.g. sqrt(d) for data in [0, 1]^d,"
                    + " the box's diagonal); the radius found is at most CAP, and CAP itself when no distance bucket "
                    + "stands out of the noise (too few rows for the share). Also the default --mean-radius.")
    Double radiusCap;

    @Option(names = "--radius-share", defaultValue = "0.1", paramLabel = "S",
            description = "With --radius auto: the share of the budget spent on finding the radius, in (0, 1) "
                    + "(default: ${DEFAULT-VALUE}); the second moment gets what the mean and the radius leave.")
    double radiusShare;

    @Option(names = "--centre", split = ",", paramLabel = "c1,c2,..",
            description = "Public centre (d values): rows are centred on it and no budget is spent on a mean "
                    + "(default: a private mean). The accuracy then refers to the second moment about this centre.")
    double[] centre;

    @Option(names = "--mean-share", defaultValue = "auto", paramLabel = "S|auto",
            description = "Without --centre: the share of the budget spent on the private mean, in (0, 1), or auto "
                    + "(the default): the share on the grid 0.05, 0.10, .., 0.95 that minimises 2 sqrt(d) sigma_sm + "
                    + "d sigma_mean^2 / 4 (the Analyze Gauss noise sigma_sm of the second moment at radius R and the "
                    + "clipped mean's sigma_mean at --mean-radius: public, from n, d, R, C and the budget), so a mean "
                    + "radius far above R gets a larger share. With --radius auto (when the search runs), auto is 0.15 "
                    + "for the coarse mean, and the refined centre of the two-stage centring takes another 0.15 (that "
                    + "rule prices the second moment at the cap, far above the radius usually found; measured on "
                    + "scikit-learn's five tables).")
    String meanShare;

    @Option(names = "--mean-radius", paramLabel = "C",
            description = "Without --centre: the clipping radius C > 0 of the private mean, around the origin "
                    + "(default: --radius). Rows farther than C from the origin bias the centre.")
    Double meanRadius;

    @Option(names = "--method", defaultValue = "analyze-gauss", paramLabel = "NAME",
            description = "Second-moment method of the centred rows (default: ${DEFAULT-VALUE}): analyze-gauss "
                    + "(noise law public and exact), coinpress, recursive (with --min-eigenvalue), or auto: the "
                    + "planner's choice (org.dpgauss.plan.Planner, as `plan second-moment`) for n, d, R and the "
                    + "second-moment step's budget, among those three. coinpress states a worst-case spectral bound, "
                    + "so the PCA bound built on it is loose even where its error is small.")
    String method;

    @Option(names = "--min-eigenvalue", paramLabel = "L",
            description = "recursive: public lower bound L > 0 on lambda_min of the centred rows' second moment "
                    + "(the other methods use it only in their statements).")
    Double minEigenvalue;

    @picocli.CommandLine.Mixin
    BudgetOptions budget = new BudgetOptions();

    @Option(names = "--plot", paramLabel = "FILE",
            description = "Also draw a scree plot of the released (private) variances against the component index as "
                    + "a PNG image to FILE, after a PASS (nothing is drawn on a FAIL); the output gains the field "
                    + "\"plot\" (FILE). Only released values are drawn: dpgauss computes nothing non-private for it.")
    Path plot;

    @Option(names = "--plot-reference", paramLabel = "FILE",
            description = "With --plot: your own NON-PRIVATE variances (numbers separated by commas, spaces or line "
                    + "breaks, largest first), drawn dashed beside the private ones and labelled NON-PRIVATE. dpgauss "
                    + "only reads them for the picture; they enter no release and no output.")
    Path plotReference;

    @Override
    public Integer call() throws IOException {
        double[] reference = null;
        if (plotReference != null && plot == null) {
            throw new picocli.CommandLine.ParameterException(main.spec.commandLine().getSubcommands().get("pca"),
                    "--plot-reference needs --plot FILE");
        }
        if (plot != null) { // before anything is read or charged: a plot that cannot be written costs nothing
            PlotData.preflight(plot);
            if (plotReference != null) {
                reference = PlotData.readReference(plotReference);
            }
        }
        double delta = budget.delta();
        org.dpgauss.privacy.Zcdp rho = budget.zcdp();
        boolean auto = "auto".equalsIgnoreCase(method.strip());
        boolean autoShare = "auto".equalsIgnoreCase(meanShare.strip());
        double share = autoShare ? PrivatePca.DEFAULT_MEAN_SHARE : parseShare(meanShare);
        if (radius == null && radiusCap == null) {
            throw new picocli.CommandLine.ParameterException(main.spec.commandLine().getSubcommands().get("pca"),
                    "pca needs --radius R (a public clipping radius) or --radius-cap CAP (the radius found privately"
                            + " below CAP, as --radius auto)");
        }
        boolean autoRadius = radius == null || "auto".equalsIgnoreCase(radius.strip());
        double rr;
        if (autoRadius) {
            if (radiusCap == null) {
                throw new picocli.CommandLine.ParameterException(main.spec.commandLine().getSubcommands().get("pca"),
                        "--radius auto needs --radius-cap CAP, a public bound on the centred rows' norms");
            }
            if (!"analyze-gauss".equals(method.strip()) && !auto) {
                throw new picocli.CommandLine.ParameterException(main.spec.commandLine().getSubcommands().get("pca"),
                        "--radius auto needs --method analyze-gauss (or auto, which then takes it)");
            }
            rr = radiusCap;
        } else {
            if (radiusCap != null) {
                throw new picocli.CommandLine.ParameterException(main.spec.commandLine().getSubcommands().get("pca"),
                        "--radius-cap is for --radius auto");
            }
            try {
                rr = Double.parseDouble(radius.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--radius=" + radius + " is neither a number nor 'auto'");
            }
        }
        double radiusR = rr;
        radiusValue = rr;
        PrivatePca.Builder b = PrivatePca.builder().k(k).budget(rho).meanShare(share)
                .method(auto ? "analyze-gauss" : method).minEigenvalue(minEigenvalue);
        if (autoRadius) {
            b.radiusAuto(rr).radiusShare(radiusShare);
        } else {
            b.radius(rr);
        }
        if (centre != null) {
            b.centre(centre);
        }
        if (meanRadius != null) {
            b.meanRadius(meanRadius);
        }
        b.build(); // parameters are validated before the data are read
        java.util.function.Function<Main.Shape, PrivatePca> make = shape -> {
            // public facts only: n (public under replace-one), d, R, C, the budget
            double s = share;
            if (autoShare && centre == null && autoRadius && b.build().radiusSearched(shape.n())) {
                // the planner below prices the second moment at the cap, where the found radius is usually far
                // smaller: a fixed share measured on scikit-learn's five tables (bench/results/realdata)
                s = AUTO_RADIUS_MEAN_SHARE;
                b.meanShare(s);
            } else if (autoShare && centre == null) {
                // (with --radius auto and too few rows for the search: R is the cap, planned as a public R)
                s = plannedMeanShare(shape.n(), shape.d(), radiusR, meanRadius != null ? meanRadius : radiusR,
                        rho.rho(), delta);
                if (autoRadius) {
                    // the shares (the refined centre's too, validated whether or not the search runs) must leave the
                    // second moment its part
                    s = Math.max(0.01, Math.min(s, 0.95 - radiusShare - PrivatePca.DEFAULT_CENTRE_SHARE));
                }
                b.meanShare(s);
            }
            if (auto && !autoRadius) {
                b.method(plannedMethod(shape.n(), shape.d(), centre == null ? rho.rho() * (1 - s) : rho.rho()));
            }
            return b.build();
        };
        // the same release on the cluster, its row passes there (docs/spark.md); with --ledger charged first
        PrivateRelease r = cluster.active() ? main.releaseOnCluster(cluster, input, make, delta, null)
                : main.release(input, make, delta);
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        if (plot != null && r.isPass()) { // the released variances only (and the user's own reference, labelled)
            PlotWriter.write(plot, java.util.List.of(PlotData.scree(r.values().get("variances").asVector(),
                    reference)));
            ctx.put("plot", plot.toString());
        } else if (plot != null) {
            main.spec.commandLine().getErr().println("dpgauss: no plot: the release FAILed and released nothing");
        }
        return ReleasePrinter.print(main, r, ctx);
    }

    private double radiusValue;

    private static double parseShare(String s) {
        double v;
        try {
            v = Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--mean-share=" + s + " is neither a number in (0, 1) nor 'auto'");
        }
        if (!(v > 0 && v < 1)) {
            throw new IllegalArgumentException("--mean-share=" + s + " is outside (0, 1)");
        }
        return v;
    }

    /**
     * {@code --mean-share auto} with {@code --radius auto}: the coarse private mean's share of rho (the refined centre
     * takes {@link PrivatePca#DEFAULT_CENTRE_SHARE} more).
     */
    static final double AUTO_RADIUS_MEAN_SHARE = 0.15;

    /** The grid {@code --mean-share auto} searches. */
    static final double[] SHARE_GRID = {0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65,
        0.70, 0.75, 0.80, 0.85, 0.90, 0.95};

    /**
     * {@code --mean-share auto}: the share s of rho for the private centre that minimises
     * {@code 2 sqrt(d) sigma_sm(s) + d sigma_mean(s)^2 / 4}, from public facts only (n, public under replace-one; d;
     * R; the mean radius C; rho; delta). {@code sigma_sm(s)} is the Analyze Gauss noise of the second moment of rows
     * clipped to R at {@code (1 - s) rho} (its statement's {@code noiseSigma}; {@code 2 sqrt(d) sigma_sm} the typical
     * spectral norm of that symmetric Gaussian noise); {@code sigma_mean(s)} the clipped Gaussian mean's noise at
     * radius C and {@code s rho} ({@code d sigma_mean^2} the expected squared norm of the centring error e, which
     * enters the covariance as the rank-one {@code e e^T}). The weight 1/4 on the rank-one term: a rank-one
     * perturbation of a given norm moves the top-k subspace much less than Wigner noise of the same spectral norm
     * (it competes with one eigen-gap in one direction); in simulations of the PCA pipeline on scikit-learn's five
     * tables at (1, 1e-6)-DP, radii from the box's sqrt(d) down to the 0.9-quantile of the centred norms and C from R
     * to sqrt(d), the weight 1/4 came within noise of the best fixed share everywhere and lifted the captured share
     * by up to 0.3 where R is far below C (bench/results/realdata/learn-vs-diffprivlib.md). The result is a
     * function of public parameters only, so the choice costs no budget.
     */
    static double plannedMeanShare(int n, int d, double r, double meanRadius, double rho, double delta) {
        org.dpgauss.release.PublicContext ctx = org.dpgauss.release.PublicContext.forPlanning(n, d,
                org.dpgauss.privacy.NeighbouringRelation.REPLACE_ONE, delta);
        double best = PrivatePca.DEFAULT_MEAN_SHARE;
        double bestCost = Double.POSITIVE_INFINITY;
        for (double s : SHARE_GRID) {
            PrivatePca p = PrivatePca.builder().k(1).radius(r).meanRadius(meanRadius)
                    .budget(org.dpgauss.privacy.Zcdp.of(rho)).meanShare(s).method("analyze-gauss").build();
            Object sm = org.dpgauss.release.Releases.state(p, ctx).parameters().toMap().get("secondMoment");
            double sigmaSm = ((Number) ((Map<?, ?>) sm).get("noiseSigma")).doubleValue();
            double sigmaMean = org.dpgauss.mean.ClippedGaussianMean.of(meanRadius, new double[d],
                    org.dpgauss.privacy.Zcdp.of(rho * s)).sigma(n);
            double cost = 2 * Math.sqrt(d) * sigmaSm + d * sigmaMean * sigmaMean / 4;
            if (cost < bestCost) {
                bestCost = cost;
                best = s;
            }
        }
        return best;
    }

    /** The planner's second-moment method for the centred rows, among those PCA runs (else analyze-gauss). */
    private String plannedMethod(int n, int d, double rhoStep) {
        org.dpgauss.plan.PlanQuery.Builder q = org.dpgauss.plan.PlanQuery.builder(org.dpgauss.plan.Family.SECOND_MOMENT,
                n, d, org.dpgauss.privacy.ConversionPolicy.toApproxDp(org.dpgauss.privacy.Zcdp.of(rhoStep), budget.delta()))
                .rowBound(radiusValue);
        if (minEigenvalue != null) {
            q.minEigenvalue(minEigenvalue);
        }
        String m = org.dpgauss.plan.Planner.plan(q.build()).recommended().map(org.dpgauss.plan.PlannedMethod::method)
                .orElse("analyze-gauss");
        boolean runs = m.equals("analyze-gauss") || m.equals("coinpress")
                || (m.equals("recursive") && minEigenvalue != null);
        return runs ? m : "analyze-gauss";
    }
}
