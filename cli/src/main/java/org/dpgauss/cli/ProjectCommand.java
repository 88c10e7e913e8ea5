package org.dpgauss.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.io.NpyWriter;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.projection.PoissonSubsampledProjection;
import org.dpgauss.projection.ProjectionRelease;
import org.dpgauss.projection.PtrProjection;
import org.dpgauss.projection.RandomProjectionMechanism;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PrivateRelease;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code dpgauss project}: the random projection mechanism M_RP and its wrappers (spec ndis §6.1-6.4, §7). */
@Command(name = "project", mixinStandardHelpOptions = true,
        description = {"Release a differentially private random projection M = D^T G1 + sqrt(lambda) G2 (d x r) of "
                + "the rows of a CSV or .npy file (spec ndis §6.1, Figure 1); (1/r) M M^T - lambda I estimates D^T D "
                + "without bias (§6.2, --gram-output).",
            "Guarantee: (epsilon, delta)-DP under add/remove-one-row neighbours, for data whose every row has L2 norm "
                    + "<= --row-bound l (a public bound chosen without looking at the data), up to a public slack: "
                    + "rows within a relative 2^-40 of l (what floating-point normalisation produces) are accepted, "
                    + "and the ridge lambda = l'^2/p*(epsilon, delta; r) is calibrated for l' = l(1 + 2^-40) "
                    + "(exact, Lemma 4). Rows beyond that are scaled onto the ball, with or without --clip-rows "
                    + "(part of the mechanism, never an error; how many is private and not reported; `dpgauss "
                    + "validate --row-bound l` reports them first, not privately).",
            "Wrappers: none (M_RP); lsv (the same mechanism with Sheffet's larger LSV ridge, a baseline, §7); "
                    + "poisson (keep each row with probability --q in (delta, 1], run M_RP at eps0 = "
                    + "ln(1+(e^eps-1)/q), delta0 = delta/q; the Gram estimate is divided by q, §6.3); ptr (a private "
                    + "lower bound on lambda_min(D^T D) with discrete Gaussian noise of std --ptr-noise shrinks the "
                    + "ridge; delta is split by --ptr-split, eps_T must not exceed epsilon, §6.4).",
            "G is generated from ChaCha20 under a fresh SecureRandom key that is never printed or stored. "
                    + "The guarantee is for the real-arithmetic Gaussian projection: floating-point rounding of D^T "
                    + "G is not covered (see RandomProjectionMechanism). The number of rows is not released. "
                    + "Output: the release (status, projection, parameters, accuracy, guarantee; --json for all of M) "
                    + "and M written to --output. It never FAILs.",
            "Accuracy (stated before the data are read, from public numbers only): the spectral error "
                    + "||S - D^T D|| of the Gram estimate S, expected and at most (95%%). With --max-rows N it is "
                    + "absolute, in the units of the data's squared norms; without it, relative to ||D^T D|| + "
                    + "lambda. Choosing the parameters: the error is up to about 1.13 N l^2/sqrt(r) when the data dominate "
                    + "and lambda (2 sqrt(d/r) + d/r) when the ridge does; a larger --rank r shrinks the former but "
                    + "raises lambda (p* falls with r: at epsilon=1, delta=1e-6, l=1, lambda = 11.4 at r=2 and 36.5 "
                    + "at r=100); lambda grows with l^2, so a loose --row-bound costs accuracy. `dpgauss plan "
                    + "project` compares the wrappers for your numbers."})
final class ProjectCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @picocli.CommandLine.Mixin
    LedgerOptions ledger = new LedgerOptions();

    @picocli.CommandLine.Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file D (.csv or .npy), n x d.")
    Path input;

    @Option(names = "--rank", required = true, paramLabel = "r", description = "Number of projection columns r >= 1.")
    int rank;

    /** --epsilon (>= 0; > 0 for lsv) or --rho, and --delta (issue 29: one budget interface). */
    @picocli.CommandLine.Mixin
    BudgetOptions budgetOptions;

    @Option(names = "--row-bound", required = true, paramLabel = "l",
            description = "Public bound l in [1e-100, 1e100] on every row's L2 norm (rows within a relative 2^-40 of "
                    + "it are accepted; the ridge is calibrated for l(1 + 2^-40)).")
    double rowBound;

    @Option(names = "--max-rows", paramLabel = "N",
            description = "Public upper bound N >= 1 on the number of rows, chosen without looking at the data; used "
                    + "only for the accuracy statement (absolute with it, relative to ||D^T D|| + lambda without; "
                    + "under add/remove neighbours n itself is private). A loose N overstates the error.")
    Long maxRows;

    @Option(names = "--wrapper", defaultValue = "none", paramLabel = "none|lsv|poisson|ptr",
            description = "Mechanism variant (default: ${DEFAULT-VALUE}). none: the best Gram estimate in most "
                    + "cases; lsv: a baseline with a larger ridge (more error at the same guarantee); poisson: a "
                    + "smaller ridge, but the Gram estimate is divided by q, so the ridge's share of the error grows "
                    + "as lambda0/q and sampling adds about l^2 sqrt(n (1-q)/q); ptr: spends part of epsilon on a "
                    + "private lower bound of lambda_min(D^T D) and pays off only when that is large.")
    String wrapper;

    @Option(names = "--q", paramLabel = "Q", description = "Poisson sampling rate in (delta, 1] (--wrapper poisson). "
            + "Smaller q gives a larger eps0 and a smaller inner ridge lambda0, but the Gram estimate is divided by q: "
            + "its ridge error grows as lambda0/q and its sampling error as sqrt((1-q)/q).")
    Double q;

    @Option(names = "--ptr-split", split = ",", paramLabel = "fR,fT,fptr", defaultValue = "1,1,1",
            description = "Relative split of --delta into delta_R (projection), delta_T (test), delta_ptr (failure "
                    + "of the lower bound), normalised to sum 1 (default: equal thirds).")
    double[] ptrSplit;

    @Option(names = "--ptr-noise", paramLabel = "sT",
            description = "Standard deviation s_T > 0 of the PTR test noise (--wrapper ptr; required, the paper gives "
                    + "no default). Larger s_T costs less epsilon (more left for the projection, so a smaller target "
                    + "ridge) but subtracts a larger margin alpha (about s_T Phi^-1(1 - delta_ptr)) from the lower "
                    + "bound; at epsilon=1, delta=1e-6, r=100, l=1: s_T=10 gives eps_T=0.42, target ridge 64, "
                    + "alpha=50. A value too small is refused with the s_T that would suffice.")
    Double ptrNoise;

    @Option(names = "--clip-rows", description = "Declare that rows with norm above l are expected (the accuracy "
            + "statement then speaks of the clipped rows). Such rows are scaled onto the ball with or without it; "
            + "the number of such rows is not reported.")
    boolean clipRows;

    @Option(names = "--output", required = true, paramLabel = "M.npy", description = "Where to write M (d x r, .npy).")
    Path output;

    @Option(names = "--gram-output", paramLabel = "S.npy",
            description = "Also write the unbiased Gram estimate (1/r) M M^T - lambda I (divided by q for poisson).")
    Path gramOutput;

    @Override
    public Integer call() throws IOException {
        String w = wrapper.toLowerCase(Locale.ROOT);
        // parameters are validated before the data are read
        PrivateMechanism mech = build(w);
        PrivateRelease release;
        if (cluster.active()) {
            org.dpgauss.rows.RowSourceMechanism rm = ClusterOptions.rowMechanism(mech, "--wrapper " + w);
            release = main.releaseOnCluster(cluster, input, shape -> rm, budgetOptions.delta(), null);
        } else {
            release = main.release(input, shape -> mech, budgetOptions.delta());
        }
        if (release.isPass()) {
            ProjectionRelease projection = ProjectionRelease.of(release);
            NpyWriter.write(output, projection.outputArray());
            if (gramOutput != null) {
                NpyWriter.write(gramOutput, projection.gramEstimateArray());
            }
        }
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        ctx.put("output", output.toString());
        if (gramOutput != null) {
            ctx.put("gramOutput", gramOutput.toString());
        }
        ctx.put("engine", main.lastContext.engine().name());
        return ReleasePrinter.print(main, release, ctx);
    }

    private PrivateMechanism build(String w) {
        switch (w) {
            case "none":
                rejectWrapperOptions(w, true, true);
                return withMaxRows(RandomProjectionMechanism.of(rank, budget(), rowBound).clippingRows(clipRows));
            case "lsv":
                rejectWrapperOptions(w, true, true);
                return withMaxRows(RandomProjectionMechanism.lsvBaseline(rank, budget(), rowBound)
                        .clippingRows(clipRows));
            case "poisson":
                rejectWrapperOptions(w, false, true);
                if (q == null) {
                    throw new IllegalArgumentException("--wrapper poisson needs --q, the sampling rate in (delta, 1]");
                }
                PoissonSubsampledProjection.Builder pb = PoissonSubsampledProjection.builder().rank(rank)
                        .budget(budget()).samplingRate(q).rowBound(rowBound).clipRows(clipRows);
                if (maxRows != null) {
                    pb.maxRows(maxRows);
                }
                return pb.build();
            case "ptr":
                rejectWrapperOptions(w, true, false);
                if (ptrNoise == null) {
                    throw new IllegalArgumentException("--wrapper ptr needs --ptr-noise, the test noise standard "
                            + "deviation s_T > 0 (spec ndis §6.4 gives no default)");
                }
                if (ptrSplit.length != 3) {
                    throw new IllegalArgumentException("--ptr-split needs three weights fR,fT,fptr, got "
                            + ptrSplit.length);
                }
                for (double f : ptrSplit) {
                    if (!(f > 0) || !Double.isFinite(f)) {
                        throw new IllegalArgumentException("--ptr-split weight " + f + " is outside (0, inf)");
                    }
                }
                PtrProjection.Builder tb = PtrProjection.builder().rank(rank).budget(budget())
                        .deltaSplit(ptrSplit[0], ptrSplit[1], ptrSplit[2]).testNoise(ptrNoise).rowBound(rowBound)
                        .clipRows(clipRows);
                if (maxRows != null) {
                    tb.maxRows(maxRows);
                }
                return tb.build();
            default:
                throw new IllegalArgumentException("--wrapper=" + wrapper + " is not one of none, lsv, poisson, ptr");
        }
    }

    private RandomProjectionMechanism withMaxRows(RandomProjectionMechanism m) {
        return maxRows == null ? m : m.maxRows(maxRows);
    }

    /** The budget of --epsilon (or --rho, converted) and --delta, with messages naming the options. */
    private ApproxDp budget() {
        return budgetOptions.approxDp();
    }

    private void rejectWrapperOptions(String w, boolean noQ, boolean noPtr) {
        if (noQ && q != null) {
            throw new IllegalArgumentException("--q applies only to --wrapper poisson, not " + w);
        }
        if (noPtr && ptrNoise != null) {
            throw new IllegalArgumentException("--ptr-noise applies only to --wrapper ptr, not " + w);
        }
    }
}
