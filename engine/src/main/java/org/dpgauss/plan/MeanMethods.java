package org.dpgauss.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.mean.anisotropic.AnisotropicMethod;
import org.dpgauss.mean.anisotropic.CoordinateWiseMean;
import org.dpgauss.mean.anisotropic.RescaledAveraging;
import org.dpgauss.mean.anisotropic.ShapeMatrix;
import org.dpgauss.mean.anisotropic.UnknownCovarianceMean;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Statement;
import org.dpgauss.sampling.CovarianceAwareMean;
import org.dpgauss.sampling.InsufficientSampleSizeException;
import org.dpgauss.sampling.PtrMechanism;
import org.ejml.data.DMatrixRMaj;

/**
 * The mean family's methods for the planner: clipped, anisotropic and folklore (known covariance proxy), coordinate,
 * anisotropic without a proxy (unknown diagonal covariance) and bhs (covariance-aware). Each entry states the real
 * mechanism on the query's facts; all compare in L2 distance to the mean of the rows (bhs, whose releases state a
 * Mahalanobis accuracy, is stated in L2 through its own {@link CovarianceAwareMean#accuracyInL2} when a covariance
 * proxy is known). The defaults of the command line are used: beta = 0.01, alpha = 0.05, the sound PTR.
 */
final class MeanMethods implements MethodProvider {

    /** The command line's default accuracy failure probability of the lambda rule / clipping radius. */
    static final double BETA = 0.01;
    /** The command line's default alpha of {@code mean --method bhs}. */
    static final double ALPHA = 0.05;
    /** The largest n the planner searches for a minimum. */
    static final int SEARCH_LIMIT = Integer.MAX_VALUE - 1;

    @Override
    public Family family() {
        return Family.MEAN;
    }

    @Override
    public List<PlannedMethod> plan(PlanQuery q) {
        List<PlannedMethod> out = new ArrayList<>();
        out.add(box(q, false));
        out.add(box(q, true));
        out.add(ball(q));
        out.add(clipped(q));
        out.add(clippedAuto(q));
        out.add(rescaled(q, AnisotropicMethod.ANISOTROPIC));
        out.add(rescaled(q, AnisotropicMethod.FOLKLORE));
        out.add(coordinate(q));
        out.add(unknownCovariance(q));
        out.add(bhs(q));
        return out;
    }

    /**
     * The methods {@code mean --method auto} chooses among when public per-column bounds are given (issue 27): the
     * box mean with either noise, the ball around the box, and the proxy-based anisotropic, folklore and
     * coordinate-wise means; the planner recommends among these only when bounds are given.
     */
    static final List<String> AUTO_CANDIDATES = List.of("box", "box-pure", "ball", "anisotropic", "folklore",
            "coordinate");

    private static String boundsOption(PlanQuery q) {
        return "--bounds BOUNDS";
    }

    /** The box mean: Gaussian noise per coordinate at the zCDP of the budget, or the pure-DP L-infinity noise. */
    private static PlannedMethod box(PlanQuery q, boolean pure) {
        String name = pure ? "box-pure" : "box";
        String when = pure
                ? "when public per-column ranges are known and d is small: pure epsilon-DP (delta = 0) with the"
                        + " L-infinity mechanism, whose squared error grows like d^3/epsilon^2 (the Gaussian's like"
                        + " d^2 log(1/delta)/epsilon^2): it wins below d of about 57 at (1, 1e-6) with equal widths"
                : "when public per-column ranges are known: noise per coordinate proportional to the square root of"
                        + " each width, never FAILs; at (epsilon, delta) it wins over the pure mechanism for larger d";
        List<String> needs = List.of("public per-column ranges lo:hi covering the rows (--bounds)");
        if (q.bounds().isEmpty()) {
            return PlannedMethod.notApplicable(name, org.dpgauss.mean.BoxMean.ID, "needs public per-column ranges"
                    + " (--bounds LO:HI or --bounds FILE)", 1, needs, when);
        }
        double[][] b = q.bounds().get();
        org.dpgauss.mean.BoxMean m = pure ? org.dpgauss.mean.BoxMean.pure(b[0], b[1], q.budget().epsilon())
                : org.dpgauss.mean.BoxMean.gaussian(b[0], b[1],
                        ConversionPolicy.rhoFor(q.budget().epsilon(), q.budget().delta()));
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method %s %s --epsilon %s --delta %s", name,
                boundsOption(q), num(q.budget().epsilon()), num(q.budget().delta()));
        return PlannedMethod.applicable(name, org.dpgauss.mean.BoxMean.ID, s.accuracy().orElse(null), 1,
                List.of("public per-column ranges (given)"), cmd, when);
    }

    /** The clipped mean on the ball that holds the box: centre the box's centre, radius half its diagonal. */
    private static PlannedMethod ball(PlanQuery q) {
        String when = "the clipped mean on the smallest ball holding the box (centre the box's centre, radius half"
                + " its diagonal): the same L2 sensitivity as the box, isotropic noise, never better than box";
        List<String> needs = List.of("public per-column ranges (--bounds), turned into a ball");
        if (q.bounds().isEmpty()) {
            return PlannedMethod.notApplicable("ball", ClippedGaussianMean.ID, "needs public per-column ranges"
                    + " (--bounds)", 1, needs, when);
        }
        double[][] ball = org.dpgauss.mean.BoxMean.ballOf(q.bounds().get());
        double radius = ball[1][0];
        Zcdp rho = ConversionPolicy.rhoFor(q.budget().epsilon(), q.budget().delta());
        ClippedGaussianMean m = ClippedGaussianMean.of(radius, ball[0], rho);
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        StringBuilder c = new StringBuilder();
        for (int j = 0; j < ball[0].length; j++) {
            c.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.17g", ball[0][j]));
        }
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method clipped --clip %.17g --centre %s --epsilon %s"
                + " --delta %s", radius, c, num(q.budget().epsilon()), num(q.budget().delta()));
        return PlannedMethod.applicable("ball", ClippedGaussianMean.ID, s.accuracy().orElse(null), 1,
                List.of("public per-column ranges (given)"), cmd, when);
    }

    /** @return the methods {@code mean --method auto} chooses among ({@link #AUTO_CANDIDATES}), stated on q */
    static List<PlannedMethod> planAuto(PlanQuery q) {
        return List.of(box(q, false), box(q, true), ball(q), rescaled(q, AnisotropicMethod.ANISOTROPIC),
                rescaled(q, AnisotropicMethod.FOLKLORE), coordinate(q));
    }

    /** The clipped mean with a private radius: needs no public bound; its error depends on the data's scale. */
    private static PlannedMethod clippedAuto(PlanQuery q) {
        Zcdp rho = ConversionPolicy.rhoFor(q.budget().epsilon(), q.budget().delta());
        org.dpgauss.mean.AutoClippedGaussianMean m = org.dpgauss.mean.AutoClippedGaussianMean.of(q.centre(), rho,
                org.dpgauss.mean.AutoClippedGaussianMean.DEFAULT_SHARE);
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method clipped --clip auto%s --epsilon %s --delta %s",
                centreOption(q), num(q.budget().epsilon()), num(q.budget().delta()));
        return PlannedMethod.applicable("clipped --clip auto", org.dpgauss.mean.AutoClippedGaussianMean.ID,
                s.accuracy().orElse(null), -1, List.of("nothing public: a quarter of the budget finds the radius"),
                cmd, "when no public radius is known: the error is that of the clipped mean at a radius within a"
                        + " factor 2 of the farthest rows (it FAILs only on too few rows for the budget)");
    }

    private static PlannedMethod clipped(PlanQuery q) {
        String when = "when a public radius around a public centre covers (nearly) every row: the simplest method,"
                + " it never FAILs, spends the whole budget on one noise draw, and its error is the noise alone";
        if (q.clipRadius().isEmpty()) {
            return PlannedMethod.notApplicable("clipped", ClippedGaussianMean.ID, "needs a public clipping radius"
                    + " (--clip C) around a public centre that covers the rows", -1,
                    List.of("a public L2 radius C around a public centre (default the origin)"), when);
        }
        double c = q.clipRadius().getAsDouble();
        Zcdp rho = ConversionPolicy.rhoFor(q.budget().epsilon(), q.budget().delta());
        ClippedGaussianMean m = ClippedGaussianMean.of(c, q.centre(), rho);
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method clipped --clip %s%s --epsilon %s --delta %s",
                num(c), centreOption(q), num(q.budget().epsilon()), num(q.budget().delta()));
        return PlannedMethod.applicable("clipped", ClippedGaussianMean.ID, s.accuracy().orElse(null), 1,
                List.of("a public L2 radius C around a public centre (given)"), cmd, when);
    }

    /** The covariance proxy as M: the full matrix if given, else the diagonal; empty if neither. */
    static Optional<ShapeMatrix> proxy(PlanQuery q) {
        if (q.covariance().isPresent()) {
            return Optional.of(ShapeMatrix.of(new DMatrixRMaj(q.covariance().get())));
        }
        return q.variances().map(ShapeMatrix::diagonal);
    }

    /** The command line's way to pass the proxy. */
    /**
     * The given centre as the command-line option, one value when all coordinates are equal (issue 29: the
     * planned command repeats every fact it was given); empty when none was given (the default is the origin).
     */
    static String centreOption(PlanQuery q) {
        if (q.givenCentre().isEmpty()) {
            return "";
        }
        double[] c = q.givenCentre().get();
        boolean same = true;
        for (double x : c) {
            same &= Double.compare(x, c[0]) == 0;
        }
        StringBuilder sb = new StringBuilder(" --centre ");
        for (int i = 0; i < (same ? 1 : c.length); i++) {
            sb.append(i == 0 ? "" : ",").append(num(c[i]));
        }
        return sb.toString();
    }

    static String proxyOption(PlanQuery q) {
        if (q.covariance().isPresent()) {
            return "--covariance COVARIANCE_FILE";
        }
        return "--variances " + list(q.variances().orElseThrow());
    }

    private static String list(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            sb.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.6g", v[i]));
        }
        return sb.toString();
    }

    private static PlannedMethod rescaled(PlanQuery q, AnisotropicMethod which) {
        String id = which == AnisotropicMethod.ANISOTROPIC ? "mean.anisotropic" : "mean.folklore";
        String when = which == AnisotropicMethod.ANISOTROPIC
                ? "when a public covariance proxy is known and no public radius is: no clipping, range or centre is"
                        + " needed and the error follows tr(Sigma^(1/2)); but its provable calibration runs at"
                        + " epsilon/42 and needs about ln(1/delta)/(epsilon/42) rows before it can pass"
                : "the same as anisotropic with M = I (error about sqrt(d tr Sigma)): a baseline; prefer anisotropic"
                        + " unless the proxy is only trusted through its trace and norm";
        List<String> needs = List.of("a public covariance proxy Sigma (--variances or --covariance) bounding the"
                + " rows' covariance");
        Optional<ShapeMatrix> sigma;
        try {
            sigma = proxy(q);
        } catch (IllegalArgumentException e) {
            return PlannedMethod.notApplicable(which.id(), id, "the covariance proxy is not usable: " + e.getMessage(),
                    -1, needs, when);
        }
        if (sigma.isEmpty()) {
            return PlannedMethod.notApplicable(which.id(), id, "needs a public covariance proxy (--variances or"
                    + " --covariance)", -1, needs, when);
        }
        ApproxDp target = q.budget();
        if (!(target.epsilon() < 21)) {
            return PlannedMethod.notApplicable(which.id(), id, "the provable calibration needs epsilon < 21 (it runs"
                    + " Algorithm 1 at epsilon/42 < 1/2)", -1, needs, when);
        }
        RescaledAveraging m = which.estimator(sigma.get(), q.rows(), BETA, target);
        long min = m.minimumRowsForStatement();
        if (q.rows() < min) {
            return PlannedMethod.notApplicable(which.id(), id, String.format(Locale.ROOT, "n >= %d rows are needed"
                    + " (n=%d): its noisy count of kept rows is about n - %.0f at the internal epsilon %.4g ="
                    + " epsilon/42, so the release is likely to FAIL below that", min, q.rows(),
                    (double) min - 1, m.internalEpsilon()), min, needs, when);
        }
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method %s %s --epsilon %s --delta %s", which.id(),
                proxyOption(q), num(target.epsilon()), num(target.delta()));
        return PlannedMethod.applicable(which.id(), id, s.accuracy().orElse(null), min,
                List.of("a public covariance proxy (given)"), cmd, when);
    }

    private static PlannedMethod coordinate(PlanQuery q) {
        String when = "when per-coordinate public variances are known and n is well above sqrt(d)/epsilon: it finds"
                + " each coordinate's range privately, so no radius or centre is needed, but its noise grows like"
                + " sqrt(d tr Sigma log(nd))";
        List<String> needs = List.of("public per-coordinate variances (--variances, or the diagonal of --covariance)");
        Optional<double[]> v = q.varianceDiagonal();
        if (v.isEmpty()) {
            return PlannedMethod.notApplicable("coordinate", CoordinateWiseMean.ID, "needs public per-coordinate"
                    + " variances (--variances or --covariance)", -1, needs, when);
        }
        CoordinateWiseMean m = CoordinateWiseMean.of(v.get(), q.rows(), BETA, q.budget());
        long min = m.minimumRowsForStatement();
        if (q.rows() < min) {
            return PlannedMethod.notApplicable("coordinate", CoordinateWiseMean.ID, String.format(Locale.ROOT,
                    "n >= %d rows are needed (n=%d): below that the per-coordinate private histograms are likely to"
                            + " find no clear bin and the release FAILs", min, q.rows()), min, needs, when);
        }
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        String proxy = q.variances().isPresent() ? proxyOption(q) : "--covariance COVARIANCE_FILE";
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method coordinate %s --epsilon %s --delta %s", proxy,
                num(q.budget().epsilon()), num(q.budget().delta()));
        return PlannedMethod.applicable("coordinate", CoordinateWiseMean.ID, s.accuracy().orElse(null), min,
                List.of("public per-coordinate variances (given)"), cmd, when);
    }

    private static PlannedMethod unknownCovariance(PlanQuery q) {
        String method = "anisotropic-unknown-covariance";
        String when = "when nothing about the scale is public: it estimates a diagonal covariance privately first;"
                + " it needs very many rows (its two filtered averages run at epsilon/84) and is slow (O(n^2 d))";
        List<String> needs = List.of("nothing public beyond n and d (a guess of the variances only sharpens the"
                + " predicted error)");
        ApproxDp t = q.budget();
        if (!(t.epsilon() < 42)) {
            return PlannedMethod.notApplicable(method, UnknownCovarianceMean.ID, "needs epsilon < 42", -1, needs,
                    when);
        }
        long need = UnknownCovarianceMean.requiredRows(q.dimension(), t.epsilon(), t.delta(), BETA);
        if (q.rows() < need) {
            return PlannedMethod.notApplicable(method, UnknownCovarianceMean.ID, String.format(Locale.ROOT,
                    "n >= %d rows are needed (n=%d) for its private variance steps and its two filtered averages",
                    need, q.rows()), need, needs, when);
        }
        UnknownCovarianceMean m = UnknownCovarianceMean.of(q.rows(), q.dimension(), t, BETA);
        Optional<double[]> v = q.varianceDiagonal();
        if (v.isPresent()) {
            m = m.assumingVariances(v.get());
        }
        Statement s = Planner.state(m, q.rows(), q.dimension(), t.delta());
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method anisotropic%s --epsilon %s --delta %s",
                v.isPresent() ? " --assume-variances " + list(v.get()) : "", num(t.epsilon()), num(t.delta()));
        return PlannedMethod.applicable(method, UnknownCovarianceMean.ID, s.accuracy().orElse(null), need, needs,
                cmd, when + (v.isEmpty() ? "; without a guess of the variances its error is predicted in units of the"
                        + " data's own spread sqrt(tr(Sigma)/d), which is not public, so it is not compared" : ""));
    }

    private static PlannedMethod bhs(PlanQuery q) {
        String when = "when the error should follow the data's own covariance (Mahalanobis): no bounds at all are"
                + " needed, but a certified run needs very many rows (about 16 e^2 lambda0 k per half)";
        List<String> needs = List.of("nothing public beyond n and d; epsilon <= 1 and delta <= epsilon/10");
        ApproxDp t = q.budget();
        if (!(t.epsilon() <= 1) || !(t.delta() <= t.epsilon() / 10)) {
            return PlannedMethod.notApplicable("bhs", CovarianceAwareMean.ID, "needs epsilon <= 1 and delta <="
                    + " epsilon/10 (its analysis covers only that range)", -1, needs, when);
        }
        CovarianceAwareMean m;
        try {
            m = CovarianceAwareMean.of(q.rows(), q.dimension(), t, ALPHA, Double.NaN, PtrMechanism.SOUND, false);
        } catch (InsufficientSampleSizeException e) {
            return PlannedMethod.notApplicable("bhs", CovarianceAwareMean.ID, String.format(Locale.ROOT,
                    "n >= %d rows are needed for a certified run (n=%d)", e.requiredRows(), q.rows()),
                    e.requiredRows(), needs, when);
        }
        long need = CovarianceAwareMean.requiredRows(q.dimension(), t.epsilon(), t.delta(), ALPHA, Double.NaN,
                PtrMechanism.SOUND);
        Statement s = Planner.state(m, q.rows(), q.dimension(), t.delta());
        Accuracy predicted = s.accuracy().orElse(null);
        Optional<double[]> eig = eigenvalues(q);
        if (eig.isPresent()) {
            predicted = m.accuracyInL2(eig.get()).orElse(predicted);
        }
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method bhs --epsilon %s --delta %s",
                num(t.epsilon()), num(t.delta()));
        return PlannedMethod.applicable("bhs", CovarianceAwareMean.ID, predicted, need, needs, cmd,
                when + (eig.isEmpty() ? "; without a covariance proxy its predicted error is in Mahalanobis"
                        + " distance, not comparable with the L2 predictions" : ""));
    }

    /** The eigenvalues of the covariance proxy (the diagonal for a diagonal one). */
    static Optional<double[]> eigenvalues(PlanQuery q) {
        if (q.covariance().isPresent()) {
            DMatrixRMaj c = new DMatrixRMaj(q.covariance().get());
            double[] e = CpuEngine.instance().symmetricEigen(c).values();
            for (int i = 0; i < e.length; i++) {
                e[i] = Math.max(0, e[i]);
            }
            return Optional.of(e);
        }
        return q.variances();
    }

    static String num(double x) {
        return new java.math.BigDecimal(Double.toString(x)).stripTrailingZeros().toPlainString();
    }
}
