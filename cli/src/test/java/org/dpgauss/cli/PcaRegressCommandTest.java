package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpgauss pca} and {@code dpgauss regress} (issue 26, items 1 and 2): the JSON fields, the target by name and
 * by index, both budget forms, and neighbouring pairs (one row replaced by an outlier at 1e300, far out of bound, or
 * moved: the same exit code and fields, and no data value in any message). Deterministic (seeded noise).
 */
class PcaRegressCommandTest {

    @TempDir
    Path dir;

    /** Rows [x1, x2, y] with y = 0.5 x1 - 0.25 x2 + 0.1 + noise; row {@code at} replaced by {@code row}. */
    private Path csv(String name, int at, String row) throws Exception {
        SplittableRandom r = new SplittableRandom(1);
        Path p = dir.resolve(name);
        try (BufferedWriter w = Files.newBufferedWriter(p)) {
            w.write("x1,x2,y\n");
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 800; i++) {
                double a = r.nextDouble() - 0.5;
                double b = r.nextDouble() - 0.5;
                double y = 0.5 * a - 0.25 * b + 0.1 + 0.05 * r.nextGaussian();
                lines.add(String.format(Locale.ROOT, "%.17g,%.17g,%.17g", a, b, y));
            }
            if (at >= 0) {
                lines.set(at, row);
            }
            for (String l : lines) {
                w.write(l + "\n");
            }
        }
        return p;
    }

    private static TreeSet<String> fields(JsonNode n, String prefix, TreeSet<String> out) {
        if (n.isObject()) {
            Iterator<String> it = n.fieldNames();
            while (it.hasNext()) {
                String k = it.next();
                out.add(prefix + k);
                fields(n.get(k), prefix + k + ".", out);
            }
        }
        return out;
    }

    private static MainTest.Run pca(Path in, String... extra) {
        List<String> a = new ArrayList<>(List.of("pca", "--input", in.toString(), "--k", "2", "--radius", "1.5",
                "--json", "--insecure-seed", "4"));
        a.addAll(List.of(extra));
        return MainTest.run(a.toArray(new String[0]));
    }

    private static MainTest.Run regress(Path in, String... extra) {
        List<String> a = new ArrayList<>(List.of("regress", "--input", in.toString(), "--feature-bound", "0.75",
                "--target-bound", "1", "--json", "--insecure-seed", "4"));
        a.addAll(List.of(extra));
        return MainTest.run(a.toArray(new String[0]));
    }

    @Test
    void pcaReleasesComponentsVariancesAccuracyAndOneGuarantee() throws Exception {
        MainTest.Run r = pca(csv("a.csv", -1, null), "--epsilon", "1");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("pca.second-moment", j.get("mechanism").asText());
        assertEquals(2, j.get("components").size());
        assertEquals(3, j.get("components").get(0).size());
        assertEquals(2, j.get("variances").size());
        assertTrue(j.get("variances").get(0).asDouble() >= j.get("variances").get(1).asDouble());
        assertTrue(j.has("mean"));
        assertTrue(j.get("accuracy").get("bound").asDouble() > 0);
        assertEquals(1.0, j.get("guarantee").get("epsilon").asDouble(), 1e-9);
        MainTest.Run rho = pca(csv("b.csv", -1, null), "--rho", "0.1", "--centre", "0,0,0.1");
        assertEquals(0, rho.code, rho.err);
        assertFalse(rho.json().has("mean"));
        assertEquals(0.1, rho.json().get("guarantee").get("rho").asDouble(), 1e-12);
        MainTest.Run auto = pca(csv("c.csv", -1, null), "--rho", "1", "--method", "auto");
        assertEquals(0, auto.code, auto.err);
        String m = auto.json().get("parameters").get("secondMomentMethod").asText();
        assertTrue(m.equals("analyze-gauss") || m.equals("coinpress"), m);
    }

    /** --method coinpress: the expected loss is computed from the released spectrum (printed), the bound a priori. */
    @Test
    void pcaCoinPressStatesItsExpectedLossFromTheRelease() throws Exception {
        MainTest.Run r = pca(csv("a.csv", -1, null), "--rho", "1", "--method", "coinpress");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals(3, j.get("spectrum").size(), j.toString());
        assertTrue(j.get("accuracy").get("expectedBasis").asText().startsWith("release: "), j.toString());
        assertTrue(j.get("accuracy").get("expected").asDouble() < j.get("accuracy").get("bound").asDouble());
        assertFalse(pca(csv("b.csv", -1, null), "--rho", "1").json().has("spectrum"), "analyze-gauss: no spectrum");
    }

    /**
     * {@code --mean-share auto} (the default): the grid's argmin of {@code 2 sqrt(d) sigma_sm + d sigma_mean^2 / 4}.
     * Golden values computed independently in numpy from the closed forms {@code sigma_sm = sqrt(2) R^2 / (n sqrt(2
     * rho (1 - s)))} (Analyze Gauss, replace-one) and {@code sigma_mean = 2C / (n sqrt(2 rho s))} (clipped mean), at
     * breast cancer's n = 569, d = 30 and (1, 1e-6)-DP's rho: a mean radius C far above R gets a larger share. With
     * weight 1 instead of 1/4 the shares would be 0.70, 0.45, 0.30; with the shares' roles swapped, 0.50, 0.70, 0.85.
     */
    @Test
    void autoMeanShareIsTheArgminOfThePublicNoiseModel() {
        assertEquals(0.50, PcaCommand.plannedMeanShare(569, 30, 1.09, 5.477, 0.024356, 1e-6), 1e-12);
        assertEquals(0.30, PcaCommand.plannedMeanShare(569, 30, 2.7386, 5.477, 0.024356, 1e-6), 1e-12);
        assertEquals(0.15, PcaCommand.plannedMeanShare(569, 30, 5.477, 5.477, 0.024356, 1e-6), 1e-12);
    }

    @Test
    void pcaMeanShareDefaultsToTheAutoShareAndTakesANumber() throws Exception {
        Path in = csv("a.csv", -1, null);
        MainTest.Run auto = pca(in, "--rho", "0.1", "--mean-radius", "20");
        assertEquals(0, auto.code, auto.err);
        double chosen = auto.json().get("parameters").get("meanShare").asDouble();
        assertEquals(PcaCommand.plannedMeanShare(800, 3, 1.5, 20, 0.1, 1e-6), chosen, 0);
        assertTrue(chosen > 0.1, "a mean radius 13 times R gets more than the old fixed 0.1: " + chosen);
        MainTest.Run fixed = pca(in, "--rho", "0.1", "--mean-radius", "20", "--mean-share", "0.1");
        assertEquals(0, fixed.code, fixed.err);
        assertEquals(0.1, fixed.json().get("parameters").get("meanShare").asDouble(), 0);
        for (String bad : new String[] {"1.5", "0", "x"}) {
            MainTest.Run r = pca(in, "--rho", "0.1", "--mean-share", bad);
            assertEquals(1, r.code, bad);
            assertTrue(r.err.contains("--mean-share"), r.err);
        }
    }

    private static MainTest.Run pcaNoRadius(Path in, String... extra) {
        List<String> a = new ArrayList<>(List.of("pca", "--input", in.toString(), "--k", "2", "--json",
                "--insecure-seed", "4"));
        a.addAll(List.of(extra));
        return MainTest.run(a.toArray(new String[0]));
    }

    /** --radius auto: R found privately below the cap, released; the cap alone means auto; misuse refused. */
    @Test
    void pcaRadiusAutoReleasesAPrivateRadiusBelowTheCap() throws Exception {
        Path in = csv("a.csv", -1, null);
        MainTest.Run r = pcaNoRadius(in, "--radius", "auto", "--radius-cap", "20", "--rho", "1");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        double radius = j.get("radius").asDouble();
        assertTrue(radius > 0.1 && radius < 20, "radius " + radius);
        assertEquals("auto", j.get("parameters").get("radius").asText());
        assertEquals(20.0, j.get("parameters").get("radiusCap").asDouble());
        assertEquals(0.1, j.get("parameters").get("radiusShare").asDouble());
        assertEquals(0.15, j.get("parameters").get("meanShare").asDouble());
        // two-stage centring: the refined centre's share and its released radius R0 >= R
        assertEquals("private-mean-two-stage", j.get("parameters").get("centring").asText());
        assertEquals(0.15, j.get("parameters").get("centreShare").asDouble());
        assertTrue(j.get("centreRadius").asDouble() >= radius, j.toString());
        assertTrue(j.get("parameters").get("secondMomentErrorPerR2").asDouble() > 0);
        MainTest.Run capOnly = pcaNoRadius(in, "--radius-cap", "20", "--rho", "1");
        assertEquals(0, capOnly.code, capOnly.err);
        assertEquals(radius, capOnly.json().get("radius").asDouble(), 0, "the cap alone is --radius auto");
        // a neighbour with a row at 1e300: the same exit code and fields
        MainTest.Run far = pcaNoRadius(csv("b.csv", 5, "1e300,1e300,1e300"), "--radius-cap", "20", "--rho", "1");
        assertEquals(0, far.code, far.err);
        assertEquals(fields(j, "", new TreeSet<>()), fields(far.json(), "", new TreeSet<>()));
        assertTrue(far.json().get("radius").asDouble() <= 20);
        for (String[] bad : new String[][] {{"--rho", "1"}, {"--radius", "auto", "--rho", "1"},
            {"--radius", "1.5", "--radius-cap", "3", "--rho", "1"},
            {"--radius", "auto", "--radius-cap", "3", "--method", "coinpress", "--rho", "1"}}) {
            MainTest.Run x = pcaNoRadius(in, bad);
            assertTrue(x.code != 0, String.join(" ", bad));
            assertTrue(x.out.isEmpty() || !x.out.contains("components"), String.join(" ", bad));
        }
    }

    @Test
    void regressTakesTheTargetByNameOrIndex() throws Exception {
        Path in = csv("a.csv", -1, null);
        MainTest.Run byName = regress(in, "--target", "y", "--rho", "1000");
        MainTest.Run byIndex = regress(in, "--target", "2", "--rho", "1000");
        assertEquals(0, byName.code, byName.err);
        assertEquals(byName.out, byIndex.out.replace("\"targetColumn\":2", "\"targetColumn\":2"));
        JsonNode j = byName.json();
        assertEquals(2, j.get("coefficients").size());
        assertEquals(0.5, j.get("coefficients").get(0).asDouble(), 0.05);
        assertEquals(-0.25, j.get("coefficients").get(1).asDouble(), 0.05);
        assertEquals(0.1, j.get("intercept").asDouble(), 0.02);
        assertTrue(j.get("accuracy").get("bound").asDouble() > 0);
        MainTest.Run through = regress(in, "--target", "y", "--rho", "1000", "--no-intercept", "--target-centre", "0.1");
        assertEquals(0, through.code, through.err);
        assertEquals(0.1, through.json().get("intercept").asDouble(), 0, "the intercept is the target centre");
        assertEquals(0.5, through.json().get("coefficients").get(0).asDouble(), 0.05);
        MainTest.Run unknown = regress(in, "--target", "z", "--rho", "1");
        assertEquals(1, unknown.code);
        assertTrue(unknown.err.contains("x1, x2, y"), unknown.err);
    }

    /**
     * Per-column --bounds (features and target, as diffprivlib's bounds_X and bounds_y) and, with no bounds at all,
     * bounds found privately and released; both recover the fit at a high budget, and the neighbouring pairs of the
     * private-bounds run give the same exit code and fields.
     */
    @Test
    void regressTakesPerColumnBoundsOrFindsThemPrivately() throws Exception {
        Path in = csv("a.csv", -1, null);
        MainTest.Run box = MainTest.run("regress", "--input", in.toString(), "--target", "y", "--bounds", "-1:1",
                "--rho", "1000", "--json", "--insecure-seed", "4");
        assertEquals(0, box.code, box.err);
        JsonNode j = box.json();
        assertEquals(0.5, j.get("coefficients").get(0).asDouble(), 0.05);
        assertEquals(Math.sqrt(2), j.get("parameters").get("featureBound").asDouble(), 1e-12);
        assertEquals(1, j.get("parameters").get("targetBound").asDouble(), 0);
        String[] auto = {"--target", "y", "--rho", "1000", "--json", "--insecure-seed", "4"};
        List<String> a = new ArrayList<>(List.of("regress", "--input", in.toString()));
        a.addAll(List.of(auto));
        MainTest.Run found = MainTest.run(a.toArray(new String[0]));
        assertEquals(0, found.code, found.err);
        JsonNode f = found.json();
        assertEquals(0.5, f.get("coefficients").get(0).asDouble(), 0.05);
        assertEquals(0.1, f.get("intercept").asDouble(), 0.02);
        assertTrue(f.has("featureBound") && f.has("targetBound") && f.has("featureCentre") && f.has("targetCentre"));
        assertEquals(0.2, f.get("parameters").get("boundsShare").asDouble(), 0);
        TreeSet<String> ff = fields(f, "", new TreeSet<>());
        for (String o : new String[] {"1e300,1e300,1e300", "0.1,0.1,-1e300"}) {
            Path n = csv("auto-n.csv", 3, o);
            List<String> b = new ArrayList<>(List.of("regress", "--input", n.toString()));
            b.addAll(List.of(auto));
            MainTest.Run r = MainTest.run(b.toArray(new String[0]));
            assertEquals(found.code, r.code, r.err);
            assertEquals(ff, fields(r.json(), "", new TreeSet<>()), o);
        }
        MainTest.Run both = MainTest.run("regress", "--input", in.toString(), "--target", "y", "--bounds", "-1:1",
                "--feature-centre", "0,0", "--rho", "1");
        assertEquals(1, both.code);
    }

    /** --method projection: the NDIS random projection, (epsilon, delta)-DP under add/remove, bounds required. */
    @Test
    void regressByRandomProjection() throws Exception {
        Path in = csv("a.csv", -1, null);
        MainTest.Run r = MainTest.run("regress", "--input", in.toString(), "--target", "y", "--bounds", "-1:1",
                "--method", "projection", "--epsilon", "20", "--json", "--insecure-seed", "4");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("regression.projection", j.get("mechanism").asText());
        assertEquals("add-remove", j.get("guarantee").get("relation").asText());
        assertTrue(j.get("parameters").get("rank").asInt() > 100);
        assertEquals(0.5, j.get("coefficients").get(0).asDouble(), 0.15);
        assertEquals(1, MainTest.run("regress", "--input", in.toString(), "--target", "y", "--method", "projection",
                "--epsilon", "1").code, "bounds are required");
        assertEquals(1, MainTest.run("regress", "--input", in.toString(), "--target", "y", "--bounds", "-1:1",
                "--method", "projection", "--rho", "1").code, "--rho is refused");
        assertEquals(1, MainTest.run("regress", "--input", in.toString(), "--target", "y", "--bounds", "-1:1",
                "--rank", "50", "--epsilon", "1").code, "--rank needs --method projection");
    }

    @Test
    void aTargetNameOnAFileWithoutHeaderNamesNoValue() throws Exception {
        Path p = dir.resolve("nohead.csv");
        Files.writeString(p, "0.123456789,0.5,0.25\n0.1,0.2,0.3\n");
        MainTest.Run r = regress(p, "--target", "y", "--rho", "1");
        assertEquals(1, r.code);
        assertFalse(r.err.contains("0.123456789"), r.err);
    }

    /** Outliers: 1e300 everywhere, the target far out of its bound, a huge feature; and the same rows moved. */
    @Test
    void neighbouringPairsGiveTheSameExitCodeAndFields() throws Exception {
        String[] outliers = {"1e300,1e300,1e300", "0.1,0.1,1e300", "-1e300,0.2,-0.3", "1.7976931348623157e308,"
                + "-1.7976931348623157e308,1e-300", "0.3,0.3,50"};
        Path base = csv("base.csv", -1, null);
        MainTest.Run p0 = pca(base, "--epsilon", "1");
        MainTest.Run r0 = regress(base, "--target", "y", "--epsilon", "1");
        TreeSet<String> pf = fields(p0.json(), "", new TreeSet<>());
        TreeSet<String> rf = fields(r0.json(), "", new TreeSet<>());
        for (int t = 0; t < outliers.length; t++) {
            Path in = csv("n" + t + ".csv", 7, outliers[t]);
            MainTest.Run p = pca(in, "--epsilon", "1");
            MainTest.Run r = regress(in, "--target", "y", "--epsilon", "1");
            assertEquals(p0.code, p.code, p.err);
            assertEquals(r0.code, r.code, r.err);
            assertEquals(pf, fields(p.json(), "", new TreeSet<>()), outliers[t]);
            assertEquals(rf, fields(r.json(), "", new TreeSet<>()), outliers[t]);
            assertFalse(p.out.contains("e+300") || p.out.contains("E300") || r.out.contains("E300"));
        }
        // the same rows, one moved to the end
        List<String> lines = new ArrayList<>(Files.readAllLines(base));
        lines.add(lines.remove(1));
        Path moved = dir.resolve("moved.csv");
        Files.write(moved, lines);
        assertEquals(r0.json().get("coefficients").get(0).asDouble(),
                regress(moved, "--target", "y", "--epsilon", "1").json().get("coefficients").get(0).asDouble(), 1e-9);
        assertEquals(p0.code, pca(moved, "--epsilon", "1").code);
    }
}
