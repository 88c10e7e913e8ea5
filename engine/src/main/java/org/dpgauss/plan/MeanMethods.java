package org.dpgauss.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Statement;

/** The mean family's methods for the planner. */
final class MeanMethods implements MethodProvider {

    @Override
    public Family family() {
        return Family.MEAN;
    }

    @Override
    public List<PlannedMethod> plan(PlanQuery q) {
        List<PlannedMethod> out = new ArrayList<>();
        out.add(clipped(q));
        out.add(clippedAuto(q));
        return out;
    }

    /** The clipped mean with a private radius: needs no public bound; its error depends on the data's scale. */
    private static PlannedMethod clippedAuto(PlanQuery q) {
        Zcdp rho = ConversionPolicy.rhoFor(q.budget().epsilon(), q.budget().delta());
        org.dpgauss.mean.AutoClippedGaussianMean m = org.dpgauss.mean.AutoClippedGaussianMean.of(q.centre(), rho,
                org.dpgauss.mean.AutoClippedGaussianMean.DEFAULT_SHARE);
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method clipped --clip auto --epsilon %s --delta %s",
                num(q.budget().epsilon()), num(q.budget().delta()));
        return PlannedMethod.applicable("clipped --clip auto", org.dpgauss.mean.AutoClippedGaussianMean.ID,
                s.accuracy().orElse(null), -1, List.of("nothing public: a quarter of the budget finds the radius"),
                cmd, "when no public radius is known: the error is that of the clipped mean at a radius within a"
                        + " factor 2 of the farthest rows (it FAILs only on too few rows for the budget)");
    }

    private static PlannedMethod clipped(PlanQuery q) {
        String when = "when a public radius around a public centre covers (nearly) every row: the simplest method,"
                + " it never FAILs and its error is the noise alone";
        if (q.clipRadius().isEmpty()) {
            return PlannedMethod.notApplicable("clipped", ClippedGaussianMean.ID, "needs a public clipping radius"
                    + " (--clip C) around a public centre that covers the rows", -1,
                    List.of("a public L2 radius C around a public centre (default the origin)"), when);
        }
        double c = q.clipRadius().getAsDouble();
        Zcdp rho = ConversionPolicy.rhoFor(q.budget().epsilon(), q.budget().delta());
        ClippedGaussianMean m = ClippedGaussianMean.of(c, q.centre(), rho);
        Statement s = Planner.state(m, q.rows(), q.dimension(), q.budget().delta());
        String cmd = String.format(Locale.ROOT, "dpgauss mean --method clipped --clip %s --epsilon %s --delta %s",
                num(c), num(q.budget().epsilon()), num(q.budget().delta()));
        return PlannedMethod.applicable("clipped", ClippedGaussianMean.ID, s.accuracy().orElse(null), 1,
                List.of("a public L2 radius C around a public centre (given)"), cmd, when);
    }

    static String num(double x) {
        return new java.math.BigDecimal(Double.toString(x)).stripTrailingZeros().toPlainString();
    }
}
