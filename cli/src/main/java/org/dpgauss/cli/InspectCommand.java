package org.dpgauss.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.sampling.stable.StableCov;
import org.dpgauss.sampling.stable.StableCovResult;
import org.dpgauss.sampling.stable.StableMean;
import org.dpgauss.sampling.stable.StableMeanResult;
import org.ejml.data.DMatrixRMaj;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code dpgauss inspect}: NON-PRIVATE diagnostics of the deterministic subroutines of the unbounded
 * Gaussian sampler (spec unbounded-gaussian-sampling §3.2-3.5). They print scores and per-row weights
 * computed from the raw data: no privacy guarantee of any kind, and they say so on stderr.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = {"NON-PRIVATE diagnostics: the Score and weights of StableCov and StableMean "
                + "(spec unbounded-gaussian-sampling §3.2-3.5).",
            "The output reveals the data; it carries no differential-privacy guarantee."},
        subcommands = {InspectCommand.StableCovCmd.class, InspectCommand.StableMeanCmd.class})
final class InspectCommand extends CommandGroup {

    static final String WARNING = "dpgauss inspect: NON-PRIVATE diagnostic output computed from the raw data "
            + "(no differential-privacy guarantee); do not release it.";

    /** Engine and writers shared by the subcommands. */
    ComputeEngine engine() {
        return main.selectEngine().engine();
    }

    void print(int score, double[] weights) {
        main.spec.commandLine().getErr().println(WARNING);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("score", score);
        m.put("weights", weights);
        PrintWriter out = main.spec.commandLine().getOut();
        out.println(Json.write(m));
    }

    @Command(name = "stable-cov", mixinStandardHelpOptions = true,
            description = {"NON-PRIVATE. StableCov on rows that already are the paired differences "
                    + "Y_i = (X_i - X_{i+m})/sqrt(2): LargestGoodSubset at the thresholds e^(l/k) lambda0, l = 0..2k.",
                "Prints {\"score\": Score, \"weights\": [w_1..w_m]} with Score = min{k, min_{l<=k} (m - |S_l| + l)} "
                        + "and w_i = #{l in k+1..2k : i in S_l}/(k m). Always JSON."})
    static final class StableCovCmd implements Callable<Integer> {

        @ParentCommand
        InspectCommand parent;

        @Option(names = "--input", required = true, paramLabel = "Y.csv",
                description = "The paired differences Y_i, one per row (.csv or .npy).")
        Path input;

        @Option(names = "--lambda0", required = true, paramLabel = "L", description = "lambda0 >= 1.")
        double lambda0;

        @Option(names = "--k", required = true, paramLabel = "K", description = "k >= 1 (2k+1 thresholds).")
        int k;

        @Option(names = "--literal", description = "Use the literal reference (Algorithm 4 from scratch at every "
                + "threshold) instead of the production version; the output is the same.")
        boolean literal;

        @Override
        public Integer call() throws IOException {
            StableCov sc = StableCov.of(lambda0, k);
            RowBlockMatrix y = DataReader.read(input);
            ComputeEngine engine = parent.engine();
            StableCovResult r = literal ? sc.applyLiteralToPairs(y, engine) : sc.applyToPairs(y, engine);
            parent.print(r.score(), r.weights());
            return 0;
        }
    }

    /** How R is given: explicit indices, or a size and a seed. */
    static final class ReferenceChoice {
        @Option(names = "--reference", split = ",", paramLabel = "i1,i2,..",
                description = "R as distinct 0-based row indices of the input.")
        int[] indices;

        @ArgGroup(exclusive = false)
        Drawn drawn;
    }

    static final class Drawn {
        @Option(names = "--reference-size", required = true, paramLabel = "M",
                description = "Draw R as a uniform M-subset of the rows (needs --reference-seed).")
        int size;

        @Option(names = "--reference-seed", required = true, paramLabel = "N",
                description = "Seed of the (non-secret) draw of R: partial Fisher-Yates with java.util.SplittableRandom(N).")
        long seed;
    }

    @Command(name = "stable-mean", mixinStandardHelpOptions = true,
            description = {"NON-PRIVATE. StableMean: S_l = LargestCore(X, Sigma-hat, e^(l/k) lambda0, |R| - l, R), "
                    + "l = 0..2k, with distances (X_i - X_j)^T Sigma-hat^{-1} (X_i - X_j) to the reference rows j in R.",
                "Prints {\"score\": Score, \"weights\": [v_1..v_n]} with Score = min{k, min_{l<=k} (n - |S_l| + l)}, "
                        + "v_i = c_i / sum c, c_i = #{l in k+1..2k : i in S_l} (v = 0 if the sum is 0). Always JSON."})
    static final class StableMeanCmd implements Callable<Integer> {

        @ParentCommand
        InspectCommand parent;

        @Option(names = "--input", required = true, paramLabel = "X.csv", description = "Data rows X_i (.csv or .npy).")
        Path input;

        @Option(names = "--sigma", required = true, paramLabel = "S.csv",
                description = "Sigma-hat, a d x d symmetric matrix (.csv or .npy); singular means every distance "
                        + "is +infinity (empty cores).")
        Path sigma;

        @Option(names = "--lambda0", required = true, paramLabel = "L", description = "lambda0 >= 1.")
        double lambda0;

        @Option(names = "--k", required = true, paramLabel = "K", description = "k >= 1 (2k+1 thresholds).")
        int k;

        @ArgGroup(exclusive = true, multiplicity = "1")
        ReferenceChoice reference;

        @Option(names = "--literal", description = "Use the literal reference (Algorithm 6 at every threshold).")
        boolean literal;

        @Override
        public Integer call() throws IOException {
            StableMean sm = StableMean.of(lambda0, k);
            if (reference.drawn != null && reference.drawn.size < 1) {
                throw new IllegalArgumentException("--reference-size=" + reference.drawn.size + " must be >= 1");
            }
            RowBlockMatrix x = DataReader.read(input);
            RowBlockMatrix s = DataReader.read(sigma);
            if (s.rows() != s.cols() || s.cols() != x.cols()) {
                throw new IllegalArgumentException("--sigma is " + s.rows() + " x " + s.cols() + ", expected "
                        + x.cols() + " x " + x.cols() + " (the input has d=" + x.cols() + " columns)");
            }
            DMatrixRMaj sig = new DMatrixRMaj(s.toArray());
            int[] r;
            if (reference.indices != null) {
                r = reference.indices;
            } else {
                if (reference.drawn.size > x.rows()) {
                    throw new IllegalArgumentException("--reference-size=" + reference.drawn.size
                            + " exceeds the number of rows n=" + x.rows());
                }
                r = drawReference(x.rows(), reference.drawn.size, reference.drawn.seed);
            }
            ComputeEngine engine = parent.engine();
            StableMeanResult res = literal ? sm.applyLiteral(x, sig, r, engine) : sm.apply(x, sig, r, engine);
            parent.print(res.score(), res.weights());
            return 0;
        }
    }

    /** Uniform size-subset of [0, n) by partial Fisher-Yates with SplittableRandom(seed). */
    static int[] drawReference(int n, int size, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = 0; i < size; i++) {
            int j = i + rnd.nextInt(n - i);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return java.util.Arrays.copyOf(p, size);
    }
}
