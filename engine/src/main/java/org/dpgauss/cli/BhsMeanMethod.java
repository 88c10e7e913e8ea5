package org.dpgauss.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.sampling.CovarianceAwareMean;
import org.dpgauss.sampling.PtrMechanism;
import org.dpgauss.sampling.SamplerParameters;
import org.dpgauss.sampling.SamplingRelease;
import picocli.CommandLine.Option;

/**
 * {@code mean --method bhs}: the covariance-aware mean estimator of BHS23 (spec unbounded-gaussian-sampling §3.8),
 * a picocli mixin of {@link MeanCommand} so that its options and logic stay out of that shared file.
 */
final class BhsMeanMethod {

    /** The line of {@code mean --help} that describes this method. */
    static final String HELP = "--method bhs: the covariance-aware mean of Brown, Hopkins & Smith (spec "
            + "unbounded-gaussian-sampling §3.8): stable covariance and mean weights, a PTR test (sound PTR-A), then "
            + "N(mu^, c^2 Sigma^); affine-invariant, no bounds on mean or covariance needed. Guarantee: (epsilon, "
            + "delta)-DP under replace-one neighbours (public n), epsilon <= 1, delta <= epsilon/10, certified from "
            + "the n the stability lemmas need (millions of rows; below it the command names the n needed, "
            + "--uncertified runs anyway and says \"certified\": false). Prints only {\"status\":\"FAIL\"} when the "
            + "test fails.";

    @Option(names = "--alpha", defaultValue = "0.05",
            description = "bhs: failure probability in (0, 1] of the outlier threshold lambda0 = 4d + 8 sqrt(d L) + "
                    + "8 L, L = ln(3n/alpha) (default: ${DEFAULT-VALUE}).")
    double alpha;

    @Option(names = "--lambda0", paramLabel = "L",
            description = "bhs: explicit outlier threshold lambda0 >= 1 instead of the alpha rule.")
    Double lambda0;

    @Option(names = "--uncertified",
            description = "bhs: run even when n is below the certified size; the output then says \"certified\": false.")
    boolean uncertified;

    @Option(names = "--ptr", defaultValue = "sound", paramLabel = "sound|bhs23-as-published",
            description = "bhs: PTR rule (default: ${DEFAULT-VALUE}); bhs23-as-published is NOT differentially private.")
    String ptr;

    int run(Main main, Path input, Double epsilon, double delta) throws IOException {
        if (epsilon == null) {
            throw new IllegalArgumentException("--method bhs takes --epsilon (an (epsilon, delta) guarantee), not --rho");
        }
        PtrMechanism rule = PtrMechanism.fromId(ptr);
        SamplerParameters.checkPrivacyParameters(epsilon, delta, alpha);
        RowBlockMatrix x = DataReader.read(input);
        CovarianceAwareMean mech = CovarianceAwareMean.of(x.rows(), x.cols(), epsilon, delta, alpha,
                lambda0 == null ? Double.NaN : lambda0, rule, uncertified);
        RandomSource random = main.randomSource();
        SamplingRelease r = mech.estimate(x, main.selectEngine().engine(), random);
        PrintWriter out = main.spec.commandLine().getOut();
        if (r.isFail()) {
            main.printFail(out);
            return 0;
        }
        PrivacyGuarantee g = r.guarantee();
        if (main.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", "PASS");
            m.put("method", "bhs");
            m.put("mean", r.vector());
            m.put("certified", g.certified());
            m.put("guarantee", g.toMap());
            m.put("parameters", mech.parametersMap());
            Main.putRandomness(m, random);
            out.println(Json.write(m));
        } else {
            out.printf(Locale.ROOT, "private mean of %s (n=%d, d=%d), covariance-aware (BHS23)%n", input, x.rows(),
                    x.cols());
            out.println("  mean:      " + Arrays.toString(r.vector()));
            out.println("  guarantee: " + g.describe());
            out.println("  random:    " + random.describe());
            if (!g.certified()) {
                out.println("WARNING: this output is NOT certified (see the guarantee line).");
            }
            Main.warnIfInsecure(out, random, "noise");
        }
        return 0;
    }
}
