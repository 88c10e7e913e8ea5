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
import org.dpgauss.mechanism.BayesianLogisticRegression;
import org.dpgauss.mechanism.GaussianProcessRegression;
import org.dpgauss.mechanism.GaussianRelease;
import org.dpgauss.mechanism.NdisGaussianMechanism;
import org.dpgauss.mechanism.NdisSensitivity;
import org.dpgauss.ndis.LoewnerComparableBound.Variant;
import org.dpgauss.privacy.RandomSource;
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

    /** Splits a data file into features (all but the last column) and labels (the last column). */
    static double[][][] split(RowBlockMatrix m, Path input) {
        if (m.cols() < 2) {
            throw new IllegalArgumentException(input.getFileName() + " has " + m.cols() + " column(s): it needs the "
                    + "features followed by the label in the last column");
        }
        int d = m.cols() - 1;
        double[][] x = new double[m.rows()][];
        double[][] y = {new double[m.rows()]};
        for (int i = 0; i < m.rows(); i++) {
            double[] row = m.row(i);
            x[i] = Arrays.copyOf(row, d);
            y[0][i] = row[d];
        }
        return new double[][][] {x, y};
    }

    static void print(Main main, String name, GaussianRelease rel, NdisGaussianMechanism mech, RandomSource random,
            Map<String, Object> extra, String valueName) {
        PrintWriter out = main.spec.commandLine().getOut();
        NdisSensitivity s = mech.sensitivityAtVariance();
        if (main.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", "PASS");
            m.put("mechanism", name);
            m.put(valueName, rel.value());
            m.put("noise_variance", rel.noiseVariance());
            Map<String, Object> sens = new LinkedHashMap<>();
            sens.put("Delta", s.meanSensitivity());
            sens.put("rhoInf", s.rhoInf());
            sens.put("nu", s.nu());
            m.put("sensitivity", sens);
            m.put("bound", mech.variant().name());
            m.put("bound_delta", mech.boundDelta());
            m.putAll(extra);
            m.put("guarantee", rel.guarantee().toMap());
            Main.putRandomness(m, random);
            out.println(Json.write(m));
        } else {
            out.printf(Locale.ROOT, "%s: NDIS-calibrated Gaussian mechanism, bound %s%n", name, mech.variant());
            out.println("  " + valueName + ": " + Arrays.toString(rel.value()));
            out.printf(Locale.ROOT, "  noise:     variance sigma* = %.6g (Delta=%.4g, rhoInf=%.4g, nu=%.4g)%n",
                    rel.noiseVariance(), s.meanSensitivity(), s.rhoInf(), s.nu());
            out.println("  guarantee: " + rel.guarantee().describe());
            out.println("  random:    " + random.describe());
            Main.warnIfInsecure(out, random, "noise");
        }
    }

    @Command(name = "blr", mixinStandardHelpOptions = true,
            description = {"Private Bayesian logistic regression (spec ndis §6.6): theta ~ N(theta^, Sigma + sigma* I) "
                    + "with theta^ the exact minimiser of sum log(1+exp(-y x^T theta)) + (lambda/2)||theta||^2 "
                    + "(Newton, gradient norm < 1e-10) and the Böhning covariance Sigma = (lambda I + X^T X/4)^-1.",
                "Input: features then a label in {-1, +1} in the last column; every feature row must have L2 norm "
                        + "<= --row-bound (rows above are an error naming the row).",
                "Guarantee: (epsilon, delta)-DP under add/remove-one-record neighbours for at most --max-rows records."})
    static final class Blr implements Callable<Integer> {

        @ParentCommand
        MechanismCommand parent;

        @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy).")
        Path input;

        @Option(names = "--lambda", required = true, description = "Public regulariser lambda > 0.")
        double lambda;

        @Option(names = "--row-bound", required = true, paramLabel = "l", description = "Public bound l > 0 on ||x||.")
        double rowBound;

        @Mixin
        CalibrationOptions calibration;

        @Override
        public Integer call() throws IOException {
            Variant v = calibration.variant();
            RowBlockMatrix m = DataReader.read(input);
            double[][][] xy = split(m, input);
            BayesianLogisticRegression blr = BayesianLogisticRegression.of(m.cols() - 1, lambda, rowBound,
                    calibration.maxRows, calibration.epsilon, calibration.delta, v);
            RandomSource random = parent.main.randomSource();
            GaussianRelease rel = blr.release(xy[0], xy[1][0], random);
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("d", m.cols() - 1);
            print(parent.main, "blr", rel, blr.mechanism(), random, extra, "theta");
            return 0;
        }
    }

    @Command(name = "gpr", mixinStandardHelpOptions = true,
            description = {"Private Gaussian-process regression at one public query point (spec ndis §6.7): "
                    + "N(mu*, Sigma* + sigma*) with the GP posterior mean and variance under the RBF kernel "
                    + "k(a,b) = s^2 exp(-||a-b||^2/(2 h^2)) and noise variance sigma_n^2.",
                "Input: inputs then a label with |y| <= --label-bound in the last column. Cost: Cholesky of n x n.",
                "Guarantee: (epsilon, delta)-DP under add/remove-one-record neighbours for at most --max-rows records."})
    static final class Gpr implements Callable<Integer> {

        @ParentCommand
        MechanismCommand parent;

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
                description = "GP noise variance sigma_n^2 > 0.")
        double noiseVariance;

        @Option(names = "--label-bound", required = true, paramLabel = "B", description = "Public bound B on |y|.")
        double labelBound;

        @Mixin
        CalibrationOptions calibration;

        @Override
        public Integer call() throws IOException {
            Variant v = calibration.variant();
            GaussianProcessRegression gpr = GaussianProcessRegression.of(
                    GaussianProcessRegression.rbf(kernelVariance, lengthscale), noiseVariance, labelBound,
                    calibration.maxRows, query, calibration.epsilon, calibration.delta, v);
            RowBlockMatrix m = DataReader.read(input);
            double[][][] xy = split(m, input);
            if (m.cols() - 1 != query.length) {
                throw new IllegalArgumentException("--query has " + query.length + " coordinates but "
                        + input.getFileName() + " has " + (m.cols() - 1) + " input columns (plus the label)");
            }
            RandomSource random = parent.main.randomSource();
            GaussianRelease rel = gpr.release(xy[0], xy[1][0], random);
            Map<String, Object> extra = new LinkedHashMap<>();
            extra.put("query", query);
            extra.put("kernel", GaussianProcessRegression.rbf(kernelVariance, lengthscale).describe());
            print(parent.main, "gpr", rel, gpr.mechanism(), random, extra, "prediction");
            return 0;
        }
    }

    /** The public calibration inputs both NDIS mechanisms share (spec ndis §7). */
    static final class CalibrationOptions {
        @Option(names = "--max-rows", required = true, paramLabel = "n", description = "Public maximum dataset size n.")
        int maxRows;

        @Option(names = "--epsilon", required = true, description = "epsilon >= 0.")
        double epsilon;

        @Option(names = "--delta", required = true, description = "delta in (0, 1).")
        double delta;

        @Option(names = "--bound", defaultValue = "sound-exact-hard",
                description = "sound-exact-hard (default), sound, or paper-faithful (unsound, for reproduction).")
        String bound;

        Variant variant() {
            return MechanismCommand.variant(bound);
        }
    }
}
