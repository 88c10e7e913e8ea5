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
}
