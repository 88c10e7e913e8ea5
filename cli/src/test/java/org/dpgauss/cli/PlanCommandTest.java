package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpgauss plan}: text under 100 columns, JSON, a runnable command line. */
class PlanCommandTest {

    @Test
    void theCommandPrintsAPlanAndJson() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = Main.run(new String[] {"plan", "mean", "--n", "5000", "--d", "3", "--epsilon", "0.5", "--clip", "4",
            "--json"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, rc, err.toString());
        assertTrue(out.toString().contains("\"recommended\":\"clipped\""), out.toString());
        out.getBuffer().setLength(0);
        rc = Main.run(new String[] {"plan", "mean", "--n", "5000", "--d", "3", "--epsilon", "0.5", "--clip", "4"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, rc, err.toString());
        for (String line : out.toString().split("\n")) {
            assertTrue(line.length() <= 100, "line over 100 characters: " + line);
        }
        assertTrue(out.toString().contains("run:       dpgauss mean --method clipped --clip 4 --epsilon 0.5 --delta"
                + " 0.000001 --input FILE"), out.toString());
    }

    @Test
    void secondMomentPlansTheRecursiveMethodOnlyWithAMinimumEigenvalue() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] base = {"plan", "second-moment", "--n", "20000", "--d", "10", "--epsilon", "1", "--row-bound", "1"};
        assertEquals(0, Main.run(base, new PrintWriter(out, true), new PrintWriter(err, true)), err.toString());
        String without = out.toString();
        assertTrue(without.contains("--min-eigenvalue L"), without); // recursive says what it needs
        assertTrue(!without.contains("run:       dpgauss second-moment --method recursive"), without);
        out.getBuffer().setLength(0);
        String[] with = java.util.Arrays.copyOf(base, base.length + 2);
        with[base.length] = "--min-eigenvalue";
        with[base.length + 1] = "0.01";
        assertEquals(0, Main.run(with, new PrintWriter(out, true), new PrintWriter(err, true)), err.toString());
        String flat = out.toString().replaceAll("\\s+", " ");
        assertTrue(flat.matches(".*run: dpgauss second-moment --input FILE --method recursive --epsilon [^ ]+ --delta 0.000001 "
                + "--radius 1 --min-eigenvalue 0.01 .*"), out.toString());
    }

    @TempDir
    Path dir;

    /**
     * Issue 26: {@code plan blr}'s run line (text output) runs as printed, and the release it makes states exactly
     * what the plan predicted: by default the point estimate ({@code --output point}), with {@code --output sample}
     * the posterior sample. The output is refused for other families.
     */
    @Test
    void blrRunLineRunsAsPrintedAndItsReleaseStatesThePlannedStatement() throws Exception {
        Path data = dir.resolve("xy.csv");
        StringBuilder csv = new StringBuilder();
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 120; i++) {
            double a = r.nextDouble(-0.5, 0.5);
            double b = r.nextDouble(-0.5, 0.5);
            csv.append(String.format(Locale.ROOT, "%.6f,%.6f,%d%n", a, b, a + b > 0 ? 1 : 0));
        }
        Files.writeString(data, csv);
        for (String output : new String[] {null, "point", "sample"}) {
            List<String> plan = new ArrayList<>(List.of("plan", "blr", "--n", "150", "--d", "2", "--epsilon", "1",
                    "--delta", "1e-6", "--row-bound", "1", "--lambda", "2"));
            if (output != null) {
                plan.addAll(List.of("--output", output));
            }
            MainTest.Run text = MainTest.run(plan.toArray(new String[0]));
            assertEquals(0, text.code, text.err);
            String flat = text.out.replaceAll("\\s+", " ");
            int at = flat.indexOf("run: dpgauss mechanism blr ");
            assertTrue(at >= 0, text.out);
            String line = flat.substring(at + "run: dpgauss ".length(), flat.indexOf(" --input FILE", at));
            String want = output == null ? "point" : output;
            assertTrue(line.endsWith("--output " + want), line);
            List<String> args = new ArrayList<>(List.of(line.split(" ")));
            args.addAll(List.of("--input", data.toString(), "--json", "--insecure-seed", "3"));
            MainTest.Run release = MainTest.run(args.toArray(new String[0]));
            assertEquals(0, release.code, release.err);
            assertEquals(want, release.json().get("parameters").get("output").asText());
            plan.add("--json");
            JsonNode planned = MainTest.run(plan.toArray(new String[0])).json().get("methods").get(0);
            assertEquals(planned.get("predicted"), release.json().get("accuracy"), "the planned statement is the"
                    + " release's");
        }
        MainTest.Run bad = MainTest.run("plan", "mean", "--n", "100", "--d", "2", "--epsilon", "1", "--clip", "1",
                "--output", "point");
        assertEquals(Main.EXIT_ERROR, bad.code);
        assertTrue(bad.err.contains("--output"), bad.err);
        bad = MainTest.run("plan", "blr", "--n", "100", "--d", "2", "--epsilon", "1", "--row-bound", "1",
                "--output", "mode");
        assertEquals(Main.EXIT_ERROR, bad.code);
    }
}
