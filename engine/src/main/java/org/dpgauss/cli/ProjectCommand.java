package org.dpgauss.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.io.DataReader;
import org.dpgauss.io.NpyWriter;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.projection.PoissonSubsampledProjection;
import org.dpgauss.projection.ProjectionRelease;
import org.dpgauss.projection.PtrProjection;
import org.dpgauss.projection.RandomProjectionMechanism;
import org.ejml.data.DMatrixRMaj;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code dpgauss project}: the random projection mechanism M_RP and its wrappers (spec ndis §6.1-6.4, §7). */
@Command(name = "project", mixinStandardHelpOptions = true,
        description = {"Release a differentially private random projection M = D^T G1 + sqrt(lambda) G2 (d x r) of "
                + "the rows of a CSV or .npy file (spec ndis §6.1, Figure 1); (1/r) M M^T - lambda I estimates D^T D "
                + "without bias (§6.2, --gram-output).",
            "Guarantee: (epsilon, delta)-DP under add/remove-one-row neighbours, for data whose every row has L2 norm "
                    + "<= --row-bound l (a public bound chosen without looking at the data). Rows above l are an "
                    + "error naming the row, unless --clip-rows scales them onto the ball (the output then says how "
                    + "many). The ridge lambda = l^2/p*(epsilon, delta; r) is exact (Lemma 4).",
            "Wrappers: none (M_RP); lsv (the same mechanism with Sheffet's larger LSV ridge, a baseline, §7); "
                    + "poisson (keep each row with probability --q in (delta, 1], run M_RP at eps0 = "
                    + "ln(1+(e^eps-1)/q), delta0 = delta/q; the Gram estimate is divided by q, §6.3); ptr (a private "
                    + "lower bound on lambda_min(D^T D) with discrete Gaussian noise of std --ptr-noise shrinks the "
                    + "ridge; delta is split by --ptr-split, eps_T must not exceed epsilon, §6.4).",
            "G is generated from ChaCha20 under a fresh SecureRandom key that is never printed or stored. "
                    + "The guarantee is for the real-arithmetic Gaussian projection: floating-point rounding of D^T "
                    + "G is not covered (see RandomProjectionMechanism). The number of rows is not released."})
final class ProjectCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file D (.csv or .npy), n x d.")
    Path input;

    @Option(names = "--rank", required = true, paramLabel = "r", description = "Number of projection columns r >= 1.")
    int rank;

    @Option(names = "--epsilon", required = true, description = "Privacy loss epsilon >= 0 (> 0 for lsv).")
    double epsilon;

    @Option(names = "--delta", required = true, description = "delta in (0, 1).")
    double delta;

    @Option(names = "--row-bound", required = true, paramLabel = "l", description = "Public bound l > 0 on every row's L2 norm.")
    double rowBound;

    @Option(names = "--wrapper", defaultValue = "none", paramLabel = "none|lsv|poisson|ptr",
            description = "Mechanism variant (default: ${DEFAULT-VALUE}).")
    String wrapper;

    @Option(names = "--q", paramLabel = "Q", description = "Poisson sampling rate in (delta, 1] (--wrapper poisson).")
    Double q;

    @Option(names = "--ptr-split", split = ",", paramLabel = "fR,fT,fptr", defaultValue = "1,1,1",
            description = "Relative split of --delta into delta_R (projection), delta_T (test), delta_ptr (failure "
                    + "of the lower bound), normalised to sum 1 (default: equal thirds).")
    double[] ptrSplit;

    @Option(names = "--ptr-noise", paramLabel = "sT",
            description = "Standard deviation s_T > 0 of the PTR test noise (--wrapper ptr; required, the paper gives "
                    + "no default: larger s_T costs less epsilon but a looser lower bound).")
    Double ptrNoise;

    @Option(names = "--clip-rows", description = "Scale rows with norm above l onto the ball instead of failing.")
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
        Object mech = build(w);
        RowBlockMatrix data = DataReader.read(input);
        EngineSelection selection = main.selectEngine();
        ComputeEngine engine = selection.engine();
        RandomSource random = main.randomSource();
        long t0 = System.nanoTime();
        ProjectionRelease rel;
        if (mech instanceof RandomProjectionMechanism m) {
            rel = m.release(data, engine, random);
        } else if (mech instanceof PoissonSubsampledProjection p) {
            rel = p.release(data, engine, random);
        } else {
            rel = ((PtrProjection) mech).release(data, engine, random);
        }
        double seconds = (System.nanoTime() - t0) * 1e-9;
        NpyWriter.write(output, rel.outputArray());
        if (gramOutput != null) {
            DMatrixRMaj s = rel.gramEstimate();
            double[][] a = new double[s.numRows][s.numCols];
            for (int i = 0; i < s.numRows; i++) {
                for (int j = 0; j < s.numCols; j++) {
                    a[i][j] = s.get(i, j);
                }
            }
            NpyWriter.write(gramOutput, a);
        }
        PrintWriter out = main.spec.commandLine().getOut();
        if (main.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", "PASS");
            m.put("wrapper", w);
            m.put("rank", rel.rank());
            m.put("d", rel.dimension());
            m.put("ridge", rel.ridge());
            m.put("output", output.toString());
            if (gramOutput != null) {
                m.put("gram_output", gramOutput.toString());
            }
            m.put("clipped_rows", rel.clippedRows());
            m.put("details", rel.details());
            m.put("guarantee", rel.guarantee().toMap());
            m.put("engine", engine.name());
            Main.putRandomness(m, random);
            m.put("seconds", seconds);
            out.println(Json.write(m));
        } else {
            out.printf(Locale.ROOT, "private random projection of %s (d=%d, r=%d), wrapper %s%n", input,
                    rel.dimension(), rel.rank(), w);
            out.printf(Locale.ROOT, "  output:    %s (d x r)%s%n", output,
                    gramOutput == null ? "" : ", Gram estimate " + gramOutput);
            out.printf(Locale.ROOT, "  ridge:     lambda = %.6g%n", rel.ridge());
            if (rel.clippedRows() > 0) {
                out.printf(Locale.ROOT, "  clipped:   %d rows were scaled onto the ball of radius %s (--clip-rows)%n",
                        rel.clippedRows(), rowBound);
            }
            out.println("  guarantee: " + rel.guarantee().describe());
            out.println("  random:    " + random.describe());
            Main.warnIfInsecure(out, random, "projection");
        }
        return 0;
    }

    private Object build(String w) {
        switch (w) {
            case "none":
                rejectWrapperOptions(w, true, true);
                return RandomProjectionMechanism.of(rank, epsilon, delta, rowBound).clippingRows(clipRows);
            case "lsv":
                rejectWrapperOptions(w, true, true);
                return RandomProjectionMechanism.lsvBaseline(rank, epsilon, delta, rowBound).clippingRows(clipRows);
            case "poisson":
                rejectWrapperOptions(w, false, true);
                if (q == null) {
                    throw new IllegalArgumentException("--wrapper poisson needs --q, the sampling rate in (delta, 1]");
                }
                return PoissonSubsampledProjection.of(rank, epsilon, delta, q, rowBound).clippingRows(clipRows);
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
                double sum = 0;
                for (double f : ptrSplit) {
                    if (!(f > 0) || !Double.isFinite(f)) {
                        throw new IllegalArgumentException("--ptr-split weight " + f + " is outside (0, inf)");
                    }
                    sum += f;
                }
                if (!(delta > 0 && delta < 1)) {
                    throw new IllegalArgumentException("--delta=" + delta + " is outside (0, 1)");
                }
                return PtrProjection.of(rank, epsilon, rowBound, delta * ptrSplit[0] / sum, delta * ptrSplit[1] / sum,
                        delta * ptrSplit[2] / sum, ptrNoise).clippingRows(clipRows);
            default:
                throw new IllegalArgumentException("--wrapper=" + wrapper + " is not one of none, lsv, poisson, ptr");
        }
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
