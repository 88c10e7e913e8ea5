package org.dpgauss.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * A usage error (a missing or unknown option, a value of the wrong type) in a few lines: the message, the command's
 * synopsis and where every option is described, instead of picocli's full option list (issue 29: a new user met
 * 60-line usage dumps for one missing option). Exit code {@link Main#EXIT_USAGE}.
 */
final class UsageErrors {

    private UsageErrors() {
    }

    /**
     * The parameter-exception handler of the command line.
     *
     * @param ex the usage error
     * @param args the arguments
     * @return the exit code
     */
    static int handle(CommandLine.ParameterException ex, String[] args) {
        CommandLine cl = ex.getCommandLine();
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName();
        err.println(name + ": " + ex.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.print("Usage: " + cl.getHelp().synopsis(0));
        err.println("Every option: '" + name + " --help', or docs/cli.md.");
        err.flush();
        return Main.EXIT_USAGE;
    }
}
