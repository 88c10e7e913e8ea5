package org.dpgauss.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A top-level command that only groups subcommands ({@code dpgauss ndis delta}, {@code dpgauss gx2 cdf}, ...):
 * the parent {@link Main} for the subcommands' shared options and writers, and a usage error naming the
 * subcommands when none is given.
 */
abstract class CommandGroup implements Runnable {

    @ParentCommand
    Main main;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing subcommand: " + subcommandList(spec));
    }

    /** The subcommand names in declaration order, as "a", "a or b", "a, b or c" (aliases not repeated). */
    static String subcommandList(CommandSpec spec) {
        List<String> names = new ArrayList<>();
        for (CommandLine sub : spec.subcommands().values()) {
            String name = sub.getCommandName();
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        if (names.size() <= 1) {
            return String.join("", names);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }
}
