package org.dpgauss.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.mechanism.BayesianLogisticRegression;
import org.dpgauss.mechanism.GaussianProcessRegression;
import org.dpgauss.ndis.LoewnerComparableBound.Variant;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.release.PrivateMechanism;
import org.dpgauss.release.PrivateRelease;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code dpgauss mechanism blr|gpr}: NDIS-calibrated Gaussian mechanisms (spec ndis §6.5-6.7). */
@Command(name = "mechanism", mixinStandardHelpOptions = true,
        description = {"NDIS-calibrated Gaussian mechanisms (spec ndis §6.5): release one sample of N(mu(D), Sigma(D) + "
                + "sigma* I) where sigma* (a variance) is the smallest noise whose Loewner-comparable bound meets "
                + "(epsilon, delta).",
            "Guarantee: (epsilon, delta)-DP under add/remove-one-record neighbours, for datasets of at most "
                    + "--max-rows records (a public bound; the actual size is not released).",
            "--bound sound-exact-hard (default): spec §6.5.4's sound composition with the exact hard-orientation "
                    + "covariance term; sound: with the looser Chernoff term; paper-faithful: Def. 6 as published, "
                    + "NOT valid for every ordered pair (spec §11.1), reported as not certified.",
            "The noise is exact discrete Gaussian scaled by a data-dependent factor in floating point: low-order-bit "
                    + "effects are not covered by the guarantee."},
        subcommands = {MechanismCommand.Blr.class, MechanismCommand.Gpr.class})
final class MechanismCommand extends CommandGroup {

    static Variant variant(String bound) {
        switch (bound.toLowerCase(Locale.ROOT)) {
            case "sound-exact-hard":
                return Variant.SOUND_EXACT_HARD;
            case "sound":
                return Variant.SOUND;
            case "paper-faithful":
                return Variant.PAPER_FAITHFUL;
            default:
                throw new IllegalArgumentException("--bound=" + bound
                        + " is not one of sound-exact-hard, sound, paper-faithful");
        }
    }

    /**
     * The file's schema, a public fact: the features followed by the label. Rows outside the public bounds
     * (labels, norms, more rows than --max-rows) are not checked here: each mechanism brings them into its domain by
     * the rule its guarantee states (issue 24, item 5); `dpgauss validate` reports them, non-privately.
     */
    static void checkColumns(int cols, Path input) {
        if (cols < 2) {
            throw new IllegalArgumentException(input.getFileName() + " has " + cols + " column(s): it needs the "
                    + "features followed by the label in the last column");
        }
    }

    /** Why {@code blr} does not run on a cluster (docs/spark.md). */
    static final String BLR_ON_CLUSTER = "mechanism blr does not run with --master: its point estimate is Newton's"
            + " method on the logistic loss (one pass over the records per iteration for the gradient and Hessian, up to"
            + " 60 more per line search) or, when no iterate is certified, public gradient descent (one pass per step);"
            + " the certificate that makes the noise cover the computed point bounds the rounding of one sequential"
            + " compensated sum over the records in their order, which a sum of per-block partials does not follow";

    /** Why {@code gpr} does not run on a cluster (docs/spark.md). */
    static final String GPR_ON_CLUSTER = "mechanism gpr does not run with --master: its posterior mean solves"
            + " (K + sigma_n^2 I) a = y with K the n x n kernel matrix of every pair of records, one Cholesky"
            + " factorisation of the whole matrix rather than a sum of per-record terms, so it is not a pass over blocks"
            + " of records; it is defined for at most " + GaussianProcessRegression.MAX_FACTORISED_ROWS + " records,"
            + " which one process holds";

    static Integer run(Main main, java.util.function.Function<Main.Shape, PrivateMechanism> mechanism, double delta,
            Path input) throws IOException {
        PrivateRelease r = main.release(input, shape -> {
            checkColumns(shape.d(), input);
            return mechanism.apply(shape);
        }, delta);
        Map<String, Object> ctx = new LinkedHashMap<>();
        ctx.put("input", input.toString());
        return ReleasePrinter.print(main, r, ctx);
    }

    @Command(name = "blr", mixinStandardHelpOptions = true,
            description = {"Private Bayesian logistic regression (spec ndis §6.6): theta ~ N(theta^, Sigma + sigma* I) "
                    + "with the Böhning covariance Sigma = (lambda I + X^T X/4)^-1 and theta^ the minimiser of "
                    + "sum log(1+exp(-y x^T theta)) + (lambda/2)||theta||^2, computed by a fixed, public procedure "
                    + "(Newton with a certificate, else gradient descent) whose distance to the exact minimiser is "
                    + "covered by the noise (parameter residualBound); it never fails after reading the data.",
                "Input: features then a label in {-1, +1} or {0, 1} in the last column. Part of the mechanism (never an "
                        + "error): a feature row above --row-bound is scaled onto the ball, a label is mapped to +1 if "
                        + "positive, else -1 (so 0/1 labels map 0 -> -1, 1 -> +1), and of more than --max-rows records a secret uniformly random "
                        + "--max-rows are used. `dpgauss validate` reports such rows first (not private).",
                "Guarantee: (epsilon, delta)-DP under add/remove-one-record neighbours for at most --max-rows records; "
                        + "for neighbours one of which has more, that of two add/remove steps, (2 epsilon, "
                        + "(1 + e^epsilon) delta).",
                "JSON: status, mechanism (mechanism.blr), theta, parameters, guarantee, insecure, randomness, input."})
    static final class Blr implements Callable<Integer> {

        @ParentCommand
        MechanismCommand parent;

        @picocli.CommandLine.Mixin
        LedgerOptions ledger = new LedgerOptions();

        @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy).")
        Path input;

        @Option(names = "--lambda", required = true, description = "Public regulariser lambda > 0.")
        double lambda;

        @Option(names = "--row-bound", required = true, paramLabel = "l", description = "Public bound l > 0 on ||x||.")
        double rowBound;

        @Option(names = "--intercept", defaultValue = "0", paramLabel = "c",
                description = "Public constant c >= 0 appended to every feature vector as an intercept column: theta "
                        + "gets d + 1 entries (w, b), the model is x^T w + c b, and the sensitivity uses the bound "
                        + "sqrt(l^2 + c^2). Default ${DEFAULT-VALUE}: no intercept. c = l is a good start.")
        double intercept;

        @Option(names = "--output", defaultValue = "sample", paramLabel = "sample|point",
                description = "sample (default): the posterior sample theta ~ N(theta^, Sigma + sigma* I) of spec "
                        + "§6.6; point: the point estimate theta^ + N(0, s^2 I), s by the analytic Gaussian mechanism "
                        + "at theta^'s L2 sensitivity l/lambda + 2r: less noise, the model to classify with.")
        String output;

        @Mixin
        CalibrationOptions calibration;

        @Override
        public Integer call() throws IOException {
            calibration.refuseCluster(BLR_ON_CLUSTER);
            Variant v = calibration.variant();
            // the public parameters are validated before the data are read (d = 1 for this check)
            builder(1, v).build();
            // features above --row-bound are clipped, labels sign-mapped, rows beyond --max-rows a secret random
            // subset: the mechanism's domain map, never an error (issue 24, item 5)
            return run(parent.main, shape -> builder(shape.d() - 1, v).build(), calibration.budgetOptions.delta(),
                    input);
        }

        private BayesianLogisticRegression.Builder builder(int d, Variant v) {
            return BayesianLogisticRegression.builder().dimension(d).lambda(lambda).rowBound(rowBound)
                    .maxRows(calibration.maxRows).budget(calibration.budget()).bound(v).intercept(intercept)
                    .pointEstimate(pointOutput(output));
        }
    }

    /** The blr {@code --output} choice: a public option, checked before the data are read. */
    static boolean pointOutput(String output) {
        switch (output.toLowerCase(Locale.ROOT)) {
            case "sample":
                return false;
            case "point":
                return true;
            default:
                throw new IllegalArgumentException("--output=" + output + " is not one of sample, point");
        }
    }

    @Command(name = "gpr", mixinStandardHelpOptions = true,
            description = {"Private Gaussian-process regression at one public query point (spec ndis §6.7): "
                    + "N(mu*, Sigma* + sigma*) with the GP posterior mean and variance under the RBF kernel "
                    + "k(a,b) = s^2 exp(-||a-b||^2/(2 h^2)) and noise variance sigma_n^2.",
                "Input: inputs then a label with |y| <= --label-bound in the last column. Cost: Cholesky of n x n. "
                        + "Part of the mechanism (never an error): a label beyond the bound is clipped to it, and of "
                        + "more than --max-rows records a secret uniformly random --max-rows are used (above "
                        + GaussianProcessRegression.MAX_FACTORISED_ROWS + " records the prior predictive is "
                        + "released). `dpgauss validate` reports such rows first (not private).",
                "--max-rows sets the noise: the sensitivity grows as sqrt(n), so the added noise variance grows in "
                        + "proportion to --max-rows (about 200 times from 500 to 100000); choose the smallest bound "
                        + "the data are sure not to exceed.",
                "--noise-variance must be at least 4 n (n + p + 8) 2^-53 s^2 (n = --max-rows, p inputs), so that the "
                        + "factorisation of K + sigma_n^2 I cannot fail on any data.",
                "Guarantee: (epsilon, delta)-DP under add/remove-one-record neighbours for at most --max-rows records; "
                        + "for neighbours one of which has more, that of two add/remove steps, (2 epsilon, "
                        + "(1 + e^epsilon) delta).",
                "JSON: status, mechanism (mechanism.gpr), prediction, parameters, guarantee, insecure, randomness, "
                        + "input."})
    static final class Gpr implements Callable<Integer> {

        @ParentCommand
        MechanismCommand parent;

        @picocli.CommandLine.Mixin
        LedgerOptions ledger = new LedgerOptions();

        @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy).")
        Path input;

        @Option(names = "--query", required = true, split = ",", paramLabel = "x1,x2,..",
                description = "Public query point x*.")
        double[] query;

        @Option(names = "--kernel-variance", defaultValue = "1", paramLabel = "s2",
                description = "RBF signal variance s^2 = sup k(x,x) = l^2 (default: ${DEFAULT-VALUE}).")
        double kernelVariance;

        @Option(names = "--lengthscale", defaultValue = "1", paramLabel = "h",
                description = "RBF lengthscale h (default: ${DEFAULT-VALUE}).")
        double lengthscale;

        @Option(names = "--noise-variance", required = true, paramLabel = "sn2",
                description = "GP noise variance sigma_n^2, at least 4 n (n + p + 8) 2^-53 s^2.")
        double noiseVariance;

        @Option(names = "--label-bound", required = true, paramLabel = "B", description = "Public bound B on |y|.")
        double labelBound;

        @Mixin
        CalibrationOptions calibration;

        @Override
        public Integer call() throws IOException {
            calibration.refuseCluster(GPR_ON_CLUSTER);
            GaussianProcessRegression gpr = GaussianProcessRegression.builder()
                    .kernel(GaussianProcessRegression.rbf(kernelVariance, lengthscale)).noiseVariance(noiseVariance)
                    .labelBound(labelBound).maxRows(calibration.maxRows).query(query).budget(calibration.budget())
                    .bound(calibration.variant()).build();
            // labels above --label-bound are clipped to it, rows beyond --max-rows a secret random subset: the
            // mechanism's domain map, never an error (issue 24, item 5); more than MAX_FACTORISED_ROWS kept rows give
            // the covered prior predictive (GaussianProcessRegression), not an error either
            return run(parent.main, shape -> {
                if (shape.d() - 1 != query.length) {
                    throw new IllegalArgumentException("--query has " + query.length + " coordinates but "
                            + input.getFileName() + " has " + (shape.d() - 1) + " input columns (plus the label)");
                }
                return gpr;
            }, calibration.budgetOptions.delta(), input);
        }
    }

    /** The public calibration inputs both NDIS mechanisms share (spec ndis §7). */
    static final class CalibrationOptions {
        @Option(names = "--max-rows", required = true, paramLabel = "n",
                description = "Public maximum dataset size n: the guarantee covers datasets of at most n rows, and the "
                        + "noise is calibrated for n (gpr: its noise variance grows in proportion to n).")
        int maxRows;

        /** --epsilon (>= 0) or --rho (converted), and --delta (issue 29: one budget interface). */
        @Mixin
        BudgetOptions budgetOptions;

        @Option(names = "--bound", defaultValue = "sound-exact-hard",
                description = "sound-exact-hard (default), sound, or paper-faithful (unsound, for reproduction).")
        String bound;

        @Option(names = "--master", paramLabel = "URL",
                description = "Refused, saying why: neither mechanism is a sum of per-record passes that Spark could "
                        + "run (docs/spark.md); run without it.")
        String master;

        /**
         * Refuses a cluster run before anything is read.
         *
         * @param why what the mechanism needs and why that is not a pass over blocks of records
         */
        void refuseCluster(String why) {
            if (master != null) {
                throw new IllegalArgumentException(why + "; run it without --master (the guarantee covers at most"
                        + " --max-rows records, which it reads into this process)");
            }
        }

        Variant variant() {
            return MechanismCommand.variant(bound);
        }

        ApproxDp budget() {
            return budgetOptions.approxDp(); // --delta in (0, 1): the NDIS bound needs delta > 0 (spec ndis §6.5.3)
        }
    }
}
