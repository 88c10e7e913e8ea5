package org.dpgauss.cli;

import org.dpgauss.privacy.ApproxDp;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.sampling.KnownCovarianceSampler;
import org.dpgauss.sampling.PtrMechanism;
import org.dpgauss.sampling.SamplerParameters;
import org.dpgauss.sampling.SizeConstants;
import org.dpgauss.sampling.UnboundedGaussianSampler;
import org.ejml.data.DMatrixRMaj;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code dpgauss sample}: the unbounded Gaussian sampler (spec unbounded-gaussian-sampling §3.1). */
@Command(name = "sample", mixinStandardHelpOptions = true,
        description = {"Release ONE private sample Z from (approximately) the Gaussian the rows of a CSV or .npy file "
                + "were drawn from, with no bounds on its mean or covariance (Iverson, Kamath & Mouzakis, Algorithm 2; "
                + "spec unbounded-gaussian-sampling §3.1). Over fresh data sets the law of Z is within total "
                + "variation --alpha of N(mu, Sigma); given one data set it is not Gaussian (bounded support, §4).",
            "Guarantee: (epsilon, delta)-DP under replace-one neighbours (data sets of the same, public size n "
                    + "differing in one row), epsilon <= 1, delta <= epsilon/10; certified only with the sizes of the "
                    + "recipe of spec §2.2 and the sound PTR (PTR-A, §3.6), with k raised to ceil(T_PTR) (§2.3). The "
                    + "recipe needs millions of rows (about 1.3e7 at d=10, eps=1, delta=1e-6); below it the command "
                    + "stops before using the data and names the n needed.",
            "--constants C1=..,C2=.. or n1=..,n2=.. runs with smaller sizes: such output carries NO formal "
                    + "guarantee and says \"certified\": false. --ptr bhs23-as-published uses the PTR of the BHS23 "
                    + "reference code, which is NOT differentially private (spec §3.6), for paper reproduction only.",
            "--known-covariance FILE: the known-covariance variant (arXiv Remark 4.24, spec §3.9), a SKETCH without "
                    + "a proof: always uncertified; Z = mu^ + N(0, (1 - 1/n) Sigma).",
            "Prints the release: {\"status\":\"PASS\",\"mechanism\":..,\"sample\":[..],\"parameters\":{..},"
                    + "\"guarantee\":{..,\"certified\":..},..}, or status FAIL with exit code 3 and nothing released "
                    + "(the same computations run on both branches of the PTR test; timing side channels are outside "
                    + "the guarantee). Randomness: SecureRandom (ChaCha20 keystream keyed from it for the bulk draws) unless "
                    + "--insecure-seed is given."})
final class SampleCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @picocli.CommandLine.Mixin
    LedgerOptions ledger = new LedgerOptions();

    @picocli.CommandLine.Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy), n x d.")
    Path input;

    /** --epsilon in (0, 1] or --rho (converted), and --delta in (0, epsilon/10] (issue 29: one interface). */
    @picocli.CommandLine.Mixin
    BudgetOptions budget;

    /** The (epsilon, delta) of the release, read from the budget options when the command runs. */
    private double epsilon;
    private double delta;

    @Option(names = "--alpha", defaultValue = "0.05",
            description = "Target total-variation distance in (0, 1]; sets the outlier threshold lambda0 "
                    + "(default: ${DEFAULT-VALUE}). Trade-off: a smaller alpha raises lambda0 and with it the certified "
                    + "n (about linearly in ln(1/alpha)); the stated accuracy (the sample's Mahalanobis distance to "
                    + "the true mean, chi with d degrees of freedom) holds with probability 0.95 - alpha.")
    double alpha;

    @Option(names = "--constants", paramLabel = "C1=a,C2=b|n1=a,n2=b",
            description = "UNCERTIFIED sizes: the paper's constants C1, C2 (n1 = C1 sqrt(lambda0) ln(1/delta)/eps, "
                    + "n2 = C2 lambda0 ln(1/delta)/eps, spec §2.1) or the part sizes n1 (mean part), n2 (covariance "
                    + "pairs) themselves. Trade-off: smaller sizes run on fewer rows but carry no guarantee; a smaller "
                    + "n2 (covariance pairs) makes the sample's covariance noisier and a FAIL likelier.")
    String constants;

    @Option(names = "--ptr", defaultValue = "sound", paramLabel = "sound|bhs23-as-published",
            description = "PTR rule (default: ${DEFAULT-VALUE}); bhs23-as-published is NOT differentially private.")
    String ptr;

    @Option(names = "--known-covariance", paramLabel = "FILE",
            description = "Known d x d covariance (CSV or .npy): the uncertified SKETCH of spec §3.9.")
    Path knownCovariance;

    @Override
    public Integer call() throws IOException {
        PtrMechanism rule = PtrMechanism.fromId(ptr);
        ApproxDp target = budget.approxDp();
        epsilon = target.epsilon();
        delta = target.delta();
        SamplerParameters.checkPrivacyParameters(epsilon, delta, alpha);
        SizeConstants sizes = constants == null ? null : SizeConstants.parse(constants);
        if (knownCovariance != null && sizes != null) {
            throw new IllegalArgumentException("--constants does not apply to --known-covariance: the sketch uses "
                    + "every row as the mean part (spec §3.9)");
        }
        DMatrixRMaj sigma = knownCovariance == null ? null : readSquare(knownCovariance);
        // every decision below up to the mechanism call depends only on the public n and d
        java.util.function.Function<Main.Shape, org.dpgauss.rows.RowSourceMechanism> mechanism = shape -> {
            int n = shape.n();
            int d = shape.d();
            if (sigma != null) {
                return KnownCovarianceSampler.of(n, d, ApproxDp.of(epsilon, delta), alpha, rule, sigma);
            }
            SamplerParameters p = sizes == null
                    ? SamplerParameters.certified(n, d, ApproxDp.of(epsilon, delta), alpha, rule)
                    : SamplerParameters.withConstants(n, d, ApproxDp.of(epsilon, delta), alpha, rule, sizes);
            return UnboundedGaussianSampler.of(p);
        };
        PrivateRelease r = cluster.active() ? main.releaseOnCluster(cluster, input, mechanism, delta, null)
                : main.release(input, mechanism, delta);
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        return ReleasePrinter.print(main, r, ctx);
    }

    static DMatrixRMaj readSquare(Path file) throws IOException {
        RowBlockMatrix c = DataReader.read(file);
        if (c.rows() != c.cols()) {
            throw new IllegalArgumentException(file.getFileName() + " is " + c.rows() + " x " + c.cols()
                    + ", expected a square covariance matrix");
        }
        DMatrixRMaj a = new DMatrixRMaj(c.rows(), c.cols());
        for (int i = 0; i < c.rows(); i++) {
            for (int j = 0; j < c.cols(); j++) {
                a.set(i, j, c.get(i, j));
            }
        }
        return a;
    }
}
