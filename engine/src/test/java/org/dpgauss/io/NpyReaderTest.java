package org.dpgauss.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import org.dpgauss.linalg.RowBlockMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NpyReaderTest {

    private static final String F8 = "{'descr': '<f8', 'fortran_order': False, 'shape': ";

    @TempDir
    Path dir;

    private Path file(NpyBytes b) throws IOException {
        return b.writeTo(dir.resolve("M.npy"));
    }

    private static RowBlockMatrix read(Path p) throws IOException {
        return NpyReader.create().read(p);
    }

    /** Asserts a whole-file error whose message names the file and contains {@code fragments}. */
    private DataFormatException fails(NpyBytes b, String... fragments) throws IOException {
        return failsAt(b, -1, -1, fragments);
    }

    private DataFormatException failsAt(NpyBytes b, long row, int column, String... fragments)
            throws IOException {
        return failsAt(file(b), row, column, fragments);
    }

    private static DataFormatException failsAt(Path p, long row, int column, String... fragments) {
        DataFormatException e = assertThrows(DataFormatException.class, () -> read(p));
        String msg = e.getMessage();
        assertTrue(msg.startsWith(p + ": "), msg);
        assertTrue(msg.contains("M.npy"), msg);
        assertEquals(row, e.row(), msg);
        assertEquals(column, e.column(), msg);
        assertEquals(-1, e.line(), msg);
        if (row > 0) {
            assertTrue(msg.contains("row " + row + ", column " + column + ": "), msg);
        }
        for (String f : fragments) {
            assertTrue(msg.contains(f), () -> "'" + f + "' not in: " + msg);
        }
        return e;
    }

    // ---------------------------------------------------------------- good input

    @Test
    void reads2d() throws IOException {
        RowBlockMatrix m = read(file(NpyBytes.matrix(3, 2, 1, 2, 3, 4, 5, -6.5e-7)));
        assertArrayEquals(new double[][] {{1, 2}, {3, 4}, {5, -6.5e-7}}, m.toArray());
    }

    @Test
    void reads1dAsColumn() throws IOException {
        RowBlockMatrix m = read(file(NpyBytes.of(F8 + "(4,), }").doubles(1, 2, 3, 4)));
        assertEquals(4, m.rows());
        assertEquals(1, m.cols());
        assertArrayEquals(new double[][] {{1}, {2}, {3}, {4}}, m.toArray());
    }

    @Test
    void readsVersion2And3() throws IOException {
        double[] v = {1.5, -2.5, 3.25, 4};
        for (int major : new int[] {2, 3}) {
            RowBlockMatrix m = read(file(NpyBytes.matrix(2, 2, v).version(major, 0)));
            assertArrayEquals(new double[][] {{1.5, -2.5}, {3.25, 4}}, m.toArray(), "v" + major);
        }
    }

    @Test
    void toleratesHeaderVariants() throws IOException {
        // key order, double quotes, no trailing comma, Python 2 longs, no alignment padding
        String dict = "{\"shape\": (2L, 1L), \"fortran_order\": False, \"descr\": \"<f8\"}";
        RowBlockMatrix m = read(file(NpyBytes.of(dict).unpadded().doubles(1, 2)));
        assertArrayEquals(new double[][] {{1}, {2}}, m.toArray());
    }

    @Test
    void crossesBlocksAndReadChunks() throws IOException {
        int n = 53;
        int d = 3;
        double[] v = new double[n * d];
        for (int i = 0; i < v.length; i++) {
            v[i] = i * 0.25 - 7;
        }
        Path p = file(NpyBytes.matrix(n, d, v));
        for (int buf : new int[] {8, 16, 40, 1 << 20}) {
            for (int br : new int[] {1, 4, 5, 100}) {
                RowBlockMatrix m = NpyReader.create().blockRows(br).bufferBytes(buf).read(p);
                assertEquals(br, m.blockRows());
                for (int i = 0; i < n; i++) {
                    assertArrayEquals(Arrays.copyOfRange(v, i * d, i * d + d), m.row(i),
                            "row " + i + " buf " + buf + " blockRows " + br);
                }
            }
        }
    }

    @Test
    void keepsExactBits() throws IOException {
        double[] v = {Double.MIN_VALUE, -0.0, Double.MAX_VALUE, Math.nextUp(1.0)};
        RowBlockMatrix m = read(file(NpyBytes.matrix(1, 4, v)));
        for (int j = 0; j < 4; j++) {
            assertEquals(Double.doubleToRawLongBits(v[j]), Double.doubleToRawLongBits(m.get(0, j)));
        }
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void badMagic() throws IOException {
        Path p = dir.resolve("M.npy");
        Files.writeString(p, "1,2,3\n4,5,6\n");
        failsAt(p, -1, -1, "not a NumPy .npy file", "bad magic");
    }

    @Test
    void tooShortForMagic() throws IOException {
        Path p = dir.resolve("M.npy");
        Files.write(p, new byte[] {(byte) 0x93, 'N', 'U'});
        failsAt(p, -1, -1, "bad magic");
    }

    @Test
    void emptyFile() throws IOException {
        Path p = dir.resolve("M.npy");
        Files.write(p, new byte[0]);
        failsAt(p, -1, -1, "empty file");
    }

    @Test
    void npzArchive() throws IOException {
        Path p = dir.resolve("M.npy");
        Files.write(p, new byte[] {'P', 'K', 3, 4, 20, 0, 0, 0, 0, 0, 0, 0});
        failsAt(p, -1, -1, "ZIP archive", ".npz");
    }

    @ParameterizedTest
    @CsvSource({"4,0", "1,1", "0,0", "2,5"})
    void unsupportedVersion(int major, int minor) throws IOException {
        fails(NpyBytes.matrix(1, 1, 1).version(major, minor),
                "unsupported .npy format version " + major + "." + minor, "1.0, 2.0, 3.0");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "<f4;float32",
        ">f8;float64, big-endian",
        "<i8;int64",
        "|u1;uint8",
        "|b1;bool",
        "<c16;complex128",
        "<U3;unicode string",
        "|O;Python object"})
    void wrongDtype(String descr, String description) throws IOException {
        String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1, 1), }";
        fails(NpyBytes.of(dict).doubles(1), "dtype '" + descr + "' (" + description + ")",
                "float64 little-endian ('<f8') in C order is required");
    }

    @Test
    void structuredDtype() throws IOException {
        String dict = "{'descr': [('x', '<f8'), ('y', '<f8')], 'fortran_order': False, 'shape': (1,), }";
        fails(NpyBytes.of(dict).doubles(1, 2), "structured dtype", "'<f8'");
    }

    @Test
    void fortranOrder() throws IOException {
        String dict = "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }";
        fails(NpyBytes.of(dict).doubles(1, 2, 3, 4), "fortran_order is True", "C order is required");
    }

    @Test
    void rank0() throws IOException {
        fails(NpyBytes.of(F8 + "(), }").doubles(1), "shape ()", "1-D (n,) or 2-D (n, d)");
    }

    @Test
    void rank3() throws IOException {
        fails(NpyBytes.of(F8 + "(2, 1, 1), }").doubles(1, 2), "shape (2, 1, 1) has 3 dimensions");
    }

    @Test
    void zeroRows() throws IOException {
        fails(NpyBytes.of(F8 + "(0, 3), }"), "shape (0, 3) has no rows");
        fails(NpyBytes.of(F8 + "(0,), }"), "shape (0,) has no rows");
    }

    @Test
    void zeroColumns() throws IOException {
        fails(NpyBytes.of(F8 + "(3, 0), }"), "shape (3, 0) has no columns");
    }

    @Test
    void truncatedData() throws IOException {
        fails(NpyBytes.matrix(3, 2, 1, 2, 3, 4, 5), "truncated data", "expected 6 float64 values",
                "shape (3, 2)", "found 5", "40 of 48 bytes");
    }

    @Test
    void truncatedInsideAValue() throws IOException {
        byte[] data = new byte[8 * 3 + 5];
        fails(NpyBytes.of(F8 + "(2, 2), }").rawData(data), "expected 4 float64 values", "found 3",
                "29 of 32 bytes");
    }

    @Test
    void hugeShapeIsTruncationNotAllocation() throws IOException {
        fails(NpyBytes.of(F8 + "(2000000000, 2000000000), }").doubles(1),
                "truncated data", "expected 4000000000000000000 float64 values", "found 1");
        // n * d * 8 overflows a long: still a clean message
        fails(NpyBytes.of(F8 + "(9000000000000000000, 9000000000000000000), }").doubles(1),
                "truncated data", "expected 81000000000000000000000000000000000000 float64 values");
    }

    @Test
    void trailingBytes() throws IOException {
        byte[] data = new byte[8 * 4 + 3];
        fails(NpyBytes.of(F8 + "(2, 2), }").rawData(data), "trailing", "3 extra bytes",
                "expected 4 float64 values");
    }

    @Test
    void trailingValues() throws IOException {
        fails(NpyBytes.matrix(1, 2, 1, 2, 3), "trailing", "8 extra bytes");
    }

    @Test
    void nanValue() throws IOException {
        failsAt(NpyBytes.matrix(3, 2, 1, 2, 3, 4, Double.NaN, 6), 3, 1, "NaN value", "finite");
    }

    @Test
    void infinityValues() throws IOException {
        failsAt(NpyBytes.matrix(2, 3, 1, 2, 3, 4, 5, Double.POSITIVE_INFINITY), 2, 3, "+infinity");
        failsAt(NpyBytes.matrix(2, 3, 1, Double.NEGATIVE_INFINITY, 3, 4, 5, 6), 1, 2, "-infinity");
    }

    @Test
    void nanIn1dReportsColumn1() throws IOException {
        failsAt(NpyBytes.of(F8 + "(3,), }").doubles(1, 2, Double.NaN), 3, 1, "NaN");
    }

    @Test
    void nanPositionAcrossChunksAndBlocks() throws IOException {
        double[] v = new double[40 * 3];
        v[37 * 3 + 2] = Double.NaN;
        Path p = file(NpyBytes.matrix(40, 3, v));
        DataFormatException e = assertThrows(DataFormatException.class,
                () -> NpyReader.create().blockRows(6).bufferBytes(32).read(p));
        assertEquals(38, e.row());
        assertEquals(3, e.column());
    }

    @Test
    void truncatedHeader() throws IOException {
        byte[] full = NpyBytes.matrix(1, 1, 1).bytes();
        Path p = dir.resolve("M.npy");
        Files.write(p, Arrays.copyOf(full, 30));
        failsAt(p, -1, -1, "truncated .npy header");
        Files.write(p, Arrays.copyOf(full, 9));
        failsAt(p, -1, -1, "truncated .npy header");
    }

    @Test
    void malformedHeaders() throws IOException {
        fails(NpyBytes.of("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), "),
                "malformed .npy header");
        fails(NpyBytes.of("{'descr': '<f8', 'shape': (1, 1), }").doubles(1), "malformed .npy header",
                "keys must be exactly");
        fails(NpyBytes.of("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), 'x': 1}").doubles(1),
                "keys must be exactly");
        fails(NpyBytes.of("{'descr': '<f8', 'fortran_order': 0, 'shape': (1, 1), }").doubles(1),
                "fortran_order is not True or False");
        fails(NpyBytes.of("{'descr': '<f8', 'fortran_order': False, 'shape': [1, 1], }").doubles(1),
                "shape is not a tuple");
        fails(NpyBytes.of("{'descr': '<f8', 'fortran_order': False, 'shape': (-1, 1), }").doubles(1),
                "non-negative integers");
        fails(NpyBytes.of("__import__('os')").doubles(1), "malformed .npy header");
    }

    @Test
    void missingFile() {
        Path p = dir.resolve("nothing.npy");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> read(p));
        assertTrue(e.getMessage().contains("nothing.npy: no such file"), e.getMessage());
    }

    @Test
    void dtypeDescriptions() {
        assertEquals("float64", NpyReader.describeDtype("<f8"));
        assertEquals("float64, native byte order", NpyReader.describeDtype("=f8"));
        assertEquals("float16, big-endian", NpyReader.describeDtype(">f2"));
        assertEquals("int8", NpyReader.describeDtype("|i1"));
        assertEquals("datetime64", NpyReader.describeDtype("<M8[ns]"));
        assertEquals("", NpyReader.describeDtype("?"));
    }
}
