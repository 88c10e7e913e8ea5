package org.dpgauss.testing;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the numbers of a dataset in text (issue 24, item 2: no data-derived value in any message, log or
 * exception). Built from the rows of a dataset, it knows each data value and simple functions of them: every
 * column's exact mean and sum, every row's L2 norm and squared norm, the largest norm, each column's extremes (and,
 * under add/remove neighbours, the row count n and n +- 1, which are then private).
 *
 * <p><b>Matching, whatever the formatting.</b> Every decimal number in the text ({@code 2.4390243902439024E298},
 * {@code 2.439e+298}, {@code 0.00314}, {@code -1234.5}) is parsed with its number of significant digits {@code s}
 * (leading and trailing zeros of the significand not counted); it matches a secret {@code v} when {@code |v|}
 * rounded to {@code s} significant digits is the printed magnitude. A number with too few digits to identify
 * anything is ignored: below {@value #MIN_DIGITS_AGGREGATE} significant digits for the aggregates (a handful of
 * values), below {@value #MIN_DIGITS_VALUE} for single data values (thousands of them, which would otherwise match
 * unrelated short numbers by chance). A row count is matched as a whole integer token (no digit, point or exponent
 * next to it). Test data should therefore use values with many significant digits (not round numbers such as
 * {@code 1e300}), so that any leak of them is long enough to be caught.
 */
public final class DataLeakScanner {

    /** Fewest significant digits of a printed number compared with the aggregates. */
    public static final int MIN_DIGITS_AGGREGATE = 4;
    /** Fewest significant digits of a printed number compared with single data values. */
    public static final int MIN_DIGITS_VALUE = 6;

    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");

    private final Map<Double, String> aggregates = new LinkedHashMap<>();
    private final Map<Double, String> values = new LinkedHashMap<>();
    private final Map<Long, String> integers = new LinkedHashMap<>();

    private DataLeakScanner() {
    }

    /**
     * The secrets of a dataset; non-finite entries and ragged rows are skipped in the aggregates (they are what
     * the bad-input cases put in), the finite entries of every row are data values.
     *
     * @param rows the rows as written to the input (ragged allowed)
     * @param rowCountPrivate whether n is private (add/remove neighbours): then n and n +- 1 are secrets too
     * @return the scanner
     */
    public static DataLeakScanner of(double[][] rows, boolean rowCountPrivate) {
        DataLeakScanner s = new DataLeakScanner();
        int d = 0;
        for (double[] r : rows) {
            d = Math.max(d, r.length);
        }
        double[] sum = new double[d];
        double[] lo = new double[d];
        double[] hi = new double[d];
        java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        double maxNorm = 0;
        int wellFormed = 0;
        for (int i = 0; i < rows.length; i++) {
            double[] r = rows[i];
            boolean finite = r.length == d;
            for (double v : r) {
                if (Double.isFinite(v)) {
                    s.values.putIfAbsent(v, "data value (row " + (i + 1) + ")");
                } else {
                    finite = false;
                }
            }
            if (!finite) {
                continue;
            }
            wellFormed++;
            double norm = org.dpgauss.linalg.Norms.euclidean(r);
            s.aggregate(norm, "L2 norm of row " + (i + 1));
            s.aggregate(norm * norm, "squared L2 norm of row " + (i + 1));
            maxNorm = Math.max(maxNorm, norm);
            for (int j = 0; j < d; j++) {
                sum[j] += r[j] / rows.length; // scaled: no overflow at 1e300
                lo[j] = Math.min(lo[j], r[j]);
                hi[j] = Math.max(hi[j], r[j]);
            }
        }
        s.aggregate(maxNorm, "largest L2 norm");
        for (int j = 0; j < d; j++) {
            double meanAll = sum[j] * rows.length / wellFormed;
            s.aggregate(meanAll, "mean of column " + (j + 1));
            s.aggregate(sum[j] * rows.length, "sum of column " + (j + 1));
            s.aggregate(sum[j], "sum of column " + (j + 1) + " / rows");
            s.aggregate(sum[j] * rows.length / (wellFormed + 1), "mean of column " + (j + 1) + " over n+1");
            if (wellFormed > 1) {
                s.aggregate(sum[j] * rows.length / (wellFormed - 1), "mean of column " + (j + 1) + " over n-1");
            }
            s.aggregate(lo[j], "smallest value of column " + (j + 1));
            s.aggregate(hi[j], "largest value of column " + (j + 1));
        }
        if (rowCountPrivate) {
            for (long k : new long[] {rows.length - 1L, rows.length, rows.length + 1L, wellFormed}) {
                s.integers.putIfAbsent(k, "row count " + k + " (private under add/remove)");
            }
        }
        return s;
    }

    /**
     * Adds a secret aggregate (a value computed from the data that the caller knows to be private).
     *
     * @param v the value
     * @param what its description
     * @return this
     */
    public DataLeakScanner aggregate(double v, String what) {
        if (Double.isFinite(v) && v != 0) {
            aggregates.putIfAbsent(Math.abs(v), what);
        }
        return this;
    }

    /**
     * @param text any text produced by a run (message, stdout, stderr)
     * @return a description of each secret found in the text, empty when none is
     */
    public List<String> leaks(String text) {
        List<String> found = new ArrayList<>();
        if (text == null) {
            return found;
        }
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            String token = m.group();
            String plain = token.startsWith("-") || token.startsWith("+") ? token.substring(1) : token;
            BigDecimal printed;
            try {
                printed = new BigDecimal(plain);
            } catch (NumberFormatException e) {
                continue;
            }
            boolean integerToken = m.group(2) == null && m.group(3) == null;
            if (integerToken && !integers.isEmpty()) {
                String hit = integers.get(printed.longValue());
                if (hit != null && printed.compareTo(BigDecimal.valueOf(printed.longValue())) == 0) {
                    found.add("'" + token + "' is the " + hit);
                }
            }
            if (printed.signum() == 0) {
                continue;
            }
            BigDecimal stripped = printed.stripTrailingZeros();
            int digits = stripped.precision();
            if (digits < MIN_DIGITS_AGGREGATE) {
                continue;
            }
            check(token, stripped, digits, aggregates, found);
            if (digits >= MIN_DIGITS_VALUE) {
                check(token, stripped, digits, values, found);
            }
        }
        return found;
    }

    private static void check(String token, BigDecimal printed, int digits, Map<Double, String> secrets,
            List<String> found) {
        double p = printed.doubleValue();
        // half a unit of the last printed digit, and at least 1e-9 relative (the secrets here are computed
        // independently of the library, so their last bits may differ from the value it would print)
        double tolerance = Math.max(0.5 * printed.ulp().doubleValue(), 1e-9 * p);
        for (Map.Entry<Double, String> e : secrets.entrySet()) {
            double v = Math.abs(e.getKey());
            if (Math.abs(p - v) <= tolerance && v != 0) {
                found.add("'" + token + "' is the " + e.getValue() + " (" + v + ")");
            }
        }
    }

    /**
     * @param where what produced the text (for the failure message)
     * @param text the text
     * @return a failure line per leak, empty when the text is clean
     */
    public List<String> report(String where, String text) {
        List<String> out = new ArrayList<>();
        for (String l : leaks(text)) {
            out.add(where + ": " + l + "\n    in: " + abbreviate(text));
        }
        return out;
    }

    private static String abbreviate(String text) {
        String t = text.strip();
        return t.length() > 600 ? t.substring(0, 600) + "..." : t;
    }

    /** @return the number of secrets (values, aggregates, integers) the scanner looks for */
    public int size() {
        return values.size() + aggregates.size() + integers.size();
    }
}
