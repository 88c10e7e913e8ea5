package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dpgauss.calibration.RandomProjectionCurve;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.RowBlockMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpgauss project} . */
class ProjectCommandTest {

    @TempDir
    Path dir;

    /** Runs the real command line (Main registers project and mechanism). */
    static MainTest.Run run(String... args) {
        return MainTest.run(args);
    }

    private Path csv(String... lines) throws Exception {
        Path p = dir.resolve("d" + lines.length + ".csv");
        Files.writeString(p, String.join("\n", lines) + "\n");
        return p;
    }

    @Test
    void projectWritesTheMatrixAndTheContractJson() throws Exception {
        Path in = csv("a,b,c", "0.1,0.2,0.3", "0.5,-0.5,0", "0,0,0.9", "0.3,0.3,0.3");
        Path out = dir.resolve("M.npy");
        Path gram = dir.resolve("S.npy");
        MainTest.Run r = run("project", "--input", in.toString(), "--rank", "5", "--epsilon", "1", "--delta", "1e-6",
                "--row-bound", "1", "--output", out.toString(), "--gram-output", gram.toString(), "--json",
                "--insecure-seed", "3");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals("projection.rp", j.get("mechanism").asText());
        JsonNode p = j.get("parameters");
        assertEquals(5, p.get("rank").asInt());
        assertEquals(3, p.get("d").asInt());
        assertEquals(RandomProjectionCurve.ridge(1, 1e-6, 5, 1 + 0x1p-40), p.get("ridge").asDouble(),
                1e-15 * p.get("ridge").asDouble());
        assertEquals("add-remove", j.get("guarantee").get("relation").asText());
        assertEquals(1.0, j.get("guarantee").get("epsilon").asDouble());
        assertFalse(j.get("guarantee").get("certified").asBoolean());
        assertTrue(j.get("insecure").asBoolean());
        assertFalse(j.has("n"), "the number of rows is not released");
        assertEquals(out.toString(), j.get("output").asText());
        assertEquals(gram.toString(), j.get("gramOutput").asText());
        RowBlockMatrix m = DataReader.read(out);
        assertEquals(3, m.rows());
        assertEquals(5, m.cols());
        // the file holds the released matrix
        JsonNode released = j.get("projection");
        assertEquals(3, released.size());
        for (int i = 0; i < 3; i++) {
            for (int c = 0; c < 5; c++) {
                assertEquals(released.get(i).get(c).asDouble(), m.get(i, c));
            }
        }
        assertEquals(3, DataReader.read(gram).cols());
        // reproducible with the same insecure seed
        MainTest.Run again = run("project", "--input", in.toString(), "--rank", "5", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", dir.resolve("M2.npy").toString(), "--insecure-seed", "3");
        assertEquals(0, again.code, again.err);
        assertEquals(m, DataReader.read(dir.resolve("M2.npy")));
        assertTrue(again.out.contains("NOT private"), again.out);
    }

    /**
     * Issue 24, item 5 (was findings 8 and 9 of issue 14): a row beyond the bound is scaled onto the ball with or
     * without --clip-rows, never an error: the neighbours D and D plus a row of norm 5e200 give the same exit code
     * and fields, at --row-bound 1 without --clip-rows (failed before issue 24: exit 1 naming "row 2"). Nothing
     * counts the clipped rows.
     */
    @Test
    void rowsAboveTheBoundAreClippedWithoutClipRows() throws Exception {
        Path a = csv("0.1,0.2", "0,0.5");
        Path b = csv("0.1,0.2", "3e200,4e200", "0,0.5");
        for (String w : new String[] {"none", "lsv", "poisson", "ptr"}) {
            java.util.List<String> rest = new java.util.ArrayList<>(java.util.List.of("--rank", "2", "--epsilon", "1",
                    "--delta", "1e-6", "--row-bound", "1", "--output", dir.resolve("M-" + w + ".npy").toString(),
                    "--wrapper", w));
            if (w.equals("poisson")) {
                rest.addAll(java.util.List.of("--q", "0.5"));
            }
            if (w.equals("ptr")) {
                rest.addAll(java.util.List.of("--ptr-noise", "10"));
            }
            MechanismCommandTest.sameOnNeighbours(new String[] {"project"}, a, b, rest.toArray(new String[0]));
        }
        Path out = dir.resolve("M.npy");
        MainTest.Run c = run("project", "--input", b.toString(), "--rank", "2", "--epsilon", "1", "--delta", "1e-6",
                "--row-bound", "1", "--output", out.toString(), "--clip-rows", "--json");
        assertEquals(0, c.code, c.err);
        assertFalse(c.out.contains("clipped"), c.out);
        assertTrue(c.json().get("parameters").get("clipRows").asBoolean());
    }

    /**
     * Finding 9 of issue 14: rows normalised to the unit ball (norm 1.0000000000000002 in floating point) pass at
     * --row-bound 1; the ridge is calibrated for l(1 + 2^-40), which the release states.
     */
    @Test
    void rowsNormalisedToTheUnitBallAreAccepted() throws Exception {
        double[][] rows = {{0.6, 0.8, 0}, {1, 1, 1}, {0.3, -0.2, 0.9}, {1e-3, 7, -2}};
        StringBuilder sb = new StringBuilder();
        for (double[] x : rows) {
            double n = Math.sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            double[] y = {x[0] / n, x[1] / n, x[2] / n};
            sb.append(y[0]).append(',').append(y[1]).append(',').append(y[2]).append('\n');
        }
        sb.append(Math.nextUp(1.0)).append(",0,0\n"); // norm 1.0000000000000002
        Path in = dir.resolve("unit.csv");
        Files.writeString(in, sb.toString());
        for (String w : new String[] {"none", "lsv", "poisson", "ptr"}) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("project", "--input",
                    in.toString(), "--rank", "4", "--epsilon", "1", "--delta", "1e-6", "--row-bound", "1", "--output",
                    dir.resolve("M.npy").toString(), "--wrapper", w, "--json"));
            if (w.equals("poisson")) {
                args.addAll(java.util.List.of("--q", "0.5"));
            }
            if (w.equals("ptr")) {
                args.addAll(java.util.List.of("--ptr-noise", "10"));
            }
            MainTest.Run r = run(args.toArray(new String[0]));
            assertEquals(0, r.code, w + ": " + r.err);
            JsonNode p = r.json().get("parameters");
            assertEquals(0x1p-40, p.get("rowBoundSlack").asDouble());
            assertTrue(p.get("effectiveRowBound").asDouble() >= 1 + 0x1p-40);
        }
        // beyond the slack: clipped onto the ball (issue 24), not an error
        Path far = csv("0.1,0", "1.00001,0");
        MainTest.Run r = run("project", "--input", far.toString(), "--rank", "2", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", dir.resolve("M.npy").toString());
        assertEquals(0, r.code, r.err);
    }

    /**
     * Finding 1 and 6 of issue 14, the neighbouring pair: D and D plus one row of norm 5 with --row-bound 1
     * --clip-rows. Both pass, give the same set of JSON fields, and every field but the released matrix and the
     * command's file paths is identical: no count of clipped rows, no timing (which differs from run to run and
     * grows with n) can distinguish them.
     */
    @Test
    void neighbouringPairWithAClippedRowIsIndistinguishableInPublicFields() throws Exception {
        Path d = csv("0.1,0.2", "0.6,0.1", "0,0.5");
        Path dPlus = csv("0.1,0.2", "0.6,0.1", "0,0.5", "3,4");
        for (String w : new String[] {"none", "lsv", "poisson", "ptr"}) {
            JsonNode[] j = new JsonNode[2];
            String[] text = new String[2];
            Path[] inputs = {d, dPlus};
            for (int k = 0; k < 2; k++) {
                java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("project", "--input",
                        inputs[k].toString(), "--rank", "3", "--epsilon", "1", "--delta", "1e-6", "--row-bound", "1",
                        "--clip-rows", "--output", dir.resolve("M.npy").toString(), "--wrapper", w));
                if (w.equals("poisson")) {
                    args.addAll(java.util.List.of("--q", "0.5"));
                }
                if (w.equals("ptr")) {
                    args.addAll(java.util.List.of("--ptr-noise", "10"));
                }
                MainTest.Run t = run(args.toArray(new String[0]));
                assertEquals(0, t.code, w + ": " + t.err);
                text[k] = t.out;
                args.add("--json");
                MainTest.Run r = run(args.toArray(new String[0]));
                assertEquals(0, r.code, w + ": " + r.err);
                j[k] = r.json();
            }
            assertEquals(fieldNames(j[0]), fieldNames(j[1]), w);
            for (String f : fieldNames(j[0])) {
                boolean ridgeIsReleased = f.equals("ridge") && j[0].has("parameters")
                        && !j[0].get("parameters").has("ridge");
                if (f.equals("projection") || f.equals("lambdaLowerBound") || ridgeIsReleased || f.equals("input")) {
                    continue; // noised released values, and the input path
                }
                assertEquals(j[0].get(f), j[1].get(f), w + ": public field " + f + " differs between neighbours");
            }
            assertFalse(containsKey(j[0], "seconds") || containsKey(j[1], "seconds"), "no timing in a release");
            for (String t : text) {
                assertFalse(t.contains("clipped") || t.contains("scaled onto") || t.contains("seconds"), t);
            }
        }
    }

    /** Finding 6 of issue 14: no timing in the released JSON, nor in the text output. */
    @Test
    void releaseHasNoTiming() throws Exception {
        Path in = csv("0.1,0.2", "0.6,0.1", "0,0.5");
        MainTest.Run r = run("project", "--input", in.toString(), "--rank", "3", "--epsilon", "1", "--delta", "1e-6",
                "--row-bound", "1", "--output", dir.resolve("M.npy").toString(), "--json");
        assertEquals(0, r.code, r.err);
        assertFalse(containsKey(r.json(), "seconds"), r.out);
        MainTest.Run t = run("project", "--input", in.toString(), "--rank", "3", "--epsilon", "1", "--delta", "1e-6",
                "--row-bound", "1", "--output", dir.resolve("M.npy").toString());
        assertEquals(0, t.code, t.err);
        assertFalse(t.out.contains("seconds") || t.out.matches("(?s).*\\d s\\b.*"), t.out);
    }

    private static java.util.Set<String> fieldNames(JsonNode j) {
        java.util.Set<String> s = new java.util.LinkedHashSet<>();
        j.fieldNames().forEachRemaining(s::add);
        return s;
    }

    private static boolean containsKey(JsonNode j, String key) {
        if (j.isObject()) {
            java.util.Iterator<Map.Entry<String, JsonNode>> it = j.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().equals(key) || containsKey(e.getValue(), key)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Every JSON key the command prints is lower camelCase (the contract's one naming rule). */
    @Test
    void jsonKeysAreCamelCase() throws Exception {
        Path in = csv("0.1,0.2", "0.6,0.1", "0,0.5", "0.2,0.2");
        MainTest.Run t = run("project", "--input", in.toString(), "--rank", "10", "--epsilon", "1", "--delta", "1e-6",
                "--row-bound", "1", "--output", dir.resolve("M.npy").toString(), "--gram-output",
                dir.resolve("S.npy").toString(), "--wrapper", "ptr", "--ptr-noise", "10", "--json");
        assertEquals(0, t.code, t.err);
        assertCamel(t.json());
    }

    private static void assertCamel(JsonNode j) {
        if (j.isObject()) {
            java.util.Iterator<Map.Entry<String, JsonNode>> it = j.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                assertTrue(e.getKey().matches("[a-z][a-zA-Z0-9]*"), e.getKey());
                assertCamel(e.getValue());
            }
        }
    }

    @Test
    void wrappers() throws Exception {
        Path in = csv("0.1,0.2", "0.6,0.1", "0,0.5", "0.2,0.2");
        Path out = dir.resolve("M.npy");
        MainTest.Run p = run("project", "--input", in.toString(), "--rank", "100", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "poisson", "--q", "0.1", "--json");
        assertEquals(0, p.code, p.err);
        assertEquals("projection.poisson", p.json().get("mechanism").asText());
        assertEquals(12.691, p.json().get("parameters").get("ridge").asDouble(), 1e-3);
        assertEquals(2.90048, p.json().get("parameters").get("epsilon0").asDouble(), 1e-5);
        assertEquals(0.1, p.json().get("parameters").get("samplingRate").asDouble());
        MainTest.Run t = run("project", "--input", in.toString(), "--rank", "100", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "ptr", "--ptr-noise", "10",
                "--json");
        assertEquals(0, t.code, t.err);
        assertEquals("projection.ptr", t.json().get("mechanism").asText());
        assertEquals(0.42145, t.json().get("parameters").get("epsilonT").asDouble(), 1e-4);
        assertEquals(1e-6, t.json().get("guarantee").get("delta").asDouble(), 1e-18);
        assertEquals(1.0, t.json().get("guarantee").get("epsilon").asDouble());
        assertTrue(t.json().get("guarantee").get("conversion").asText().startsWith("basic composition"));
        assertTrue(t.json().has("ridge") && t.json().has("lambdaLowerBound"), t.out);
        MainTest.Run l = run("project", "--input", in.toString(), "--rank", "100", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "lsv", "--json");
        assertEquals("projection.lsv", l.json().get("mechanism").asText());
        assertEquals(281.37, l.json().get("parameters").get("ridge").asDouble(), 0.01);

        MainTest.Run bad = run("project", "--input", in.toString(), "--rank", "10", "--epsilon", "1", "--delta",
                "1e-3", "--row-bound", "1", "--output", out.toString(), "--wrapper", "poisson", "--q", "1e-4");
        assertEquals(1, bad.code);
        assertTrue(bad.err.contains("q=1.0E-4"), bad.err);
        MainTest.Run noNoise = run("project", "--input", in.toString(), "--rank", "10", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "ptr");
        assertTrue(noNoise.err.contains("--ptr-noise"), noNoise.err);
        MainTest.Run tooSmall = run("project", "--input", in.toString(), "--rank", "10", "--epsilon", "1",
                "--delta", "1e-6", "--row-bound", "1", "--output", out.toString(), "--wrapper", "ptr",
                "--ptr-noise", "1");
        assertEquals(1, tooSmall.code);
        assertTrue(tooSmall.err.contains("eps_T="), tooSmall.err);
        MainTest.Run stray = run("project", "--input", in.toString(), "--rank", "10", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--q", "0.5");
        assertTrue(stray.err.contains("--q applies only"), stray.err);
    }

    @Test
    void helpStatesGuaranteeAndNeighbours() {
        MainTest.Run h = run("project", "--help");
        assertEquals(0, h.code);
        assertTrue(h.out.contains("add/remove"));
        assertTrue(h.out.contains("(epsilon, delta)-DP"));
    }

    @Test
    void demoProjectionReport() {
        Map<String, Object> rep = DemoProjection.report(org.dpgauss.engine.CpuEngine.instance(),
                org.dpgauss.privacy.RandomSource.insecureSeeded(1), 2000, 5);
        assertEquals("PASS", rep.get("status"));
        double err = (Double) rep.get("relative_gram_error");
        assertTrue(err > 0 && err < 1, "relative error " + err);
        assertTrue(rep.containsKey("guarantee"));
    }

    /** Issue 15: the accuracy statement, absolute with --max-rows; a too-small --ptr-noise names what suffices. */
    @Test
    void statesItsAccuracyAndNamesTheTestNoiseThatSuffices() throws Exception {
        Path in = csv("0.1,0.2", "0.6,0.1", "0,0.5");
        Path out = dir.resolve("M.npy");
        MainTest.Run r = run("project", "--input", in.toString(), "--rank", "4", "--epsilon", "1", "--delta", "1e-6",
                "--row-bound", "1", "--max-rows", "10", "--output", out.toString(), "--json");
        assertEquals(0, r.code, r.err);
        assertEquals("spectral error of the Gram estimate (units of the data's squared norms)",
                r.json().get("accuracy").get("metric").asText());
        assertEquals(10, r.json().get("parameters").get("maxRows").asLong());
        assertTrue(r.json().get("accuracy").get("bound").asDouble() >= r.json().get("accuracy").get("expected")
                .asDouble());
        MainTest.Run rel = run("project", "--input", in.toString(), "--rank", "4", "--epsilon", "1", "--delta",
                "1e-6", "--row-bound", "1", "--output", out.toString(), "--json");
        assertEquals("spectral error of the Gram estimate relative to ||D^T D|| + lambda",
                rel.json().get("accuracy").get("metric").asText());
        MainTest.Run p = run("project", "--input", in.toString(), "--rank", "4", "--epsilon", "0.5", "--delta",
                "1e-6", "--row-bound", "1", "--wrapper", "ptr", "--ptr-noise", "1", "--output", out.toString());
        assertEquals(1, p.code);
        assertTrue(p.err.matches("(?s).*sT >= [0-9.]+ would suffice.*"), p.err);
    }
}
