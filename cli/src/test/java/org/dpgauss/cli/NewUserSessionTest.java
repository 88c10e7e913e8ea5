package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29, the replay of a new user's session on scikit-learn's tables: the defects it met, each fixed and kept
 * fixed here (the budget options listed once in --help, a usage error in a few lines, covariance stated as the
 * rho-zCDP its help promises, the planner's second-moment run: line repeating the facts as given).
 */
class NewUserSessionTest {

    @TempDir
    Path dir;

    @Test
    void everyPrivateCommandListsItsBudgetOptionsOnceInHelp() {
        String[][] commands = {{"mean"}, {"second-moment"}, {"covariance"}, {"pca"}, {"regress"}, {"project"},
            {"sample"}, {"mechanism", "blr"}, {"mechanism", "gpr"}};
        for (String[] c : commands) {
            String[] args = java.util.Arrays.copyOf(c, c.length + 1);
            args[c.length] = "--help";
            MainTest.Run h = MainTest.run(args);
            assertEquals(0, h.code, h.err);
            for (String option : new String[] {"--epsilon=E ", "--rho=RHO "}) {
                int count = h.out.split(java.util.regex.Pattern.quote("      " + option), -1).length - 1;
                assertEquals(1, count, String.join(" ", c) + " --help lists " + option + count + " times:\n" + h.out);
            }
        }
    }

    @Test
    void aMissingOptionIsAShortUsageErrorNotTheWholeOptionList() {
        MainTest.Run r = MainTest.run("covariance", "--input", "x.csv", "--epsilon", "1");
        assertEquals(Main.EXIT_USAGE, r.code);
        assertTrue(r.err.startsWith("dpgauss covariance: Missing required option: '--radius=R'"), r.err);
        assertTrue(r.err.contains("Every option: 'dpgauss covariance --help'"), r.err);
        // the synopsis, not the option descriptions
        assertTrue(!r.err.contains("Print version information"), r.err);
        assertTrue(r.err.split("\n").length <= 12, r.err);
        // a misspelt option: picocli's suggestion kept
        MainTest.Run typo = MainTest.run("second-moment", "--input", "x.csv", "--epsilon", "1", "--radus", "2");
        assertEquals(Main.EXIT_USAGE, typo.code);
        assertTrue(typo.err.contains("Unknown option") && typo.err.contains("--radius"), typo.err);
        assertEquals("", typo.out);
    }

    @Test
    void columnsWithoutAClusterSayHowToSelectColumnsOnOneMachine() {
        MainTest.Run r = MainTest.run("mean", "--input", "x.csv", "--columns", "a,b", "--clip", "1", "--epsilon", "1");
        assertEquals(1, r.code, r.err);
        assertTrue(r.err.contains("need --master; on one machine every column of --input is used"), r.err);
    }

    @Test
    void covarianceIsStatedAsTheZcdpItsHelpPromises() throws Exception {
        Random rnd = new Random(3); // fixed seed: valid rows only
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            sb.append(rnd.nextDouble()).append(',').append(rnd.nextDouble()).append('\n');
        }
        Path x = dir.resolve("x.csv");
        Files.writeString(x, sb.toString());
        MainTest.Run r = MainTest.run("--insecure-seed", "1", "covariance", "--input", x.toString(), "--rho", "0.5",
                "--radius", "1", "--centre", "0.5", "--json");
        assertEquals(0, r.code, r.err);
        JsonNode g = r.json().get("guarantee");
        assertEquals("zCDP", g.get("type").asText(), g.toString());
        assertEquals(0.5, g.get("rho").asDouble(), 0);
        assertTrue(g.get("epsilon").asDouble() > 0 && g.get("delta").asDouble() == 1e-6, g.toString());
    }
}
