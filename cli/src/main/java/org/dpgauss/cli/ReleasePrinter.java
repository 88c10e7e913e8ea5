package org.dpgauss.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleasedValue;

/**
 * The one renderer of a {@link PrivateRelease} on the command line, in text and in JSON. JSON is
 * {@link PrivateRelease#toMap()} plus the command's own public context (input and output paths, the engine),
 * at full precision; text rounds to 4 significant digits and shortens long vectors and matrices.
 */
final class ReleasePrinter {

    /** Vectors longer than this are shortened in text mode. */
    private static final int TEXT_ITEMS = 10;

    private ReleasePrinter() {
    }

    /**
     * Prints the release and returns the command's exit code: 0 for PASS, {@link Main#EXIT_FAIL} for FAIL.
     *
     * @param main the command line (for --json and the output stream)
     * @param release the release
     * @param context public context of the command (e.g. {@code input}, {@code engine}), may be empty
     * @return the exit code
     */
    static int print(Main main, PrivateRelease release, Map<String, Object> context) {
        PrintWriter out = main.spec.commandLine().getOut();
        if (!context.containsKey("warnings")) {
            // a statement in units of a public radius squared: warn when the radius is large against it (issue 29)
            java.util.Optional<List<String>> w = RadiusAdvice.forRadiusUnits(release);
            if (w.isPresent()) {
                RadiusAdvice.printWarnings(main, w.get());
                if (main.json) {
                    context = new LinkedHashMap<>(context);
                    context.put("warnings", w.get());
                }
            }
        }
        if (main.json) {
            Map<String, Object> m = release.toMap();
            Map<String, Object> all = new LinkedHashMap<>();
            all.putAll(m);
            for (Map.Entry<String, Object> e : context.entrySet()) {
                all.putIfAbsent(e.getKey(), e.getValue());
            }
            out.println(Json.write(all));
        } else {
            for (String line : text(release, context)) {
                out.println(line);
            }
        }
        return release.isPass() ? 0 : Main.EXIT_FAIL;
    }

    /** The text lines of a release (no line over about 100 characters except long single values). */
    static List<String> text(PrivateRelease r, Map<String, Object> context) {
        List<String> lines = new ArrayList<>();
        if (r.isPass()) {
            lines.add("PASS  " + r.mechanism() + ": " + r.description());
            for (Map.Entry<String, ReleasedValue> e : r.values().entrySet()) {
                lines.addAll(valueLines(e.getKey(), e.getValue()));
            }
        } else {
            lines.add("FAIL  " + r.mechanism() + ": nothing was released.");
            if (!r.failMeaning().isEmpty()) {
                lines.addAll(wrap("  what a FAIL means: ", r.failMeaning()));
            }
            lines.add("  (see \"When a release FAILs\" in docs/cli.md; exit code " + Main.EXIT_FAIL + ")");
        }
        r.accuracy().ifPresent(a -> lines.addAll(wrap("  accuracy:   ", accuracyText(a))));
        StringBuilder p = new StringBuilder();
        for (Map.Entry<String, Object> e : r.parameters().toMap().entrySet()) {
            if (p.length() > 0) {
                p.append(", ");
            }
            p.append(e.getKey()).append('=').append(format(e.getValue()));
        }
        if (p.length() > 0) {
            lines.addAll(wrap("  parameters: ", p.toString()));
        }
        lines.addAll(wrap("  guarantee:  ", r.guarantee().describe()));
        for (Map.Entry<String, Object> e : context.entrySet()) {
            // aligned with the release's own labels ("  accuracy:   "), long values wrapped
            lines.addAll(wrap(String.format(Locale.ROOT, "  %-11s ", e.getKey() + ":"), format(e.getValue())));
        }
        lines.add("  random:     " + r.randomness());
        if (r.insecure()) {
            lines.add("WARNING: --insecure-seed was given: the release above is predictable and NOT private.");
        }
        return lines;
    }

    /** e.g. {@code L2 distance to the mean: expected 0.0123, at most 0.0201 with probability 0.95 (if ...)}. */
    static String accuracyText(org.dpgauss.release.Accuracy a) {
        StringBuilder units = new StringBuilder();
        for (org.dpgauss.release.Accuracy.Unit u : a.units()) {
            units.append("; in units of ").append(u.name()).append(": expected ").append(fmt(a.expected() / u.value()))
                    .append(", at most ").append(fmt(a.bound() / u.value()));
        }
        return a.metric() + ": expected " + fmt(a.expected())
                + (a.isScenario() ? " (" + a.expectedBasis() + "; only the bound covers these data)"
                        : a.isFromRelease() ? " (computed from this " + a.expectedBasis() + ")" : "")
                + ", at most " + fmt(a.bound()) + " with probability "
                + fmt(a.probability()) + units + (a.assumptions().isEmpty() ? "" : ", if " + a.assumptions());
    }

    private static List<String> valueLines(String name, ReleasedValue v) {
        List<String> lines = new ArrayList<>();
        String head = String.format(Locale.ROOT, "  %-11s ", name + ":");
        switch (v.kind()) {
            case SCALAR:
                lines.add(head + fmt(v.asScalar()));
                break;
            case VECTOR:
                lines.addAll(wrap(head, vector(v.asVector())));
                break;
            default:
                double[][] m = v.asMatrix();
                int cols = m.length == 0 ? 0 : m[0].length;
                lines.add(head + m.length + " x " + cols + " matrix" + (m.length > TEXT_ITEMS || cols > TEXT_ITEMS
                        ? " (first rows and columns; --json prints all)" : ""));
                for (int i = 0; i < Math.min(m.length, TEXT_ITEMS); i++) {
                    lines.add("      " + vector(m[i]));
                }
                if (m.length > TEXT_ITEMS) {
                    lines.add("      ...");
                }
        }
        return lines;
    }

    private static String vector(double[] v) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < Math.min(v.length, TEXT_ITEMS); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(fmt(v[i]));
        }
        if (v.length > TEXT_ITEMS) {
            sb.append(", ... (").append(v.length).append(" values; --json prints all)");
        }
        return sb.append(']').toString();
    }

    private static String format(Object v) {
        if (v instanceof Double) {
            return fmt((Double) v);
        }
        if (v instanceof double[]) {
            return vector((double[]) v);
        }
        if (v instanceof double[][]) {
            double[][] m = (double[][]) v;
            return m.length + " x " + (m.length == 0 ? 0 : m[0].length) + " matrix";
        }
        if (v instanceof Map) {
            StringBuilder sb = new StringBuilder("{");
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (sb.length() > 1) {
                    sb.append(", ");
                }
                sb.append(e.getKey()).append('=').append(format(e.getValue()));
            }
            return sb.append('}').toString();
        }
        return String.valueOf(v);
    }

    /** 4 significant digits, no trailing zeros, e.g. 0.001235, 5.757, 1.2e+07. */
    static String fmt(double x) {
        if (x == 0 || !Double.isFinite(x)) {
            return x == 0 ? "0" : Double.toString(x);
        }
        double a = Math.abs(x);
        if (x == Math.rint(x) && a < 1e7) {
            return Long.toString((long) x);
        }
        String s = a >= 1e-4 && a < 1e4 ? String.format(Locale.ROOT, "%.4g", x) : String.format(Locale.ROOT, "%.3e", x);
        if (s.contains("e")) {
            String[] parts = s.split("e");
            return trimZeros(parts[0]) + "e" + parts[1];
        }
        return trimZeros(s);
    }

    private static String trimZeros(String s) {
        if (!s.contains(".")) {
            return s;
        }
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** Wraps {@code text} after {@code head} at about 100 characters, continuing lines indented. */
    static List<String> wrap(String head, String text) {
        List<String> lines = new ArrayList<>();
        String indent = " ".repeat(head.length());
        StringBuilder line = new StringBuilder(head);
        for (String word : text.split(" ")) {
            if (line.length() + word.length() + 1 > 99 && line.length() > head.length()) {
                lines.add(line.toString().stripTrailing());
                line = new StringBuilder(indent);
            }
            if (line.length() > indent.length() && !line.toString().endsWith(" ")) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString().stripTrailing());
        return lines;
    }
}
