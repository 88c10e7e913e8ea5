package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29: docs/cli.md matched to the output. Runs every concrete example of docs/cli.md (a line
 * {@code ./dpgauss ...} in a fenced block without synopsis markers or placeholders; {@code echo '..' > F} lines
 * write their file; the FILE after {@code --plot} is written into the test directory) on synthetic data, and checks that every JSON field name the command prints, at the top level
 * and inside {@code guarantee}, {@code accuracy} and {@code parameters}, is named in the command's section of
 * docs/cli.md or in the release contract ("What a release contains").
 */
class DocsExamplesTest {

    @TempDir
    Path dir;

    /** A synopsis marker or a placeholder value (x1,x2,.., L, K, sn2, n, B, e, d). */
    private static final Pattern PLACEHOLDER = Pattern.compile("[|\\[]|\\.\\.|(^|\\s)([A-Za-z]{1,2}[0-9]?)(\\s|$)");

    private static Path docs() {
        Path p = Path.of("..", "docs", "cli.md");
        return Files.exists(p) ? p : Path.of("docs", "cli.md");
    }

    /** One example: its command line and the docs section it appears in. */
    private record Example(String line, String section) { }

    private static List<Example> examples(List<String> lines) {
        List<Example> out = new ArrayList<>();
        StringBuilder section = new StringBuilder();
        boolean fenced = false;
        List<Integer> starts = new ArrayList<>();
        List<String> raw = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced && (l.startsWith("./dpgauss ") || l.startsWith("echo '"))) {
                raw.add(l.strip());
                starts.add(i);
            }
        }
        for (int k = 0; k < raw.size(); k++) {
            out.add(new Example(raw.get(k), sectionOf(lines, starts.get(k))));
        }
        return out;
    }

    /** The text of the level-1..3 section holding line {@code at}. */
    private static String sectionOf(List<String> lines, int at) {
        int from = at;
        while (from > 0 && !lines.get(from).matches("^#{1,3} .*")) {
            from--;
        }
        int to = at + 1;
        while (to < lines.size() && !lines.get(to).matches("^#{1,3} .*")) {
            to++;
        }
        return String.join("\n", lines.subList(from, to));
    }

    private static String releaseContract(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("### What a release contains")) {
                return sectionOf(lines, i);
            }
        }
        throw new AssertionError("docs/cli.md has no 'What a release contains' section");
    }

    private void writeData() throws Exception {
        Random rnd = new Random(11); // fixed seed: the rows only need to be valid
        StringBuilder sb = new StringBuilder("a,b,c\n");
        for (int i = 0; i < 3000; i++) {
            sb.append(String.format(java.util.Locale.ROOT, "%.6f,%.6f,%.6f%n", 0.5 + 0.3 * rnd.nextGaussian(),
                    0.5 + 0.3 * rnd.nextGaussian(), 0.5 + 0.3 * rnd.nextGaussian()));
        }
        Files.writeString(dir.resolve("X.csv"), sb.toString());
    }

    @Test
    void everyDocumentedExampleRunsAndPrintsOnlyDocumentedFields() throws Exception {
        List<String> lines = Files.readAllLines(docs());
        String contract = releaseContract(lines);
        writeData();
        int ran = 0;
        List<String> problems = new ArrayList<>();
        for (Example e : examples(lines)) {
            if (e.line().startsWith("echo '")) {
                Matcher m = Pattern.compile("^echo '(.*)' > (\\S+)$").matcher(e.line());
                assertTrue(m.matches(), e.line());
                Files.writeString(dir.resolve(m.group(2)), m.group(1) + "\n");
                continue;
            }
            String args = e.line().substring("./dpgauss ".length());
            if (PLACEHOLDER.matcher(args).find() || args.contains("bench ")) {
                continue; // a synopsis, a placeholder, or a timing run (bench: not a release, seconds of work)
            }
            List<String> argv = new ArrayList<>();
            for (String t : args.split("\\s+")) {
                boolean output = !argv.isEmpty() && argv.get(argv.size() - 1).equals("--plot"); // written here
                argv.add(output || Files.exists(dir.resolve(t)) ? dir.resolve(t).toString() : t);
            }
            MainTest.Run r = MainTest.run(argv.toArray(new String[0]));
            ran++;
            if (r.code != 0 && r.code != Main.EXIT_FAIL) {
                problems.add(e.line() + ": exit " + r.code + ": " + r.err.strip());
                continue;
            }
            if (!argv.contains("--json")) {
                continue;
            }
            JsonNode j = r.json();
            Set<String> names = new LinkedHashSet<>(fields(j));
            for (String nested : new String[] {"guarantee", "accuracy", "parameters"}) {
                if (j.has(nested) && j.get(nested).isObject()) {
                    names.addAll(fields(j.get(nested)));
                }
            }
            for (String n : names) {
                if (!documented(n, e.section()) && !documented(n, contract)) {
                    problems.add(e.line() + ": prints the field '" + n + "', which its section of docs/cli.md"
                            + " and the release contract do not name");
                }
            }
        }
        assertTrue(ran >= 8, "only " + ran + " examples ran: the parser lost them");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void thePlaceholderFilterKeepsConcreteExamples() {
        assertFalse(PLACEHOLDER.matcher("second-moment --input X.csv --rho 1 --clip 10 --json").find());
        assertTrue(PLACEHOLDER.matcher("inspect stable-mean --input X.csv --lambda0 L --k K").find());
        assertTrue(PLACEHOLDER.matcher("mean --input X.csv|X.npy --json").find());
    }

    private static List<String> fields(JsonNode o) {
        List<String> out = new ArrayList<>();
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    /** Whether {@code text} names the field: as {@code "name"} (a JSON snippet) or {@code `name`}. */
    private static boolean documented(String name, String text) {
        return text.contains("\"" + name + "\"") || text.contains("`" + name + "`")
                || text.contains("`" + name + ".") || text.contains("." + name + "`");
    }
}
