package org.dpgauss.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleasedValue;

/**
 * Warnings after a clipped mean ({@code mean --clip C|auto}, issue 29) that its radius is large against the accuracy
 * it gives. They are computed from the release only (the released mean, radius and noise scale, the public centre, n,
 * d and the budget), so they are post-processing: on two neighbouring datasets they differ only through the released
 * values, never through a count or value the release does not publish.
 *
 * <ul>
 * <li>The stated expected error is at least {@link #ERROR_SHARE} of the radius: a function of n, d and the budget
 * only (the share does not depend on the radius).</li>
 * <li>Coordinates of the released mean within {@link #NOISE_MULTIPLE} noise standard deviations of the centre: there
 * the noise is as large as the released value itself. One L2 radius is set by the widest columns and puts the same
 * noise on every coordinate, so such coordinates are the sign of columns of very different scales (or of a centre
 * near the mean in that column). Nothing but the released mean can show this: the columns' scales are not public.</li>
 * </ul>
 */
final class RadiusAdvice {

    /** A stated expected error at least this share of the radius is warned of (the planner's threshold too). */
    static final double ERROR_SHARE = 0.1;
    /**
     * The words of the one warning computed from released values (the coordinates near the centre): on two
     * neighbouring datasets it differs only as the released means do; every other warning is a function of the
     * a-priori statement and is identical on neighbours.
     */
    static final String FROM_RELEASED_VALUES = "released coordinates lie within";
    /** A released coordinate within this many noise standard deviations of the centre counts as buried. */
    static final double NOISE_MULTIPLE = 2;

    private RadiusAdvice() {
    }

    /**
     * @param r a release of {@code mean.clipped} or {@code mean.clipped-auto}
     * @return its warnings, possibly empty (none for a FAIL, which releases nothing)
     */
    static List<String> forClippedMean(PrivateRelease r) {
        List<String> w = new ArrayList<>();
        if (!r.isPass() || r.accuracy().isEmpty()) {
            return w;
        }
        Map<String, Object> p = r.parameters().toMap();
        double radius = number(r, p, "clipRadius");
        double sigma = number(r, p, "noiseSigma");
        double[] mean = r.vector("mean");
        double[] centre = vector(p.get("centre"), mean.length);
        boolean relative = r.mechanism().endsWith("-auto"); // the auto mean states its error in units of the radius
        double share = relative ? r.accuracy().get().expected() : r.accuracy().get().expected() / radius;
        if (share >= ERROR_SHARE) {
            // the words depend on public values only (the auto mean's share is a function of n, d and the budget;
            // its released radius is left out), so this warning is the same on neighbouring datasets
            String radiusText = relative ? "the released clipRadius; warned from " + pct(ERROR_SHARE) + "%): a mean"
                    + " closer than " + pct(share) + "% of that radius"
                    : "--clip " + ReleasePrinter.fmt(radius) + "; warned from " + pct(ERROR_SHARE) + "%): a mean"
                    + " closer than about " + ReleasePrinter.fmt(share * radius) + " (L2)";
            w.add(String.format(Locale.ROOT, "the stated expected error is %s%% of the radius (%s to the centre is"
                    + " buried in the noise. Fewer columns, more rows or more budget lower the share; if the columns"
                    + " have very different scales, rescale them first with public bounds (docs/cli.md, \"Scaling"
                    + " columns\")", pct(share), radiusText));
        }
        int buried = 0;
        for (int j = 0; j < mean.length; j++) {
            if (Math.abs(mean[j] - centre[j]) < NOISE_MULTIPLE * sigma) {
                buried++;
            }
        }
        if (buried > 0) {
            w.add(String.format(Locale.ROOT, "%d of the %d " + FROM_RELEASED_VALUES + " %s noise standard"
                    + " deviations (noiseSigma %s) of the centre: there the noise is as large as the value (the"
                    + " column's mean lies near the centre, or its scale is small against the radius). One L2"
                    + " radius (%s) is set by the widest columns and puts this noise on every column; if the columns"
                    + " have very different scales, rescale them to comparable ranges with public bounds, or use"
                    + " mean --bounds (docs/cli.md, \"Scaling columns\")", buried, mean.length,
                    ReleasePrinter.fmt(NOISE_MULTIPLE), ReleasePrinter.fmt(sigma), ReleasePrinter.fmt(radius)));
        }
        return w;
    }

    /**
     * The warning of a release that states its error in units of the square of a public radius ({@code R^2} of
     * second-moment, covariance and pca, {@code B_Y^2} of regress): the stated expected error is at least
     * {@link #ERROR_SHARE} of it. A function of the a-priori statement (n, d, the radius and the budget) only.
     *
     * @param r a release
     * @return empty when the release states no such unit (no warnings field then); else its warnings, possibly empty
     */
    static java.util.Optional<List<String>> forRadiusUnits(PrivateRelease r) {
        if (r.accuracy().isEmpty()) {
            return java.util.Optional.empty();
        }
        org.dpgauss.release.Accuracy a = r.accuracy().get();
        for (org.dpgauss.release.Accuracy.Unit u : a.units()) {
            if (!(u.name().startsWith("R^2") || u.name().startsWith("B_Y^2"))) {
                continue;
            }
            List<String> w = new ArrayList<>();
            double share = a.expected() / u.value();
            if (r.isPass() && share >= ERROR_SHARE) {
                // pca with a public radius: the private search below it is one option away (a public fact: the
                // release's own parameters say whether the radius was searched)
                boolean pcaPublicRadius = r.mechanism().startsWith("pca.")
                        && !r.parameters().toMap().containsKey("radiusCap") && !r.values().containsKey("radius");
                w.add(String.format(Locale.ROOT, "the stated expected error is %s%% of %s (warned from %s%%): a"
                        + " smaller public radius (if the rows lie within it), more rows or more budget lower it;"
                        + "%s if the columns have very different scales, rescale them first with public bounds"
                        + " (docs/cli.md, \"Scaling columns\")", pct(share), u.name(), pct(ERROR_SHARE),
                        pcaPublicRadius ? " --radius auto --radius-cap R finds a smaller radius privately below R"
                                + " (docs/cli.md, pca, \"Choosing --radius\");" : ""));
            }
            return java.util.Optional.of(w);
        }
        return java.util.Optional.empty();
    }

    /**
     * Prints each warning to standard error, {@code dpgauss: warning: ...}, in text and JSON mode alike.
     *
     * @param main the command line
     * @param warnings the warnings
     */
    static void printWarnings(Main main, List<String> warnings) {
        PrintWriter err = main.spec.commandLine().getErr();
        for (String s : warnings) {
            err.println("dpgauss: warning: " + s);
        }
        err.flush();
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f", 100 * share);
    }

    private static double number(PrivateRelease r, Map<String, Object> p, String name) {
        ReleasedValue v = r.values().get(name);
        if (v != null) {
            return v.asScalar();
        }
        Object o = p.get(name);
        if (o instanceof Number) {
            return ((Number) o).doubleValue();
        }
        throw new IllegalStateException("the clipped mean's release has no " + name);
    }

    private static double[] vector(Object o, int d) {
        if (o instanceof double[]) {
            return (double[]) o;
        }
        if (o instanceof List) {
            List<?> l = (List<?>) o;
            double[] c = new double[l.size()];
            for (int i = 0; i < c.length; i++) {
                c[i] = ((Number) l.get(i)).doubleValue();
            }
            return c;
        }
        return new double[d]; // no centre stated: the origin
    }
}
