package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --plot FILE} on the command line (issue 26 item 4): the PNG is read back (size, ink, the series' colours),
 * the output is the output without {@code --plot} plus the one field {@code plot}, a plot that cannot be written is
 * refused before anything is read or released, and without {@code --plot} no class of JFreeChart is loaded.
 */
class PlotCommandsTest {

    @TempDir
    Path dir;

    /** The colours of the first two series (PlotWriter's palette, Okabe-Ito blue and vermillion). */
    private static final int FIRST = 0x0072B2;
    private static final int SECOND = 0xD55E00;

    private static MainTest.Run ok(String... args) {
        MainTest.Run r = MainTest.run(args);
        assertEquals(0, r.code, String.join(" ", args) + ": " + r.err);
        return r;
    }

    private static String[] with(String[] base, String... extra) {
        List<String> a = new ArrayList<>(List.of(base));
        a.addAll(List.of(extra));
        return a.toArray(new String[0]);
    }

    /** Runs {@code args} with and without {@code --plot}; asserts the JSON differs by the field plot only. */
    private BufferedImage plotted(String png, String... args) throws Exception {
        return plotted(png, args, new String[0]);
    }

    /** As {@link #plotted(String, String...)}, with {@code plotExtra} (options that need --plot) given with it. */
    private BufferedImage plotted(String png, String[] args, String... plotExtra) throws Exception {
        Path file = dir.resolve(png);
        JsonNode without = ok(with(args, "--json")).json();
        JsonNode withPlot = ok(with(with(args, plotExtra), "--json", "--plot", file.toString())).json();
        assertEquals(file.toString(), withPlot.get("plot").asText());
        ObjectNode stripped = ((ObjectNode) withPlot.deepCopy());
        stripped.remove("plot");
        assertEquals(without, stripped, "--plot changes nothing but the field plot");
        assertFalse(without.has("plot"));
        BufferedImage img = ImageIO.read(file.toFile());
        assertTrue(img != null, "a PNG");
        return img;
    }

    /** The image has ink (not blank) in several distinct colours, and every one of {@code colours}. */
    private static void inked(BufferedImage img, int... colours) {
        Set<Integer> distinct = new HashSet<>();
        Set<Integer> want = new HashSet<>();
        for (int c : colours) {
            want.add(c);
        }
        long nonWhite = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y) & 0xFFFFFF;
                distinct.add(rgb);
                want.remove(rgb);
                if (rgb != 0xFFFFFF) {
                    nonWhite++;
                }
            }
        }
        double share = nonWhite / (double) (img.getWidth() * img.getHeight());
        assertTrue(share > 0.01 && share < 0.6, "ink share " + share);
        assertTrue(distinct.size() >= 8, distinct.size() + " colours");
        assertTrue(want.isEmpty(), "series colours not drawn: " + want);
    }

    /** Whether a pixel is of the colour {@code rgb}, within a small anti-aliasing blend. */
    private static boolean near(int pixel, int rgb) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs(((pixel >> shift) & 0xFF) - ((rgb >> shift) & 0xFF)) > 40) {
                return false;
            }
        }
        return true;
    }

    /** The mean row of the pixels of colour {@code rgb} in columns [x0, x1) of the plot area (legend excluded). */
    private static double meanRow(BufferedImage img, int rgb, int x0, int x1) {
        double sum = 0;
        int k = 0;
        for (int y = 40; y < 530; y++) {
            for (int x = x0; x < x1; x++) {
                if (near(img.getRGB(x, y), rgb)) {
                    sum += y;
                    k++;
                }
            }
        }
        return k == 0 ? Double.NaN : sum / k;
    }

    @Test
    void planPlotsTwoPanelsOfThePlannersCurves() throws Exception {
        BufferedImage img = plotted("plan.png", "plan", "second-moment", "--n", "20000", "--d", "10", "--epsilon", "1",
                "--row-bound", "2", "--min-eigenvalue", "0.05");
        assertEquals(2 * PlotWriter.PANEL_WIDTH, img.getWidth());
        assertEquals(PlotWriter.PANEL_HEIGHT, img.getHeight());
        inked(img, FIRST, SECOND);
        // the error falls with epsilon and with n: in each panel the first curve's ink on the left sits higher
        // (smaller row) than on the right
        for (int panel = 0; panel < 2; panel++) {
            int x0 = panel * PlotWriter.PANEL_WIDTH;
            double left = meanRow(img, FIRST, x0 + 80, x0 + 300);
            double right = meanRow(img, FIRST, x0 + 600, x0 + 860);
            assertTrue(left < right, "panel " + panel + ": " + left + " vs " + right);
        }
        MainTest.Run text = ok("plan", "mean", "--n", "5000", "--d", "4", "--epsilon", "1", "--clip", "3", "--plot",
                dir.resolve("mean.png").toString());
        assertTrue(text.out.strip().endsWith("plot: " + dir.resolve("mean.png")), text.out);
    }

    /**
     * {@code plan blr --plot} draws the output planned (issue 26: the point estimate by default, the posterior sample
     * with {@code --output sample}): the value drawn at the user's epsilon is the prediction printed.
     */
    @Test
    void planBlrPlotsTheOutputPlanned() throws Exception {
        double[] atUser = new double[2];
        int i = 0;
        for (String output : new String[] {"point", "sample"}) {
            String[] plan = {"plan", "blr", "--n", "400", "--d", "5", "--epsilon", "1", "--row-bound", "1",
                "--lambda", "4", "--output", output};
            Path png = dir.resolve("blr-" + output + ".png");
            plotted(png.getFileName().toString(), plan);
            double predicted = ok(with(plan, "--json")).json().get("methods").get(0).get("predicted")
                    .get("expected").asDouble();
            JsonNode vsEps = Json.MAPPER.readTree(PlotWriter.readData(png)).get("panels").get(0).get("series")
                    .get(0);
            assertEquals("blr", vsEps.get("name").asText());
            int mid = PlotData.PLAN_GRID / 2;
            assertEquals(1.0, vsEps.get("x").get(mid).asDouble(), 0.0);
            assertEquals(predicted, vsEps.get("y").get(mid).asDouble(), 0.0);
            atUser[i++] = predicted;
        }
        assertTrue(atUser[0] < atUser[1], "the point estimate has less noise than the sample");
    }

    @Test
    void planPlotRefusals() {
        MainTest.Run r = MainTest.run("plan", "blr", "--n", "1000", "--d", "3", "--epsilon", "1", "--row-bound", "1",
                "--plot", dir.resolve("b.png").toString());
        assertEquals(Main.EXIT_ERROR, r.code);
        assertTrue(r.err.contains("--lambda"), r.err);
        r = MainTest.run("plan", "sample", "--n", "1000", "--d", "3", "--epsilon", "1", "--plot",
                dir.resolve("s.png").toString());
        assertEquals(Main.EXIT_ERROR, r.code);
        assertTrue(r.err.contains("nothing to plot"), r.err);
        assertFalse(Files.exists(dir.resolve("s.png")));
        r = MainTest.run("plan", "mean", "--n", "1000", "--d", "3", "--epsilon", "1", "--clip", "1", "--plot",
                dir.resolve("no/such/dir/p.png").toString());
        assertEquals(Main.EXIT_ERROR, r.code);
        assertTrue(r.err.contains("--plot") && r.out.isEmpty(), r.err);
    }

    @Test
    void calibratePlotsTheExactProfileBelowTheConversion() throws Exception {
        BufferedImage img = plotted("cal.png", "calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-6",
                "--sensitivity", "2");
        assertEquals(PlotWriter.PANEL_WIDTH, img.getWidth());
        inked(img, FIRST, SECOND);
        // the conversion (second colour) is an upper bound: column by column, its ink sits above (smaller rows) the
        // exact curve's
        int above = 0;
        int both = 0;
        for (int x = 80; x < 860; x++) {
            double conv = meanRow(img, SECOND, x, x + 1);
            double exact = meanRow(img, FIRST, x, x + 1);
            if (!Double.isNaN(conv) && !Double.isNaN(exact)) {
                both++;
                above += conv < exact ? 1 : 0;
            }
        }
        assertTrue(both > 100 && above > 0.9 * both, above + " of " + both);
    }

    @Test
    void ndisProfilePrintsBothCurvesAndPlotsThem() throws Exception {
        Path pair = dir.resolve("pair.json");
        Files.writeString(pair, "{\"mean1\":[0,0],\"cov1\":[[1,0],[0,1]],\"mean2\":[1,0],\"cov2\":[[1,0],[0,1]]}");
        BufferedImage img = plotted("prof.png", "ndis", "profile", "--pair", pair.toString());
        inked(img, FIRST, SECOND);
        JsonNode j = ok("ndis", "profile", "--pair", pair.toString(), "--epsilon", "0,0.5,1", "--json").json();
        assertEquals(0.5, j.get("zcdpRho").asDouble(), 1e-15);
        for (int i = 0; i < 3; i++) {
            double eps = j.get("epsilon").get(i).asDouble();
            // equal covariances, Mahalanobis distance 1: the analytic Gaussian with s = sigma = 1, exactly
            assertEquals(org.dpgauss.calibration.AnalyticGaussian.delta(eps, 1, 1), j.get("delta").get(i).asDouble(),
                    1e-9);
            assertTrue(j.get("zcdpDelta").get(i).asDouble() > j.get("delta").get(i).asDouble());
        }
        Files.writeString(pair, "{\"mean1\":[0],\"cov1\":[[1]],\"mean2\":[0],\"cov2\":[[2]]}");
        j = ok("ndis", "profile", "--pair", pair.toString(), "--json", "--plot", dir.resolve("p2.png").toString())
                .json();
        assertTrue(j.get("zcdpRho").isNull() && j.get("zcdpDelta").isNull());
        inked(ImageIO.read(dir.resolve("p2.png").toFile()), FIRST);
        assertEquals(Main.EXIT_ERROR, MainTest.run("ndis", "profile", "--pair", pair.toString(), "--epsilon",
                "1,0.5").code);
    }

    private Path csv() throws Exception {
        return csv("x.csv", null);
    }

    /** 1500 correlated rows; the first replaced by {@code first} when given (a neighbour under replace-one). */
    private Path csv(String name, String first) throws Exception {
        SplittableRandom r = new SplittableRandom(3);
        Path p = dir.resolve(name);
        try (BufferedWriter w = Files.newBufferedWriter(p)) {
            w.write("a,b,c\n");
            for (int i = 0; i < 1500; i++) {
                double g = r.nextGaussian();
                if (i == 0 && first != null) {
                    w.write(first + "\n");
                    continue;
                }
                w.write(String.format(Locale.ROOT, "%.9f,%.9f,%.9f%n", g + 0.1 * r.nextGaussian(), 0.5 * g
                        + 0.2 * r.nextGaussian(), 0.1 * r.nextGaussian()));
            }
        }
        return p;
    }

    @Test
    void pcaPlotsTheReleasedVariancesAndTheUsersNonPrivateReference() throws Exception {
        Path in = csv();
        String[] pca = {"pca", "--input", in.toString(), "--k", "3", "--radius", "4", "--epsilon", "2",
            "--insecure-seed", "9"};
        BufferedImage alone = plotted("scree.png", pca);
        inked(alone, FIRST);
        Path ref = dir.resolve("ref.txt");
        Files.writeString(ref, "1.3\n0.05\n0.01\n");
        BufferedImage both = plotted("scree2.png", pca, "--plot-reference", ref.toString());
        inked(both, FIRST, SECOND);
        // the image's data chunk: the released variances exactly, the reference named without its numbers
        JsonNode released = ok(with(pca, "--json")).json().get("variances");
        for (String png : new String[] {"scree.png", "scree2.png"}) {
            JsonNode panel = Json.MAPPER.readTree(PlotWriter.readData(dir.resolve(png))).get("panels").get(0);
            assertEquals(released, panel.get("series").get(0).get("y"));
            assertEquals(png.equals("scree.png") ? 1 : 2, panel.get("series").size());
        }
        assertFalse(PlotWriter.readData(dir.resolve("scree2.png")).contains("1.3"));
        // the second colour (the reference) only where a reference was given
        assertTrue(Double.isNaN(meanRow(alone, SECOND, 0, alone.getWidth())));

        MainTest.Run r = MainTest.run(with(pca, "--plot-reference", ref.toString()));
        assertEquals(Main.EXIT_USAGE, r.code, "--plot-reference without --plot");
        Files.writeString(ref, "1.3\n0.05x\n");
        r = MainTest.run(with(pca, "--plot", dir.resolve("s3.png").toString(), "--plot-reference", ref.toString()));
        assertEquals(Main.EXIT_ERROR, r.code);
        assertTrue(r.err.contains("entry 2") && r.out.isEmpty(), r.err);
        assertFalse(Files.exists(dir.resolve("s3.png")));
    }

    /**
     * With a ledger, {@code --plot} and {@code --plot-reference} are not part of the query: the same query with
     * another picture (or none) is a replay at no cost, drawn from the stored release.
     */
    @Test
    void aPlotIsNotPartOfTheLedgersQuery() throws Exception {
        Path in = csv();
        Path ledger = dir.resolve("l.db");
        ok("ledger", "create", "d", "--ledger", ledger.toString(), "--epsilon", "10", "--delta", "1e-6",
                "--relation", "replace-one");
        Path ref = dir.resolve("ref.txt");
        Files.writeString(ref, "1.3\n0.05\n");
        String[] pca = {"pca", "--input", in.toString(), "--k", "2", "--radius", "4", "--epsilon", "1", "--ledger",
            ledger.toString(), "--dataset", "d", "--json"};
        JsonNode first = ok(with(pca, "--plot", dir.resolve("a.png").toString())).json();
        JsonNode second = ok(with(pca, "--plot", dir.resolve("b.png").toString(), "--plot-reference",
                ref.toString())).json();
        JsonNode third = ok(pca).json();
        assertFalse(first.get("parameters").has("ledgerReplayOf"));
        assertEquals(1, second.get("parameters").get("ledgerReplayOf").asInt(), second.toString());
        assertEquals(1, third.get("parameters").get("ledgerReplayOf").asInt(), third.toString());
        assertEquals(first.get("variances"), Json.MAPPER.readTree(PlotWriter.readData(dir.resolve("b.png")))
                .get("panels").get(0).get("series").get(0).get("y"), "the replay draws the stored release");
    }

    /**
     * Neighbouring datasets (one row replaced by a far outlier) with {@code --plot}: the same exit code, the same
     * fields, the same messages, a picture on both (the plot adds no data-dependent branch).
     */
    @Test
    void pcaPlotOnNeighbouringDatasetsBehavesAlike() throws Exception {
        List<MainTest.Run> runs = new ArrayList<>();
        for (String first : new String[] {null, "1e300,-1e300,1e300"}) {
            Path in = csv(first == null ? "d.csv" : "d2.csv", first);
            Path png = dir.resolve(first == null ? "d.png" : "d2.png");
            runs.add(MainTest.run("pca", "--input", in.toString(), "--k", "2", "--radius", "4", "--epsilon", "1",
                    "--plot", png.toString(), "--json"));
            assertTrue(Files.size(png) > 1000);
        }
        assertEquals(0, runs.get(0).code, runs.get(0).err);
        assertEquals(runs.get(0).code, runs.get(1).code);
        assertEquals(runs.get(0).err, runs.get(1).err);
        List<String> f0 = new ArrayList<>();
        runs.get(0).json().fieldNames().forEachRemaining(f0::add);
        List<String> f1 = new ArrayList<>();
        runs.get(1).json().fieldNames().forEachRemaining(f1::add);
        assertEquals(f0, f1);
    }

    /**
     * Without {@code --plot} no class of JFreeChart (nor the writer) is loaded: a command's start does not pay for
     * it (checked in a fresh JVM with class-load logging; with {@code --plot} they are, the positive control).
     */
    @Test
    void jfreeChartLoadsOnlyWhenAPlotIsAskedFor() throws Exception {
        Path log = dir.resolve("classes.txt");
        Process p = LedgerProcessTest.start(List.of("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-6",
                "--json"), log, "-Xlog:class+load=info");
        assertEquals(0, p.waitFor());
        String without = Files.readString(log);
        assertTrue(without.contains("org.dpgauss.cli.CalibrateCommand"), "the log lists loaded classes");
        assertFalse(without.contains("org.jfree."), "JFreeChart loaded without --plot");
        assertFalse(without.contains("org.dpgauss.cli.PlotWriter"));
        p = LedgerProcessTest.start(List.of("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-6", "--plot",
                dir.resolve("c.png").toString()), log, "-Xlog:class+load=info");
        assertEquals(0, p.waitFor());
        assertTrue(Files.readString(log).contains("org.jfree.chart.JFreeChart"));
    }
}
