package org.dpgauss.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.secondmoment.AnalyzeGauss;
import org.dpgauss.secondmoment.NoiseScaling;
import org.dpgauss.secondmoment.SecondMomentMethod;
import org.dpgauss.secondmoment.SecondMomentMethods;
import org.dpgauss.secondmoment.SecondMomentParams;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Private uncentred second-moment matrix of a data file (spec second-moment-estimation). */
@Command(name = "second-moment", mixinStandardHelpOptions = true,
        description = {"Release a differentially private estimate of the uncentred second-moment matrix "
                + "(1/n) sum_i x_i x_i^T of the rows of a CSV or .npy file (not the covariance: no mean is subtracted).",
            "Default method: recursive when a lambda_min bound is given (--min-eigenvalue or --lambda-epsilon), "
                    + "otherwise analyze-gauss, which needs none (one Gaussian matrix on the Gram of the rows clipped to "
                    + "R) and runs on every input. --method recursive: Algorithm 1 of Mahpud & Sheffet 2025 (recursive preconditioning: noisy "
                    + "Gram, eigen-split at psi*kappa, shrink, rescale by sqrt(8/7), clip to sqrt(3/7)R, un-whiten), "
                    + "in the pipeline of spec §2.4: rows bounded by the covering radius, data divided by a lower bound "
                    + "on lambda_min(Sigma) that is public (--min-eigenvalue) or estimated privately by Algorithm 4 "
                    + "(--lambda-epsilon). Other methods: see --list-methods.",
            "Guarantee: rho-zCDP under replace-one neighbours (datasets of equal, public size n differing in one row), "
                    + "for every input; stated also as (epsilon, delta)-DP by the conversion of Canonne, Kamath & "
                    + "Steinke 2020, Cor. 13, the one the project uses everywhere (never worse than epsilon = rho + "
                    + "2 sqrt(rho ln(1/delta))). With --lambda-epsilon the two steps (Algorithm 4 and Algorithm 1) are "
                    + "composed by the privacy accountant at --delta.",
            "Output: the release of every dpgauss mechanism (docs/cli.md, 'What a release contains'): the raw private matrix "
                    + "(symmetric, possibly indefinite) as \"secondMoment\"; with --psd also its projection onto the "
                    + "PSD cone (free post-processing) as \"psdProjection\"; the public \"parameters\" and the "
                    + "\"guarantee\". A FAIL (Algorithm 4 released no usable bucket; subsample-aggregate's test failed) "
                    + "releases nothing else and exits with code 3.",
            "Accuracy: every release states, from public values only, \"accuracy\": the absolute spectral error "
                    + "||S~ - S||_2 (units of S) expected and its 95%% bound, with the assumptions they need (for example "
                    + "\"every row has norm <= R\"), and in \"alsoIn\" the same in units of R^2 and, with "
                    + "--min-eigenvalue L, divided by L (an upper bound on the relative error ||S~ - S||_2/||S||_2). "
                    + "analyze-gauss: the noise norm, about 2 R^2 sqrt(d)/(n sqrt(rho)), exact whatever the rows. "
                    + "coinpress: its error depends on the private S, so the release computes its expected value "
                    + "from the released matrix itself (post-processing, \"expectedBasis\": \"release: ...\"): "
                    + "simulated runs of the mechanism on Gaussian rows of that second moment, for Gaussian-like rows; "
                    + "and a worst-case bound stated before the data are read (the planner's value is a scenario, "
                    + "S = s I, s = R^2/d or L with --min-eigenvalue). recursive: with one level (R^2/L small) its "
                    + "leaf noise, exact; with several, the leaf noise amplified along halved directions, proven when "
                    + "n meets its event-E size (the statement names that n).",
            "Which method: analyze-gauss when R is a tight bound on the rows' norms; coinpress for Gaussian-like "
                    + "rows above its lock-on n under a loose R (||S||_2 well below R^2/d); recursive for badly "
                    + "conditioned, heavy-tailed rows with a public --min-eigenvalue and n above its event-E size; subsample-aggregate only at Thm A.6's sample size (about 1e9 "
                    + "rows at d=100). The library planner (org.dpgauss.plan.Planner) prints each method's predicted "
                    + "error and minimum n from n, d, the budget and R."})
final class SecondMomentCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @picocli.CommandLine.Mixin
    LedgerOptions ledger = new LedgerOptions();

    @picocli.CommandLine.Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--input", paramLabel = "FILE", description = "Data file (.csv or .npy), n x d.")
    Path input;

    @Option(names = "--method", paramLabel = "NAME",
            description = "Estimator (default: " + SecondMomentMethods.DEFAULT + " when --min-eigenvalue or "
                    + "--lambda-epsilon gives it a lambda_min bound, else " + AnalyzeGauss.NAME + ", which needs "
                    + "none); --list-methods lists them.")
    String method;

    @Option(names = "--list-methods", description = "List the available methods with their guarantees and exit.")
    boolean listMethods;

    /** --epsilon or --rho, and --delta: the budget of the main mechanism (issue 29: one interface). */
    @picocli.CommandLine.Mixin
    BudgetOptions budget;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Radius radius;

    static final class Radius {
        @Option(names = "--radius", required = true, paramLabel = "R",
                description = "Public covering radius R > 0: rows are expected to have L2 norm <= R; a longer row "
                        + "is clipped to R (part of the mechanism, never an error; `dpgauss validate --row-bound R` "
                        + "reports such rows first, not privately). Choose R without looking at the data. The noise "
                        + "scales as R^2: a loose R costs accuracy quadratically.")
        Double bound;

        @Option(names = "--clip", required = true, paramLabel = "R",
                description = "Clipping radius R > 0: rows longer than R are scaled onto the ball of radius R (part "
                        + "of the mechanism; the guarantee holds for any input). Trade-off: the noise scales as R^2, "
                        + "but rows beyond R are shrunk, biasing S~ down (the accuracy statement assumes none is).")
        Double clip;
    }

    @Option(names = "--min-eigenvalue", paramLabel = "L",
            description = "recursive: public lower bound L > 0 on lambda_min(S); the data are divided by sqrt(L). A "
                    + "smaller L is safe but adds levels (L grows with log(R^2/L)) and raises the n at which the "
                    + "accuracy is proven; an L above lambda_min(S) voids the accuracy statement (privacy holds). "
                    + "analyze-gauss and coinpress use it only in their accuracy statement, as a lower bound on ||S||_2.")
    Double minEigenvalue;

    @Option(names = "--lambda-epsilon", paramLabel = "E",
            description = "recursive: estimate lambda_min privately with Algorithm 4 at (E, --lambda-delta)-DP instead "
                    + "of --min-eigenvalue; the scale is lambda~/(1+alpha). E is spent on top of the --rho (or --epsilon) budget; a smaller E "
                    + "raises the histogram threshold 1 + (2/E) ln(1/delta) that floor(n/K) groups must reach, so "
                    + "small n FAILs (the release's failMeaning names the n needed).")
    Double lambdaEpsilon;

    @Option(names = "--lambda-delta", paramLabel = "D",
            description = "recursive: Algorithm 4's delta, in (0, --delta) (default: --delta / 2).")
    Double lambdaDelta;

    @Option(names = "--lambda-group-size", paramLabel = "K",
            description = "recursive: Algorithm 4's group size K >= d (default: 10d). A larger K makes the groups' "
                    + "lambda_min agree (one bucket) but leaves fewer groups floor(n/K) to pass the histogram threshold; "
                    + "a K near d gives near-singular groups (bucket {0}, FAIL).")
    Integer lambdaGroupSize;

    @Option(names = "--m", paramLabel = "M",
            description = "Subsamplability size m >= 1 (spec §1.3; default: d). Sets the stop 640m, the threshold "
                    + "psi = 1/(10m) and the tail P_tail = {x : x^T S^-1 x > m(1+alpha)}. Privacy holds for every m. "
                    + "Trade-off: the leaf noise and the noise/split ratio grow with m (a smaller m is more accurate "
                    + "and reaches event E at smaller n), but m below the data's true subsamplability size voids "
                    + "the accuracy guarantee (more rows fall in the clipped tail).")
    Integer m;

    @Option(names = "--alpha", defaultValue = "0.5", description = "Subsampling accuracy alpha in (0, 1/2] "
            + "(default: ${DEFAULT-VALUE}). recursive: the data are pre-scaled by 1/(1-alpha) and the one-level "
            + "error carries a factor (1-alpha); a smaller alpha narrows Algorithm 4's buckets (more may split the "
            + "groups). subsample-aggregate: its accuracy bound is 2 alpha and its masking noise grows with alpha.")
    double alpha;

    @Option(names = "--xi", defaultValue = "0.1", description = "Failure probability of the reported accuracy "
            + "bound gamma_bound, in (0, 1) (default: ${DEFAULT-VALUE}); analysis only.")
    double xi;

    @Option(names = "--beta", paramLabel = "B", description = "Subsampling failure probability beta in (0, 1): "
            + "analysis only for recursive (not an input of Algorithm 1); passed to baselines that check the paper's "
            + "conditions.")
    Double beta;

    /** {@code --delta}, read from the budget options when the command runs. */
    private double delta;

    @Option(names = "--noise-scaling", defaultValue = "levels", paramLabel = "levels|paper|tight",
            description = "recursive: sigma_t uses T_sigma = L, the number of levels (levels, default, sound); the "
                    + "paper's T (paper, needs T >= 1); or the tight sensitivity sqrt(2)R^2/n (tight, ablation: about "
                    + "2.8x less noise at the same rho, not the paper's calibration).")
    String noiseScaling;

    @Option(names = "--psd", description = "Also print the PSD projection of the estimate (eigenvalues clamped at 0).")
    boolean psd;

    @Option(names = "--option", paramLabel = "KEY=VALUE",
            description = "Numeric option of a specific method (repeatable), e.g. --option iterations=3. coinpress: "
                    + "iterations=T (default 4; more steps refine the whitening but each earlier step gets less of "
                    + "the 1/4 of rho they share), prior-scale=U (default R^2; S <= U I must hold, a looser U needs "
                    + "more steps to lock on). subsample-aggregate: group-size=M (larger groups agree more often but "
                    + "leave fewer groups for the private test), uncertified=1.")
    Map<String, Double> options = new LinkedHashMap<>();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = main.spec.commandLine().getOut();
        if (listMethods) {
            for (SecondMomentMethods.Entry e : SecondMomentMethods.all().values()) {
                out.println(e.name() + ": " + e.description());
            }
            return 0;
        }
        if (input == null) {
            throw new IllegalArgumentException("--input FILE is required (the data, .csv or .npy)");
        }
        if (method == null) {
            // a public choice from the options given: recursive needs a lambda_min bound, analyze-gauss none
            method = minEigenvalue != null || lambdaEpsilon != null ? SecondMomentMethods.DEFAULT : AnalyzeGauss.NAME;
        }
        delta = budget.delta();
        Zcdp rho = budget.zcdp(); // --rho, or the largest rho whose conversion at --delta meets --epsilon
        if (radius == null) {
            throw new IllegalArgumentException("a covering radius is required: --radius R (public bound) or --clip R"
                    + " (clipping radius); longer rows are clipped to R either way");
        }
        boolean clip = radius.clip != null;
        SecondMomentParams.Builder b = SecondMomentParams.builder().budget(rho)
                .radius(clip ? radius.clip : radius.bound)
                .clipToRadius(clip).delta(delta).m(m).alpha(alpha).xi(xi).minEigenvalue(minEigenvalue)
                .lambdaBudget(lambdaEpsilon, lambdaDelta).lambdaGroupSize(lambdaGroupSize)
                .noiseScaling(NoiseScaling.fromId(noiseScaling)).psdProjection(psd);
        if (beta != null) {
            if (!(beta > 0 && beta < 1)) {
                throw new IllegalArgumentException("--beta=" + beta + " is outside (0, 1): it is a probability");
            }
            b.extra("beta", beta);
        }
        for (Map.Entry<String, Double> e : options.entrySet()) {
            b.extra(e.getKey(), e.getValue());
        }
        SecondMomentParams params = b.build();
        SecondMomentMethod mech = SecondMomentMethods.create(method, params); // validated before reading the data

        PrivateRelease r;
        if (cluster.active()) {
            org.dpgauss.rows.RowSourceMechanism rm = ClusterOptions.rowMechanism(mech, "--method " + method);
            r = main.releaseOnCluster(cluster, input, shape -> rm, delta, null);
        } else {
            r = main.release(input, shape -> mech, delta);
        }
        if (!main.json && r.parameters().has("noiseOverSplitThreshold")) {
            double ratio = r.parameters().number("noiseOverSplitThreshold"); // public: a function of n, d, rho, m, L
            if (ratio > 1) {
                main.spec.commandLine().getErr().printf(Locale.ROOT, "NOTE: the per-level noise (about 2 sigma_t"
                        + " sqrt(d)) is %.3g times the eigen-split threshold kappa_t/(10m): noise directions enter the"
                        + " split, lambda_min shrinks level after level and the estimate can be less accurate than"
                        + " one-shot noise (--method analyze-gauss); a larger n or rho, or a smaller --m, brings the"
                        + " ratio below 1 (see docs/cli.md, second-moment, 'Which method').%n", ratio);
            }
        }
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        return ReleasePrinter.print(main, r, ctx);
    }
}
