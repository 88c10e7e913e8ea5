package org.dpgauss.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.calibration.AnalyticGaussian;
import org.dpgauss.calibration.RandomProjectionCurve;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code dpgauss calibrate gaussian|projection}: noise and ridge levels for a target (epsilon, delta). */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Noise calibration for a target (epsilon, delta); releases nothing and reads no data.",
        subcommands = {CalibrateCommand.Gaussian.class, CalibrateCommand.Projection.class})
final class CalibrateCommand extends CommandGroup {

    @Command(name = "gaussian", mixinStandardHelpOptions = true,
            description = {"Smallest noise standard deviation sigma for which the Gaussian mechanism with L2 "
                    + "sensitivity s is (epsilon, delta)-DP: the analytic Gaussian mechanism (Balle and Wang 2018; "
                    + "spec ndis §5.1 Prop. 1), exact, not the classical sqrt(2 ln(1.25/delta)) bound.",
                "The guarantee holds for whichever neighbouring relation the sensitivity was computed under."})
    static final class Gaussian implements Callable<Integer> {

        @ParentCommand
        CalibrateCommand parent;

        @Option(names = "--epsilon", required = true, description = "epsilon > 0.")
        double epsilon;

        @Option(names = "--delta", required = true, description = "delta in (0, 1).")
        double delta;

        @Option(names = "--sensitivity", defaultValue = "1",
                description = "L2 sensitivity of the query, > 0 (default: ${DEFAULT-VALUE}).")
        double sensitivity;

        @Option(names = "--plot", paramLabel = "FILE",
                description = "Also draw the mechanism's exact privacy profile delta(epsilon) at this sigma beside the "
                        + "delta(epsilon) of its zCDP statement (rho) converted by the engine's conversion (CKS20 Cor. "
                        + "13), epsilon from 0 to 3 epsilon, delta on a log scale, as a PNG image to FILE; the output "
                        + "gains the field \"plot\" (FILE).")
        Path plot;

        @Override
        public Integer call() throws IOException {
            if (plot != null) {
                PlotData.preflight(plot);
            }
            double sigma = AnalyticGaussian.sigma(epsilon, delta, sensitivity);
            double achieved = AnalyticGaussian.delta(epsilon, sigma, sensitivity);
            if (plot != null) {
                PlotWriter.write(plot, List.of(profileChart(epsilon, delta, sensitivity, sigma)));
            }
            PrintWriter out = parent.main.spec.commandLine().getOut();
            if (parent.main.json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("sigma", sigma);
                m.put("epsilon", epsilon);
                m.put("delta", delta);
                m.put("sensitivity", sensitivity);
                m.put("achievedDelta", achieved);
                m.put("rho", AnalyticGaussian.rho(sigma, sensitivity));
                if (plot != null) {
                    m.put("plot", plot.toString());
                }
                out.println(Json.write(m));
            } else {
                out.printf(Locale.ROOT, "analytic Gaussian mechanism: sigma = %.15g for (epsilon=%s, delta=%s), "
                        + "L2 sensitivity %s%n", sigma, epsilon, delta, sensitivity);
                out.printf(Locale.ROOT, "  delta at this sigma: %.6g; as zCDP: rho = %.6g%n", achieved,
                        AnalyticGaussian.rho(sigma, sensitivity));
                if (plot != null) {
                    out.println("  plot: " + plot);
                }
            }
            return 0;
        }

        /** Points of the profile chart: 61 epsilons from 0 to 3 epsilon. */
        static final int PROFILE_POINTS = 61;

        /**
         * The chart of {@code calibrate gaussian --plot}: the analytic Gaussian mechanism's exact delta(epsilon)
         * ({@link AnalyticGaussian#delta}, the number this command prints at the target) beside the CKS20 conversion
         * of its zCDP parameter {@code rho = s^2 / (2 sigma^2)}, epsilon from 0 to 3 epsilon.
         */
        static PlotData.Chart profileChart(double epsilon, double delta, double sensitivity, double sigma) {
            double[] eps = PlotData.linearGrid(3 * epsilon, PROFILE_POINTS);
            double[] exact = new double[eps.length];
            for (int i = 0; i < eps.length; i++) {
                exact[i] = AnalyticGaussian.delta(eps[i], sigma, sensitivity);
            }
            return PlotData.profile("calibrate gaussian: exact privacy profile and the zCDP conversion",
                    String.format(Locale.ROOT, "Gaussian mechanism, L2 sensitivity %s, sigma %.6g (target epsilon=%s, "
                            + "delta=%s)", ReleasePrinter.fmt(sensitivity), sigma, ReleasePrinter.fmt(epsilon),
                            ReleasePrinter.fmt(delta)), eps, exact, AnalyticGaussian.rho(sigma, sensitivity),
                    Map.of("target epsilon", epsilon));
        }
    }

    @Command(name = "projection", mixinStandardHelpOptions = true,
            description = {"Leverage bound p* and ridge l^2/p* of the private Gaussian random projection M_RP "
                    + "(spec ndis §5.5 Lemma 4, §6.1): the largest leverage p with delta^gRP_r(epsilon; p) <= delta, "
                    + "and the LSV baseline leverage p_LSV of Sheffet (spec §7.1) for comparison.",
                "Guarantee of M_RP with this ridge: (epsilon, delta)-DP under add/remove-one-row neighbours, for "
                        + "rows of L2 norm at most --row-bound."})
    static final class Projection implements Callable<Integer> {

        @ParentCommand
        CalibrateCommand parent;

        @Option(names = "--epsilon", required = true, description = "epsilon >= 0.")
        double epsilon;

        @Option(names = "--delta", required = true, description = "delta in (0, 1).")
        double delta;

        @Option(names = "--rank", required = true, paramLabel = "r", description = "Projection columns r >= 1.")
        int rank;

        @Option(names = "--row-bound", defaultValue = "1", paramLabel = "l",
                description = "Public bound on every row's L2 norm, > 0 (default: ${DEFAULT-VALUE}).")
        double rowBound;

        @Override
        public Integer call() {
            double p = RandomProjectionCurve.leverageBound(epsilon, delta, rank);
            double ridge = RandomProjectionCurve.ridge(epsilon, delta, rank, rowBound);
            double lsv = RandomProjectionCurve.lsvLeverage(epsilon, delta, rank);
            double lsvRidge = RandomProjectionCurve.lsvRidge(epsilon, delta, rank, rowBound);
            PrintWriter out = parent.main.spec.commandLine().getOut();
            if (parent.main.json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("leverage", p);
                m.put("ridge", ridge);
                m.put("lsvLeverage", lsv);
                m.put("lsvRidge", lsvRidge);
                m.put("achievedDelta", RandomProjectionCurve.delta(epsilon, p, rank));
                out.println(Json.write(m));
            } else {
                out.printf(Locale.ROOT, "random projection, r=%d, (epsilon=%s, delta=%s), row bound %s%n", rank,
                        epsilon, delta, rowBound);
                out.printf(Locale.ROOT, "  leverage bound p* = %.12g, ridge l^2/p* = %.12g%n", p, ridge);
                out.printf(Locale.ROOT, "  LSV baseline:  p_LSV = %.12g, ridge = %.12g (p*/p_LSV = %.4g)%n", lsv,
                        lsvRidge, p / lsv);
            }
            return 0;
        }
    }
}
