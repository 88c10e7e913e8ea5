package org.dpgauss.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Private mean of a data file. */
@Command(name = "mean", mixinStandardHelpOptions = true,
        description = {"Release a differentially private mean of the rows of a CSV or .npy file.",
            "--method clipped: the clipped Gaussian-mechanism mean; rows are projected onto the L2 ball of public "
                    + "radius --clip around the public --centre, averaged, and N(0, sigma^2 I) noise is added with "
                    + "sigma = 2C/(n sqrt(2 rho)).",
            "Guarantee: rho-zCDP under replace-one neighbours (datasets of equal, public size n differing in one "
                    + "row), also stated as (epsilon, delta)-DP by epsilon = rho + 2 sqrt(rho ln(1/delta))."})
final class MeanCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy).")
    Path input;

    @Option(names = "--method", defaultValue = "clipped",
            description = "Estimator (default: ${DEFAULT-VALUE}); this build has: clipped.")
    String method;

    @Option(names = "--clip", required = true, paramLabel = "C",
            description = "Public L2 clipping radius around the centre (> 0); choose it without looking at the data.")
    double clip;

    @Option(names = "--centre", split = ",", paramLabel = "c1,c2,..",
            description = "Public centre of the clipping ball (default: the origin).")
    double[] centre;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Budget budget;

    static final class Budget {
        @Option(names = "--rho", required = true, description = "zCDP budget rho > 0.")
        Double rho;

        @Option(names = "--epsilon", required = true,
                description = "Target epsilon; rho is the largest value whose conversion at --delta meets it.")
        Double epsilon;
    }

    @Option(names = "--delta", defaultValue = "1e-6",
            description = "delta of the stated (epsilon, delta) guarantee (default: ${DEFAULT-VALUE}).")
    double delta;

    @Override
    public Integer call() throws IOException {
        if (!"clipped".equals(method.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("--method=" + method + " is not available in this build; available: clipped");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("--delta=" + delta + " must be in (0, 1)");
        }
        double rho = budget.rho != null ? budget.rho : Zcdp.forApproxDp(budget.epsilon, delta).rho();
        // parameters are validated before the data are read
        int dGuess = centre == null ? 1 : centre.length;
        ClippedGaussianMean.of(clip, centre == null ? new double[dGuess] : centre, rho);

        RowBlockMatrix x = DataReader.read(input);
        double[] c = centre == null ? new double[x.cols()] : centre;
        if (c.length != x.cols()) {
            throw new IllegalArgumentException("--centre has " + c.length + " coordinates but " + input.getFileName()
                    + " has " + x.cols() + " columns");
        }
        ClippedGaussianMean mech = ClippedGaussianMean.of(clip, c, rho);
        RandomSource random = main.randomSource();
        double[] mean = mech.release(x, random);
        PrivacyGuarantee g = mech.guarantee(delta);

        PrintWriter out = main.spec.commandLine().getOut();
        if (main.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", "PASS");
            m.put("method", "clipped");
            m.put("mean", mean);
            m.put("guarantee", g.toMap());
            m.put("n", x.rows());
            m.put("d", x.cols());
            m.put("noise_sigma", mech.sigma(x.rows()));
            m.put("insecure", random.isInsecure());
            m.put("randomness", random.describe());
            out.println(Json.write(m));
        } else {
            out.printf(Locale.ROOT, "private mean of %s (n=%d, d=%d), clipped Gaussian mechanism, C=%s%n",
                    input, x.rows(), x.cols(), clip);
            out.println("  mean:      " + Arrays.toString(mean));
            out.printf(Locale.ROOT, "  noise:     sigma = %.6g per coordinate%n", mech.sigma(x.rows()));
            out.println("  guarantee: " + g.describe());
            out.println("  random:    " + random.describe());
            if (random.isInsecure()) {
                out.println("WARNING: --insecure-seed was given: the noise above is predictable and NOT private.");
            }
        }
        return 0;
    }
}
