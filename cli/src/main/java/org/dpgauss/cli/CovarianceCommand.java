package org.dpgauss.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.covariance.PrivateCovariance;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.PrivateRelease;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Private covariance matrix (and mean) of a data file: one composed release (issue 29). */
@Command(name = "covariance", mixinStandardHelpOptions = true,
        description = {"Release a differentially private covariance matrix C = (1/n) sum_i (x_i - xbar)(x_i - xbar)^T "
                + "and mean of the rows of a CSV or .npy file: a private mean m~ and a private second moment S~ of "
                + "the rows centred at the public --centre and clipped to --radius R, composed into one release; "
                + "\"covariance\" = S~ - m~ m~^T, \"mean\" = centre + m~.",
            "Guarantee: rho-zCDP under replace-one neighbours (n public) for every input (the two parts add up to "
                    + "rho, composed by the privacy accountant), also stated as (epsilon, delta)-DP by the conversion "
                    + "of Canonne, Kamath & Steinke 2020, Cor. 13; --epsilon is met by the largest rho whose "
                    + "conversion at --delta gives at most epsilon.",
            "Budget split: the share of rho spent on the mean is chosen by the planner (the split whose stated "
                    + "95%% bound is smallest, from n, d, R and the budget only), or fixed with --mean-fraction; the "
                    + "release's parameters name it (\"meanFraction\").",
            "Accuracy: the absolute spectral error ||C~ - C||_2: its 95%% bound is the second-moment part's bound "
                    + "plus 2 R B_e + B_e^2 for the mean's bound B_e (any mean within R of the centre); its expected "
                    + "value takes the worst position of the mean (at distance R from the centre, \"expectedBasis\"), "
                    + "since that distance is private: an upper bound on the expected error. A centre near the mean and a tight R give the best "
                    + "accuracy: scale the columns to comparable units first."})
final class CovarianceCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @picocli.CommandLine.Mixin
    LedgerOptions ledger = new LedgerOptions();

    @picocli.CommandLine.Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy), n x d.")
    Path input;

    @picocli.CommandLine.Mixin
    BudgetOptions budget = new BudgetOptions();

    @Option(names = "--radius", required = true, paramLabel = "R",
            description = "Public radius R > 0 around the centre: a row farther than R from the centre is pulled "
                    + "onto that ball (part of the mechanism, never an error; it biases the covariance down). Choose "
                    + "R without looking at the data; the noise scales as R^2.")
    double radius;

    @Option(names = "--centre", split = ",", paramLabel = "c1,c2,..",
            description = "Public centre: d values, or one value for every column (default: the origin).")
    double[] centre;

    @Option(names = "--method", defaultValue = PrivateCovariance.DEFAULT_METHOD, paramLabel = "NAME",
            description = "Second-moment method: analyze-gauss (default; needs only R), recursive (with "
                    + "--min-eigenvalue) or coinpress.")
    String method;

    @Option(names = "--min-eigenvalue", paramLabel = "L",
            description = "recursive: public lower bound L > 0 on lambda_min of the centred second moment; "
                    + "analyze-gauss and coinpress use it only in their accuracy statement.")
    Double minEigenvalue;

    @Option(names = "--mean-fraction", paramLabel = "F",
            description = "Share of rho spent on the mean, in [0.001, 0.999] (default: the planner's).")
    Double meanFraction;

    @Option(names = "--psd", description = "Also release the PSD projection of the covariance (\"covariancePsd\").")
    boolean psd;

    @Override
    public Integer call() throws IOException {
        double delta = budget.delta();
        Zcdp rho = budget.zcdp();
        PrivateCovariance.Builder b = PrivateCovariance.builder().budget(rho).radius(radius).method(method)
                .minEigenvalue(minEigenvalue).meanFraction(meanFraction).psdProjection(psd);
        b.build(); // parameters validated before the data are read
        java.util.function.Function<Main.Shape, PrivateCovariance> make = shape -> {
            centre(b, shape.d());
            return b.build();
        };
        // the same release on the cluster, its row passes there (docs/spark.md); with --ledger charged first
        PrivateRelease r = cluster.active() ? main.releaseOnCluster(cluster, input, make, delta, null)
                : main.release(input, make, delta);
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        return ReleasePrinter.print(main, r, ctx);
    }

    /** --centre for d columns (the schema, public): d values, or one value for every column. */
    private void centre(PrivateCovariance.Builder b, int d) {
        if (centre == null) {
            return;
        }
        double[] c = centre;
        if (c.length == 1 && d > 1) {
            c = new double[d];
            java.util.Arrays.fill(c, centre[0]);
        } else if (c.length != d) {
            throw new IllegalArgumentException("--centre has " + c.length + " values but the data have " + d
                    + " columns: give d values or one for every column");
        }
        b.centre(c);
    }
}
