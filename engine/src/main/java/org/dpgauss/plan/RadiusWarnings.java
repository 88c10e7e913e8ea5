package org.dpgauss.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.dpgauss.release.Accuracy;

/**
 * The planner's warnings when a public radius is large against the accuracy it leads to (issue 29): computed from
 * the query's public facts and the methods' predictions only (the radius or row bound the user states, public
 * per-column bounds or variances, n, d and the budget), never from data, so a plan is the same for every dataset.
 *
 * <p>What a radius cannot show: the scales of the individual columns. One L2 radius is set by the widest columns, and
 * the clipped mean's noise is as large in every coordinate, so a column of small scale can be buried under it. The
 * planner sees this only where the user states per-column facts (public bounds' widths, public variances); the
 * release's own check ({@code mean --clip}) uses the released mean (docs/cli.md, "Scaling columns").
 */
final class RadiusWarnings {

    /** A predicted expected error at least this share of the radius (of R^2 for a second moment) is warned of. */
    static final double ERROR_SHARE = 0.1;
    /** Public bounds whose widths differ by at least this factor are warned of as columns of different scales. */
    static final double SCALE_RATIO = 10;

    private RadiusWarnings() {
    }

    /**
     * @param q the public facts
     * @param methods the planned methods (their predictions are public)
     * @param recommended the recommended method, if any
     * @return the warnings, possibly empty
     */
    static List<String> of(PlanQuery q, List<PlannedMethod> methods, Optional<PlannedMethod> recommended) {
        List<String> w = new ArrayList<>();
        if (q.family() == Family.MEAN) {
            Optional<Accuracy> clipped = methods.stream().filter(m -> m.method().equals("clipped"))
                    .filter(PlannedMethod::applicable).flatMap(m -> m.predicted().stream()).findFirst();
            if (q.clipRadius().isPresent() && clipped.isPresent()) {
                double c = q.clipRadius().getAsDouble();
                double e = clipped.get().expected();
                if (e >= ERROR_SHARE * c) {
                    w.add(String.format(Locale.ROOT, "the clipped mean's predicted expected L2 error, %s, is %s%% of"
                            + " the radius --clip %s (warned from %s%%): a mean closer than that to the centre is"
                            + " buried in the noise. A smaller public radius (if the rows lie within it), more rows or"
                            + " more budget lower it; columns of very different scales should be rescaled first"
                            + " (docs/cli.md, \"Scaling columns\")", num(e), pct(e / c), num(c), pct(ERROR_SHARE)));
                }
                if (q.variances().isPresent()) {
                    double[] v = q.variances().get();
                    double perCoordinate = e / Math.sqrt(q.dimension());
                    int small = 0;
                    for (double vi : v) {
                        if (Math.sqrt(vi) < perCoordinate) {
                            small++;
                        }
                    }
                    if (small > 0) {
                        w.add(String.format(Locale.ROOT, "%d of the %d columns have a public standard deviation"
                                + " (--variances) below the clipped mean's noise per coordinate, about %s: one L2"
                                + " radius serves every column, so these columns are buried in noise set by the"
                                + " widest; rescale the columns to comparable scales (docs/cli.md, \"Scaling"
                                + " columns\")", small, v.length, num(perCoordinate)));
                    }
                }
            }
            if (q.bounds().isPresent()) {
                double[][] b = q.bounds().get();
                double lo = Double.POSITIVE_INFINITY;
                double hi = 0;
                for (int j = 0; j < b[0].length; j++) {
                    double width = b[1][j] - b[0][j];
                    lo = Math.min(lo, width);
                    hi = Math.max(hi, width);
                }
                if (hi >= SCALE_RATIO * lo) {
                    w.add(String.format(Locale.ROOT, "the public bounds' widths differ by a factor %s (from %s to"
                            + " %s): an L2 radius (clipped, ball) is set by the widest columns and puts noise of that"
                            + " size on every column; the box mean (--method box) scales its noise per column, or"
                            + " rescale each column to [0, 1] with these public bounds (docs/cli.md, \"Scaling"
                            + " columns\")", num(hi / lo), num(lo), num(hi)));
                }
            }
        }
        if (q.family() == Family.SECOND_MOMENT && q.rowBound().isPresent() && recommended.isPresent()
                && recommended.get().predicted().isPresent()) {
            double r = q.rowBound().getAsDouble();
            double e = recommended.get().predicted().get().expected();
            if (e >= ERROR_SHARE * r * r) {
                w.add(String.format(Locale.ROOT, "the recommended method's predicted expected spectral error, %s, is"
                        + " %s%% of R^2 = %s, the largest ||S||_2 rows within --row-bound %s can have (warned from"
                        + " %s%%): a smaller public row bound (if the rows lie within it), more rows or more budget"
                        + " lower it; columns of very different scales should be rescaled first (docs/cli.md,"
                        + " \"Scaling columns\")", num(e), pct(e / (r * r)), num(r * r), num(r), pct(ERROR_SHARE)));
            }
        }
        return w;
    }

    private static String num(double x) {
        return String.format(Locale.ROOT, "%.4g", x).replaceAll("(\\.\\d*?)0+(e|$)", "$1$2").replaceAll("\\.(e|$)",
                "$1");
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f", 100 * share);
    }
}
