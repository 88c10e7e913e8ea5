package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import org.dpgauss.privacy.ConversionPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpgauss covariance} (issue 29): JSON contract, the budget options, --centre, and the neighbouring view. */
class CovarianceCommandTest {

    @TempDir
    Path dir;

    /** n rows 5 + (1, 2, 0.5) N(0, 1) with a header; an optional far row replacing row 7. */
    private Path csv(String name, int n, long seed, String farRow) throws Exception {
        Path p = dir.resolve(name);
        SplittableRandom r = new SplittableRandom(seed);
        try (BufferedWriter w = Files.newBufferedWriter(p)) {
            w.write("a,b,c\n");
            for (int i = 0; i < n; i++) {
                String row = String.format(Locale.ROOT, "%.17g,%.17g,%.17g", 5 + r.nextGaussian(),
                        5 + 2 * r.nextGaussian(), 5 + 0.5 * r.nextGaussian());
                w.write((i == 7 && farRow != null ? farRow : row) + "\n");
            }
        }
        return p;
    }

    @Test
    void releasesCovarianceAndMeanWithOneComposedGuarantee() throws Exception {
        Path in = csv("x.csv", 3000, 1, null);
        MainTest.Run r = MainTest.run("covariance", "--input", in.toString(), "--epsilon", "1", "--radius", "12",
                "--centre", "5", "--json", "--insecure-seed", "3");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        assertEquals("PASS", j.get("status").asText());
        assertEquals("covariance.analyze-gauss", j.get("mechanism").asText());
        assertEquals(3, j.get("covariance").size());
        assertEquals(3, j.get("mean").size());
        JsonNode p = j.get("parameters");
        assertEquals(5.0, p.get("centre").get(2).asDouble(), 0); // one value for every column
        double f = p.get("meanFraction").asDouble();
        assertTrue(f > 0 && f < 1);
        double rho = ConversionPolicy.rhoFor(1, 1e-6).rho();
        assertEquals(rho, p.get("rho").asDouble(), 1e-12);
        assertEquals(f * rho, p.get("mean").get("rho").asDouble(), 1e-12 * rho);
        assertEquals((1 - f) * rho, p.get("secondMoment").get("rho").asDouble(), 1e-9 * rho);
        assertTrue(j.get("guarantee").get("epsilon").asDouble() <= 1 + 1e-9, j.get("guarantee").toString());
        JsonNode a = j.get("accuracy");
        assertTrue(a.get("expectedBasis").asText().startsWith("scenario: "));
        // the variance of column b is 4 (the noise at this n and R is about 0.2): the release is near it
        assertEquals(4.0, j.get("covariance").get(1).get(1).asDouble(), 1.5);
        assertEquals(5.0, j.get("mean").get(1).asDouble(), 0.5);
    }

    @Test
    void aCentreOfTheWrongLengthIsAUsageErrorAndRhoIsAccepted() throws Exception {
        Path in = csv("y.csv", 200, 2, null);
        MainTest.Run r = MainTest.run("covariance", "--input", in.toString(), "--rho", "0.5", "--radius", "12",
                "--centre", "5,5");
        assertEquals(1, r.code);
        assertTrue(r.err.contains("--centre has 2 values"), r.err);
        MainTest.Run ok = MainTest.run("covariance", "--input", in.toString(), "--rho", "0.5", "--radius", "12",
                "--centre", "5,5,5", "--method", "coinpress", "--psd", "--json", "--insecure-seed", "1");
        assertEquals(0, ok.code, ok.err);
        assertTrue(ok.json().has("covariancePsd"));
        assertEquals("covariance.coinpress", ok.json().get("mechanism").asText());
    }

    /** Issue 24: a row far outside R is clipped: both neighbours give the same exit code, fields and parameters. */
    @Test
    void neighboursWithAFarRowLookTheSame() throws Exception {
        Path a = csv("a.csv", 300, 4, null);
        Path b = csv("b.csv", 300, 4, "1e300,-1e300,7");
        MainTest.Run ra = MainTest.run("covariance", "--input", a.toString(), "--rho", "0.5", "--radius", "12",
                "--centre", "5", "--json", "--insecure-seed", "9");
        MainTest.Run rb = MainTest.run("covariance", "--input", b.toString(), "--rho", "0.5", "--radius", "12",
                "--centre", "5", "--json", "--insecure-seed", "9");
        assertEquals(0, ra.code, ra.err);
        assertEquals(ra.code, rb.code, rb.err);
        assertEquals(ra.err, rb.err);
        JsonNode ja = ra.json();
        JsonNode jb = rb.json();
        java.util.List<String> ka = new java.util.ArrayList<>();
        ja.fieldNames().forEachRemaining(ka::add);
        java.util.List<String> kb = new java.util.ArrayList<>();
        jb.fieldNames().forEachRemaining(kb::add);
        assertEquals(ka, kb);
        assertEquals(ja.get("parameters"), jb.get("parameters"));
        assertEquals(ja.get("guarantee"), jb.get("guarantee"));
        assertEquals(ja.get("accuracy"), jb.get("accuracy"));
    }
}
