package org.dpgauss.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * Reads a CSV file of numbers into a {@link RowBlockMatrix}: one row per line, one column per
 * comma-separated value. Immutable; configure with {@link #withHeader} / {@link #header}.
 *
 * <p>The reader is deliberately strict: statistics computed under differential privacy cannot be
 * "fixed" afterwards, so every value that is not an ordinary finite decimal number is an error
 * (a {@link DataFormatException} naming the file, line and column), never a silent default.
 *
 * <h2>Accepted format</h2>
 * <ul>
 *   <li>Values: plain decimal numbers with optional sign, fraction and exponent
 *       ({@code 3}, {@code -0.5}, {@code .5}, {@code 5.}, {@code 1.5e-3}, {@code +2E10}), with
 *       any surrounding spaces or tabs. Parsed by {@link Double#parseDouble} (correctly rounded)
 *       after a stricter grammar check: {@code parseDouble} also accepts hexadecimal floats
 *       ({@code 0x1p3}) and Java type suffixes ({@code 1d}, {@code 2.5f}), which in a data file
 *       are typos or foreign conventions, so they are rejected as non-numeric.</li>
 *   <li>Rejected values: empty cells (including a trailing comma), NaN and infinities in any
 *       spelling ({@code NaN}, {@code nan}, {@code Infinity}, {@code -inf}...), numbers that
 *       overflow a double ({@code 1e400}), quoted values and anything else non-numeric.</li>
 *   <li>Every data line must have as many values as the first (ragged rows are errors).</li>
 *   <li>Line endings: LF, CRLF or CR. Encoding UTF-8; a leading byte-order mark is skipped.</li>
 *   <li>Comments: a line whose first non-blank character is {@code #} is ignored anywhere in
 *       the file. This is what {@code numpy.savetxt(..., header=...)} writes and what
 *       {@code numpy.loadtxt} skips. A {@code #} after a value is <em>not</em> a comment (the
 *       cell is non-numeric), so a stray {@code #} cannot silently truncate a row.</li>
 *   <li>Blank lines (empty or only whitespace) are ignored only at the end of the file; a blank
 *       line before or between rows is an error, since it usually means a truncated or
 *       concatenated file.</li>
 *   <li>Header: see {@link Header}. A header line may use RFC-4180 quoting ({@code "a,b",c});
 *       its column count must match the data.</li>
 *   <li>A file with no data rows (empty, only comments/blank lines, or only a header) is an
 *       error.</li>
 * </ul>
 *
 * <p>The file is streamed line by line, so its size is limited by memory for the matrix only
 * (about twice the data at peak, see {@link RowAccumulator}), not by Java array limits.
 */
public final class CsvReader {

    /** Whether the first non-comment line of the file is a header of column names. */
    public enum Header {
        /**
         * Detect: the first line is a header iff it has at least one non-empty cell and
         * <em>no</em> cell that looks like a number (NaN, infinity, hexadecimal and suffixed
         * numbers count as numbers here). A first line mixing numbers and text is treated as data
         * and therefore fails on its first text cell, with a hint: guessing "header" there would
         * silently drop a data row that merely contains a typo.
         */
        AUTO,
        /** The first line is a header, whatever it contains (e.g. numeric names like "2019"). */
        PRESENT,
        /** There is no header; the first line is data. */
        ABSENT
    }

    private final Header header;
    /** Rows per block of the result; {@code <= 0} means the {@link RowBlockMatrix} default. */
    private final int blockRows;

    private CsvReader(Header header, int blockRows) {
        this.header = Objects.requireNonNull(header, "header");
        this.blockRows = blockRows;
    }

    /** A reader that detects a header ({@link Header#AUTO}). */
    public static CsvReader create() {
        return new CsvReader(Header.AUTO, 0);
    }

    /** A reader with the given header handling. */
    public static CsvReader withHeader(Header header) {
        return new CsvReader(header, 0);
    }

    /** A copy of this reader with the given header handling. */
    public CsvReader header(Header newHeader) {
        return new CsvReader(newHeader, blockRows);
    }

    /** The header handling of this reader. */
    public Header headerMode() {
        return header;
    }

    /** A copy whose results use blocks of {@code rows} rows (tests cross block boundaries). */
    CsvReader blockRows(int rows) {
        if (rows < 1) {
            throw new IllegalArgumentException("blockRows=" + rows + " must be >= 1");
        }
        return new CsvReader(header, rows);
    }

    /**
     * Reads the whole file.
     *
     * @throws DataFormatException if the content is malformed (message names file, line, column)
     * @throws java.nio.file.NoSuchFileException if the file does not exist
     * @throws IOException on other read failures
     */
    public RowBlockMatrix read(Path path) throws IOException {
        InputFiles.requireReadableFile(path);
        // InputStreamReader replaces undecodable bytes instead of failing: header names in another
        // encoding are harmless, and in a value they still make the cell non-numeric.
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(Files.newInputStream(path), StandardCharsets.UTF_8), 1 << 16)) {
            return new Parse(path, in).run();
        }
    }

    /**
     * The number of columns d of the file, from its schema only (docs/ledger.md "Order of events"): the first line
     * that is neither blank nor a comment is split into cells and counted, a header as {@link #read} would take
     * it, a first row without a header by its commas; no value is parsed and no later line is read. A release
     * charged to a ledger states itself from this before the data are read.
     *
     * @param path the file
     * @return d
     * @throws DataFormatException if the file has no line with content
     * @throws java.nio.file.NoSuchFileException if the file does not exist
     * @throws IOException on other read failures
     */
    public int dimension(Path path) throws IOException {
        InputFiles.requireReadableFile(path);
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(Files.newInputStream(path), StandardCharsets.UTF_8), 1 << 12)) {
            String line;
            boolean first = true;
            while ((line = in.readLine()) != null) {
                if (first && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
                    line = line.substring(1);
                }
                first = false;
                int s = skipSpace(line, 0, line.length());
                if (s == line.length() || line.charAt(s) == '#') {
                    continue;
                }
                boolean isHeader = header == Header.AUTO ? classify(line) == FirstLine.TEXT
                        : header == Header.PRESENT;
                return isHeader ? splitQuoted(line).size() : countCells(line);
            }
        }
        throw DataFormatException.of(path, "no data rows: the file is empty");
    }

    /** One pass over one file; holds the mutable parsing state. */
    private final class Parse {
        private final Path path;
        private final BufferedReader in;
        private RowAccumulator acc;
        private long firstDataLine = -1;

        Parse(Path path, BufferedReader in) {
            this.path = path;
            this.in = in;
        }

        RowBlockMatrix run() throws IOException {
            long lineNo = 0;
            long pendingBlank = -1;
            long headerLine = -1;
            int headerCols = -1;
            boolean firstContent = true;
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (lineNo == 1 && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
                    line = line.substring(1);
                }
                int s = skipSpace(line, 0, line.length());
                if (s == line.length()) {
                    if (pendingBlank < 0) {
                        pendingBlank = lineNo;
                    }
                    continue;
                }
                if (line.charAt(s) == '#') {
                    continue;
                }
                if (pendingBlank >= 0) {
                    throw DataFormatException.atLine(path, pendingBlank, "blank line "
                            + (firstContent ? "before the data" : "between rows")
                            + "; blank lines are allowed only at the end of the file");
                }
                if (acc != null) {
                    parseRow(line, lineNo);
                    continue;
                }
                boolean mixed = false;
                if (firstContent) {
                    firstContent = false;
                    boolean isHeader;
                    if (header == Header.AUTO) {
                        FirstLine kind = classify(line);
                        isHeader = kind == FirstLine.TEXT;
                        mixed = kind == FirstLine.MIXED;
                    } else {
                        isHeader = header == Header.PRESENT;
                    }
                    if (isHeader) {
                        headerLine = lineNo;
                        headerCols = splitQuoted(line).size();
                        continue;
                    }
                }
                int d = countCells(line);
                if (headerCols >= 0 && headerCols != d) {
                    throw DataFormatException.atLine(path, headerLine, "header has " + headerCols
                            + " columns but the first data row (line " + lineNo + ") has " + d);
                }
                acc = new RowAccumulator(d);
                firstDataLine = lineNo;
                try {
                    parseRow(line, lineNo);
                } catch (DataFormatException e) {
                    if (!mixed) {
                        throw e;
                    }
                    throw e.withDetail(e.detail() + "; line " + lineNo + " mixes numbers and text,"
                            + " so it was not taken as a header (if it is one, declare the header"
                            + " explicitly: Header.PRESENT)");
                }
            }
            if (acc == null) {
                if (headerLine > 0) {
                    throw DataFormatException.of(path,
                            "no data rows: the file has only a header (line " + headerLine + ")");
                }
                throw DataFormatException.of(path, lineNo == 0
                        ? "empty file: no data rows"
                        : "no data rows: the file has only blank or comment lines");
            }
            return acc.toMatrix(blockRows);
        }

        private void parseRow(String line, long lineNo) throws DataFormatException {
            if (acc.rows() == Integer.MAX_VALUE) {
                throw DataFormatException.atLine(path, lineNo,
                        "more than " + Integer.MAX_VALUE + " data rows are not supported");
            }
            int d = acc.cols();
            int off = acc.beginRow();
            double[] dst = acc.chunk();
            int len = line.length();
            int start = 0;
            int col = 0;
            while (true) {
                int comma = line.indexOf(',', start);
                int end = comma < 0 ? len : comma;
                if (col == d) {
                    throw ragged(line, lineNo, d);
                }
                dst[off + col] = parseCell(line, start, end, lineNo, col + 1);
                col++;
                if (comma < 0) {
                    break;
                }
                start = comma + 1;
            }
            if (col < d) {
                throw ragged(line, lineNo, d);
            }
            acc.endRow();
        }

        private DataFormatException ragged(String line, long lineNo, int d) {
            return DataFormatException.atLine(path, lineNo, "has " + countCells(line)
                    + " columns, expected " + d + " (as on line " + firstDataLine
                    + ", the first data row)");
        }

        private double parseCell(String line, int from, int to, long lineNo, int col)
                throws DataFormatException {
            int s = skipSpace(line, from, to);
            int e = to;
            while (e > s && line.charAt(e - 1) <= ' ') {
                e--;
            }
            if (s == e) {
                throw DataFormatException.atLine(path, lineNo, col,
                        "empty value (missing values are not supported)");
            }
            String cell = line.substring(s, e);
            if (!isPlainDecimal(cell)) {
                throw DataFormatException.atLine(path, lineNo, col, describeBadCell(cell));
            }
            double v = Double.parseDouble(cell);
            if (Double.isInfinite(v)) {
                throw DataFormatException.atLine(path, lineNo, col, "value is too large for a double (it would overflow to infinity)");
            }
            return v;
        }
    }

    /** What the first line of a file looks like. */
    enum FirstLine { TEXT, NUMERIC, MIXED }

    /** How the first line of a file looks, for {@link Header#AUTO}. */
    static FirstLine classify(String line) {
        boolean anyNumber = false;
        boolean anyText = false;
        for (String cell : splitQuoted(line)) {
            if (cell.isEmpty()) {
                continue;
            }
            if (looksNumeric(cell)) {
                anyNumber = true;
            } else {
                anyText = true;
            }
        }
        if (anyText && !anyNumber) {
            return FirstLine.TEXT;
        }
        return anyText ? FirstLine.MIXED : FirstLine.NUMERIC;
    }

    /**
     * What is wrong with a trimmed, non-empty cell that is not a plain decimal: the rule it breaks, never the cell
     * itself (a message may reach a log; the cell is private data).
     */
    static String describeBadCell(String cell) {
        String bare = cell.startsWith("+") || cell.startsWith("-") ? cell.substring(1) : cell;
        String lower = bare.toLowerCase(Locale.ROOT);
        if (lower.equals("nan")) {
            return "NaN value (all values must be finite)";
        }
        if (lower.equals("inf") || lower.equals("infinity")) {
            return "infinite value (all values must be finite)";
        }
        String msg = "non-numeric value";
        if (javaParses(cell)) {
            return msg + " (hexadecimal numbers and 'd'/'f' suffixes are not accepted;"
                    + " write plain decimals such as -1.5e3)";
        }
        if (cell.startsWith("\"") || cell.startsWith("'")) {
            return msg + " (quoted values are not accepted)";
        }
        if (cell.indexOf(';') >= 0 || cell.indexOf('\t') >= 0 || cell.indexOf(' ') >= 0) {
            return msg + " (values must be separated by commas)";
        }
        return msg;
    }

    /** Anything a reader might mean as a number, including spellings this reader rejects. */
    static boolean looksNumeric(String cell) {
        if (isPlainDecimal(cell) || javaParses(cell)) {
            return true;
        }
        String bare = cell.startsWith("+") || cell.startsWith("-") ? cell.substring(1) : cell;
        String lower = bare.toLowerCase(Locale.ROOT);
        return lower.equals("nan") || lower.equals("inf") || lower.equals("infinity");
    }

    private static boolean javaParses(String cell) {
        try {
            Double.parseDouble(cell);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The accepted number grammar: {@code [+-]? (digits [. digits?]? | . digits) ([eE] [+-]? digits)?}
     * with ASCII digits only and nothing else (no whitespace, hex, suffix, NaN or infinity).
     */
    static boolean isPlainDecimal(String s) {
        int n = s.length();
        int i = 0;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            digits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int expDigits = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                expDigits++;
            }
            if (expDigits == 0) {
                return false;
            }
        }
        return i == n;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static int skipSpace(String s, int from, int to) {
        int i = from;
        while (i < to && s.charAt(i) <= ' ') {
            i++;
        }
        return i;
    }

    private static int countCells(String line) {
        int n = 1;
        for (int i = line.indexOf(','); i >= 0; i = line.indexOf(',', i + 1)) {
            n++;
        }
        return n;
    }

    /**
     * Splits a (header) line into trimmed cells, honouring RFC-4180 double quotes ({@code "a,b"}
     * is one cell, {@code ""} inside quotes is a quote). An unterminated quote runs to the end.
     */
    static List<String> splitQuoted(String line) {
        List<String> cells = new ArrayList<>();
        int n = line.length();
        int i = 0;
        while (true) {
            i = skipSpace(line, i, n);
            StringBuilder cell = new StringBuilder();
            if (i < n && line.charAt(i) == '"') {
                i++;
                while (i < n) {
                    char c = line.charAt(i++);
                    if (c == '"') {
                        if (i < n && line.charAt(i) == '"') {
                            cell.append('"');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        cell.append(c);
                    }
                }
                while (i < n && line.charAt(i) != ',') {
                    cell.append(line.charAt(i++));
                }
            } else {
                while (i < n && line.charAt(i) != ',') {
                    cell.append(line.charAt(i++));
                }
            }
            cells.add(cell.toString().trim());
            if (i >= n) {
                return cells;
            }
            i++; // the comma
        }
    }
}
