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

/** {@code mean --bounds} with {@code --method auto|box|box-pure} (issue 27) and {@code plan mean --bounds}. */
class BoxMeanCommandTest {

    private static Path data(Path dir, int n, int d, double outlier) throws Exception {
        Random rnd = new Random(n);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double v = i == 0 ? outlier : rnd.nextDouble();
                sb.append(j == 0 ? "" : ",").append(v);
            }
            sb.append('\n');
        }
        Path p = dir.resolve("x" + n + "-" + d + (outlier == 0.5 ? "" : "-far") + ".csv");
        Files.writeString(p, sb.toString());
        return p;
    }

    @Test
    void autoChoosesFromPublicFactsAndSaysWhyAndPlanAgrees(@TempDir Path dir) throws Exception {
        // d = 4 at (1, 1e-6): the pure L-infinity noise has the smaller predicted error; d = 150: the Gaussian
        for (int[] nd : new int[][] {{2000, 4}, {300, 150}}) {
            String want = nd[1] == 4 ? "box-pure" : "box";
            Path x = data(dir, nd[0], nd[1], 0.5);
            MainTest.Run r = MainTest.run("--insecure-seed", "3", "mean", "--input", x.toString(), "--bounds", "0:1",
                    "--epsilon", "1", "--json");
            assertEquals(0, r.code, r.err);
            JsonNode j = r.json();
            assertEquals("mean.box", j.get("mechanism").asText());
            assertEquals(want, j.get("method").asText(), r.out);
            assertTrue(j.get("methodReason").asText().contains("before the data were used"), r.out);
            assertEquals(want.equals("box") ? "gaussian" : "linf", j.get("parameters").get("noise").asText());
            MainTest.Run p = MainTest.run("plan", "mean", "--n", String.valueOf(nd[0]), "--d", String.valueOf(nd[1]),
                    "--epsilon", "1", "--bounds", "0:1", "--json");
            assertEquals(0, p.code, p.err);
            assertEquals(want, p.json().get("recommended").asText(), "plan mean shows the same choice");
        }
    }

    @Test
    void outOfBoxRowsAreClampedNotErrorsAndFilesGiveRangesPerColumn(@TempDir Path dir) throws Exception {
        Path far = data(dir, 500, 3, 1e300);
        Path near = data(dir, 500, 3, 0.5);
        MainTest.Run a = MainTest.run("--insecure-seed", "5", "mean", "--input", far.toString(), "--bounds", "0:1",
                "--method", "box-pure", "--epsilon", "1", "--json");
        MainTest.Run b = MainTest.run("--insecure-seed", "5", "mean", "--input", near.toString(), "--bounds", "0:1",
                "--method", "box-pure", "--epsilon", "1", "--json");
        assertEquals(0, a.code, a.err);
        assertEquals(0, b.code, b.err);
        for (int k = 0; k < 3; k++) {
            double da = a.json().get("mean").get(k).asDouble();
            double db = b.json().get("mean").get(k).asDouble();
            // same seed, same noise: the neighbours' releases differ by the clamped row's 0.5/500 at most
            assertTrue(Math.abs(da - db) <= 0.5 / 500 + 1e-9, da + " vs " + db);
        }
        assertFalse(a.out.contains("1e300") || a.out.contains("1.0E300"), "no data value in the output");
        Path csv = dir.resolve("b.csv");
        Files.writeString(csv, "lo,hi\n0,1\n0,1\n0,1\n");
        Path json = dir.resolve("b.json");
        Files.writeString(json, "{\"lower\": [0, 0, 0], \"upper\": [1, 1, 1]}");
        for (Path f : new Path[] {csv, json}) {
            MainTest.Run c = MainTest.run("--insecure-seed", "5", "mean", "--input", far.toString(), "--bounds",
                    f.toString(), "--method", "box-pure", "--epsilon", "1", "--json");
            assertEquals(0, c.code, c.err);
            assertEquals(a.json().get("mean"), c.json().get("mean"), "the same box from " + f.getFileName());
        }
        Path wrong = dir.resolve("w.json");
        Files.writeString(wrong, "[[0, 1], [0, 1]]");
        MainTest.Run w = MainTest.run("mean", "--input", far.toString(), "--bounds", wrong.toString(), "--epsilon", "1");
        assertEquals(1, w.code);
        assertTrue(w.err.contains("2 ranges but the data have 3 columns"), w.err);
        MainTest.Run rho = MainTest.run("mean", "--input", far.toString(), "--bounds", "0:1", "--method", "box-pure",
                "--rho", "0.5");
        assertEquals(1, rho.code);
    }
}
