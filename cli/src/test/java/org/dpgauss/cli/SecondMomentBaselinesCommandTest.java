package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpgauss second-moment --method analyze-gauss|coinpress|subsample-aggregate} (spec §8 baselines). */
class SecondMomentBaselinesCommandTest {

    @TempDir
    Path dir;

    /** Gaussian rows with scales (1, 0.3, 0.1), written as CSV. */
    private Path gaussianCsv(int n, long seed) throws Exception {
        return SecondMomentCommandTest.gaussianCsv(dir.resolve("g" + n + ".csv"), n, seed, false);
    }

    @Test
    void listMethodsNamesTheBaselinesWithTheirGuarantees() {
        MainTest.Run r = MainTest.run("second-moment", "--list-methods");
        assertEquals(0, r.code, r.err);
        assertTrue(r.out.contains("analyze-gauss:") && r.out.contains("rho-zCDP (replace-one)"), r.out);
        assertTrue(r.out.contains("coinpress:"), r.out);
        assertTrue(r.out.contains("subsample-aggregate:") && r.out.contains("(2 eps, 4 e^eps delta)-DP"), r.out);
    }

    @Test
    void analyzeGaussAndCoinPressReleaseWithoutALambdaBound() throws Exception {
        Path in = gaussianCsv(3000, 1);
        MainTest.Run r = SecondMomentCommandTest.secondMoment(in, "--rho", "1", "--clip", "5",
                "--method", "analyze-gauss", "--json", "--insecure-seed", "3");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals("second-moment.analyze-gauss", j.get("mechanism").asText());
        assertEquals("zCDP", j.get("guarantee").get("type").asText());
        assertEquals("replace-one", j.get("guarantee").get("relation").asText());
        assertFalse(j.get("guarantee").get("certified").asBoolean());
        assertTrue(j.get("insecure").asBoolean());
        // sigma = R^2/(n sqrt(rho)) = 25/3000, up to the grid and floating-point slack of the accounting
        assertEquals(25.0 / 3000, j.get("parameters").get("noiseSigma").asDouble(), 1e-6);

        MainTest.Run c = SecondMomentCommandTest.secondMoment(in, "--rho", "1", "--clip", "5",
                "--method", "coinpress", "--option", "iterations=2", "--json", "--insecure-seed", "3");
        assertEquals(0, c.code, c.err);
        JsonNode cj = c.json();
        assertEquals("second-moment.coinpress", cj.get("mechanism").asText());
        assertEquals(2, cj.get("parameters").get("iterations").asInt());
        assertEquals(25.0, cj.get("parameters").get("priorScale").asDouble(), 0.0);
        // PSD output (CoinPress projects every step): the released matrix has no negative eigenvalue
        JsonNode sm = cj.get("secondMoment");
        org.ejml.data.DMatrixRMaj m = new org.ejml.data.DMatrixRMaj(3, 3);
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) {
                m.set(a, b, sm.get(a).get(b).asDouble());
            }
        }
        assertTrue(org.dpgauss.secondmoment.SpectralMetrics.eigenvalues(m)[0] >= -1e-12, cj.toString());
    }

    @Test
    void subsampleAggregateRefusesUncertifiedSizesUnlessAskedAndRunsWhenAsked() throws Exception {
        Path in = gaussianCsv(20_000, 2);
        MainTest.Run refused = SecondMomentCommandTest.secondMoment(in, "--rho", "1", "--clip", "5",
                "--method", "subsample-aggregate", "--option", "group-size=100", "--json");
        assertNotEquals(0, refused.code);
        assertTrue(refused.err.contains("Thm A.6") && refused.err.contains("uncertified=1"), refused.err);

        // T = 200 groups of 100 rows in d = 3 agree (pair distances far below 2), so Q = 1 and the truncated
        // Laplace (support about +-0.06 at the epsilon rho = 1 implies) cannot reach the threshold: PASS.
        MainTest.Run r = SecondMomentCommandTest.secondMoment(in, "--rho", "1", "--clip", "5",
                "--method", "subsample-aggregate", "--option", "group-size=100", "--option", "uncertified=1",
                "--json", "--insecure-seed", "4");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals("approxDP", j.get("guarantee").get("type").asText());
        assertFalse(j.get("guarantee").get("certified").asBoolean());
        assertFalse(j.get("parameters").get("privacyConditionHolds").asBoolean());
        assertEquals(200, j.get("parameters").get("groups").asInt());
    }

    @Test
    void invalidBaselineOptionsAreRejectedByName() throws Exception {
        Path in = gaussianCsv(100, 5);
        MainTest.Run r = SecondMomentCommandTest.secondMoment(in, "--rho", "1", "--clip", "5",
                "--method", "coinpress", "--option", "iterations=0");
        assertNotEquals(0, r.code);
        assertTrue(r.err.contains("iterations"), r.err);
        MainTest.Run a = SecondMomentCommandTest.secondMoment(in, "--rho", "1", "--clip", "5",
                "--method", "analyze-gauss", "--option", "paper-sensitivity=2");
        assertNotEquals(0, a.code);
        assertTrue(a.err.contains("paper-sensitivity"), a.err);
    }
}
