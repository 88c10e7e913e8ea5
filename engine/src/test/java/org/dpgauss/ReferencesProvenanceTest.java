package org.dpgauss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every golden value names a source a maintainer can open: citations of {@code docs/references/FILE.md §N} in the
 * test sources and resources point to a file and a section heading that exist, no test cites a file outside the
 * repository, and every row of the calibration golden file cites docs/references or the script that computed it.
 */
class ReferencesProvenanceTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path TEST = Path.of("src", "test");
    private static final Pattern CITATION =
            Pattern.compile("docs/references/([A-Za-z0-9_-]+\\.md)(?:,? §([0-9]+(?:\\.[0-9]+)?))?");

    /** The test sources of this module and of the command-line module (its tests cite references too). */
    private static List<Path> testFiles() throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path dir : List.of(TEST, ROOT.resolve("cli").resolve("src").resolve("test"))) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(dir)) {
                all.addAll(s.filter(Files::isRegularFile)
                        .filter(p -> p.toString().matches(".*\\.(java|csv|txt|py)$"))
                        .filter(p -> !p.endsWith("ReferencesProvenanceTest.java")).toList());
            }
        }
        return all;
    }

    private static boolean hasSection(String markdown, String section) {
        return Pattern.compile("(?m)^#{2,4} " + Pattern.quote(section) + "[. ]").matcher(markdown).find();
    }

    @Test
    void everyCitationOpensAFileAndASection() throws IOException {
        List<String> broken = new ArrayList<>();
        int citations = 0;
        for (Path p : testFiles()) {
            String text = Files.readString(p, StandardCharsets.UTF_8);
            if (text.contains("/work/shared")) {
                broken.add(p + ": cites a path outside the repository");
            }
            Matcher m = CITATION.matcher(text);
            while (m.find()) {
                citations++;
                Path ref = ROOT.resolve("docs/references").resolve(m.group(1));
                if (!Files.isRegularFile(ref)) {
                    broken.add(p + ": " + m.group() + " (no such file)");
                } else if (m.group(2) != null && !hasSection(Files.readString(ref, StandardCharsets.UTF_8), m.group(2))) {
                    broken.add(p + ": " + m.group() + " (no such section)");
                }
            }
        }
        assertEquals(List.of(), broken);
        assertTrue(citations > 200, "found only " + citations + " citations of docs/references");
    }

    @Test
    void everyCalibrationGoldenRowHasAnOpenableSource() throws IOException {
        Path golden = TEST.resolve("resources/org/dpgauss/calibration/golden-values.csv");
        List<String> unsourced = new ArrayList<>();
        int rows = 0;
        for (String line : Files.readAllLines(golden, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            rows++;
            String provenance = line.split(";")[5];
            if (!provenance.contains("docs/references/") && !provenance.contains("generate_golden.py")) {
                unsourced.add(line);
            }
        }
        assertEquals(List.of(), unsourced);
        assertEquals(204, rows);
    }
}
