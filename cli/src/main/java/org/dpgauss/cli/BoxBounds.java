package org.dpgauss.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The public box of {@code mean --bounds}: one range {@code LO:HI} for every column, or a file with a range per
 * column (CSV: one line {@code lo,hi} per column, an optional header line; JSON: {@code {"lower": [..], "upper":
 * [..]}} or {@code [[lo, hi], ..]}). Public facts only: parsed before the data are read.
 */
final class BoxBounds {

    private final double[] lower; // null for one range for every column
    private final double[] upper;
    private final double lo;
    private final double hi;

    private BoxBounds(double[] lower, double[] upper, double lo, double hi) {
        this.lower = lower;
        this.upper = upper;
        this.lo = lo;
        this.hi = hi;
    }

    /**
     * @param spec {@code LO:HI} or a file path
     * @return the bounds
     * @throws IOException if the file cannot be read
     */
    static BoxBounds parse(String spec) throws IOException {
        String s = spec.strip();
        int colon = s.indexOf(':');
        if (colon > 0 && colon == s.lastIndexOf(':') && !Files.exists(Path.of(s))) {
            try {
                double a = Double.parseDouble(s.substring(0, colon).strip());
                double b = Double.parseDouble(s.substring(colon + 1).strip());
                check(a, b, 0);
                return new BoxBounds(null, null, a, b);
            } catch (NumberFormatException e) {
                // not a range: a file name with a colon
            }
        }
        Path p = Path.of(s);
        if (!Files.isRegularFile(p)) {
            throw new IllegalArgumentException("--bounds=" + spec + " is neither a range LO:HI nor a readable file");
        }
        String text = Files.readString(p, StandardCharsets.UTF_8);
        List<double[]> ranges = p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json")
                ? json(text) : csv(text);
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("--bounds file " + p.getFileName() + " has no ranges");
        }
        double[] l = new double[ranges.size()];
        double[] u = new double[ranges.size()];
        for (int j = 0; j < l.length; j++) {
            l[j] = ranges.get(j)[0];
            u[j] = ranges.get(j)[1];
            check(l[j], u[j], j + 1);
        }
        return new BoxBounds(l, u, Double.NaN, Double.NaN);
    }

    private static List<double[]> csv(String text) {
        List<double[]> out = new ArrayList<>();
        String[] lines = text.split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("[,;\\t ]+");
            if (f.length != 2) {
                throw new IllegalArgumentException("--bounds CSV line " + (i + 1) + " has " + f.length
                        + " fields; expected lo,hi");
            }
            try {
                out.add(new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1])});
            } catch (NumberFormatException e) {
                if (out.isEmpty() && i == firstContent(lines)) {
                    continue; // a header line
                }
                throw new IllegalArgumentException("--bounds CSV line " + (i + 1) + " is not two numbers lo,hi");
            }
        }
        return out;
    }

    private static int firstContent(String[] lines) {
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (!l.isEmpty() && !l.startsWith("#")) {
                return i;
            }
        }
        return -1;
    }

    private static List<double[]> json(String text) throws IOException {
        JsonNode root = new ObjectMapper().readTree(text);
        List<double[]> out = new ArrayList<>();
        if (root != null && root.isObject() && root.has("lower") && root.has("upper")) {
            JsonNode l = root.get("lower");
            JsonNode u = root.get("upper");
            if (!l.isArray() || !u.isArray() || l.size() != u.size()) {
                throw new IllegalArgumentException("--bounds JSON: \"lower\" and \"upper\" must be arrays of one length");
            }
            for (int j = 0; j < l.size(); j++) {
                out.add(new double[] {number(l.get(j)), number(u.get(j))});
            }
            return out;
        }
        if (root != null && root.isArray()) {
            for (JsonNode r : root) {
                if (!r.isArray() || r.size() != 2) {
                    throw new IllegalArgumentException("--bounds JSON: every entry must be a pair [lo, hi]");
                }
                out.add(new double[] {number(r.get(0)), number(r.get(1))});
            }
            return out;
        }
        throw new IllegalArgumentException("--bounds JSON must be {\"lower\": [..], \"upper\": [..]} or [[lo, hi], ..]");
    }

    private static double number(JsonNode n) {
        if (!n.isNumber()) {
            throw new IllegalArgumentException("--bounds JSON: every bound must be a number");
        }
        return n.asDouble();
    }

    private static void check(double a, double b, int column) {
        if (!Double.isFinite(a) || !Double.isFinite(b) || !(a < b) || !Double.isFinite(b - a)) {
            throw new IllegalArgumentException("--bounds" + (column == 0 ? "" : " column " + column) + ": the range ["
                    + a + ", " + b + "] must be finite with LO < HI");
        }
    }

    /**
     * @param d the number of columns
     * @return {lower, upper}, each of length d
     */
    double[][] forDimension(int d) {
        if (lower == null) {
            double[] l = new double[d];
            double[] u = new double[d];
            java.util.Arrays.fill(l, lo);
            java.util.Arrays.fill(u, hi);
            return new double[][] {l, u};
        }
        if (lower.length != d) {
            throw new IllegalArgumentException("--bounds gives " + lower.length + " ranges but the data have " + d
                    + " columns");
        }
        return new double[][] {lower.clone(), upper.clone()};
    }
}
