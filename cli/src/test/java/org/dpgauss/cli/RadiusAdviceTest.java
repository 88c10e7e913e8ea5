package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29: {@code mean --clip C|auto} warns, on standard error and in the JSON field {@code warnings}, when its
 * radius is large against the accuracy it gives; the warnings are computed from the release only (post-processing),
 * and {@code plan} prints the planner's warnings the same way. Fixed seeds (data and --insecure-seed): deterministic.
 */
class RadiusAdviceTest {

    @TempDir
    Path dir;

    /** Column 0 around 1000 (spread 50), the others around 1 (spread 0.1): very different scales. */
    private Path csv(String name, int n, boolean mixedScales, double[] lastRow) throws Exception {
        Random rnd = new Random(11);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < 4; j++) {
                double v = i == n - 1 && lastRow != null ? lastRow[j]
                        : j == 0 && mixedScales ? 1000 + 50 * rnd.nextGaussian() : 1 + 0.1 * rnd.nextGaussian();
                sb.append(j == 0 ? "" : ",").append(v);
            }
            lines.add(sb.toString());
        }
        Path p = dir.resolve(name);
        Files.writeString(p, String.join("\n", lines) + "\n");
        return p;
    }

    /** The coordinates within 2 noiseSigma of the centre, from the printed JSON alone. */
    private static int buriedFromJson(JsonNode j) {
        double sigma = j.has("noiseSigma") ? j.get("noiseSigma").asDouble()
                : j.get("parameters").get("noiseSigma").asDouble();
        int k = 0;
        for (int i = 0; i < j.get("mean").size(); i++) {
            if (Math.abs(j.get("mean").get(i).asDouble() - j.get("parameters").get("centre").get(i).asDouble())
                    < 2 * sigma) {
                k++;
            }
        }
        return k;
    }

    @Test
    void autoClipOnColumnsOfVeryDifferentScalesWarnsThatTheSmallColumnsAreBuried() throws Exception {
        Path x = csv("mixed.csv", 400, true, null);
        MainTest.Run r = MainTest.run("--insecure-seed", "3", "mean", "--input", x.toString(), "--clip", "auto",
                "--epsilon", "1", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        JsonNode w = j.get("warnings");
        assertEquals(1, w.size(), w.toString());
        // the three columns near 1 lie far inside the noise of the radius set by the column near 1000
        assertTrue(w.get(0).asText().startsWith("3 of the 4 released coordinates"), w.toString());
        assertEquals(3, buriedFromJson(j));
        // the same text on standard error
        assertTrue(r.err.contains("dpgauss: warning: " + w.get(0).asText()), r.err);
        // text mode: the warning on standard error only, not among the release's lines
        MainTest.Run t = MainTest.run("--insecure-seed", "3", "mean", "--input", x.toString(), "--clip", "auto",
                "--epsilon", "1");
        assertTrue(t.err.contains("dpgauss: warning: 3 of the 4"), t.err);
        assertTrue(!t.out.contains("warning"), t.out);
        // measured from the public centre: around 1000 only the large column is buried (not the three near 1)
        MainTest.Run c = MainTest.run("--insecure-seed", "3", "mean", "--input", x.toString(), "--clip", "auto",
                "--centre", "1000", "--epsilon", "1", "--json");
        assertEquals(0, c.code, c.err);
        JsonNode wc = c.json().get("warnings");
        assertTrue(wc.get(wc.size() - 1).asText().startsWith("1 of the 4 released coordinates"), wc.toString());
    }

    @Test
    void columnsOfOneScaleWithEnoughRowsGetNoWarning() throws Exception {
        Path x = csv("one-scale.csv", 4000, false, null);
        MainTest.Run r = MainTest.run("--insecure-seed", "3", "mean", "--input", x.toString(), "--clip", "4",
                "--epsilon", "1", "--json");
        assertEquals(0, r.code, r.err);
        assertEquals(0, r.json().get("warnings").size(), r.json().toString());
        assertTrue(!r.err.contains("warning"), r.err);
    }

    @Test
    void aRadiusLargeAgainstTheStatedErrorIsWarnedOfFromPublicFactsAlone() throws Exception {
        // n = 150, d = 4 at epsilon 1: the stated expected error is about 11% of any fixed radius
        Path x = csv("small.csv", 150, false, null);
        Path y = csv("small-neighbour.csv", 150, false, new double[] {1e6, -1e6, 1e6, -1e6}); // one far row
        for (Path p : new Path[] {x, y}) {
            MainTest.Run r = MainTest.run("--insecure-seed", "5", "mean", "--input", p.toString(), "--clip", "10",
                    "--epsilon", "1", "--json");
            assertEquals(0, r.code, r.err);
            JsonNode j = r.json();
            JsonNode w = j.get("warnings");
            // the share warning depends on n, d and the budget only: the same text on both neighbours
            assertTrue(w.get(0).asText().startsWith("the stated expected error is 11% of the radius (--clip 10;"),
                    w.toString());
            // the other warning, if any, counts exactly what the printed release shows (post-processing)
            int buried = buriedFromJson(j);
            assertEquals(buried == 0 ? 1 : 2, w.size(), w.toString());
            if (buried > 0) {
                assertTrue(w.get(1).asText().startsWith(buried + " of the 4 released coordinates"), w.toString());
            }
        }
    }

    @Test
    void releasesStatedInUnitsOfRSquaredWarnWhenTheErrorIsALargeShareOfIt() throws Exception {
        Path x = csv("unit.csv", 150, false, null); // 4 columns near 1: norms about 2
        // Analyze Gauss at R = 10, n = 150, epsilon 1: the stated error is a large share of R^2 = 100
        MainTest.Run big = MainTest.run("--insecure-seed", "2", "second-moment", "--input", x.toString(), "--radius",
                "10", "--epsilon", "1", "--json");
        assertEquals(0, big.code, big.err);
        JsonNode j = big.json();
        JsonNode w = j.get("warnings");
        assertEquals(1, w.size(), w.toString());
        double share = j.get("accuracy").get("expected").asDouble() / 100;
        assertTrue(share >= 0.1, "premise: " + share);
        assertTrue(w.get(0).asText().startsWith(String.format(java.util.Locale.ROOT,
                "the stated expected error is %.0f%% of R^2 = 100", 100 * share)), w.toString());
        assertTrue(big.err.contains("dpgauss: warning: the stated expected error"), big.err);
        assertTrue(!w.get(0).asText().contains("--radius auto"), "the hint is pca's: " + w);
        // pca with a public radius: the private search below it is named; with --radius auto it is not
        MainTest.Run pca = MainTest.run("--insecure-seed", "2", "pca", "--input", x.toString(), "--k", "1",
                "--radius", "10", "--epsilon", "1", "--json");
        assertEquals(0, pca.code, pca.err);
        assertTrue(pca.json().get("warnings").get(0).asText().contains("--radius auto --radius-cap R finds"),
                pca.out);
        MainTest.Run auto = MainTest.run("--insecure-seed", "2", "pca", "--input", x.toString(), "--k", "1",
                "--radius", "auto", "--radius-cap", "10", "--epsilon", "1", "--json");
        assertEquals(0, auto.code, auto.err);
        assertTrue(!auto.out.contains("--radius auto --radius-cap R finds"), auto.out);
        // a budget large enough: the field is there and empty, nothing on standard error
        MainTest.Run small = MainTest.run("--insecure-seed", "2", "second-moment", "--input", x.toString(),
                "--radius", "10", "--rho", "1000", "--json");
        assertEquals(0, small.code, small.err);
        assertEquals(0, small.json().get("warnings").size(), small.out);
        assertTrue(!small.err.contains("warning"), small.err);
        // a release with no radius in its statement has no warnings field (the box mean: per-column bounds)
        MainTest.Run box = MainTest.run("--insecure-seed", "2", "mean", "--input", x.toString(), "--bounds", "0:2",
                "--method", "box", "--epsilon", "1", "--json");
        assertEquals(0, box.code, box.err);
        assertTrue(!box.json().has("warnings"), box.out);
    }

    @Test
    void planPrintsItsWarningsOnStandardErrorAndInJson() throws Exception {
        MainTest.Run r = MainTest.run("plan", "mean", "--n", "150", "--d", "4", "--epsilon", "1", "--clip", "10",
                "--json");
        assertEquals(0, r.code, r.err);
        JsonNode w = r.json().get("warnings");
        assertEquals(1, w.size(), w.toString());
        assertTrue(r.err.contains("dpgauss: warning: " + w.get(0).asText()), r.err);
        MainTest.Run none = MainTest.run("plan", "mean", "--n", "100000", "--d", "4", "--epsilon", "1", "--clip",
                "10", "--json");
        assertEquals(0, none.json().get("warnings").size());
        assertTrue(!none.err.contains("warning"), none.err);
    }
}
