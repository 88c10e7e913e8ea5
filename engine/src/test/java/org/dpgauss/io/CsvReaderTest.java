package org.dpgauss.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.dpgauss.io.CsvReader.Header;
import org.dpgauss.linalg.RowBlockMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CsvReaderTest {

    @TempDir
    Path dir;

    private Path csv(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    private RowBlockMatrix read(String content) throws IOException {
        return CsvReader.create().read(csv("data.csv", content));
    }

    /** Reads {@code content} expecting a failure at {@code line}/{@code column}. */
    private DataFormatException fails(String content, long line, int column, String... fragments)
            throws IOException {
        return fails(CsvReader.create(), content, line, column, fragments);
    }

    private DataFormatException fails(CsvReader reader, String content, long line, int column,
            String... fragments) throws IOException {
        Path p = csv("bad.csv", content);
        DataFormatException e = assertThrows(DataFormatException.class, () -> reader.read(p));
        assertEquals(p, e.path());
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(column, e.column(), e.getMessage());
        assertEquals(-1, e.row());
        String msg = e.getMessage();
        assertTrue(msg.startsWith(p + ": "), msg);
        assertTrue(msg.contains("bad.csv"), msg);
        if (line > 0) {
            assertTrue(msg.contains("line " + line + (column > 0 ? ", column " + column : "") + ": "), msg);
        } else {
            assertFalse(msg.startsWith(p + ": line "), msg);
        }
        for (String f : fragments) {
            assertTrue(msg.contains(f), () -> "'" + f + "' not in: " + msg);
        }
        return e;
    }

    // ---------------------------------------------------------------- good input

    @Test
    void readsPlainNumbersWithoutHeader() throws IOException {
        RowBlockMatrix m = read("1,2,3\n4,5,6\n");
        assertEquals(2, m.rows());
        assertEquals(3, m.cols());
        assertArrayEquals(new double[][] {{1, 2, 3}, {4, 5, 6}}, m.toArray());
    }

    @Test
    void lastLineWithoutNewline() throws IOException {
        assertArrayEquals(new double[][] {{1, 2}, {3, 4}}, read("1,2\n3,4").toArray());
    }

    @Test
    void detectsHeader() throws IOException {
        RowBlockMatrix m = read("x,y\n1,2\n3,4\n");
        assertArrayEquals(new double[][] {{1, 2}, {3, 4}}, m.toArray());
    }

    @Test
    void detectsQuotedHeaderWithCommaInName() throws IOException {
        RowBlockMatrix m = read("\"height, cm\",\"weight\"\n180,75\n");
        assertArrayEquals(new double[][] {{180, 75}}, m.toArray());
    }

    @Test
    void headerWithEmptyNameIsStillAHeader() throws IOException {
        assertArrayEquals(new double[][] {{0, 1.5}}, read(",a\n0,1.5\n").toArray());
    }

    @Test
    void explicitHeaderPresentAllowsNumericNames() throws IOException {
        Path p = csv("years.csv", "2019,2020\n1,2\n");
        assertArrayEquals(new double[][] {{1, 2}},
                CsvReader.withHeader(Header.PRESENT).read(p).toArray());
        // AUTO takes that line as data
        assertArrayEquals(new double[][] {{2019, 2020}, {1, 2}}, CsvReader.create().read(p).toArray());
    }

    @Test
    void explicitHeaderAbsent() throws IOException {
        Path p = csv("d.csv", "1,2\n");
        CsvReader r = CsvReader.create().header(Header.ABSENT);
        assertEquals(Header.ABSENT, r.headerMode());
        assertArrayEquals(new double[][] {{1, 2}}, r.read(p).toArray());
    }

    @Test
    void trimsSurroundingWhitespace() throws IOException {
        RowBlockMatrix m = read("  a ,\tb\t\n  1 ,\t2  \n3,4   \n");
        assertArrayEquals(new double[][] {{1, 2}, {3, 4}}, m.toArray());
    }

    @Test
    void crlfLineEndings() throws IOException {
        RowBlockMatrix m = read("a,b\r\n1,2\r\n3,4\r\n\r\n");
        assertArrayEquals(new double[][] {{1, 2}, {3, 4}}, m.toArray());
    }

    @Test
    void scientificNotationAndSigns() throws IOException {
        RowBlockMatrix m = read("1e3,-2.5E-2,+4,.5\n-0,5.,1.7976931348623157e308,-1e-400\n");
        assertArrayEquals(new double[] {1000, -0.025, 4, 0.5}, m.row(0));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(m.get(1, 0)));
        assertEquals(5.0, m.get(1, 1));
        assertEquals(Double.MAX_VALUE, m.get(1, 2));
        assertEquals(-0.0, m.get(1, 3)); // underflow to zero is exact enough, not an error
    }

    @Test
    void parsesCorrectlyRounded() throws IOException {
        RowBlockMatrix m = read("0.1,0.30000000000000004,123456789.123456789\n");
        assertArrayEquals(new double[] {0.1, 0.30000000000000004, 123456789.123456789}, m.row(0));
    }

    @Test
    void singleColumn() throws IOException {
        assertArrayEquals(new double[][] {{1}, {2}, {3}}, read("v\n1\n2\n3\n").toArray());
    }

    @Test
    void trailingBlankLinesIgnored() throws IOException {
        assertArrayEquals(new double[][] {{1, 2}}, read("1,2\n\n   \n\t\n").toArray());
    }

    @Test
    void commentLinesIgnoredAnywhere() throws IOException {
        // numpy.savetxt(f, x, delimiter=',', header='a,b') writes "# a,b"
        RowBlockMatrix m = read("# a,b\n1,2\n  # note\n3,4\n\n# trailing comment\n");
        assertArrayEquals(new double[][] {{1, 2}, {3, 4}}, m.toArray());
    }

    @Test
    void commentThenHeader() throws IOException {
        assertArrayEquals(new double[][] {{1, 2}}, read("# made by hand\nx,y\n1,2\n").toArray());
    }

    @Test
    void byteOrderMarkSkipped() throws IOException {
        assertArrayEquals(new double[][] {{1, 2}}, read("\uFEFFx,y\n1,2\n").toArray());
        assertArrayEquals(new double[][] {{1, 2}}, read("\uFEFF1,2\n").toArray());
    }

    @Test
    void crossesBlockAndChunkBoundaries() throws IOException {
        int n = 1000; // > the accumulator's first chunk of 256 rows, so chunks grow too
        int d = 3;
        StringBuilder sb = new StringBuilder("a,b,c\n");
        for (int i = 0; i < n; i++) {
            sb.append(i).append(',').append(-i * 0.5).append(',').append(i * 1e-3).append('\n');
        }
        Path p = csv("big.csv", sb.toString());
        RowBlockMatrix m = CsvReader.create().blockRows(7).read(p);
        assertEquals(n, m.rows());
        assertEquals(d, m.cols());
        assertEquals(7, m.blockRows());
        assertEquals((n + 6) / 7, m.blockCount());
        for (int i = 0; i < n; i++) {
            assertArrayEquals(new double[] {i, -i * 0.5, i * 1e-3}, m.row(i), "row " + i);
        }
        assertEquals(m, CsvReader.create().read(p));
    }

    @Test
    void defaultLayoutIsOneBlockForSmallData() throws IOException {
        RowBlockMatrix m = read("1\n2\n3\n");
        assertEquals(1, m.blockCount());
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void nonNumericCell() throws IOException {
        fails("a,b,c\n1,2,3\n4,5,6\n7,8,9\n10,11,12\n13,14,15\n16,17,abc\n", 7, 3,
                "non-numeric value");
    }

    @Test
    void emptyCell() throws IOException {
        fails("1,2,3\n4,,6\n", 2, 2, "empty value");
    }

    @Test
    void whitespaceOnlyCellIsEmpty() throws IOException {
        fails("1,2,3\n4,  ,6\n", 2, 2, "empty value");
    }

    @Test
    void trailingCommaIsAnEmptyCell() throws IOException {
        fails("1,2,\n", 1, 3, "empty value");
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "nan", "NAN", "-NaN", "+nan"})
    void nanRejected(String spelling) throws IOException {
        fails("1,2\n3," + spelling + "\n", 2, 2, "NaN value", "finite");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Infinity", "-Infinity", "+Infinity", "inf", "-inf", "INF", "infinity"})
    void infinityRejected(String spelling) throws IOException {
        fails("1,2\n" + spelling + ",3\n", 2, 1, "infinite value", "finite");
    }

    @Test
    void overflowRejected() throws IOException {
        DataFormatException e = fails("1,1e400\n", 1, 2, "too large");
        assertFalse(e.getMessage().contains("1e400"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0x1p3", "0X10P0", "1d", "2.5f", "3D", "-1.5F", "1e3d"})
    void javaOnlySpellingsRejected(String spelling) throws IOException {
        // Double.parseDouble accepts all of these; a data file must not
        Double.parseDouble(spelling);
        fails("1,2\n3," + spelling + "\n", 2, 2, "non-numeric value", "hexadecimal");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.2.3", "--1", "1e", "e5", ".", "+", "1_000", "１", "1 2", "#3"})
    void malformedNumbersRejected(String cell) throws IOException {
        Path p = csv("bad.csv", "1,2\n3," + cell + "\n");
        DataFormatException e = assertThrows(DataFormatException.class, () -> CsvReader.create().read(p));
        assertEquals(2, e.line());
        assertEquals(2, e.column(), e.getMessage());
        assertTrue(e.getMessage().contains("bad.csv"), e.getMessage());
    }

    @Test
    void quotedValueRejected() throws IOException {
        fails("1,2\n3,\"4\"\n", 2, 2, "quoted values are not accepted");
    }

    @Test
    void otherSeparatorsGetAHint() throws IOException {
        fails(CsvReader.withHeader(Header.ABSENT), "1;2;3\n", 1, 1, "non-numeric value", "separated by commas");
        fails(CsvReader.withHeader(Header.ABSENT), "1\t2\n", 1, 1, "separated by commas");
    }

    @Test
    void raggedRowTooShort() throws IOException {
        DataFormatException e = fails("x,y,z\n1,2,3\n4,5\n", 3, -1,
                "has 2 columns, expected 3", "line 2");
        assertEquals("bad.csv", e.path().getFileName().toString());
    }

    @Test
    void raggedRowTooLong() throws IOException {
        fails("1,2\n3,4\n5,6\n7,8,9\n", 4, -1, "has 3 columns, expected 2");
    }

    @Test
    void headerColumnCountMismatch() throws IOException {
        fails("a,b,c\n1,2\n", 1, -1, "header has 3 columns", "line 2", "has 2");
    }

    @Test
    void emptyFile() throws IOException {
        fails("", -1, -1, "empty file");
    }

    @Test
    void onlyBlankAndCommentLines() throws IOException {
        fails("\n# nothing here\n  \n", -1, -1, "no data rows");
    }

    @Test
    void headerOnly() throws IOException {
        fails("a,b,c\n", -1, -1, "no data rows", "only a header (line 1)");
    }

    @Test
    void headerOnlyWhenPresentIsDeclared() throws IOException {
        fails(CsvReader.withHeader(Header.PRESENT), "1,2\n\n", -1, -1, "only a header");
    }

    @Test
    void blankLineInTheMiddle() throws IOException {
        fails("1,2\n3,4\n\n5,6\n", 3, -1, "blank line between rows");
    }

    @Test
    void whitespaceLineInTheMiddle() throws IOException {
        fails("1,2\n \t \n5,6\n", 2, -1, "blank line");
    }

    @Test
    void blankLineBeforeData() throws IOException {
        fails("\n1,2\n", 1, -1, "blank line before the data");
    }

    @Test
    void blankLineBeforeTrailingCommentIsFineButNotBeforeData() throws IOException {
        assertArrayEquals(new double[][] {{1}}, read("1\n\n# end\n").toArray());
        fails("1\n\n# end\n2\n", 2, -1, "blank line");
    }

    @Test
    void mixedFirstLineIsNotGuessedToBeAHeader() throws IOException {
        fails("1.5,abc,3\n1,2,3\n", 1, 2, "non-numeric value", "Header.PRESENT");
    }

    @Test
    void textFirstLineIsDataWhenHeaderAbsent() throws IOException {
        fails(CsvReader.withHeader(Header.ABSENT), "x,y\n1,2\n", 1, 1, "non-numeric value");
    }

    @Test
    void textInLaterLineAfterHeader() throws IOException {
        fails("x,y\n1,2\nx,y\n", 3, 1, "non-numeric value");
    }

    @Test
    void hexFirstLineIsNotMistakenForAHeader() throws IOException {
        fails("0x1p3,0x2p3\n1,2\n", 1, 1, "non-numeric value");
    }

    @Test
    void errorLineNumbersCountCommentsAndCrlf() throws IOException {
        fails("# c\r\nx,y\r\n# c\r\n1,2\r\n3,?\r\n", 5, 2, "non-numeric value");
    }

    @Test
    void longValuesAreNotQuotedInMessages() throws IOException {
        String junk = "z".repeat(500);
        DataFormatException e = fails("1,2\n3," + junk + "\n", 2, 2, "non-numeric value");
        assertFalse(e.getMessage().contains("zzz"), e.getMessage());
        assertTrue(e.getMessage().length() < 200, e.getMessage());
    }

    @Test
    void missingFile() {
        Path p = dir.resolve("missing.csv");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> CsvReader.create().read(p));
        assertTrue(e.getMessage().contains("missing.csv"), e.getMessage());
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }

    @Test
    void directoryIsNotAFile() {
        IOException e = assertThrows(IOException.class, () -> CsvReader.create().read(dir));
        assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    }

    // ---------------------------------------------------------------- helpers

    @Test
    void plainDecimalGrammar() {
        for (String ok : new String[] {"0", "-1", "+1", "1.", ".1", "1.5e3", "1E-3", "1e+3", "00.00"}) {
            assertTrue(CsvReader.isPlainDecimal(ok), ok);
        }
        for (String bad : new String[] {"", "-", ".", "e1", "1e", "1e+", "1.2.3", " 1", "1 ", "1f",
                "0x1", "NaN", "Infinity", "1..2", "١"}) {
            assertFalse(CsvReader.isPlainDecimal(bad), bad);
        }
    }

    @Test
    void quotedSplit() {
        assertEquals(java.util.List.of("a,b", "c", "say \"hi\"", ""),
                CsvReader.splitQuoted("\"a,b\", c ,\"say \"\"hi\"\"\","));
    }

    /** Issue 14 finding 8: a message names line, column and rule, never the cell (private data may be logged). */
    @Test
    void messagesNeverQuoteTheCell() throws IOException {
        String[] cells = {"12345.678x", "0x1.8p3", "1e999", "'42'", "3;4", "secretToken"};
        for (String cell : cells) {
            DataFormatException e = assertThrows(DataFormatException.class,
                    () -> CsvReader.create().read(csv("secret.csv", "1,2\n3," + cell + "\n")));
            String msg = e.getMessage();
            assertTrue(msg.contains("line 2, column 2"), msg);
            String bare = cell.replace("'", "").replace("-", "");
            // only the text after the file name: the random temporary folder may contain the digits of a cell
            String afterPath = msg.substring(msg.indexOf("secret.csv") + "secret.csv".length());
            assertFalse(afterPath.contains(bare), "message quotes the cell " + cell + ": " + msg);
        }
    }
}
