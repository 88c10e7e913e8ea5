package org.dpgauss.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.dpgauss.testing.DataLeakScanner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, item 2: no data-derived value in any message, log or exception. Every private command of the command
 * line runs on bad and extreme inputs (a NaN, an infinity, a ragged row, a malformed number, one row at
 * {@code 7e299}, every row near {@code 1e-300}, huge and tiny radii, values that leave the noise grid, FAIL paths)
 * and everything it prints (stdout, stderr, the message chain of an escaping exception) is scanned by
 * {@link DataLeakScanner} for the numbers of the data: each value, the exact column means (over n, n - 1, n + 1),
 * sums, extremes, the row norms and squared norms, the largest norm, and, for the add/remove commands
 * ({@code project}, {@code mechanism}), the row count n and n +- 1. The released (noised) values of a PASS are the
 * one thing not scanned: they are the release.
 *
 * <p>Before the fix, {@code mean --method clipped --clip 1e200} on the row at {@code 7e299} (the radius whose
 * square overflows, issue 24 item 1) exited 1 with "query value=4.876...E296 is ... grid spacings of g=...": the
 * exact non-private mean of column 1, from {@code privacy/noise/NoiseGrid.index}. Deterministic (seeded noise);
 * {@code validate} and {@code inspect} are excluded, being non-private diagnostics that say so.
 */
class NoDataInMessagesTest {

    @TempDir
    Path dir;

    /** Rows of a dataset and the text written for it (a malformed cell replaces one value in the text). */
    private static final class Data {
        final String name;
        final double[][] rows;
        final String text;

        Data(String name, double[][] rows, String text) {
            this.name = name;
            this.rows = rows;
            this.text = text;
        }
    }

    /** A value with nine significant digits, so that a leak of it is long enough to be recognised. */
    private static double nine(double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.9g", v));
    }

    /** n rows of d columns: Gaussian around {@code centre} with standard deviation {@code scale}. */
    private static double[][] gaussian(int n, int d, double centre, double scale, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                row[j] = nine(centre + scale * r.nextGaussian());
            }
        }
        return x;
    }

    private static String csv(double[][] rows) {
        StringBuilder sb = new StringBuilder();
        for (double[] r : rows) {
            for (int j = 0; j < r.length; j++) {
                sb.append(j == 0 ? "" : ",").append(r[j]);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static double[][] with(double[][] base, int row, double[] replacement) {
        double[][] x = new double[base.length][];
        for (int i = 0; i < base.length; i++) {
            x[i] = i == row ? replacement.clone() : base[i].clone();
        }
        return x;
    }

    /** The bad and extreme variants of a base dataset (row 8 is the odd one: not the last, so it names no n). */
    private static List<Data> variants(String prefix, double[][] base, boolean labelled) {
        List<Data> v = new ArrayList<>();
        int d = base[0].length;
        v.add(new Data(prefix + "-clean", base, csv(base)));
        double[] huge = {7.31946213e299, -5.41231877e299, 6.27193452e299};
        double[] tiny = {7.31946213e-300, -5.41231877e-300, 6.27193452e-300};
        double[] hugeRow = new double[d];
        double[] tinyRow = new double[d];
        for (int j = 0; j < d; j++) {
            hugeRow[j] = huge[j % 3];
            tinyRow[j] = tiny[j % 3];
        }
        if (labelled) { // keep the label a valid one: the odd row is in the features
            hugeRow[d - 1] = base[7][d - 1];
            tinyRow[d - 1] = base[7][d - 1];
        }
        double[][] h = with(base, 7, hugeRow);
        v.add(new Data(prefix + "-huge-row", h, csv(h)));
        double[][] t = with(base, 7, tinyRow);
        v.add(new Data(prefix + "-tiny-row", t, csv(t)));
        double[][] all = new double[base.length][d];
        for (int i = 0; i < base.length; i++) {
            for (int j = 0; j < d; j++) {
                all[i][j] = labelled && j == d - 1 ? base[i][j] : nine(base[i][j] * 1.23456789e-300);
            }
        }
        v.add(new Data(prefix + "-all-tiny", all, csv(all)));
        double[] nan = base[7].clone();
        nan[1 % d] = Double.NaN;
        double[][] xn = with(base, 7, nan);
        v.add(new Data(prefix + "-nan", xn, csv(xn)));
        double[] inf = base[7].clone();
        inf[0] = Double.POSITIVE_INFINITY;
        double[][] xi = with(base, 7, inf);
        v.add(new Data(prefix + "-inf", xi, csv(xi)));
        double[] ragged = java.util.Arrays.copyOf(base[7], d - 1);
        double[][] xr = with(base, 7, ragged);
        v.add(new Data(prefix + "-ragged", xr, csv(xr)));
        // a malformed cell "3.14159265.5" in row 8: the reader must not quote it (3.14159265 is a secret)
        double[] bad = base[7].clone();
        bad[0] = 3.14159265;
        double[][] xb = with(base, 7, bad);
        String text = csv(xb).replaceFirst("(?m)^3\\.14159265,", "3.14159265.5,");
        v.add(new Data(prefix + "-malformed", xb, text));
        // the label outside its domain (blr: not +-1; gpr: above the bound)
        if (labelled) {
            double[] label = base[7].clone();
            label[d - 1] = 0.618033989;
            double[][] xl = with(base, 7, label);
            v.add(new Data(prefix + "-bad-label", xl, csv(xl)));
        }
        return v;
    }

    private Path write(Data data) throws Exception {
        Path p = dir.resolve(data.name + ".csv");
        Files.writeString(p, data.text);
        return p;
    }

    /** Runs the command line, catching whatever escapes, and returns every text it produced. */
    private static List<String[]> texts(String[] args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String[]> texts = new ArrayList<>();
        int code;
        try {
            code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        } catch (RuntimeException | Error e) {
            code = -1;
            for (Throwable t = e; t != null; t = t.getCause()) {
                texts.add(new String[] {"exception " + t.getClass().getSimpleName(), String.valueOf(t.getMessage())});
            }
        }
        texts.add(new String[] {"stderr (exit " + code + ")", err.toString()});
        texts.add(new String[] {"stdout (exit " + code + ")", releasedValuesRemoved(out.toString())});
        return texts;
    }

    /**
     * The output without the released values of a PASS (top-level numbers and numeric arrays of the JSON): they are
     * the noised release, close to the data by design. Everything else (parameters, accuracy, guarantee, notes,
     * FAIL meaning, text-mode lines of a FAIL or an error) is scanned.
     */
    private static String releasedValuesRemoved(String out) {
        if (!out.strip().startsWith("{")) {
            return out.startsWith("PASS") ? "" : out; // text mode: only FAILs and errors are scanned
        }
        try {
            JsonNode j = Json.MAPPER.readTree(out);
            if (j.isObject() && "PASS".equals(j.path("status").asText())) {
                ObjectNode o = (ObjectNode) j;
                List<String> drop = new ArrayList<>();
                for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
                    String k = it.next();
                    JsonNode v = o.get(k);
                    if (v.isNumber() || v.isArray()) {
                        drop.add(k);
                    }
                }
                o.remove(drop);
                return Json.MAPPER.writeValueAsString(o);
            }
        } catch (Exception e) {
            return out; // not JSON after all: scanned whole
        }
        return out;
    }

    private void scan(List<Data> datasets, List<String[]> commands, boolean addRemove, List<String> leaks,
            int[] runs) throws Exception {
        for (Data data : datasets) {
            DataLeakScanner scanner = DataLeakScanner.of(data.rows, addRemove);
            Path in = write(data);
            for (String[] c : commands) {
                for (boolean json : new boolean[] {true, false}) {
                    if (!json && !data.name.endsWith("-huge-row") && !data.name.endsWith("-nan")) {
                        continue; // text mode on two variants: the messages are the same strings
                    }
                    List<String> args = new ArrayList<>(List.of("--engine", "cpu", "--insecure-seed", "3"));
                    if (json) {
                        args.add("--json");
                    }
                    for (String a : c) {
                        args.add(a.replace("@IN", in.toString()).replace("@OUT", dir.resolve("out.npy").toString()));
                    }
                    String what = data.name + ": dpgauss " + String.join(" ", c) + (json ? " --json" : "");
                    runs[0]++;
                    for (String[] t : texts(args.toArray(new String[0]))) {
                        leaks.addAll(scanner.report(what + " [" + t[0] + "]", t[1]));
                    }
                }
            }
        }
    }

    @Test
    void noPrivateCommandPrintsANumberOfTheData() throws Exception {
        List<String> leaks = new ArrayList<>();
        int[] runs = {0};
        // replace-one commands (n public): means, sampler, second moments
        double[][] base = gaussian(1501, 3, 3.1, 1.0, 24);
        List<String[]> replaceOne = List.of(
                new String[] {"mean", "--input", "@IN", "--method", "clipped", "--clip", "5", "--rho", "0.5"},
                new String[] {"mean", "--input", "@IN", "--method", "clipped", "--clip", "1e200", "--rho", "0.5"},
                new String[] {"mean", "--input", "@IN", "--method", "clipped", "--clip", "1e-290", "--rho", "0.5"},
                new String[] {"mean", "--input", "@IN", "--method", "clipped", "--clip", "auto", "--rho", "0.5"},
                new String[] {"mean", "--input", "@IN", "--method", "anisotropic", "--variances", "1,1,1",
                    "--epsilon", "2"},
                new String[] {"mean", "--input", "@IN", "--method", "folklore", "--variances", "1,1,1",
                    "--epsilon", "2"},
                new String[] {"mean", "--input", "@IN", "--method", "coordinate", "--variances", "1,1,1",
                    "--epsilon", "2"},
                new String[] {"mean", "--input", "@IN", "--method", "bhs", "--epsilon", "1", "--delta", "0.1",
                    "--uncertified"},
                new String[] {"sample", "--input", "@IN", "--epsilon", "1", "--delta", "0.1", "--constants",
                    "n1=300,n2=500"},
                new String[] {"second-moment", "--input", "@IN", "--method", "recursive", "--rho", "1", "--clip",
                    "4", "--min-eigenvalue", "0.005"},
                new String[] {"second-moment", "--input", "@IN", "--method", "coinpress", "--rho", "1", "--clip",
                    "4"},
                new String[] {"second-moment", "--input", "@IN", "--method", "analyze-gauss", "--rho", "1",
                    "--clip", "4"},
                new String[] {"second-moment", "--input", "@IN", "--method", "analyze-gauss", "--rho", "1",
                    "--clip", "1e140"},
                new String[] {"second-moment", "--input", "@IN", "--method", "analyze-gauss", "--rho", "1",
                    "--radius", "10"},
                new String[] {"second-moment", "--input", "@IN", "--method", "subsample-aggregate", "--rho", "20",
                    "--clip", "4", "--option", "group-size=60", "--option", "uncertified=1"});
        scan(variants("means", base, false), replaceOne, false, leaks, runs);
        // add/remove commands (n private): projection and its wrappers, BLR, GPR
        List<String[]> project = List.of(
                new String[] {"project", "--input", "@IN", "--rank", "2", "--epsilon", "1", "--delta", "1e-6",
                    "--row-bound", "10", "--output", "@OUT"},
                new String[] {"project", "--input", "@IN", "--rank", "2", "--epsilon", "1", "--delta", "1e-6",
                    "--row-bound", "10", "--output", "@OUT", "--clip-rows"},
                new String[] {"project", "--input", "@IN", "--rank", "2", "--epsilon", "1", "--delta", "1e-6",
                    "--row-bound", "10", "--output", "@OUT", "--wrapper", "ptr", "--ptr-noise", "500"},
                new String[] {"project", "--input", "@IN", "--rank", "2", "--epsilon", "1", "--delta", "1e-6",
                    "--row-bound", "10", "--output", "@OUT", "--wrapper", "poisson", "--q", "0.5"});
        scan(variants("project", gaussian(1201, 3, 0.0, 1.0, 25), false), project, true, leaks, runs);
        // features inside the unit ball, labels +-1 (BLR) or inside [-1, 1] (GPR): the clean data are in the domain
        double[][] blr = gaussian(1201, 3, 0.0, 0.25, 26);
        double[][] gpr = gaussian(301, 2, 0.0, 0.25, 27); // gpr factorises n x n
        SplittableRandom labels = new SplittableRandom(28);
        for (double[] r : blr) {
            double norm = Math.hypot(r[0], r[1]);
            if (norm > 0.95) {
                r[0] = nine(r[0] * 0.9 / norm);
                r[1] = nine(r[1] * 0.9 / norm);
            }
            r[2] = labels.nextBoolean() ? 1 : -1;
        }
        for (double[] r : gpr) {
            r[1] = Math.abs(r[1]) > 0.95 ? nine(Math.signum(r[1]) * 0.9) : r[1];
        }
        List<String[]> blrCommands = List.<String[]>of(new String[] {"mechanism", "blr", "--input", "@IN",
            "--lambda", "1", "--row-bound", "1", "--max-rows", "100000", "--epsilon", "1", "--delta", "1e-5"});
        List<String[]> gprCommands = List.<String[]>of(new String[] {"mechanism", "gpr", "--input", "@IN",
            "--query", "0.3", "--noise-variance", "1", "--label-bound", "1", "--max-rows", "100000", "--epsilon",
            "1", "--delta", "1e-5"});
        scan(variants("blr", blr, true), blrCommands, true, leaks, runs);
        scan(variants("gpr", gpr, true), gprCommands, true, leaks, runs);
        assertTrue(runs[0] > 150, "every case ran: " + runs[0]);
        assertTrue(leaks.isEmpty(), leaks.size() + " data-derived numbers printed in " + runs[0] + " runs:\n"
                + String.join("\n", leaks.subList(0, Math.min(leaks.size(), 30))));
    }
}
