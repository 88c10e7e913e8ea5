package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Font;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.dpgauss.plan.Family;
import org.dpgauss.plan.PlanQuery;
import org.dpgauss.plan.PlannedMethod;
import org.dpgauss.plan.Planner;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.Zcdp;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.title.Title;
import org.jfree.data.xy.XYDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data behind {@code --plot} (issue 26 item 4): the series are the planner's own statements, the exact profile
 * and the engine's conversion, the released variances; and {@link PlotWriter} draws exactly those series on the
 * stated axes, every text in the bundled font. Expected values come from the planner called here directly, from the
 * analytic Gaussian profile computed here with Commons Statistics' normal law, and from {@link ConversionPolicy}.
 */
class PlotDataTest {

    @TempDir
    Path dir;

    private static PlanQuery secondMoment(int n, double eps) {
        return PlanQuery.builder(Family.SECOND_MOMENT, n, 10, ApproxDp.of(eps, 1e-6)).rowBound(2).minEigenvalue(0.05)
                .build();
    }

    private static double predicted(Planner.Plan p, String method) {
        for (PlannedMethod m : p.methods()) {
            if (m.method().equals(method)) {
                return m.applicable() && m.predicted().isPresent() ? m.predicted().get().expected() : Double.NaN;
            }
        }
        return Double.NaN;
    }

    @Test
    void planCurvesAreThePlannersOwnStatementsAgainstEpsilonAndAgainstN() {
        int n = 20000;
        double eps = 1;
        Planner.Plan atUser = Planner.plan(secondMoment(n, eps));
        List<PlotData.Chart> charts = PlotData.plan((rows, e) -> Planner.plan(secondMoment(rows, e)), atUser);
        assertEquals(2, charts.size());
        PlotData.Chart vsEps = charts.get(0);
        PlotData.Chart vsRows = charts.get(1);
        assertEquals("epsilon", vsEps.xLabel());
        assertEquals("n (rows)", vsRows.xLabel());
        assertTrue(vsEps.logX() && vsEps.logY() && vsRows.logX() && vsRows.logY());
        assertEquals(Map.of("your epsilon", eps), vsEps.markers());
        assertEquals(Map.of("your n", (double) n), vsRows.markers());
        String metric = atUser.recommended().get().predicted().get().metric();
        assertTrue(vsEps.subtitle().endsWith("error: " + metric), vsEps.subtitle());

        List<String> drawn = new ArrayList<>();
        for (PlannedMethod m : atUser.methods()) {
            if (m.applicable() && m.predicted().isPresent() && m.predicted().get().metric().equals(metric)) {
                drawn.add(m.method());
            }
        }
        assertTrue(drawn.size() >= 2, "second-moment with these facts states several methods: " + drawn);
        assertEquals(drawn, vsEps.series().stream().map(PlotData.Series::name).toList());
        assertEquals(drawn, vsRows.series().stream().map(PlotData.Series::name).toList());

        double[] epsGrid = PlotData.logGrid(eps, PlotData.PLAN_GRID);
        assertEquals(0.1, epsGrid[0], 1e-15);
        assertEquals(10, epsGrid[epsGrid.length - 1], 1e-12);
        for (PlotData.Series s : vsEps.series()) {
            double[] x = s.x();
            double[] y = s.y();
            assertTrue(x.length >= PlotData.PLAN_GRID - 4, s.name() + " has only " + x.length + " points");
            for (int i = 0; i < x.length; i++) {
                if (i % 3 == 0 || i == x.length - 1) { // a third of the points replanned here: the test stays fast
                    assertEquals(predicted(Planner.plan(secondMoment(n, x[i])), s.name()), y[i], 0.0,
                            s.name() + " at epsilon " + x[i]);
                }
                assertTrue(i == 0 || x[i] > x[i - 1]);
            }
            assertTrue(contains(x, eps), s.name() + ": the user's epsilon is a point");
        }
        for (PlotData.Series s : vsRows.series()) {
            double[] x = s.x();
            double[] y = s.y();
            for (int i = 0; i < x.length; i++) {
                assertEquals(Math.rint(x[i]), x[i]);
                if (i % 3 == 1 || i == 0) {
                    assertEquals(predicted(Planner.plan(secondMoment((int) x[i], eps)), s.name()), y[i], 0.0,
                            s.name() + " at n " + x[i]);
                }
            }
            assertTrue(contains(x, n), s.name() + ": the user's n is a point");
            assertTrue(x[x.length - 1] >= 10.0 * n * 0.99 && x[0] <= n / 10.0 * 1.01);
            // more rows, less error: the n-chart is not the epsilon-chart relabelled
            assertTrue(y[0] > y[y.length - 1], s.name());
        }
    }

    @Test
    void planWithNothingPredictedHasNoChart() {
        PlanQuery q = PlanQuery.builder(Family.SAMPLE, 1000, 4, ApproxDp.of(1, 1e-6)).build();
        assertEquals(List.of(), PlotData.plan((rows, e) -> {
            throw new AssertionError("no grid is planned when nothing is drawn");
        }, Planner.plan(q)));
    }

    @Test
    void rowGridIsDistinctIntegersAtLeastTwo() {
        int[] g = PlotData.rowGrid(5);
        assertEquals(2, g[0]);
        for (int i = 1; i < g.length; i++) {
            assertTrue(g[i] > g[i - 1]);
        }
        assertEquals(50, g[g.length - 1]);
        int[] big = PlotData.rowGrid(Integer.MAX_VALUE / 2);
        assertEquals(Integer.MAX_VALUE, big[big.length - 1]);
    }

    /** The analytic Gaussian profile (Balle and Wang 2018, Thm 8), computed here independently of the engine. */
    private static double analyticDelta(double eps, double sigma, double s) {
        NormalDistribution z = NormalDistribution.of(0, 1);
        return z.cumulativeProbability(s / (2 * sigma) - eps * sigma / s)
                - Math.exp(eps) * z.cumulativeProbability(-s / (2 * sigma) - eps * sigma / s);
    }

    @Test
    void calibrateProfileIsTheAnalyticGaussianBesideTheEnginesConversion() {
        double eps = 1;
        double delta = 1e-6;
        double s = 2;
        double sigma = org.dpgauss.calibration.AnalyticGaussian.sigma(eps, delta, s);
        PlotData.Chart c = CalibrateCommand.Gaussian.profileChart(eps, delta, s, sigma);
        assertEquals("epsilon", c.xLabel());
        assertTrue(c.logY() && !c.logX());
        assertEquals(Map.of("target epsilon", eps), c.markers());
        double rho = s * s / (2 * sigma * sigma);
        PlotData.Series exact = c.series(PlotData.EXACT).orElseThrow();
        PlotData.Series conv = c.series(PlotData.conversionName(rho)).orElseThrow();
        assertFalse(exact.dashed());
        assertTrue(conv.dashed());
        double[] x = exact.x();
        double[] y = exact.y();
        assertEquals(0, x[0]);
        assertEquals(3 * eps, x[x.length - 1], 1e-12);
        boolean sawTarget = false;
        for (int i = 0; i < x.length; i++) {
            double want = analyticDelta(x[i], sigma, s);
            if (want > 1e-13) { // where the two-term difference is not cancellation noise
                assertEquals(want, y[i], 1e-9 * want + 1e-16, "exact at " + x[i]);
            }
            if (x[i] == eps) {
                assertEquals(delta, y[i], 1e-12, "the profile passes through the target");
                sawTarget = true;
            }
        }
        assertTrue(sawTarget);
        double[] cx = conv.x();
        double[] cy = conv.y();
        assertArrayEquals(x, java.util.Arrays.copyOf(cx, x.length), "both curves on the same epsilons");
        for (int i = 0; i < cx.length; i++) {
            // the conversion's delta: the smallest delta the engine's conversion turns into epsilon <= x
            double e = ConversionPolicy.toApproxDp(Zcdp.of(rho), cy[i]).epsilon();
            assertTrue(e <= cx[i] + 1e-12 * Math.max(1, cx[i]), "converted epsilon " + e + " at " + cx[i]);
            if (cy[i] < 0.5 && cx[i] > 0) {
                assertTrue(ConversionPolicy.toApproxDp(Zcdp.of(rho), cy[i] * (1 - 1e-6)).epsilon() > cx[i],
                        "smallest such delta at " + cx[i]);
            }
            // a conversion is an upper bound of the exact profile of the same mechanism
            assertTrue(cy[i] >= analyticDelta(cx[i], sigma, s) * (1 - 1e-9), "conversion below exact at " + cx[i]);
        }
    }

    @Test
    void conversionDeltaInvertsTheEnginesConversion() {
        for (double rho : new double[] {0.01, 0.5, 3}) {
            for (double eps : new double[] {0.1, 1, 4}) {
                double d = PlotData.conversionDelta(rho, eps);
                assertTrue(d > 0 && d < 1, rho + " " + eps + " " + d);
                assertEquals(eps, ConversionPolicy.toApproxDp(Zcdp.of(rho), d).epsilon(), 1e-8 * Math.max(1, eps));
            }
        }
        assertEquals(0, PlotData.conversionDelta(0, 0.5));
    }

    @Test
    void ndisProfileRhoIsHalfTheSquaredMahalanobisDistanceAndNoneForUnequalCovariances() throws Exception {
        Path pair = dir.resolve("p.json");
        Files.writeString(pair, "{\"mean1\":[0,0],\"cov1\":[[4,0],[0,1]],\"mean2\":[2,1],\"cov2\":[[4,0],[0,1]]}");
        assertEquals(0.5 * (4.0 / 4 + 1.0 / 1), NdisCommand.Profile.pairRho(PairFile.read(pair)), 1e-15);
        Files.writeString(pair, "{\"mean1\":[0,0],\"cov1\":[[2,1],[1,2]],\"mean2\":[1,0],\"cov2\":[[2,1],[1,2]]}");
        // inverse of [[2,1],[1,2]] is [[2,-1],[-1,2]]/3: (1,0) -> 2/3
        assertEquals(0.5 * 2 / 3, NdisCommand.Profile.pairRho(PairFile.read(pair)), 1e-15);
        Files.writeString(pair, "{\"mean1\":[0,0],\"cov1\":[[1,0],[0,1]],\"mean2\":[1,0],\"cov2\":[[1,0],[0,2]]}");
        assertTrue(Double.isNaN(NdisCommand.Profile.pairRho(PairFile.read(pair))));
    }

    @Test
    void screeDrawsTheReleasedVariancesAndTheUsersReferenceLabelledNonPrivate() {
        double[] released = {3.5, 1.25, 0.5};
        PlotData.Chart c = PlotData.scree(released, null);
        assertEquals(1, c.series().size());
        assertArrayEquals(new double[] {1, 2, 3}, c.series().get(0).x());
        assertArrayEquals(released, c.series().get(0).y());
        assertEquals("component", c.xLabel());
        PlotData.Chart r = PlotData.scree(released, new double[] {4, 1, 0.25, 0.1});
        PlotData.Series ref = r.series(PlotData.REFERENCE_VARIANCES).orElseThrow();
        assertTrue(ref.name().contains("NON-PRIVATE") && ref.dashed());
        assertArrayEquals(new double[] {1, 2, 3, 4}, ref.x());
        assertArrayEquals(new double[] {4, 1, 0.25, 0.1}, ref.y());
        assertArrayEquals(released, r.series(PlotData.PRIVATE_VARIANCES).orElseThrow().y());
        assertTrue(ref.nonPrivate() && !r.series(PlotData.PRIVATE_VARIANCES).orElseThrow().nonPrivate());
    }

    /**
     * The image's data chunk holds the released and public series exactly, and names the user's non-private
     * reference without its numbers.
     */
    @Test
    void theDataChunkHoldsWhatIsDrawnButNotTheUsersNonPrivateNumbers() throws Exception {
        double[] released = {3.5, 1.25, 0.1 + 0.2};
        com.fasterxml.jackson.databind.JsonNode d = Json.MAPPER.readTree(Json.write(PlotData.describe(List.of(
                PlotData.scree(released, new double[] {4.125, 1, 0.25})))));
        com.fasterxml.jackson.databind.JsonNode panel = d.get("panels").get(0);
        assertEquals("component", panel.get("xLabel").asText());
        com.fasterxml.jackson.databind.JsonNode priv = panel.get("series").get(0);
        assertEquals(PlotData.PRIVATE_VARIANCES, priv.get("name").asText());
        for (int i = 0; i < released.length; i++) {
            assertEquals(released[i], priv.get("y").get(i).asDouble(), 0.0); // exact: Double.toString round-trips
            assertEquals(i + 1, priv.get("x").get(i).asDouble(), 0.0);
        }
        com.fasterxml.jackson.databind.JsonNode ref = panel.get("series").get(1);
        assertEquals(PlotData.REFERENCE_VARIANCES, ref.get("name").asText());
        assertTrue(ref.get("nonPrivate").asBoolean());
        assertFalse(ref.has("y") || ref.has("x"), ref.toString());
        assertFalse(d.toString().contains("4.125"), "the reference's numbers are not stored");
    }

    @Test
    void referenceFileParsesAndItsErrorsNameNoValue() throws Exception {
        Path f = dir.resolve("ref.txt");
        Files.writeString(f, "2.5\n1.0, 0.75\n  0.125\n");
        assertArrayEquals(new double[] {2.5, 1.0, 0.75, 0.125}, PlotData.readReference(f));
        Files.writeString(f, "2.5\n31.4159x\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PlotData.readReference(f));
        assertTrue(e.getMessage().contains("entry 2") && !e.getMessage().contains("31.4"), e.getMessage());
        Files.writeString(f, "2.5 NaN");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PlotData.readReference(f)).getMessage()
                .contains("entry 2"));
        Files.writeString(f, " \n");
        assertThrows(IllegalArgumentException.class, () -> PlotData.readReference(f));
    }

    /** PlotWriter draws exactly the chart's series, x on the domain axis, with the stated scales and markers. */
    @Test
    void theWriterDrawsTheSeriesAsGivenOnTheStatedAxes() {
        double[] x = {1, 2, 5};
        double[] y = {0.5, 0.01, 1e-6};
        PlotData.Chart c = new PlotData.Chart("t", "sub", "epsilon", "delta (log scale)", false, true,
                List.of(new PlotData.Series("a", x, y, false), new PlotData.Series("b", x, new double[] {1, 0.1, 0.01},
                        true)), Map.of("target epsilon", 2.0));
        JFreeChart j = PlotWriter.chart(c, PlotWriter.baseFont());
        XYPlot p = j.getXYPlot();
        assertEquals("epsilon", p.getDomainAxis().getLabel());
        assertEquals("delta (log scale)", p.getRangeAxis().getLabel());
        assertTrue(p.getDomainAxis() instanceof NumberAxis && !(p.getDomainAxis() instanceof LogAxis));
        assertTrue(p.getRangeAxis() instanceof LogAxis);
        XYDataset d = p.getDataset();
        assertEquals(2, d.getSeriesCount());
        assertEquals("a", d.getSeriesKey(0));
        for (int i = 0; i < x.length; i++) {
            assertEquals(x[i], d.getXValue(0, i));
            assertEquals(y[i], d.getYValue(0, i));
        }
        assertEquals(0.01, d.getYValue(1, 2));
        assertEquals(1, p.getDomainMarkers(org.jfree.chart.ui.Layer.FOREGROUND).size());
        assertEquals(2.0, ((org.jfree.chart.plot.ValueMarker) p.getDomainMarkers(org.jfree.chart.ui.Layer.FOREGROUND)
                .iterator().next()).getValue());
        assertTrue(p.getRenderer().getSeriesStroke(1) instanceof java.awt.BasicStroke
                && ((java.awt.BasicStroke) p.getRenderer().getSeriesStroke(1)).getDashArray() != null, "b dashed");
        assertEquals(null, ((java.awt.BasicStroke) p.getRenderer().getSeriesStroke(0)).getDashArray());
        assertTrue(p.getRangeAxis().getLowerBound() > 1e-7 / 2 && p.getRangeAxis().getUpperBound() < 2,
                "auto-ranged: " + p.getRangeAxis().getRange());
    }

    /**
     * A flat curve on a log axis (plan blr's point estimate against n: its noise does not depend on n) is drawn on a
     * factor 2 either way, not on its last digits (where every tick label read 1.28).
     */
    @Test
    void aFlatCurveOnALogAxisGetsAReadableRange() {
        double[] x = {10, 100, 1000};
        PlotData.Chart c = new PlotData.Chart("t", "", "n (rows)", "expected error (log scale)", true, true,
                List.of(new PlotData.Series("blr", x, new double[] {1.2751, 1.2751, 1.27512}, false)), Map.of());
        XYPlot p = PlotWriter.chart(c, PlotWriter.baseFont()).getXYPlot();
        assertEquals(1.2751 / 2, p.getRangeAxis().getLowerBound(), 1e-12);
        assertEquals(1.27512 * 2, p.getRangeAxis().getUpperBound(), 1e-12);
    }

    /**
     * Every text of a chart is set in the bundled font, none in a logical font (SansSerif, Dialog, ..), which needs
     * the system's fonts and fails on a machine without any (docs/cli.md "Plots").
     */
    @Test
    void everyTextIsInTheBundledFont() {
        Font base = PlotWriter.baseFont();
        assertEquals("DejaVu Sans", base.getFamily(java.util.Locale.ROOT));
        PlotData.Chart c = PlotData.scree(new double[] {2, 1}, new double[] {2.5, 1, 0.5});
        JFreeChart j = PlotWriter.chart(c, base);
        List<Font> fonts = new ArrayList<>();
        fonts.add(j.getTitle().getFont());
        for (Object t : j.getSubtitles()) {
            if (t instanceof TextTitle) {
                fonts.add(((TextTitle) t).getFont());
            } else if (t instanceof org.jfree.chart.title.LegendTitle) {
                fonts.add(((org.jfree.chart.title.LegendTitle) t).getItemFont());
            } else {
                throw new AssertionError("unexpected title " + ((Title) t).getClass());
            }
        }
        XYPlot p = j.getXYPlot();
        fonts.add(p.getDomainAxis().getLabelFont());
        fonts.add(p.getDomainAxis().getTickLabelFont());
        fonts.add(p.getRangeAxis().getLabelFont());
        fonts.add(p.getRangeAxis().getTickLabelFont());
        fonts.add(p.getNoDataMessageFont());
        fonts.add(p.getRenderer().getDefaultItemLabelFont());
        for (Font f : fonts) {
            assertEquals(base.getFontName(), f.getFontName(), "a text in " + f);
        }
    }

    /**
     * Drawing installs, before the font manager starts, a font configuration that maps every logical font to a copy
     * of the bundled font (what lets a machine without any font draw: docs/cli.md "Plots"; the no-font run itself
     * needs /usr/share/fonts hidden, which a test cannot do, and was checked by hand).
     */
    @Test
    void drawingMapsEveryLogicalFontToTheBundledFont() throws Exception {
        PlotWriter.render(List.of(PlotData.scree(new double[] {2, 1}, null)));
        String conf = System.getProperty("sun.awt.fontconfig");
        assertTrue(conf != null && Files.exists(Path.of(conf)), "sun.awt.fontconfig set to a file");
        java.util.Properties p = new java.util.Properties();
        try (java.io.InputStream in = Files.newInputStream(Path.of(conf))) {
            p.load(in);
        }
        for (String family : new String[] {"serif", "sansserif", "monospaced", "dialog", "dialoginput"}) {
            for (String style : new String[] {"plain", "bold", "italic", "bolditalic"}) {
                assertEquals("DejaVu Sans", p.getProperty(family + "." + style + ".latin-1"), family + " " + style);
            }
        }
        byte[] bundled;
        try (java.io.InputStream in = PlotWriter.class.getResourceAsStream("/org/dpgauss/cli/fonts/"
                + "DejaVuSans-subset.ttf")) {
            bundled = in.readAllBytes();
        }
        assertArrayEquals(bundled, Files.readAllBytes(Path.of(p.getProperty("filename.DejaVu_Sans"))));
    }

    private static boolean contains(double[] a, double v) {
        for (double x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }
}
