package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * docs/cli.md is the command reference: every command has a section (the text from the heading
 * {@code ### `dpgauss <cmd>} to the next heading of level 1-3) and every option of the command and its
 * subcommands is explained there. The options every command inherits need only appear somewhere in the file.
 * The same rule as {@code scripts/check-cli-options.sh}, read from the picocli model instead of the help text,
 * so CI catches an undocumented option.
 */
class CliReferenceDocumentsEveryOptionTest {

    private static final List<String> GLOBAL = List.of("--help", "--version", "--json", "--engine", "--insecure-seed", "--progress");

    @Test
    void everyOptionOfEveryCommandIsInItsSection() throws IOException {
        String readme = Files.readString(referencePath());
        List<String> missing = new ArrayList<>();
        for (String g : GLOBAL) {
            if (!readme.contains("`" + g) && !readme.contains(g + " ")) {
                missing.add("(global) " + g);
            }
        }
        CommandLine root = Main.commandLine(new Main(), new String[0]);
        for (Map.Entry<String, CommandLine> top : root.getSubcommands().entrySet()) {
            if (top.getKey().equals("help")) {
                continue;
            }
            String section = section(readme, top.getKey());
            if (section == null) {
                missing.add("no section \"### `dpgauss " + top.getKey() + "\"");
                continue;
            }
            collect(top.getValue(), top.getKey(), section, missing);
        }
        assertTrue(missing.isEmpty(), "docs/cli.md does not explain: " + String.join("; ", missing));
    }

    private static void collect(CommandLine cl, String path, String section, List<String> missing) {
        for (OptionSpec o : cl.getCommandSpec().options()) {
            String name = o.longestName();
            if (GLOBAL.contains(name) || name.equals("-h") || name.equals("-V")) {
                continue;
            }
            if (!section.contains(name)) {
                missing.add(path + " " + name);
            }
        }
        for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
            if (!sub.getKey().equals("help")) {
                collect(sub.getValue(), path + " " + sub.getKey(), section, missing);
            }
        }
    }

    /** The text under {@code ### `dpgauss cmd...} up to the next heading of level 1-3, or null. */
    static String section(String readme, String command) {
        String[] lines = readme.split("\n", -1);
        StringBuilder sb = null;
        for (String line : lines) {
            boolean heading = line.startsWith("# ") || line.startsWith("## ") || line.startsWith("### ");
            if (heading) {
                if (sb != null) {
                    return sb.toString();
                }
                if (line.startsWith("### `dpgauss " + command + " ") || line.startsWith("### `dpgauss " + command + "`")) {
                    sb = new StringBuilder();
                }
                continue;
            }
            if (sb != null) {
                sb.append(line).append('\n');
            }
        }
        return sb == null ? null : sb.toString();
    }

    private static Path referencePath() {
        // Surefire runs in the module directory (engine/); docs/ is at the repository root.
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("docs/cli.md")) && Files.isDirectory(p.resolve("engine"))) {
                return p.resolve("docs/cli.md");
            }
        }
        throw new IllegalStateException("docs/cli.md not found above " + Path.of("").toAbsolutePath());
    }
}
