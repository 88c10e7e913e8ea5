package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

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
}
