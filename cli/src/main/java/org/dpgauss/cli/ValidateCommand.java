package org.dpgauss.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpgauss.io.DataReader;
import org.dpgauss.linalg.L2Clip;
import org.dpgauss.linalg.RowBlockMatrix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * Reads a data file with the readers every mechanism uses and reports its shape; with public bounds, also which rows
 * a release would bring into its domain (clip, sign-map, drop). NOT private: it reads and reports the data, for the
 * data owner before a release (issue 24, item 5: the releases themselves never refuse such rows).
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Check that a .csv or .npy file is readable by dpgauss and report its shape.",
            "Rejects NaN, infinity, non-numeric or empty cells, ragged rows, empty files and bad npy headers with "
                    + "the file, line/row and column; exit code 1.",
            "With public bounds (--row-bound, --label-bound, --binary-labels, --max-rows) it also reports the rows a "
                    + "release would bring into its domain (clip to the bound, clip or sign-map the label, keep a "
                    + "secret random --max-rows of the rows): how many and the first row numbers. This report is NOT "
                    + "private (it is for the data owner, before a release); the releases do the same mapping "
                    + "without saying so, and never fail on such rows. Exit code 0 either way."})
final class ValidateCommand implements Callable<Integer> {

    @ParentCommand
    Main main;

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Data file (.csv or .npy).")
    Path input;

    @Option(names = "--row-bound", paramLabel = "R", description = "Report rows whose L2 norm (over the first "
            + "--features columns) exceeds R: the --radius of second-moment, the --row-bound of project and "
            + "mechanism blr, the --clip of mean (with the centre subtracted first by you). Not private.")
    Double rowBound;

    @Option(names = "--features", paramLabel = "K", description = "How many leading columns form the row whose norm "
            + "--row-bound checks (default: all; the columns before the label for blr and gpr).")
    Integer features;

    @Option(names = "--label-bound", paramLabel = "B", description = "Report rows whose last column (the label) "
            + "exceeds B in absolute value (mechanism gpr clips it to [-B, B]). Not private.")
    Double labelBound;

    @Option(names = "--binary-labels", description = "Report rows whose last column is not -1 or +1 (mechanism blr "
            + "maps it to +1 if positive, else -1). Not private.")
    boolean binaryLabels;

    @Option(names = "--max-rows", paramLabel = "N", description = "Report whether the file has more than N rows "
            + "(mechanisms blr and gpr then use a secret uniformly random N of them). Not private.")
    Integer maxRows;

    /** How many row numbers a report lists. */
    static final int LISTED = 10;

    @Override
    public Integer call() throws IOException {
        RowBlockMatrix x = DataReader.read(input);
        String name = input.getFileName().toString().toLowerCase(Locale.ROOT);
        String format = name.endsWith(".npy") ? "npy" : "csv";
        PrintWriter out = main.spec.commandLine().getOut();
        Map<String, Object> bounds = bounds(x);
        if (main.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("file", input.toString());
            m.put("format", format);
            m.put("rows", x.rows());
            m.put("cols", x.cols());
            if (!bounds.isEmpty()) {
                m.put("bounds", bounds);
                m.put("private", false);
            }
            out.println(Json.write(m));
        } else {
            out.printf(Locale.ROOT, "%s: %s, %d rows x %d columns, all values finite%n", input, format, x.rows(),
                    x.cols());
            for (Map.Entry<String, Object> e : bounds.entrySet()) {
                out.printf(Locale.ROOT, "%s: %s%n", e.getKey(), e.getValue());
            }
            if (!bounds.isEmpty()) {
                out.println("(this report reads the data and is NOT private; a release maps such rows into its domain"
                        + " without saying so)");
            }
        }
        return 0;
    }

    /** The rows outside each public bound given: a count and the first row numbers (1-based). Not private. */
    private Map<String, Object> bounds(RowBlockMatrix x) {
        Map<String, Object> m = new LinkedHashMap<>();
        int d = x.cols();
        if (features != null && (features < 1 || features > d)) {
            throw new IllegalArgumentException("--features=" + features + " is outside [1, " + d + "]");
        }
        if (rowBound != null && !(rowBound > 0)) {
            throw new IllegalArgumentException("--row-bound=" + rowBound + " must be > 0");
        }
        if (labelBound != null && !(labelBound >= 0)) {
            throw new IllegalArgumentException("--label-bound=" + labelBound + " must be >= 0");
        }
        int k = features != null ? features : d;
        double[] row = new double[d];
        Rows aboveBound = new Rows();
        Rows labels = new Rows();
        Rows notBinary = new Rows();
        for (int i = 0; i < x.rows(); i++) {
            x.copyRow(i, row, 0);
            if (rowBound != null && L2Clip.exceeds(row, 0, k, rowBound)) {
                aboveBound.add(i);
            }
            double y = row[d - 1];
            if (labelBound != null && !(Math.abs(y) <= labelBound)) {
                labels.add(i);
            }
            if (binaryLabels && y != 1 && y != -1) {
                notBinary.add(i);
            }
        }
        if (rowBound != null) {
            m.put("rowsAboveRowBound", aboveBound.toMap("clipped onto the ball of radius " + rowBound));
        }
        if (labelBound != null) {
            m.put("labelsAboveLabelBound", labels.toMap("clipped to [-" + labelBound + ", " + labelBound + "]"));
        }
        if (binaryLabels) {
            m.put("labelsNotPlusMinusOne", notBinary.toMap("mapped to +1 if positive, else -1"));
        }
        if (maxRows != null) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("maxRows", maxRows);
            r.put("exceeded", x.rows() > maxRows);
            r.put("rule", "a release uses a secret uniformly random " + maxRows + " of the rows");
            m.put("rowsBeyondMaxRows", r);
        }
        return m;
    }

    /** A count and the first {@value #LISTED} row numbers. */
    private static final class Rows {
        long count;
        final java.util.List<Long> first = new java.util.ArrayList<>();

        void add(int i) {
            count++;
            if (first.size() < LISTED) {
                first.add(i + 1L);
            }
        }

        Map<String, Object> toMap(String rule) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("count", count);
            m.put("firstRows", first);
            m.put("rule", rule);
            return m;
        }
    }
}
