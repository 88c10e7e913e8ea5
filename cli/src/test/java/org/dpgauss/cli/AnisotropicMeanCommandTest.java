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

/** {@code mean --method anisotropic|folklore}: contract JSON, FAIL releases nothing else, clear errors. */
class AnisotropicMeanCommandTest {

    private static Path data(Path dir, int n, int d, long seed) throws Exception {
        Random rnd = new Random(seed);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                sb.append(j == 0 ? "" : ",").append(5 + rnd.nextGaussian() / (j + 1));
            }
            sb.append('\n');
        }
        Path p = dir.resolve("x" + n + ".csv");
        Files.writeString(p, sb.toString());
        return p;
    }

    private static String variances(int d) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < d; j++) {
            sb.append(j == 0 ? "" : ",").append(1.0 / ((j + 1) * (j + 1)));
        }
        return sb.toString();
    }

    static java.util.Set<String> keys(JsonNode j) {
        java.util.Set<String> k = new java.util.TreeSet<>();
        j.fieldNames().forEachRemaining(k::add);
        return k;
    }

    @Test
    void anisotropicReleasesWithItsGuarantee(@TempDir Path dir) throws Exception {
        Path x = data(dir, 3000, 5, 1);
        MainTest.Run r = MainTest.run("--insecure-seed", "7", "mean", "--input", x.toString(), "--method",
                "anisotropic", "--variances", variances(5), "--epsilon", "2", "--delta", "1e-6", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals("mean.anisotropic", j.get("mechanism").asText());
        assertFalse(j.has("method"), "the contract's keys only");
        assertEquals(5, j.get("mean").size());
        assertEquals("replace-one", j.get("guarantee").get("relation").asText(), r.out);
        assertTrue(j.get("insecure").asBoolean());
        assertFalse(j.get("guarantee").get("certified").asBoolean(), "--insecure-seed is never certified");
        assertEquals(2, j.get("parameters").get("epsilon").asDouble());
        assertTrue(j.get("parameters").has("lambda"));
    }

    @Test
    void failPrintsNothingElse(@TempDir Path dir) throws Exception {
        // 20 rows are far below log(1/delta)/epsilon: the noisy count fails (spec §3, Algorithm 1)
        Path x = data(dir, 20, 3, 2);
        MainTest.Run r = MainTest.run("--insecure-seed", "7", "mean", "--input", x.toString(), "--method", "folklore",
                "--variances", variances(3), "--epsilon", "1", "--delta", "1e-6", "--json");
        assertEquals(Main.EXIT_FAIL, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("FAIL", j.get("status").asText());
        assertEquals("mean.folklore", j.get("mechanism").asText());
        assertFalse(j.has("mean"), r.out);
        assertTrue(j.get("failMeaning").asText().contains("more rows"), r.out);
        assertEquals(java.util.Set.of("status", "mechanism", "parameters", "guarantee", "failMeaning", "insecure",
                "randomness", "input"), keys(j), r.out);
    }

    @Test
    void parametersAreCheckedWithClearMessages(@TempDir Path dir) throws Exception {
        Path x = data(dir, 50, 3, 3);
        MainTest.Run none = MainTest.run("mean", "--input", x.toString(), "--method", "folklore", "--epsilon", "1");
        assertEquals(1, none.code);
        assertTrue(none.err.contains("--covariance"), none.err);
        // without a proxy, anisotropic runs Algorithm 2, whose public sample-size check refuses 50 rows up front
        MainTest.Run unknown = MainTest.run("mean", "--input", x.toString(), "--method", "anisotropic", "--epsilon",
                "1", "--json");
        assertEquals(1, unknown.code);
        assertTrue(unknown.err.contains("insufficient samples"), unknown.err);
        // finding 8: the message names the N that would suffice (a function of public parameters only)
        assertTrue(unknown.err.matches("(?s).*N >= \\d+ rows are needed.*"), unknown.err);
        assertEquals("", unknown.out.strip());
        MainTest.Run wrongD = MainTest.run("mean", "--input", x.toString(), "--method", "anisotropic", "--variances",
                "1,1", "--epsilon", "1");
        assertEquals(1, wrongD.code);
        assertTrue(wrongD.err.contains("columns"), wrongD.err);
        // --rho is the same budget as --epsilon, converted by the one conversion (issue 29)
        MainTest.Run rho = MainTest.run("--insecure-seed", "1", "mean", "--input", x.toString(), "--method",
                "folklore", "--variances", "1,1,1", "--rho", "0.5", "--json");
        assertTrue(rho.code == 0 || rho.code == Main.EXIT_FAIL, rho.err);
        assertEquals(org.dpgauss.privacy.ConversionPolicy.toApproxDp(org.dpgauss.privacy.Zcdp.of(0.5), 1e-6)
                .epsilon(), rho.json().get("guarantee").get("epsilon").asDouble(), 0.0, rho.out);
        MainTest.Run clip = MainTest.run("mean", "--input", x.toString(), "--epsilon", "1");
        assertEquals(1, clip.code);
        assertTrue(clip.err.contains("--clip"), clip.err);
    }
}
