package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29: one budget interface on every private command ({@code --epsilon/--delta} or {@code --rho}, converted
 * by the one conversion), a second-moment default that needs no lambda_min bound, and {@code --centre} with one
 * value for every column.
 */
class BudgetInterfaceTest {

    @TempDir
    Path dir;

    private Path gaussianCsv(int n, int d) throws Exception {
        Random rnd = new Random(7); // fixed seed: the data only need to be valid rows
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < d; j++) {
                sb.append(j == 0 ? "" : ",").append(0.5 + 0.1 * rnd.nextGaussian());
            }
            lines.add(sb.toString());
        }
        Path p = dir.resolve("x.csv");
        Files.writeString(p, String.join("\n", lines) + "\n");
        return p;
    }

    @Test
    void everyPrivateCommandTakesEpsilonRhoAndDelta() {
        String[][] commands = {{"mean"}, {"second-moment"}, {"project"}, {"sample"}, {"mechanism", "blr"},
            {"mechanism", "gpr"}};
        for (String[] c : commands) {
            String[] args = new String[c.length + 1];
            System.arraycopy(c, 0, args, 0, c.length);
            args[c.length] = "--help";
            MainTest.Run h = MainTest.run(args);
            assertEquals(0, h.code, String.join(" ", c) + ": " + h.err);
            for (String option : new String[] {"--epsilon=E", "--rho=RHO", "--delta=D"}) {
                assertTrue(h.out.contains(option), String.join(" ", c) + " lacks " + option + ":\n" + h.out);
            }
        }
    }

    @Test
    void secondMomentTakesEpsilonAndRunsWithoutALambdaMinBound() throws Exception {
        Path x = gaussianCsv(500, 3);
        MainTest.Run r = MainTest.run("--insecure-seed", "1", "second-moment", "--input", x.toString(), "--epsilon",
                "1", "--radius", "2", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode j = r.json();
        // no --min-eigenvalue/--lambda-epsilon: the default is analyze-gauss, which needs no lambda_min bound
        assertEquals("second-moment.analyze-gauss", j.get("mechanism").asText());
        // --epsilon 1 runs at the largest rho whose conversion at the default delta meets 1
        assertEquals(ConversionPolicy.rhoFor(1, 1e-6).rho(), j.get("guarantee").get("rho").asDouble(), 0.0);
        assertTrue(j.get("guarantee").get("epsilon").asDouble() <= 1.0);
        // the same budget spelt as --rho gives the same release
        MainTest.Run viaRho = MainTest.run("--insecure-seed", "1", "second-moment", "--input", x.toString(),
                "--rho", Double.toString(ConversionPolicy.rhoFor(1, 1e-6).rho()), "--radius", "2", "--json");
        assertEquals(r.json().get("secondMoment"), viaRho.json().get("secondMoment"));
        // with a lambda_min bound the default stays recursive
        MainTest.Run rec = MainTest.run("--insecure-seed", "1", "second-moment", "--input", x.toString(), "--rho",
                "0.5", "--radius", "2", "--min-eigenvalue", "0.005", "--json");
        assertEquals(0, rec.code, rec.err);
        assertEquals("second-moment.recursive", rec.json().get("mechanism").asText());
        // no budget at all: one clear message, no usage dump
        MainTest.Run none = MainTest.run("second-moment", "--input", x.toString(), "--radius", "2");
        assertEquals(Main.EXIT_ERROR, none.code);
        assertTrue(none.err.contains("--epsilon E") && none.err.contains("--rho RHO"), none.err);
    }

    @Test
    void anEpsilonDeltaCommandTakesRhoThroughTheOneConversion() throws Exception {
        Path x = gaussianCsv(50, 3);
        MainTest.Run r = MainTest.run("--insecure-seed", "3", "project", "--input", x.toString(), "--rank", "4",
                "--rho", "0.1", "--row-bound", "2", "--output", dir.resolve("m1.npy").toString(), "--json");
        assertEquals(0, r.code, r.err);
        double eps = ConversionPolicy.toApproxDp(Zcdp.of(0.1), 1e-6).epsilon();
        assertEquals(eps, r.json().get("guarantee").get("epsilon").asDouble(), 0.0);
        MainTest.Run e = MainTest.run("--insecure-seed", "3", "project", "--input", x.toString(), "--rank", "4",
                "--epsilon", Double.toString(eps), "--row-bound", "2", "--output", dir.resolve("m2.npy").toString(),
                "--json");
        assertEquals(r.json().get("parameters"), e.json().get("parameters"));
    }

    @Test
    void oneCentreValueServesEveryColumn() throws Exception {
        Path x = gaussianCsv(200, 3);
        MainTest.Run one = MainTest.run("--insecure-seed", "5", "mean", "--input", x.toString(), "--clip", "1",
                "--centre", "0.5", "--rho", "0.1", "--json");
        MainTest.Run all = MainTest.run("--insecure-seed", "5", "mean", "--input", x.toString(), "--clip", "1",
                "--centre", "0.5,0.5,0.5", "--rho", "0.1", "--json");
        assertEquals(0, one.code, one.err);
        assertEquals(all.out, one.out);
        MainTest.Run two = MainTest.run("mean", "--input", x.toString(), "--clip", "1", "--centre", "0.5,0.5",
                "--rho", "0.1");
        assertEquals(Main.EXIT_ERROR, two.code);
        assertTrue(two.err.contains("one value for every column"), two.err);
    }

    @Test
    void thePlannersRunLineRepeatsTheCentreAndRuns() throws Exception {
        Path x = gaussianCsv(200, 3);
        MainTest.Run plan = MainTest.run("plan", "mean", "--n", "200", "--d", "3", "--epsilon", "1", "--clip", "1",
                "--centre", "0.5");
        assertEquals(0, plan.code, plan.err);
        String flat = plan.out.replaceAll("\\s+", " ");
        String prefix = "run: dpgauss mean --method clipped --clip 1 --centre 0.5 ";
        int at = flat.indexOf(prefix);
        assertTrue(at >= 0, plan.out);
        String line = flat.substring(at + "run: dpgauss ".length(), flat.indexOf("--input FILE", at)).strip();
        List<String> args = new ArrayList<>(List.of("--insecure-seed", "2"));
        args.addAll(List.of(line.split(" ")));
        args.addAll(List.of("--input", x.toString(), "--json"));
        MainTest.Run run = MainTest.run(args.toArray(new String[0]));
        assertEquals(0, run.code, run.err);
        assertEquals(3, run.json().get("parameters").get("centre").size());
        assertEquals(0.5, run.json().get("parameters").get("centre").get(2).asDouble(), 0.0);
    }
}
