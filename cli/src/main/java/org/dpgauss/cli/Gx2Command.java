package org.dpgauss.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.gx2.GeneralizedChiSquare;
import org.dpgauss.gx2.Gx2Probability;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code dpgauss gx2 cdf}: the generalized chi-square distribution. */
@Command(name = "gx2", mixinStandardHelpOptions = true,
        description = "The generalized chi-square distribution Q = sum_j w_j chi2'(k_j, nc_j) + s Z.",
        subcommands = {Gx2Command.Cdf.class})
final class Gx2Command extends CommandGroup {

    @Command(name = "cdf", mixinStandardHelpOptions = true,
            description = {"P[Q <= x] (or P[Q > x] with --upper) for Q = sum_j w_j chi2'(k_j, nc_j) + s Z, weights "
                    + "of either sign, nc_j the non-centrality (sum of squared means), Z standard normal.",
                "Exact methods with error control (closed forms, Ruben's series, inversion through the saddlepoint); "
                        + "the upper tail is computed directly, never as 1 - CDF. Terms with equal weights are merged."})
    static final class Cdf implements Callable<Integer> {

        @ParentCommand
        Gx2Command parent;

        @Option(names = "--weights", required = true, split = ",", paramLabel = "w1,w2,..",
                description = "Nonzero weights w_j (either sign).")
        double[] weights;

        @Option(names = "--dof", split = ",", paramLabel = "k1,k2,..",
                description = "Degrees of freedom k_j >= 1 (default: all 1).")
        int[] dof;

        @Option(names = "--noncentrality", split = ",", paramLabel = "nc1,nc2,..",
                description = "Non-centralities nc_j >= 0 (default: all 0).")
        double[] noncentrality;

        @Option(names = "--sigma", defaultValue = "0", paramLabel = "s",
                description = "Coefficient of the standard normal term, >= 0 (default: ${DEFAULT-VALUE}).")
        double sigma;

        @Option(names = "--x", required = true, split = ",", paramLabel = "x1,x2,..", description = "Points.")
        double[] x;

        @Option(names = "--upper", description = "Print the survival function P[Q > x] (key \"sf\").")
        boolean upper;

        @Option(names = "--error-bounds", description = "Also print each value's absolute error bound and method.")
        boolean errorBounds;

        @Override
        public Integer call() {
            int j = weights.length;
            int[] k = dof == null ? filled(j) : dof;
            double[] nc = noncentrality == null ? new double[j] : noncentrality;
            if (k.length != j) {
                throw new IllegalArgumentException("--dof has " + k.length + " values but --weights has " + j);
            }
            if (nc.length != j) {
                throw new IllegalArgumentException("--noncentrality has " + nc.length + " values but --weights has " + j);
            }
            for (int i = 0; i < x.length; i++) {
                if (Double.isNaN(x[i])) {
                    throw new IllegalArgumentException("--x value " + (i + 1) + " is NaN");
                }
            }
            GeneralizedChiSquare q = GeneralizedChiSquare.of(weights, k, nc, sigma);
            double[] p = new double[x.length];
            double[] err = new double[x.length];
            String[] method = new String[x.length];
            for (int i = 0; i < x.length; i++) {
                Gx2Probability r = upper ? q.sfWithError(x[i]) : q.cdfWithError(x[i]);
                p[i] = r.value();
                err[i] = r.absoluteErrorBound();
                method[i] = r.method();
            }
            PrintWriter out = parent.main.spec.commandLine().getOut();
            String key = upper ? "sf" : "cdf";
            if (parent.main.json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("x", x);
                m.put(key, p);
                if (errorBounds) {
                    m.put("absoluteErrorBound", err);
                    m.put("method", method);
                }
                out.println(Json.write(m));
            } else {
                out.printf(Locale.ROOT, "%-24s %-24s%s%n", "x", upper ? "P[Q > x]" : "P[Q <= x]",
                        errorBounds ? "  error bound   method" : "");
                for (int i = 0; i < x.length; i++) {
                    out.printf(Locale.ROOT, "%-24s %-24s%s%n", x[i], p[i],
                            errorBounds ? String.format(Locale.ROOT, "  %-12.3g  %s", err[i], method[i]) : "");
                }
            }
            return 0;
        }

        private static int[] filled(int n) {
            int[] k = new int[n];
            java.util.Arrays.fill(k, 1);
            return k;
        }
    }
}
