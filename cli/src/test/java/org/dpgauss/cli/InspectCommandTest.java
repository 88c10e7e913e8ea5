package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.sampling.stable.StableCov;
import org.dpgauss.sampling.stable.StableCovResult;
import org.dpgauss.sampling.stable.StableMean;
import org.dpgauss.sampling.stable.StableMeanResult;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpgauss inspect}: contract JSON, the NON-PRIVATE warning, agreement with the API, bad input. */
class InspectCommandTest {

    @TempDir
    Path tmp;

    private static double[][] data(int n, int d, long seed, int outliers) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = r.nextGaussian() + (i < outliers ? 30 * (j + 1) : 0);
            }
        }
        return x;
    }

    private Path csv(String name, double[][] x) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (double[] row : x) {
            for (int j = 0; j < row.length; j++) {
                sb.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.17g", row[j]));
            }
            sb.append('\n');
        }
        Path p = tmp.resolve(name);
        Files.writeString(p, sb);
        return p;
    }

    @Test
    void stableCovPrintsScoreAndWeightsAndWarns() throws Exception {
        double[][] y = data(200, 3, 1, 4);
        Path p = csv("y.csv", y);
        MainTest.Run r = MainTest.run("--engine", "cpu", "inspect", "stable-cov", "--input", p.toString(),
                "--lambda0", "32", "--k", "6");
        assertEquals(0, r.code, r.err);
        assertTrue(r.err.contains("NON-PRIVATE"), r.err);
        JsonNode j = r.json();
        StableCovResult expect = StableCov.of(32, 6).applyLiteralToPairs(RowBlockMatrix.of(y), CpuEngine.instance());
        assertEquals(expect.score(), j.get("score").asInt());
        assertEquals(4, expect.score(), "the four planted outliers set the score");
        double[] w = expect.weights();
        assertEquals(200, j.get("weights").size());
        for (int i = 0; i < 200; i++) {
            assertEquals(w[i], j.get("weights").get(i).asDouble(), 0.0);
        }
        MainTest.Run lit = MainTest.run("--engine", "cpu", "inspect", "stable-cov", "--input", p.toString(),
                "--lambda0", "32", "--k", "6", "--literal");
        assertEquals(r.out, lit.out, "production and literal print the same");
    }

    @Test
    void stableMeanWithExplicitAndDrawnReference() throws Exception {
        double[][] x = data(120, 2, 2, 3);
        Path px = csv("x.csv", x);
        Path ps = csv("s.csv", new double[][] {{1, 0.1}, {0.1, 1}});
        MainTest.Run r = MainTest.run("--engine", "cpu", "inspect", "stable-mean", "--input", px.toString(), "--sigma",
                ps.toString(), "--lambda0", "12", "--k", "4", "--reference", "5,9,20,33,40,41,50,60,70,80,90,100");
        assertEquals(0, r.code, r.err);
        assertTrue(r.err.contains("NON-PRIVATE"));
        DMatrixRMaj s = new DMatrixRMaj(new double[][] {{1, 0.1}, {0.1, 1}});
        StableMeanResult e = StableMean.of(12, 4).apply(RowBlockMatrix.of(x), s,
                new int[] {5, 9, 20, 33, 40, 41, 50, 60, 70, 80, 90, 100}, CpuEngine.instance());
        assertEquals(e.score(), r.json().get("score").asInt());
        assertEquals(120, r.json().get("weights").size());
        assertEquals(e.weights()[7], r.json().get("weights").get(7).asDouble(), 0.0);
        MainTest.Run drawn = MainTest.run("--engine", "cpu", "inspect", "stable-mean", "--input", px.toString(),
                "--sigma", ps.toString(), "--lambda0", "12", "--k", "4", "--reference-size", "30",
                "--reference-seed", "7");
        assertEquals(0, drawn.code, drawn.err);
        MainTest.Run again = MainTest.run("--engine", "cpu", "inspect", "stable-mean", "--input", px.toString(),
                "--sigma", ps.toString(), "--lambda0", "12", "--k", "4", "--reference-size", "30",
                "--reference-seed", "7", "--literal");
        assertEquals(drawn.out, again.out);
    }

    @Test
    void badParametersAreRejected() throws Exception {
        Path p = csv("y.csv", data(20, 2, 3, 0));
        MainTest.Run r = MainTest.run("inspect", "stable-cov", "--input", p.toString(), "--lambda0", "0.5", "--k", "3");
        assertEquals(1, r.code);
        assertTrue(r.err.contains("lambda0=0.5"), r.err);
        MainTest.Run k = MainTest.run("inspect", "stable-cov", "--input", p.toString(), "--lambda0", "5", "--k", "0");
        assertEquals(1, k.code);
        Path s = csv("s.csv", new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
        MainTest.Run dim = MainTest.run("inspect", "stable-mean", "--input", p.toString(), "--sigma", s.toString(),
                "--lambda0", "5", "--k", "2", "--reference", "1,2");
        assertEquals(1, dim.code);
        assertTrue(dim.err.contains("--sigma is 3 x 3"), dim.err);
        MainTest.Run dup = MainTest.run("inspect", "stable-mean", "--input", p.toString(), "--sigma",
                csv("s2.csv", new double[][] {{1, 0}, {0, 1}}).toString(), "--lambda0", "5", "--k", "2", "--reference", "1,1");
        assertEquals(1, dup.code);
        assertTrue(dup.err.contains("appears twice"), dup.err);
        MainTest.Run none = MainTest.run("inspect", "stable-mean", "--input", p.toString(), "--sigma", s.toString(),
                "--lambda0", "5", "--k", "2");
        assertNotEquals(0, none.code, "R is required");
    }
}
