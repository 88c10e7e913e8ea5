package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Issue 27: a call registers only the subcommand it names (picocli's reflective model of the others is never
 * built), and what it parses, prints and refuses is what the full command line does.
 */
class LazySubcommandsTest {

    @Test
    void everyRegisteredNameIsTheCommandsOwnName() {
        for (Object[] sub : Main.SUBCOMMANDS) {
            Command c = ((Class<?>) sub[1]).getAnnotation(Command.class);
            assertEquals(c.name(), sub[0], "name of " + sub[1]);
        }
    }

    @Test
    void theSubcommandIsFoundAfterTheGlobalOptions() {
        assertEquals("mean", Main.invokedSubcommand(new String[] {"mean", "--input", "x.csv"}));
        assertEquals("mean", Main.invokedSubcommand(new String[] {"--engine", "cpu", "--json", "mean"}));
        assertEquals("mean", Main.invokedSubcommand(new String[] {"--engine=cpu", "--insecure-seed=3", "mean"}));
        // an option's value that is a command name is the value, not the command
        assertEquals("demo", Main.invokedSubcommand(new String[] {"--progress", "mean", "demo"}));
        assertEquals("ledger", Main.invokedSubcommand(new String[] {"--insecure-seed", "7", "ledger", "show"}));
    }

    @Test
    void anythingElseRegistersEveryCommand() {
        assertNull(Main.invokedSubcommand(new String[0]));
        assertNull(Main.invokedSubcommand(new String[] {"help", "mean"}));
        assertNull(Main.invokedSubcommand(new String[] {"--help"}));
        assertNull(Main.invokedSubcommand(new String[] {"meen", "--input", "x.csv"}));
        assertNull(Main.invokedSubcommand(new String[] {"@args.txt"}));
        assertNull(Main.invokedSubcommand(new String[] {"--unknown", "mean"}));
        assertNull(Main.invokedSubcommand(new String[] {"--json=true", "mean"}));
    }

    @Test
    void aNamedCallBuildsOnlyItsCommandAndTheSameModelAsTheFullCommandLine() {
        CommandLine full = Main.commandLine(new Main(), new String[0]);
        List<String> names = new ArrayList<>(full.getSubcommands().keySet());
        assertEquals(Main.SUBCOMMANDS.length, names.size());
        for (String name : names) {
            if (name.equals("help")) {
                continue;
            }
            CommandLine lazy = Main.commandLine(new Main(), new String[] {"--json", name, "--help"});
            assertEquals(List.of(name), new ArrayList<>(lazy.getSubcommands().keySet()), name);
            assertEquals(usage(full.getSubcommands().get(name)), usage(lazy.getSubcommands().get(name)), name);
        }
    }

    @Test
    void helpAndUsageErrorsStillListEveryCommand() {
        MainTest.Run help = MainTest.run("--help");
        assertEquals(0, help.code, help.err);
        MainTest.Run unknown = MainTest.run("meen");
        assertEquals(Main.EXIT_USAGE, unknown.code);
        for (Object[] sub : Main.SUBCOMMANDS) {
            assertTrue(help.out.contains("  " + sub[0] + " "), "--help lists " + sub[0]);
        }
        assertTrue(unknown.err.contains("mean"), unknown.err); // "Did you mean: dpgauss mean?"
    }

    private static String usage(CommandLine cl) {
        StringBuilder sb = new StringBuilder(cl.getUsageMessage(CommandLine.Help.Ansi.OFF));
        for (CommandLine sub : cl.getSubcommands().values()) {
            sb.append(usage(sub));
        }
        return sb.toString();
    }
}
