package org.dpgauss.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.engine.EngineSelection;
import org.dpgauss.ndis.DeltaAuditor;
import org.dpgauss.ndis.HockeyStickDivergence;
import org.dpgauss.ndis.PrivacyProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code dpgauss ndis ...}: exact hockey-stick divergence between two Gaussians (spec ndis). */
@Command(name = "ndis", mixinStandardHelpOptions = true,
        description = "Exact privacy accounting for mechanisms with Gaussian output: the hockey-stick divergence "
                + "delta_{X,Y}(epsilon) between X = N(mean1, cov1) and Y = N(mean2, cov2) (NDIS, spec ndis §2-§3).",
        subcommands = {NdisCommand.Delta.class, NdisCommand.Epsilon.class, NdisCommand.Profile.class,
            NdisCommand.Audit.class})
final class NdisCommand extends CommandGroup {

    static double[] checkedEpsilons(double[] eps) {
        for (int i = 0; i < eps.length; i++) {
            if (Double.isNaN(eps[i])) {
                throw new IllegalArgumentException("--epsilon value " + (i + 1) + " is NaN");
            }
        }
        return eps;
    }

    @Command(name = "delta", mixinStandardHelpOptions = true,
            description = {"delta_{X,Y}(epsilon) = sup_S P[X in S] - e^epsilon P[Y in S] for X = N(mean1, cov1) "
                    + "first and Y = N(mean2, cov2), exact (absolute error <= 1e-9) via two generalized chi-square "
                    + "probabilities (Theorem 4.1), with closed forms for equal covariances (analytic Gaussian) and "
                    + "singular covariances handled per spec §11.4.",
                "A mechanism whose outputs on a neighbouring pair D, D' are X and Y is (epsilon, delta)-DP on that "
                        + "pair only if both orderings are below delta: use --both-orderings."})
    static final class Delta implements Callable<Integer> {

        @ParentCommand
        NdisCommand parent;

        @Option(names = "--pair", required = true, paramLabel = "P.json",
                description = "{\"mean1\":[..],\"cov1\":[[..]],\"mean2\":[..],\"cov2\":[[..]]}")
        Path pair;

        @Option(names = "--epsilon", required = true, split = ",", paramLabel = "e1,e2,..",
                description = "epsilon values (any real; negative values are allowed).")
        double[] epsilon;

        @Option(names = "--both-orderings",
                description = "Also print delta_{Y,X} (\"deltaReversed\") and the pair's profile, the maximum of the two.")
        boolean bothOrderings;

        @Override
        public Integer call() throws IOException {
            double[] eps = checkedEpsilons(epsilon);
            PairFile p = PairFile.read(pair);
            EngineSelection sel = parent.main.selectEngine();
            HockeyStickDivergence hs = HockeyStickDivergence.using(sel.engine());
            double[] delta = hs.delta(p.first(), p.second(), eps);
            double[] reversed = bothOrderings ? hs.delta(p.second(), p.first(), eps) : null;
            PrintWriter out = parent.main.spec.commandLine().getOut();
            if (parent.main.json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("epsilon", eps);
                m.put("delta", delta);
                if (bothOrderings) {
                    double[] profile = new double[eps.length];
                    for (int i = 0; i < eps.length; i++) {
                        profile[i] = Math.max(delta[i], reversed[i]);
                    }
                    m.put("deltaReversed", reversed);
                    m.put("profile", profile);
                }
                out.println(Json.write(m));
            } else {
                out.printf(Locale.ROOT, "X = N(mean1, cov1), Y = N(mean2, cov2), dimension %d%n",
                        p.first().dimension());
                out.printf(Locale.ROOT, "%-14s %-24s%s%n", "epsilon", "delta_{X,Y}",
                        bothOrderings ? " delta_{Y,X}" : "");
                for (int i = 0; i < eps.length; i++) {
                    out.printf(Locale.ROOT, "%-14s %-24.17g%s%n", eps[i], delta[i],
                            bothOrderings ? String.format(Locale.ROOT, " %.17g", reversed[i]) : "");
                }
            }
            return 0;
        }
    }

    @Command(name = "epsilon", mixinStandardHelpOptions = true,
            description = {"The smallest epsilon >= 0 at which the pair's privacy profile, max(delta_{X,Y}, "
                    + "delta_{Y,X}), is at most --delta (bisection on the exact, monotone profile).",
                "This is the epsilon a mechanism with these outputs on a neighbouring pair spends on that pair."})
    static final class Epsilon implements Callable<Integer> {

        @ParentCommand
        NdisCommand parent;

        @Option(names = "--pair", required = true, paramLabel = "P.json",
                description = "{\"mean1\":[..],\"cov1\":[[..]],\"mean2\":[..],\"cov2\":[[..]]}")
        Path pair;

        @Option(names = "--delta", required = true, description = "Target delta in [0, 1].")
        double delta;

        @Override
        public Integer call() throws IOException {
            PairFile p = PairFile.read(pair);
            HockeyStickDivergence hs = HockeyStickDivergence.using(parent.main.selectEngine().engine());
            PrivacyProfile.EpsilonResult r = PrivacyProfile.of(hs, p.first(), p.second()).epsilon(delta);
            PrintWriter out = parent.main.spec.commandLine().getOut();
            boolean bounded = r.status() != PrivacyProfile.Status.UNBOUNDED;
            if (parent.main.json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("delta", delta);
                m.put("epsilon", bounded ? r.epsilon() : null);
                m.put("bounded", bounded);
                m.put("profileDelta", r.delta());
                out.println(Json.write(m));
            } else if (bounded) {
                out.printf(Locale.ROOT, "epsilon = %.12g (profile delta there: %.6g <= %s)%n", r.epsilon(), r.delta(),
                        delta);
            } else {
                out.printf(Locale.ROOT, "no finite epsilon reaches delta = %s (profile delta stays %.6g, e.g. the "
                        + "supports differ)%n", delta, r.delta());
            }
            return 0;
        }
    }

    @Command(name = "profile", mixinStandardHelpOptions = true,
            description = {"The pair's privacy profile max(delta_{X,Y}, delta_{Y,X})(epsilon) on a grid of epsilon, "
                    + "exact as ndis delta, beside the delta(epsilon) of the zCDP statement of the same pair converted "
                    + "by the engine's one conversion (CKS20 Cor. 13, as every guarantee of dpgauss): where the "
                    + "covariances are equal and positive definite the pair is exactly rho-zCDP with rho = "
                    + "(mean1 - mean2)^T cov^-1 (mean1 - mean2) / 2; otherwise no finite rho bounds it (the Renyi "
                    + "divergence is infinite for large orders, or the supports differ) and only the exact profile "
                    + "is given.",
                "With --plot FILE, both curves as a PNG image, log-scale delta."})
    static final class Profile implements Callable<Integer> {

        @ParentCommand
        NdisCommand parent;

        @Option(names = "--pair", required = true, paramLabel = "P.json",
                description = "{\"mean1\":[..],\"cov1\":[[..]],\"mean2\":[..],\"cov2\":[[..]]}")
        Path pair;

        @Option(names = "--epsilon", split = ",", paramLabel = "e1,e2,..",
                description = "epsilon values, ascending (default: 41 points from 0 to where the profile falls to "
                        + "1e-8, at least 1; 10 when it never does; below about 1e-9 the exact values carry their "
                        + "absolute error of 1e-9).")
        double[] epsilon;

        @Option(names = "--plot", paramLabel = "FILE",
                description = "Also draw both curves (exact profile; zCDP conversion, dashed) against epsilon, delta "
                        + "on a log scale, as a PNG image to FILE; the output gains the field \"plot\" (FILE).")
        Path plot;

        @Override
        public Integer call() throws IOException {
            if (plot != null) {
                PlotData.preflight(plot);
            }
            PairFile p = PairFile.read(pair);
            HockeyStickDivergence hs = HockeyStickDivergence.using(parent.main.selectEngine().engine());
            PrivacyProfile profile = PrivacyProfile.of(hs, p.first(), p.second());
            double[] eps = epsilon != null ? checkedEpsilons(epsilon) : defaultGrid(profile);
            for (int i = 1; i < eps.length; i++) {
                if (!(eps[i] > eps[i - 1])) {
                    throw new IllegalArgumentException("--epsilon values must be strictly ascending (value " + (i + 1)
                            + ")");
                }
            }
            double[] delta = profile.delta(eps);
            double rho = pairRho(p);
            double[] converted = Double.isNaN(rho) ? null : PlotData.conversionDeltas(rho, eps);
            if (plot != null) {
                PlotWriter.write(plot, List.of(PlotData.profile("ndis profile: exact privacy profile and the zCDP "
                        + "conversion", Double.isNaN(rho) ? "no zCDP curve: the covariances differ or are singular, "
                        + "and no finite rho bounds such a pair" : "pair " + pair.getFileName() + ", dimension "
                        + p.first().dimension() + "; exact values to absolute error 1e-9", eps, delta, rho, Map.of())));
            }
            PrintWriter out = parent.main.spec.commandLine().getOut();
            if (parent.main.json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("epsilon", eps);
                m.put("delta", delta);
                m.put("zcdpRho", Double.isNaN(rho) ? null : rho);
                m.put("zcdpDelta", converted);
                m.put("conversion", org.dpgauss.privacy.ConversionPolicy.NAME);
                if (plot != null) {
                    m.put("plot", plot.toString());
                }
                out.println(Json.write(m));
            } else {
                out.printf(Locale.ROOT, "X = N(mean1, cov1), Y = N(mean2, cov2), dimension %d; profile = max of both "
                        + "orderings (absolute error <= 1e-9, as ndis delta)%n", p.first().dimension());
                out.println(Double.isNaN(rho) ? "zCDP: none (the covariances differ or are singular)"
                        : String.format(Locale.ROOT, "zCDP: rho = %.6g, converted by %s", rho,
                                org.dpgauss.privacy.ConversionPolicy.NAME));
                out.printf(Locale.ROOT, "%-14s %-24s%s%n", "epsilon", "profile delta", converted == null ? ""
                        : " zCDP-converted delta");
                for (int i = 0; i < eps.length; i++) {
                    out.printf(Locale.ROOT, "%-14s %-24.17g%s%n", eps[i], delta[i], converted == null ? ""
                            : String.format(Locale.ROOT, " %.6g", converted[i]));
                }
                if (plot != null) {
                    out.println("plot: " + plot);
                }
            }
            return 0;
        }

        /** 41 points from 0 to about where the profile falls to 1e-8 (at least 1), or to 10 if it never does. */
        static double[] defaultGrid(PrivacyProfile profile) {
            PrivacyProfile.EpsilonResult r = profile.epsilon(1e-8);
            double max = r.status() == PrivacyProfile.Status.UNBOUNDED ? 10
                    : Math.min(PrivacyProfile.MAX_EPSILON, Math.max(1, r.epsilon()));
            return PlotData.linearGrid(max, 41);
        }

        /**
         * The zCDP parameter of the pair, or NaN: equal, positive-definite covariances make the pair exactly the
         * Gaussian mechanism with sensitivity the Mahalanobis distance of the means and unit noise, rho = M^2 / 2
         * (Bun and Steinke 2016, Prop. 1.6); otherwise the Renyi divergence of some order is infinite and no rho
         * bounds it.
         */
        static double pairRho(PairFile p) {
            org.ejml.data.DMatrixRMaj c1 = p.first().covariance();
            org.ejml.data.DMatrixRMaj c2 = p.second().covariance();
            if (!org.ejml.dense.row.MatrixFeatures_DDRM.isIdentical(c1, c2, 0)) {
                return Double.NaN;
            }
            int d = p.first().dimension();
            org.ejml.data.DMatrixRMaj l = c1.copy();
            org.ejml.interfaces.decomposition.CholeskyDecomposition_F64<org.ejml.data.DMatrixRMaj> chol =
                    org.ejml.dense.row.factory.DecompositionFactory_DDRM.chol(d, true);
            if (!chol.decompose(l)) {
                return Double.NaN;
            }
            org.ejml.data.DMatrixRMaj low = chol.getT(null);
            double[] m1 = p.first().mean();
            double[] m2 = p.second().mean();
            double[] z = new double[d]; // L z = m1 - m2, then M^2 = |z|^2
            double q = 0;
            for (int i = 0; i < d; i++) {
                double s = m1[i] - m2[i];
                for (int k = 0; k < i; k++) {
                    s -= low.get(i, k) * z[k];
                }
                double lii = low.get(i, i);
                if (!(lii > 0)) {
                    return Double.NaN;
                }
                z[i] = s / lii;
                q += z[i] * z[i];
            }
            return q / 2;
        }
    }

    @Command(name = "audit", mixinStandardHelpOptions = true,
            description = {"White-box audit of a claimed (epsilon, delta) for a mechanism whose outputs on a "
                    + "neighbouring pair D, D' are X = N(mean1, cov1) and Y = N(mean2, cov2) (spec ndis §6.8, "
                    + "Theorem 7.1): for both orderings and every epsilon of the grid, a certified upper estimate "
                    + "delta_bar with delta <= delta_bar <= delta + eta and the certified lower bound delta_bar - eta.",
                "The claim is REFUTED iff, at the claimed epsilon, some ordering's lower bound exceeds the claimed "
                        + "delta; a pair that does not refute it says nothing about other pairs."})
    static final class Audit implements Callable<Integer> {

        @ParentCommand
        NdisCommand parent;

        @Option(names = "--pair", required = true, paramLabel = "P.json",
                description = "Outputs on D (mean1, cov1) and on D' (mean2, cov2).")
        Path pair;

        @Option(names = "--epsilon", required = true, description = "Claimed epsilon.")
        double epsilon;

        @Option(names = "--delta", required = true, description = "Claimed delta in [0, 1].")
        double delta;

        @Option(names = "--eta", paramLabel = "h",
                description = "Audit accuracy in (0, 1] (default: min(claimed delta / 10, 1e-9)).")
        Double eta;

        @Option(names = "--grid", split = ",", paramLabel = "e1,e2,..",
                description = "More epsilon values to audit besides the claimed one.")
        double[] grid;

        @Override
        public Integer call() throws IOException {
            double h = eta != null ? eta : (delta > 0 ? Math.min(delta / 10, 1e-9) : 1e-9);
            PairFile p = PairFile.read(pair);
            HockeyStickDivergence hs = HockeyStickDivergence.using(parent.main.selectEngine().engine());
            DeltaAuditor.Report r;
            try {
                r = DeltaAuditor.using(hs).audit(p.first(), p.second(), epsilon, delta, h, grid);
            } catch (IllegalStateException e) { // the oracle cannot certify this eta: a parameter problem for the user
                throw new IllegalArgumentException("--eta=" + h + ": " + e.getMessage(), e);
            }
            PrintWriter out = parent.main.spec.commandLine().getOut();
            if (parent.main.json) {
                out.println(Json.write(r));
            } else {
                out.printf(Locale.ROOT, "claim (epsilon=%s, delta=%s), accuracy eta=%.3g: %s%n", epsilon, delta, h,
                        r.refuted() ? "REFUTED" : "not refuted by this pair");
                out.printf(Locale.ROOT, "  at the claimed epsilon: %.6g <= delta <= %.6g (worst ordering)%n",
                        r.worstLowerBound(), r.worstUpperBound());
                out.printf(Locale.ROOT, "  %-14s %-10s %-14s %-14s%n", "ordering", "epsilon", "lower", "upper");
                for (DeltaAuditor.Row row : r.rows()) {
                    out.printf(Locale.ROOT, "  %-14s %-10s %-14.6g %-14.6g%n",
                            row.ordering() == DeltaAuditor.Ordering.D_FIRST ? "D, D'" : "D', D", row.epsilon(),
                            row.deltaLower(), row.deltaUpper());
                }
            }
            return 0;
        }
    }
}
