package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command-line contract: JSON shapes, exit codes and error messages. */
class MainTest {

    /** Exit code, stdout and stderr of one invocation. */
    static final class Run {
        final int code;
        final String out;
        final String err;

        Run(int code, String out, String err) {
            this.code = code;
            this.out = out;
            this.err = err;
        }

        JsonNode json() throws Exception {
            return Json.MAPPER.readTree(out);
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void benchGramPrintsTheContractJson() throws Exception {
        Run r = run("bench", "gram", "--n", "300", "--d", "7", "--repeat", "3", "--engine", "cpu", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("gram", j.get("op").asText());
        assertEquals(300, j.get("n").asInt());
        assertEquals(7, j.get("d").asInt());
        // --engine cpu: the native OpenBLAS engine where its natives load, EJML otherwise
        assertEquals(org.dpgauss.engine.ComputeEngines.openBlasUnavailableReason() == null ? "cpu-openblas" : "cpu-ejml",
                j.get("engine").asText());
        assertEquals(3, j.get("seconds").size());
        double median = j.get("median_seconds").asDouble();
        assertTrue(median > 0);
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (JsonNode s : j.get("seconds")) {
            lo = Math.min(lo, s.asDouble());
            hi = Math.max(hi, s.asDouble());
        }
        assertTrue(lo <= median && median <= hi, "median within the samples");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gram", "cholesky", "mahalanobis", "whiten", "distances", "neighbours", "projection",
        "eigen", "peel"})
    void everyBenchOpRuns(String op) throws Exception {
        Run r = run("--json", "bench", op, "--n", "150", "--d", "4", "--repeat", "1", "--warmup", "0");
        assertEquals(0, r.code, r.err);
        assertEquals(op, r.json().get("op").asText());
        assertEquals(org.dpgauss.engine.ComputeEngines.gpuUnavailableReason() == null ? "gpu"
                : org.dpgauss.engine.ComputeEngines.openBlasUnavailableReason() == null ? "cpu-openblas" : "cpu-ejml",
                r.json().get("engine").asText(),
                "auto uses the GPU where one is usable and falls back to the CPU otherwise");
    }

    @Test
    void benchErrorsAreClearWithNonZeroExit() {
        Run unknown = run("bench", "foo", "--n", "10", "--d", "2");
        assertEquals(Main.EXIT_ERROR, unknown.code);
        assertTrue(unknown.err.contains("unknown OP 'foo'"), unknown.err);

        Run missing = run("bench", "gram", "--n", "10");
        assertEquals(Main.EXIT_USAGE, missing.code);
        assertTrue(missing.err.contains("--d"), missing.err);

        Run badN = run("bench", "gram", "--n", "0", "--d", "2");
        assertEquals(Main.EXIT_ERROR, badN.code);
        assertTrue(badN.err.contains("--n=0"), badN.err);

        Run badRef = run("bench", "distances", "--n", "10", "--d", "2", "--ref", "11");
        assertEquals(Main.EXIT_ERROR, badRef.code);
        assertTrue(badRef.err.contains("--ref=11"), badRef.err);

        Run badEngine = run("bench", "gram", "--n", "10", "--d", "2", "--engine", "tpu");
        assertEquals(Main.EXIT_USAGE, badEngine.code);
        assertTrue(badEngine.err.contains("tpu"), badEngine.err);

        Run notANumber = run("bench", "gram", "--n", "ten", "--d", "2");
        assertEquals(Main.EXIT_USAGE, notANumber.code);
    }

    @Test
    void gpuEngineRequestSaysWhyItCannotRun() {
        Run r = run("bench", "gram", "--n", "10", "--d", "2", "--engine", "gpu");
        // On a machine with a GPU and a GPU backend this would succeed; here it must fail with the reason.
        org.junit.jupiter.api.Assumptions.assumeTrue(r.code != 0, "a GPU engine is usable here");
        assertEquals(Main.EXIT_ERROR, r.code);
        assertTrue(r.err.contains("--engine gpu") && r.err.contains("--engine cpu"), r.err);
    }

    @Test
    void demoReportsEveryMechanismWithItsGuarantee() throws Exception {
        Run r = run("demo", "--n", "2000", "--d", "3", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertFalse(j.get("insecure").asBoolean(), "default randomness is SecureRandom");
        assertEquals(2000, j.get("data").get("n").asInt());
        JsonNode mech = j.get("mechanisms").get(0);
        assertEquals("PASS", mech.get("status").asText());
        assertEquals("replace-one", mech.get("guarantee").get("relation").asText());
        assertEquals("zCDP", mech.get("guarantee").get("type").asText());
        // the realised error of one (secure, unseeded) release is sigma chi_3 with E = sigma 1.596: it exceeds 4 E
        // (chi^2_3 > 40.8) with probability 1e-8 and falls below E / 40 (chi^2_3 < 0.0016) with probability 2e-5
        double stated = mech.get("accuracy").get("expected").asDouble();
        double err = mech.get("error").asDouble();
        assertTrue(err < 4 * stated && err > stated / 40, err + " vs stated " + stated);
        assertEquals("POSITIVE_DEFINITE", j.get("numerics").get("cholesky").asText());
    }

    @Test
    void insecureSeedIsReproducibleAndSaysSo() throws Exception {
        Run a = run("demo", "--n", "1000", "--d", "2", "--json", "--insecure-seed", "7");
        Run b = run("--insecure-seed", "7", "--json", "demo", "--n", "1000", "--d", "2");
        assertEquals(0, a.code, a.err);
        assertEquals(0, b.code, b.err);
        assertTrue(a.json().get("insecure").asBoolean());
        assertTrue(a.json().get("randomness").asText().contains("INSECURE"));
        assertEquals(a.json().get("mechanisms").get(0).get("estimate"), b.json().get("mechanisms").get(0).get("estimate"),
                "same seed, same noise, wherever the option is placed");
        Run human = run("demo", "--n", "1000", "--d", "2", "--insecure-seed", "7");
        assertTrue(human.out.contains("NOT private"), human.out);
        // issue 29: the demo prints each mechanism's time, one line per entry that has one, on its public data
        long timed = human.out.lines().filter(l -> l.startsWith("  time:      ")).count();
        long withTime = 0;
        for (JsonNode m : a.json().get("mechanisms")) {
            withTime += m.has("seconds") ? 1 : 0;
        }
        assertTrue(withTime >= 5, a.out);
        assertEquals(withTime, timed, human.out);
        // and says when an expected value was computed from the release itself (CoinPress, issue 26 item 0)
        assertTrue(human.out.contains("(expected computed from the release"), human.out);
        for (JsonNode m : a.json().get("mechanisms")) {
            if (m.path("mechanism").asText().equals("second-moment.coinpress")) {
                assertTrue(m.get("accuracy").get("expectedBasis").asText().startsWith("release: "), m.toString());
            }
        }
    }

    @Test
    void meanReleasesFromAFileAndValidatesParametersFirst(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path csv = dir.resolve("x.csv");
        StringBuilder sb = new StringBuilder("a,b\n");
        for (int i = 0; i < 500; i++) {
            sb.append(1 + (i % 5) * 0.01).append(',').append(-2 + (i % 3) * 0.01).append('\n');
        }
        java.nio.file.Files.writeString(csv, sb.toString());
        Run ok = run("mean", "--input", csv.toString(), "--clip", "5", "--rho", "1", "--json", "--insecure-seed", "1");
        assertEquals(0, ok.code, ok.err);
        JsonNode j = ok.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals(2, j.get("mean").size());
        assertEquals(1.02, j.get("mean").get(0).asDouble(), 0.2);
        assertEquals("replace-one", j.get("guarantee").get("relation").asText());
        assertTrue(j.get("insecure").asBoolean());
        // the noise actually added is the Gaussian mechanism's for sensitivity 2C/n at rho (plus at most 2^-20
        // relative for the grid and the floating-point slack): a halved or doubled sensitivity fails here
        double ideal = 2 * 5.0 / 500 / Math.sqrt(2 * 1.0);
        double sigma = j.get("parameters").get("noiseSigma").asDouble();
        assertTrue(sigma >= ideal && sigma <= ideal * (1 + 1e-5), sigma + " vs " + ideal);
        // and the stated accuracy is the chi_2 law of that noise: expected sigma sqrt(pi/2)
        assertEquals(sigma * Math.sqrt(Math.PI / 2), j.get("accuracy").get("expected").asDouble(), 1e-12 * sigma);

        Run eps = run("mean", "--input", csv.toString(), "--clip", "5", "--epsilon", "1", "--delta", "1e-5", "--json");
        assertEquals(0, eps.code, eps.err);
        assertTrue(eps.json().get("guarantee").get("epsilon").asDouble() <= 1.0 + 1e-12);

        Run both = run("mean", "--input", csv.toString(), "--clip", "5", "--rho", "1", "--epsilon", "1");
        assertEquals(Main.EXIT_USAGE, both.code, "budget given twice");
        Run badClip = run("mean", "--input", dir.resolve("missing.csv").toString(), "--clip", "-1", "--rho", "1");
        assertEquals(Main.EXIT_ERROR, badClip.code);
        assertTrue(badClip.err.contains("clip radius"), "parameters are checked before the file: " + badClip.err);
        Run badCentre = run("mean", "--input", csv.toString(), "--clip", "5", "--rho", "1", "--centre", "0,0,0");
        assertEquals(Main.EXIT_ERROR, badCentre.code);
        assertTrue(badCentre.err.contains("--centre has 3 coordinates"), badCentre.err);
    }

    @Test
    void malformedInputFilesGiveFileLineAndColumn(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path nan = dir.resolve("nan.csv");
        java.nio.file.Files.writeString(nan, "1,2\n3,NaN\n");
        Run r = run("validate", "--input", nan.toString());
        assertEquals(Main.EXIT_ERROR, r.code);
        assertTrue(r.err.contains("nan.csv") && r.err.contains("line 2") && r.err.contains("column 2"), r.err);

        java.nio.file.Path ragged = dir.resolve("ragged.csv");
        java.nio.file.Files.writeString(ragged, "1,2\n3\n");
        Run g = run("mean", "--input", ragged.toString(), "--clip", "1", "--rho", "1");
        assertEquals(Main.EXIT_ERROR, g.code);
        assertTrue(g.err.contains("ragged.csv") && g.err.contains("line 2"), g.err);

        java.nio.file.Path empty = dir.resolve("empty.npy");
        java.nio.file.Files.write(empty, new byte[0]);
        Run e = run("validate", "--input", empty.toString());
        assertEquals(Main.EXIT_ERROR, e.code);
        assertTrue(e.err.contains("empty.npy"), e.err);

        java.nio.file.Path good = dir.resolve("good.csv");
        java.nio.file.Files.writeString(good, "x,y,z\n1,2,3\n4,5,6\n");
        Run v = run("validate", "--input", good.toString(), "--json");
        assertEquals(0, v.code, v.err);
        assertEquals(2, v.json().get("rows").asInt());
        assertEquals(3, v.json().get("cols").asInt());
    }

    /**
     * Issue 24, item 1, the repro on the command line: one row at 1e205 with --clip 1e200 moved the mean to
     * 2e203; now the row is clipped, the mean stays within the clip radius' scale, and the neighbour with that row
     * at 0 gives the same exit code and fields.
     */
    @Test
    void theClippedMeanClipsAHugeRowAtAHugeRadius(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path far = dir.resolve("far.csv");
        java.nio.file.Path near = dir.resolve("near.csv");
        StringBuilder rest = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            rest.append("0,0\n");
        }
        java.nio.file.Files.writeString(far, "1e205,0\n" + rest);
        java.nio.file.Files.writeString(near, "0,0\n" + rest);
        MechanismCommandTest.sameOnNeighbours(new String[] {"mean"}, near, far, "--method", "clipped", "--clip",
                "1e200", "--rho", "10");
        Run r = run("mean", "--input", far.toString(), "--method", "clipped", "--clip", "1e200", "--rho", "10",
                "--json");
        assertEquals(0, r.code, r.err);
        double m = r.json().get("mean").get(0).asDouble();
        double sigma = r.json().get("parameters").get("noiseSigma").asDouble();
        assertTrue(Math.abs(m) <= 1e200 / 10 + 6 * sigma, "mean " + m + ", sigma " + sigma);
    }

    /**
     * Issue 24, item 5: the releases map rows outside a public bound into their domain without a word; the
     * non-private validate command is where the data owner is told, with the row numbers, and it says it is not
     * private.
     */
    @Test
    void validateReportsRowsOutsideThePublicBoundsAndSaysItIsNotPrivate(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        java.nio.file.Path f = dir.resolve("b.csv");
        java.nio.file.Files.writeString(f, "0.1,0.2,1\n3e200,4e200,-1\n0.3,0.4,0.5\n0.6,0.8,7\n");
        Run v = run("validate", "--input", f.toString(), "--row-bound", "1", "--features", "2", "--label-bound", "1",
                "--binary-labels", "--max-rows", "3", "--json");
        assertEquals(0, v.code, v.err);
        JsonNode b = v.json().get("bounds");
        assertFalse(v.json().get("private").asBoolean());
        assertEquals(1, b.get("rowsAboveRowBound").get("count").asInt());
        assertEquals(2, b.get("rowsAboveRowBound").get("firstRows").get(0).asInt());
        assertEquals(1, b.get("labelsAboveLabelBound").get("count").asInt());
        assertEquals(4, b.get("labelsAboveLabelBound").get("firstRows").get(0).asInt());
        assertEquals(2, b.get("labelsNotPlusMinusOne").get("count").asInt());
        assertTrue(b.get("rowsBeyondMaxRows").get("exceeded").asBoolean());
        Run t = run("validate", "--input", f.toString(), "--row-bound", "1e-300");
        assertEquals(0, t.code, t.err);
        assertTrue(t.out.contains("NOT private"), t.out);
        assertTrue(t.out.contains("count=4"), "every row is above 1e-300: " + t.out);
    }

    @Test
    void noCommandIsAUsageError() {
        Run r = run();
        assertEquals(Main.EXIT_USAGE, r.code);
        assertTrue(r.err.contains("missing command"), r.err);
    }
}
