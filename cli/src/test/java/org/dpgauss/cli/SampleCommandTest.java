package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sample}, {@code mean --method bhs} and the sampling part of {@code demo}: contract JSON, FAIL, errors. */
class SampleCommandTest {

    /** n rows of N(mu, diag(1, 1/4, 1/9, ..)), mu_j = 1000 j (the sampler needs no bound on the mean). */
    private static Path data(Path dir, int n, int d, long seed) throws Exception {
        Random rnd = new Random(seed);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                sb.append(j == 0 ? "" : ",").append(1000.0 * j + rnd.nextGaussian() / (j + 1));
            }
            sb.append('\n');
        }
        Path p = dir.resolve("x" + n + "_" + seed + ".csv");
        Files.writeString(p, sb.toString());
        return p;
    }

    @Test
    void sampleWithConstantsIsLabelledUncertified(@TempDir Path dir) throws Exception {
        Path x = data(dir, 1700, 3, 1);
        MainTest.Run r = MainTest.run("--insecure-seed", "5", "sample", "--input", x.toString(), "--epsilon", "1",
                "--delta", "0.1", "--constants", "n1=500,n2=600", "--json", "--engine", "cpu");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals(3, j.get("sample").size());
        assertEquals("sample.unbounded-gaussian", j.get("mechanism").asText());
        assertFalse(j.get("guarantee").get("certified").asBoolean());
        assertEquals("replace-one", j.get("guarantee").get("relation").asText());
        assertEquals("approxDP", j.get("guarantee").get("type").asText());
        assertEquals(1.0, j.get("guarantee").get("epsilon").asDouble());
        assertEquals(0.1, j.get("guarantee").get("delta").asDouble());
        assertEquals(500, j.get("parameters").get("n1").asInt());
        assertEquals(31, j.get("parameters").get("k").asInt());
        assertTrue(j.get("insecure").asBoolean());
        // a draw of N(mu, Sigma): coordinate 2 has mean 2000 and sd 1/3 (12 sd band: probability < 1e-30 to miss)
        assertEquals(2000, j.get("sample").get(2).asDouble(), 4);
        MainTest.Run again = MainTest.run("sample", "--input", x.toString(), "--epsilon", "1", "--delta", "0.1",
                "--constants", "n1=500,n2=600", "--json", "--engine", "cpu", "--insecure-seed", "5");
        assertEquals(j.get("sample"), again.json().get("sample"), "same seed, same sample");
        MainTest.Run human = MainTest.run("--insecure-seed", "5", "sample", "--input", x.toString(), "--epsilon", "1",
                "--delta", "0.1", "--constants", "C1=30,C2=1", "--engine", "cpu");
        assertEquals(0, human.code, human.err);
        assertTrue(human.out.contains("NOT certified") && human.out.contains("NOT private"), human.out);
    }

    @Test
    void belowTheCertifiedSizeItStopsAndNamesTheNeededN(@TempDir Path dir) throws Exception {
        Path x = data(dir, 1700, 3, 2);
        MainTest.Run r = MainTest.run("sample", "--input", x.toString(), "--epsilon", "1", "--json");
        assertEquals(Main.EXIT_ERROR, r.code);
        assertTrue(r.out.isEmpty(), r.out);
        assertTrue(r.err.contains("n=1700 is below the") && r.err.contains("rows the certified constants")
                && r.err.contains("--constants"), r.err);
    }

    @Test
    void failPrintsNothingElse(@TempDir Path dir) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1700; i++) {
            sb.append("1,2,3\n"); // every pair difference is 0: Sigma^ singular, Score1 = k, FAIL with certainty
        }
        Path x = dir.resolve("const.csv");
        Files.writeString(x, sb.toString());
        MainTest.Run r = MainTest.run("sample", "--input", x.toString(), "--epsilon", "1", "--delta", "0.1",
                "--constants", "n1=500,n2=600", "--json", "--engine", "cpu");
        assertEquals(Main.EXIT_FAIL, r.code, r.err);
        assertEquals("FAIL", r.json().get("status").asText());
        assertFalse(r.json().has("sample"), r.out);
        assertTrue(r.json().get("failMeaning").asText().contains("stability test"), r.out);
        MainTest.Run m = MainTest.run("mean", "--method", "bhs", "--input", x.toString(), "--epsilon", "1",
                "--delta", "0.1", "--uncertified", "--json", "--engine", "cpu");
        assertEquals(Main.EXIT_FAIL, m.code, m.err);
        assertEquals("FAIL", m.json().get("status").asText());
        assertEquals("mean.bhs", m.json().get("mechanism").asText());
        assertFalse(m.json().has("mean"), m.out);
    }

    @Test
    void paperPtrAndKnownCovarianceAreLabelled(@TempDir Path dir) throws Exception {
        Path x = data(dir, 1700, 3, 3);
        MainTest.Run b = MainTest.run("--insecure-seed", "5", "sample", "--input", x.toString(), "--epsilon", "1",
                "--delta", "0.1", "--constants", "n1=500,n2=600", "--ptr", "bhs23-as-published", "--json");
        assertEquals(0, b.code, b.err);
        assertEquals("bhs23-as-published", b.json().get("parameters").get("ptr").asText());
        assertTrue(b.json().get("guarantee").get("notes").asText().contains("NOT differentially private"));

        Path big = data(dir, 8000, 3, 4);
        Path cov = dir.resolve("cov.csv");
        Files.writeString(cov, "1,0,0\n0,0.25,0\n0,0,0.1111111111111111\n");
        MainTest.Run k = MainTest.run("sample", "--input", big.toString(), "--epsilon", "1", "--delta", "0.1",
                "--known-covariance", cov.toString(), "--json", "--engine", "cpu");
        assertEquals(0, k.code, k.err);
        JsonNode j = k.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals("sample.known-covariance", j.get("mechanism").asText());
        assertFalse(j.get("guarantee").get("certified").asBoolean());
        assertTrue(j.get("guarantee").get("notes").asText().contains("sketch"));
        assertTrue(j.get("parameters").get("variant").asText().contains("SKETCH"));
        MainTest.Run both = MainTest.run("sample", "--input", big.toString(), "--epsilon", "1", "--delta", "0.1",
                "--known-covariance", cov.toString(), "--constants", "n1=500,n2=600");
        assertEquals(Main.EXIT_ERROR, both.code);
        assertTrue(both.err.contains("--constants does not apply"), both.err);
    }

    @Test
    void parametersAreValidatedBeforeTheFileIsRead(@TempDir Path dir) {
        String missing = dir.resolve("does-not-exist.csv").toString();
        MainTest.Run e = MainTest.run("sample", "--input", missing, "--epsilon", "2");
        assertEquals(Main.EXIT_ERROR, e.code);
        assertTrue(e.err.contains("epsilon=2.0 is outside (0, 1]"), e.err);
        MainTest.Run dl = MainTest.run("sample", "--input", missing, "--epsilon", "0.5", "--delta", "0.1");
        assertTrue(dl.err.contains("delta=0.1 is outside (0, epsilon/10"), dl.err);
        MainTest.Run c = MainTest.run("sample", "--input", missing, "--epsilon", "1", "--constants", "50,20");
        assertTrue(c.err.contains("--constants=50,20 is not understood"), c.err);
        MainTest.Run p = MainTest.run("sample", "--input", missing, "--epsilon", "1", "--ptr", "bhs");
        assertTrue(p.err.contains("--ptr=bhs is unknown"), p.err);
        // --rho 1 is converted by the one conversion: epsilon 7.77 at delta 1e-6, above the sampler's 1
        MainTest.Run rho = MainTest.run("mean", "--method", "bhs", "--input", missing, "--rho", "1");
        assertTrue(rho.err.contains("epsilon=7.766") && rho.err.contains("outside (0, 1]"), rho.err);
    }

    @Test
    void meanBhsRunsUncertifiedOnlyWhenAsked(@TempDir Path dir) throws Exception {
        Path x = data(dir, 3000, 3, 6);
        MainTest.Run no = MainTest.run("mean", "--method", "bhs", "--input", x.toString(), "--epsilon", "1",
                "--delta", "0.1", "--json");
        assertEquals(Main.EXIT_ERROR, no.code);
        assertTrue(no.err.contains("n=3000 is below the") && no.err.contains("--uncertified"), no.err);
        MainTest.Run r = MainTest.run("--insecure-seed", "3", "mean", "--method", "bhs", "--input", x.toString(),
                "--epsilon", "1", "--delta", "0.1", "--uncertified", "--json", "--engine", "cpu");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals("mean.bhs", j.get("mechanism").asText());
        assertEquals(3, j.get("mean").size());
        assertFalse(j.get("guarantee").get("certified").asBoolean());
        assertEquals("replace-one", j.get("guarantee").get("relation").asText());
        // noise N(0, c^2 Sigma^), c about 0.65 here: coordinate 1 (sd 1/2) is within 12 c sd of its mean 1000
        double c = j.get("parameters").get("noiseScale").asDouble();
        assertEquals(1000, j.get("mean").get(1).asDouble(), 12 * c * 0.5 + 0.1);
    }

    @Test
    void demoRunsTheSamplerAndTheMeanEstimatorAndSaysTheyAreUncertified() throws Exception {
        MainTest.Run r = MainTest.run("demo", "--n", "6000", "--d", "3", "--json", "--engine", "cpu",
                "--insecure-seed", "9");
        assertEquals(0, r.code, r.err);
        JsonNode mechs = r.json().get("mechanisms");
        int found = 0;
        for (JsonNode m : mechs) {
            String name = m.get("name").asText();
            if (name.contains("Gaussian sampler") || name.contains("covariance-aware mean")) {
                found++;
                assertTrue(name.contains("UNCERTIFIED"), name);
                assertEquals("PASS", m.get("status").asText(), m.toString());
                assertFalse(m.get("guarantee").get("certified").asBoolean());
                assertEquals("replace-one", m.get("guarantee").get("relation").asText());
                assertTrue(m.get("error").asDouble() < 10 * m.get("expected_error").asDouble(), m.toString());
            }
        }
        assertEquals(2, found, mechs.toString());
    }
}
