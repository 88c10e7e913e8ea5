package org.dpgauss.cli;

import org.dpgauss.privacy.ApproxDp;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.mean.anisotropic.AnisotropicMethod;
import org.dpgauss.mean.anisotropic.CoordinateWiseMean;
import org.dpgauss.mean.anisotropic.ShapeMatrix;
import org.dpgauss.mean.anisotropic.UnknownCovarianceMean;
import org.ejml.data.DMatrixRMaj;
import org.dpgauss.release.PrivateRelease;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Private mean of a data file. */
@Command(name = "mean", mixinStandardHelpOptions = true,
        description = {"Release a differentially private mean of the rows of a CSV or .npy file.",
            "--method anisotropic|folklore: private re-scaled averaging (spec anisotropic-mean-estimation §3, "
                    + "Algorithm 1 with BasicFilter) for data with a known (public) covariance proxy given by "
                    + "--covariance FILE or --variances; anisotropic rescales by Sigma (dimension-free error), "
                    + "folklore by the identity; anisotropic without a proxy estimates an unknown diagonal covariance "
                    + "privately first (Algorithm 2). Guarantee: (epsilon, delta)-DP under replace-one neighbours with n "
                    + "public. It may end in FAIL (exit code 3): too few rows survive the private filter. Its provable "
                    + "calibration runs the algorithm at epsilon/42 (epsilon/84 for each of the two averages without "
                    + "a proxy): it needs about 42 ln(1/delta)/epsilon rows before it can pass, and at the same budget "
                    + "its noise is often far above the clipped mean's; every release states its expected error and a "
                    + "95%% bound (\"accuracy\"), and the library's planner (org.dpgauss.plan.Planner) compares the "
                    + "methods before any data are read.",
            "--method coordinate: the coordinate-wise baseline (spec §10 B3): per-coordinate stable-histogram range "
                    + "finding with bins of width sqrt(Sigma_ii) (--variances or the diagonal of --covariance), "
                    + "clipping to a box, spherical Gaussian noise. Guarantee: (epsilon, delta)-DP under replace-one "
                    + "neighbours with n public; it may end in FAIL (exit code 3: a histogram found no bin; about "
                    + "sqrt(d)/epsilon rows are needed). Timing side channels are outside every guarantee.",
            "--method clipped: the clipped Gaussian-mechanism mean; rows are projected onto the L2 ball of public "
                    + "radius --clip around the public --centre, averaged, and N(0, sigma^2 I) noise is added with "
                    + "sigma = 2C/(n sqrt(2 rho)).",
            "Guarantee: rho-zCDP under replace-one neighbours (datasets of equal, public size n differing in one "
                    + "row), also stated as (epsilon, delta)-DP by the conversion of Canonne, Kamath & Steinke 2020 "
                    + "(Cor. 13), the tightest the project uses everywhere; --epsilon is met by the largest rho whose "
                    + "conversion at --delta gives at most epsilon.",
            BhsMeanOptions.HELP})
final class MeanCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @picocli.CommandLine.Mixin
    LedgerOptions ledger = new LedgerOptions();

    @picocli.CommandLine.Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy).")
    Path input;

    @Option(names = "--method",
            description = "Estimator: auto, box, box-pure, clipped, anisotropic, folklore, coordinate or bhs (default: "
                    + "auto when --bounds is given, else clipped).")
    String method;

    @Option(names = "--bounds", paramLabel = "LO:HI|FILE",
            description = "auto/box/box-pure: public range of every column, LO:HI for all columns alike, or FILE with "
                    + "one range per column (CSV lines lo,hi; or JSON {\"lower\": [..], \"upper\": [..]} or "
                    + "[[lo, hi], ..]). Values outside their range are clamped into it (the guarantee's rule, never an "
                    + "error). Trade-off: the noise is proportional to the widths; values outside are clamped and bias "
                    + "the mean towards the box, a bias the stated accuracy does not include.")
    String bounds;

    @Option(names = "--clip", paramLabel = "C|auto",
            description = "clipped: public L2 clipping radius around the centre (> 0), chosen without looking at "
                    + "the data; or 'auto' to find it privately with a share of the budget (--clip-share). Trade-off: "
                    + "the noise is proportional to C (sigma = 2C/(n sqrt(2 rho))); rows farther than C from the "
                    + "centre are pulled onto the ball and bias the mean towards the centre, a bias the stated "
                    + "accuracy does not include.")
    String clip;

    @Option(names = "--clip-share", defaultValue = "0.25", paramLabel = "S",
            description = "clipped with --clip auto: the share of the budget spent finding the radius, in (0, 1) "
                    + "(default: ${DEFAULT-VALUE}); more finds a radius that is safer on few rows, less leaves more "
                    + "for the mean.")
    double clipShare;

    @Option(names = "--covariance", paramLabel = "FILE",
            description = "anisotropic/folklore/coordinate: public d x d covariance proxy (CSV or .npy), positive "
                    + "definite (coordinate uses its diagonal). Trade-off: a proxy larger than the true covariance "
                    + "only adds noise (anisotropic: about tr(Sigma^(1/2)); folklore and coordinate: about "
                    + "sqrt(d tr Sigma)); a proxy smaller than it makes the filter drop rows (FAIL or a biased mean) "
                    + "or clips values, which the stated accuracy assumes away.")
    Path covariance;

    @Option(names = "--variances", split = ",", paramLabel = "v1,v2,..",
            description = "anisotropic/folklore/coordinate: public diagonal covariance proxy (instead of "
                    + "--covariance); the same trade-off as --covariance. Without a proxy, --method anisotropic "
                    + "estimates a diagonal covariance privately (Algorithm 2), which needs far more rows.")
    double[] variances;

    @Option(names = "--assume-variances", split = ",", paramLabel = "v1,v2,..",
            description = "anisotropic without a covariance proxy (unknown covariance): a public guess of the "
                    + "variances, used ONLY for the release's a-priori accuracy statement (the algorithm estimates "
                    + "the covariance privately and never sees the guess); without it the accuracy is stated in units of "
                    + "the data's own spread sqrt(tr(Sigma)/d), which is not public.")
    double[] assumeVariances;

    @Option(names = "--beta", defaultValue = "0.01",
            description = "anisotropic/folklore/coordinate: accuracy failure probability of the lambda rule (of the "
                    + "clipping radius for coordinate), in (0, 1) "
                    + "(default: ${DEFAULT-VALUE}). Trade-off: a smaller beta widens lambda (or the clipping box) "
                    + "like sqrt(log(n/beta)), so the noise grows slowly; a larger beta risks dropped or clipped rows "
                    + "with probability beta, which the stated accuracy counts in its failure probability.")
    double beta;

    @Option(names = "--centre", split = ",", paramLabel = "c1,c2,..",
            description = "Public centre of the clipping ball: d values, or one value for every column "
                    + "(default: the origin).")
    double[] centre;

    @picocli.CommandLine.Mixin
    BudgetOptions budget;

    @picocli.CommandLine.Mixin
    BhsMeanOptions bhs;

    private static final String RESCALED = "anisotropic|folklore";

    /** {@code --delta}, read from the budget options when the command runs. */
    private double delta;

    @Override
    public Integer call() throws IOException {
        String chosen = method != null ? method.toLowerCase(Locale.ROOT).strip() : bounds != null ? "auto" : "clipped";
        delta = budget.delta();
        if (chosen.equals("auto") || chosen.equals("box") || chosen.equals("box-pure")) {
            return boxFamily(chosen);
        }
        if (bounds != null) {
            throw new IllegalArgumentException("--bounds is used by --method auto, box and box-pure, not by --method "
                    + chosen);
        }
        if (chosen.equals("anisotropic") || chosen.equals("folklore")) {
            return rescaled(AnisotropicMethod.fromId(chosen));
        }
        if (chosen.equals("coordinate")) {
            return coordinateWise();
        }
        if (chosen.equals("bhs")) {
            return bhs.run(main, input, budget.approxDp().epsilon(), delta, cluster);
        }
        if (!"clipped".equals(chosen)) {
            throw new IllegalArgumentException("--method=" + method + " is not available; available: auto, box, "
                    + "box-pure, clipped, anisotropic, folklore, coordinate, bhs");
        }
        if (clip == null) {
            throw new IllegalArgumentException("--method clipped needs --clip C (a public clipping radius > 0) or"
                    + " --clip auto (a radius found privately with a share of the budget)");
        }
        if (clip.strip().equalsIgnoreCase("auto")) {
            return autoClipped();
        }
        double clipRadius;
        try {
            clipRadius = Double.parseDouble(clip.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--clip=" + clip + " is neither a number nor 'auto'");
        }
        ClippedGaussianMean.Builder b = ClippedGaussianMean.builder().clipRadius(clipRadius);
        if (budget.rho() != null) {
            b.rho(budget.rho());
        } else {
            b.targetEpsilon(budget.epsilon(), delta);
        }
        if (centre != null) {
            b.centre(centre);
        }
        // parameters are validated before the data are read
        b.build(centre == null ? 1 : centre.length);
        java.util.function.Function<Main.Shape, ClippedGaussianMean> clipped = shape -> {
            if (centre != null) {
                b.centre(centreFor(shape.d()));
            }
            return b.build(shape.d());
        };
        PrivateRelease r = cluster.active() ? main.releaseOnCluster(cluster, input, clipped, delta, null)
                : main.release(input, clipped, delta);
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        return printClipped(r, ctx);
    }

    /**
     * {@code --centre} for {@code d} columns: its d values, or its one value repeated for every column.
     *
     * @param d the number of columns (public)
     * @return the centre
     */
    private double[] centreFor(int d) {
        if (centre.length == 1 && d > 1) {
            double[] c = new double[d];
            java.util.Arrays.fill(c, centre[0]);
            return c;
        }
        if (centre.length != d) {
            throw new IllegalArgumentException("--centre has " + centre.length + " coordinates but "
                    + input.getFileName() + " has " + d + " columns: give d values, or one value for every column");
        }
        return centre;
    }

    /** The clipped mean with a privately found radius ({@code --clip auto}). */
    private Integer autoClipped() throws IOException {
        org.dpgauss.privacy.Zcdp total = budget.zcdp();
        // parameters are validated before the data are read
        org.dpgauss.mean.AutoClippedGaussianMean.of(centre == null ? new double[1] : centre, total, clipShare);
        java.util.function.Function<Main.Shape, org.dpgauss.mean.AutoClippedGaussianMean> auto = shape ->
                org.dpgauss.mean.AutoClippedGaussianMean.of(centre == null ? new double[shape.d()]
                        : centreFor(shape.d()), total, clipShare);
        PrivateRelease r = cluster.active() ? main.releaseOnCluster(cluster, input, auto, delta, null)
                : main.release(input, auto, delta);
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        return printClipped(r, ctx);
    }

    /**
     * Prints a clipped mean with the warnings of {@link RadiusAdvice} (issue 29): on standard error, and under
     * {@code --json} as the field {@code warnings} (always present, possibly empty).
     */
    private Integer printClipped(PrivateRelease r, Map<String, Object> ctx) {
        java.util.List<String> warnings = RadiusAdvice.forClippedMean(r);
        RadiusAdvice.printWarnings(main, warnings);
        if (main.json) {
            ctx.put("warnings", warnings);
        }
        return ReleasePrinter.print(main, r, ctx);
    }

    /** Algorithm 1 (spec anisotropic-mean-estimation §3): FAIL prints nothing else (design.md). */
    private Integer rescaled(AnisotropicMethod which) throws IOException {
        if (covariance != null && variances != null) {
            throw new IllegalArgumentException("--covariance and --variances both give the covariance proxy: pass one");
        }
        if (covariance == null && variances == null) {
            if (which == AnisotropicMethod.FOLKLORE) {
                throw new IllegalArgumentException("--method folklore needs --covariance FILE or --variances v1,v2,.. "
                        + "(its lambda uses the trace and norm of the covariance)");
            }
            return unknownCovariance();
        }
        ShapeMatrix sigma;
        if (variances != null) {
            sigma = ShapeMatrix.diagonal(variances);
        } else {
            RowBlockMatrix c = DataReader.read(covariance);
            if (c.rows() != c.cols()) {
                throw new IllegalArgumentException(covariance.getFileName() + " is " + c.rows() + " x " + c.cols()
                        + ", expected a square covariance matrix");
            }
            DMatrixRMaj a = new DMatrixRMaj(c.rows(), c.cols());
            for (int i = 0; i < c.rows(); i++) {
                for (int j = 0; j < c.cols(); j++) {
                    a.set(i, j, c.get(i, j));
                }
            }
            sigma = ShapeMatrix.of(a);
        }
        final ShapeMatrix proxy = sigma;
        return release(shape -> {
            if (shape.d() != proxy.dimension()) {
                throw new IllegalArgumentException("the covariance proxy is " + proxy.dimension() + "-dimensional but "
                        + input.getFileName() + " has " + shape.d() + " value columns");
            }
            return which.estimator(proxy, shape.n(), beta, budget.approxDp());
        });
    }

    /** Algorithm 2 (spec anisotropic-mean-estimation §4): unknown diagonal covariance. */
    private Integer unknownCovariance() throws IOException {
        return release(shape -> {
            UnknownCovarianceMean m = UnknownCovarianceMean.of(shape.n(), shape.d(), budget.approxDp(), beta);
            // --assume-variances: the accuracy statement only; the algorithm never sees it
            return assumeVariances != null ? m.assumingVariances(assumeVariances) : m;
        });
    }

    /** Baseline B3 (spec anisotropic-mean-estimation §10): coordinate-wise range finding, box clip, Gaussian. */
    private Integer coordinateWise() throws IOException {
        if ((covariance == null) == (variances == null)) {
            throw new IllegalArgumentException("--method coordinate needs exactly one of --variances v1,v2,.. or "
                    + "--covariance FILE (its bin widths are the public standard deviations sqrt(Sigma_ii))");
        }
        double[] v = variances;
        if (covariance != null) {
            RowBlockMatrix c = DataReader.read(covariance);
            if (c.rows() != c.cols()) {
                throw new IllegalArgumentException(covariance.getFileName() + " is " + c.rows() + " x " + c.cols()
                        + ", expected a square covariance matrix");
            }
            v = new double[c.rows()];
            for (int i = 0; i < v.length; i++) {
                v[i] = c.get(i, i);
            }
        }
        final double[] widths = v;
        return release(shape -> {
            if (shape.d() != widths.length) {
                throw new IllegalArgumentException("the covariance proxy is " + widths.length + "-dimensional but "
                        + input.getFileName() + " has " + shape.d() + " value columns");
            }
            return CoordinateWiseMean.of(widths, shape.n(), beta, budget.approxDp());
        });
    }

    /**
     * {@code --method auto|box|box-pure} (issue 27): the box is parsed and the mechanism chosen from public facts
     * (n, d, the bounds, the budget, a variance proxy if given) before any value is used; auto prints its choice and
     * why.
     */
    private Integer boxFamily(String chosen) throws IOException {
        if (bounds == null) {
            throw new IllegalArgumentException("--method " + chosen + " needs --bounds LO:HI or --bounds FILE (public"
                    + " per-column ranges)");
        }
        if (chosen.equals("box-pure") && budget.epsilon() == null) {
            throw new IllegalArgumentException("--method box-pure takes --epsilon (a pure epsilon-DP guarantee), not"
                    + " --rho");
        }
        BoxBounds box = BoxBounds.parse(bounds);
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        String[] kept = new String[1];
        java.util.function.Function<Main.Shape, org.dpgauss.rows.RowSourceMechanism> m = shape ->
                boxMechanism(chosen, box.forDimension(shape.d()), shape.n(), ctx, kept);
        // with --variances, auto under an (epsilon, delta) budget picks among methods that need a minimum n (public
        // under replace-one, but not known when a ledger is charged, before the data are read): the ledger is then
        // charged (epsilon, delta), which every candidate's guarantee fits (docs/ledger.md "Order of events")
        org.dpgauss.privacy.accounting.Release declared = chosen.equals("auto") && budget.rho() == null
                && variances != null ? org.dpgauss.privacy.accounting.Release.approxDp("mean.auto",
                        org.dpgauss.privacy.NeighbouringRelation.REPLACE_ONE, ApproxDp.of(budget.epsilon(), delta))
                : null;
        PrivateRelease r = cluster.active() ? main.releaseOnCluster(cluster, input, m, delta, declared)
                : main.release(input, m, delta, declared);
        return ReleasePrinter.print(main, r, ctx);
    }

    /** The mechanism of {@code --method auto|box|box-pure} on public facts; auto records its choice in ctx. */
    private org.dpgauss.rows.RowSourceMechanism boxMechanism(String chosen, double[][] b, int n,
            Map<String, Object> ctx, String[] kept) {
        org.dpgauss.privacy.Zcdp rho = budget.rho() != null ? org.dpgauss.privacy.Zcdp.of(budget.rho())
                : org.dpgauss.privacy.ConversionPolicy.rhoFor(budget.epsilon(), delta);
        if (chosen.equals("box")) {
            return org.dpgauss.mean.BoxMean.gaussian(b[0], b[1], rho);
        }
        if (chosen.equals("box-pure")) {
            return org.dpgauss.mean.BoxMean.pure(b[0], b[1], budget.epsilon());
        }
        if (budget.rho() != null) {
            // under a zCDP budget the pure mechanism would run at epsilon = sqrt(2 rho), with (d+1)(d+2)/3 >= d times
            // the Gaussian's squared error, and the ball is never better than the box: the choice needs no plan
            ctx.put("method", "box");
            ctx.put("methodReason", "--method auto under a zCDP budget (--rho): the Gaussian box mean has the smallest"
                    + " predicted error (the pure L-infinity noise at epsilon = sqrt(2 rho) has (d+1)(d+2)/3 times the"
                    + " squared error per unit of d, the ball never less than the box)");
            return org.dpgauss.mean.BoxMean.gaussian(b[0], b[1], rho);
        }
        org.dpgauss.plan.PlanQuery.Builder qb = org.dpgauss.plan.PlanQuery.builder(org.dpgauss.plan.Family.MEAN, n,
                b[0].length, ApproxDp.of(budget.epsilon(), delta)).bounds(b[0], b[1]);
        if (variances != null) {
            qb.variances(variances);
        }
        org.dpgauss.plan.Planner.Plan plan = org.dpgauss.plan.Planner.planMeanAuto(qb.build());
        org.dpgauss.plan.PlannedMethod recommended = plan.recommended().orElseThrow(() -> new IllegalArgumentException(
                "--method auto found no method that runs on these facts: " + plan.reason()));
        // Without --variances the candidates are box, box-pure and ball, whose expected errors all scale as 1/n^2:
        // the choice depends on d, the bounds and the budget, not on n. The first call's choice is kept, so that with
        // --ledger the method charged before the data are read (stated at the stand-in n) is the one that runs.
        if (variances == null && kept[0] == null) {
            kept[0] = recommended.method();
        }
        org.dpgauss.plan.PlannedMethod best = variances != null ? recommended : plan.methods().stream()
                .filter(p -> p.method().equals(kept[0]) && p.applicable() && p.predicted().isPresent()).findFirst()
                .orElse(recommended);
        StringBuilder others = new StringBuilder();
        for (org.dpgauss.plan.PlannedMethod p : plan.methods()) {
            if (p.applicable() && p.predicted().isPresent() && !p.method().equals(best.method())
                    && isCandidate(p.method())) {
                others.append(others.length() == 0 ? "" : ", ").append(p.method()).append(' ')
                        .append(ReleasePrinter.fmt(p.predicted().get().expected()));
            }
        }
        ctx.put("method", best.method());
        ctx.put("methodReason", "--method auto chose " + best.method() + ": " + plan.reason() + "; predicted expected"
                + " error " + ReleasePrinter.fmt(best.predicted().get().expected()) + (others.length() == 0 ? ""
                : " (" + others + ")") + ", from n, d, the bounds and the budget only, before the data were used");
        switch (best.method()) {
            case "box":
                return org.dpgauss.mean.BoxMean.gaussian(b[0], b[1], rho);
            case "box-pure":
                return org.dpgauss.mean.BoxMean.pure(b[0], b[1], budget.epsilon());
            case "ball": {
                double[][] ball = org.dpgauss.mean.BoxMean.ballOf(b);
                return ClippedGaussianMean.of(ball[1][0], ball[0], rho);
            }
            case "anisotropic":
            case "folklore":
                return AnisotropicMethod.fromId(best.method()).estimator(ShapeMatrix.diagonal(variances), n, beta,
                        ApproxDp.of(budget.epsilon(), delta));
            case "coordinate":
                return CoordinateWiseMean.of(variances, n, beta, ApproxDp.of(budget.epsilon(), delta));
            default:
                throw new IllegalStateException("--method auto: unexpected choice " + best.method());
        }
    }

    private static boolean isCandidate(String method) {
        return java.util.List.of("box", "box-pure", "ball", "anisotropic", "folklore", "coordinate").contains(method);
    }

    /** The one path of the rescaled and coordinate methods, on one process or a cluster, and the one renderer. */
    private Integer release(java.util.function.Function<Main.Shape, ? extends org.dpgauss.rows.RowSourceMechanism>
            mechanism) throws IOException {
        PrivateRelease r = cluster.active() ? main.releaseOnCluster(cluster, input, mechanism, delta, null)
                : main.release(input, mechanism, delta);
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        return ReleasePrinter.print(main, r, ctx);
    }
}
