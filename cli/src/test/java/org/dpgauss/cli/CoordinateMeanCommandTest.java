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

/** {@code mean --method coordinate} (spec anisotropic-mean-estimation §10 B3): JSON contract, FAIL, errors. */
class CoordinateMeanCommandTest {

    private static Path data(Path dir, int n, int d) throws Exception {
        Random rnd = new Random(n);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                sb.append(j == 0 ? "" : ",").append(40 + rnd.nextGaussian() / (j + 1));
            }
            sb.append('\n');
        }
        Path p = dir.resolve("x" + n + ".csv");
        Files.writeString(p, sb.toString());
        return p;
    }

    @Test
    void releasesWithItsGuaranteeFromVariancesOrACovarianceFile(@TempDir Path dir) throws Exception {
        Path x = data(dir, 4000, 3);
        MainTest.Run r = MainTest.run("--insecure-seed", "3", "mean", "--input", x.toString(), "--method",
                "coordinate", "--variances", "1,0.25,0.111111", "--epsilon", "2", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals("mean.coordinate", j.get("mechanism").asText());
        assertFalse(j.get("guarantee").get("certified").asBoolean(), "--insecure-seed is never certified");
        assertEquals("replace-one", j.get("guarantee").get("relation").asText());
        assertTrue(j.get("insecure").asBoolean());
        for (int k = 0; k < 3; k++) {
            // noise sd ~0.01 here; 0.5 is > 40 sd from the true mean 40
            assertEquals(40, j.get("mean").get(k).asDouble(), 0.5, r.out);
        }
        Path cov = dir.resolve("cov.csv");
        Files.writeString(cov, "1,0,0\n0,0.25,0\n0,0,0.111111\n");
        MainTest.Run c = MainTest.run("--insecure-seed", "3", "mean", "--input", x.toString(), "--method",
                "coordinate", "--covariance", cov.toString(), "--epsilon", "2", "--json");
        assertEquals(0, c.code, c.err);
        assertEquals(r.out, c.out, "the covariance file's diagonal is the same proxy");
    }

    @Test
    void failPrintsNothingElseAndErrorsAreClear(@TempDir Path dir) throws Exception {
        // 30 rows are far below the histogram threshold (~2 ln(4d/delta)/eps_c): FAIL
        Path small = data(dir, 30, 3);
        MainTest.Run f = MainTest.run("--insecure-seed", "1", "mean", "--input", small.toString(), "--method",
                "coordinate", "--variances", "1,1,1", "--epsilon", "1", "--json");
        assertEquals(Main.EXIT_FAIL, f.code, f.err);
        assertEquals("FAIL", f.json().get("status").asText());
        assertFalse(f.json().has("mean"), f.out);
        assertTrue(f.json().get("failMeaning").asText().contains("sqrt(d)/epsilon"), f.out);
        MainTest.Run none = MainTest.run("mean", "--input", small.toString(), "--method", "coordinate", "--epsilon",
                "1");
        assertEquals(1, none.code);
        assertTrue(none.err.contains("--variances"), none.err);
        // --rho is the same budget as --epsilon, converted by the one conversion (issue 29)
        MainTest.Run rho = MainTest.run("--insecure-seed", "1", "mean", "--input", small.toString(), "--method",
                "coordinate", "--variances", "1,1,1", "--rho", "1", "--json");
        assertTrue(rho.code == 0 || rho.code == Main.EXIT_FAIL, rho.err);
        assertEquals(org.dpgauss.privacy.ConversionPolicy.toApproxDp(org.dpgauss.privacy.Zcdp.of(1), 1e-6)
                .epsilon(), rho.json().get("guarantee").get("epsilon").asDouble(), 0.0, rho.out);
        MainTest.Run wrongD = MainTest.run("mean", "--input", small.toString(), "--method", "coordinate",
                "--variances", "1,1", "--epsilon", "1");
        assertEquals(1, wrongD.code);
        assertTrue(wrongD.err.contains("columns"), wrongD.err);
        MainTest.Run zero = MainTest.run("mean", "--input", small.toString(), "--method", "coordinate",
                "--variances", "1,0,1", "--epsilon", "1");
        assertEquals(1, zero.code);
        assertTrue(zero.err.contains("variance 1 = 0.0"), zero.err);
    }
}
