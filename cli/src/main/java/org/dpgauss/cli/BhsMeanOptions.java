package org.dpgauss.cli;

import org.dpgauss.privacy.ApproxDp;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.sampling.CovarianceAwareMean;
import org.dpgauss.sampling.PtrMechanism;
import org.dpgauss.sampling.SamplerParameters;
import picocli.CommandLine.Option;

/**
 * The options of {@code mean --method bhs} (a picocli mixin of {@link MeanCommand}) and the call of the library's
 * covariance-aware mean of BHS23, {@link CovarianceAwareMean} (spec unbounded-gaussian-sampling §3.8). The mechanism,
 * its parameter checks and its guarantee are the library's (docs/design/package-families.md).
 */
final class BhsMeanOptions {

    /** The line of {@code mean --help} that describes this method. */
    static final String HELP = "--method bhs: the covariance-aware mean of Brown, Hopkins & Smith (spec "
            + "unbounded-gaussian-sampling §3.8): stable covariance and mean weights, a PTR test (sound PTR-A), then "
            + "N(mu^, c^2 Sigma^); affine-invariant, no bounds on mean or covariance needed. Guarantee: (epsilon, "
            + "delta)-DP under replace-one neighbours (public n), epsilon <= 1, delta <= epsilon/10, certified from "
            + "the n the stability lemmas need (millions of rows; below it the command names the n needed, "
            + "--uncertified runs anyway and says \"certified\": false). A failed test ends in FAIL (exit code 3), "
            + "which releases nothing; the same computations run on both branches of the test.";

    @Option(names = "--alpha", defaultValue = "0.05",
            description = "bhs: failure probability in (0, 1] of the outlier threshold lambda0 = 4d + 8 sqrt(d L) + "
                    + "8 L, L = ln(3n/alpha) (default: ${DEFAULT-VALUE}). Trade-off: a smaller alpha raises lambda0, "
                    + "hence the noise (c^2 grows with lambda0) and the certified n; a larger alpha makes an outlier "
                    + "(and a FAIL or reweighted mean) likelier; the stated accuracy holds with probability 0.95 - alpha.")
    double alpha;

    @Option(names = "--lambda0", paramLabel = "L",
            description = "bhs: explicit outlier threshold lambda0 >= 1 instead of the alpha rule. Trade-off: the "
                    + "noise scale c and the certified n grow with lambda0; a lambda0 below the rows' squared "
                    + "Mahalanobis radii makes the stability test FAIL.")
    Double lambda0;

    @Option(names = "--uncertified",
            description = "bhs: run even when n is below the certified size; the output then says \"certified\": false.")
    boolean uncertified;

    @Option(names = "--ptr", defaultValue = "sound", paramLabel = "sound|bhs23-as-published",
            description = "bhs: PTR rule (default: ${DEFAULT-VALUE}); bhs23-as-published is NOT differentially private.")
    String ptr;

    int run(Main main, Path input, Double epsilon, double delta, ClusterOptions cluster) throws IOException {
        if (epsilon == null) {
            throw new IllegalArgumentException("--method bhs takes --epsilon (an (epsilon, delta) guarantee), not --rho");
        }
        PtrMechanism rule = PtrMechanism.fromId(ptr);
        SamplerParameters.checkPrivacyParameters(epsilon, delta, alpha);
        java.util.function.Function<Main.Shape, CovarianceAwareMean> mech = shape -> CovarianceAwareMean.of(shape.n(),
                shape.d(), ApproxDp.of(epsilon, delta), alpha, lambda0 == null ? Double.NaN : lambda0, rule,
                uncertified);
        PrivateRelease r = cluster.active() ? main.releaseOnCluster(cluster, input, mech, delta, null)
                : main.release(input, mech, delta);
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        return ReleasePrinter.print(main, r, ctx);
    }
}
