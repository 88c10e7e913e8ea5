package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, item 8: the README says which releases resist floating-point attacks by pointing to
 * docs/design/floating-point-scope.md, whose table sorts every release into "covered" (an exact grid point, or
 * post-processing of grid points) and "not covered" (noise shaped by the data, computed in floating point). Each
 * release's guarantee must say the same: the covered ones name their discrete noise, the others say that floating
 * point is outside the proof. Mutant: dropping the floating-point clause from subsample-and-aggregate's notes (or
 * from an uncertified sampler's) fails here.
 */
class FloatingPointScopeTest {

    @TempDir
    Path dir;

    private Path csv(String name, int n, int d, double scale, boolean labels) throws Exception {
        SplittableRandom r = new SplittableRandom(name.hashCode());
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double v = labels && j == d - 1 ? (r.nextBoolean() ? 1 : -1)
                        : Math.max(-0.5, Math.min(0.5, scale * r.nextGaussian()));
                sb.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.6f", v));
            }
            sb.append('\n');
        }
        Path p = dir.resolve(name + ".csv");
        Files.writeString(p, sb.toString());
        return p;
    }

    private static String notes(Path in, String... command) throws Exception {
        List<String> args = new ArrayList<>(List.of("--json", "--engine", "cpu", "--insecure-seed", "5"));
        for (String c : command) {
            args.add(c.equals("@IN") ? in.toString() : c);
        }
        MainTest.Run r = MainTest.run(args.toArray(new String[0]));
        assertTrue(r.code == 0 || r.code == Main.EXIT_FAIL, String.join(" ", command) + ": " + r.err);
        JsonNode g = r.json().get("guarantee");
        return g.get("notes").asText();
    }

    @Test
    void everyReleaseSaysWhetherFloatingPointIsCovered() throws Exception {
        Path x = csv("x", 3000, 3, 0.3, false);
        Path blr = csv("blr", 500, 3, 0.3, true);
        Path gpr = csv("gpr", 500, 2, 0.3, false);
        Path m = dir.resolve("M.npy");
        String[][] covered = {
            {"mean", "--input", "@IN", "--method", "clipped", "--clip", "2", "--rho", "0.5"},
            {"mean", "--input", "@IN", "--method", "anisotropic", "--variances", "1,1,1", "--epsilon", "2"},
            {"mean", "--input", "@IN", "--method", "coordinate", "--variances", "1,1,1", "--epsilon", "2"},
            {"second-moment", "--input", "@IN", "--method", "analyze-gauss", "--rho", "1", "--clip", "2"},
            {"second-moment", "--input", "@IN", "--method", "coinpress", "--rho", "1", "--clip", "2"},
            {"second-moment", "--input", "@IN", "--method", "recursive", "--rho", "1", "--clip", "2",
                "--min-eigenvalue", "0.005"},
        };
        for (String[] c : covered) {
            String n = notes(x, c).toLowerCase(Locale.ROOT);
            assertTrue(n.contains("discrete"), String.join(" ", c) + ": " + n);
            assertTrue(!n.contains("floating-point arithmetic is not covered"), String.join(" ", c) + ": " + n);
        }
        List<String[]> uncovered = new ArrayList<>();
        uncovered.add(new String[] {"mean", "--input", "@IN", "--method", "bhs", "--epsilon", "1", "--delta", "0.1",
            "--uncertified"});
        uncovered.add(new String[] {"sample", "--input", "@IN", "--epsilon", "1", "--delta", "0.1", "--constants",
            "n1=800,n2=1000"});
        uncovered.add(new String[] {"second-moment", "--input", "@IN", "--method", "subsample-aggregate", "--rho",
            "20", "--clip", "2", "--option", "group-size=60", "--option", "uncertified=1"});
        for (String w : new String[] {"none", "lsv", "poisson", "ptr"}) {
            List<String> p = new ArrayList<>(List.of("project", "--input", "@IN", "--rank", "2", "--epsilon", "1",
                    "--delta", "1e-6", "--row-bound", "1", "--output", m.toString(), "--wrapper", w));
            if (w.equals("poisson")) {
                p.addAll(List.of("--q", "0.5"));
            }
            if (w.equals("ptr")) {
                p.addAll(List.of("--ptr-noise", "500"));
            }
            uncovered.add(p.toArray(new String[0]));
        }
        int checked = 0;
        for (String[] c : uncovered) {
            String n = notes(x, c).toLowerCase(Locale.ROOT);
            assertTrue(n.contains("floating-point") && n.contains("not covered"), String.join(" ", c) + ": " + n);
            checked++;
        }
        String b = notes(blr, "mechanism", "blr", "--input", "@IN", "--lambda", "1", "--row-bound", "1",
                "--max-rows", "1000", "--epsilon", "1", "--delta", "1e-5").toLowerCase(Locale.ROOT);
        assertTrue(b.contains("floating-point") && b.contains("not covered"), b);
        String g = notes(gpr, "mechanism", "gpr", "--input", "@IN", "--query", "0.3", "--noise-variance", "1",
                "--label-bound", "1", "--max-rows", "1000", "--epsilon", "1", "--delta", "1e-5")
                .toLowerCase(Locale.ROOT);
        assertTrue(g.contains("floating-point") && g.contains("not covered"), g);
        assertEquals(7, checked);
    }
}
