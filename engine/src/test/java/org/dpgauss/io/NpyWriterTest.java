package org.dpgauss.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.dpgauss.linalg.RowBlockMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NpyWriterTest {

    @TempDir
    Path dir;

    private static RowBlockMatrix sample(int n, int d, int blockRows) {
        RowBlockMatrix m = RowBlockMatrix.zeros(n, d, blockRows);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                m.set(i, j, Math.sin(i * 31.0 + j) * Math.pow(10, (i % 7) - 3));
            }
        }
        return m;
    }

    private static void assertSameBits(RowBlockMatrix expected, RowBlockMatrix actual) {
        assertEquals(expected.rows(), actual.rows());
        assertEquals(expected.cols(), actual.cols());
        for (int i = 0; i < expected.rows(); i++) {
            for (int j = 0; j < expected.cols(); j++) {
                assertEquals(Double.doubleToRawLongBits(expected.get(i, j)),
                        Double.doubleToRawLongBits(actual.get(i, j)), "(" + i + ", " + j + ")");
            }
        }
    }

    @Test
    void roundTripAcrossBlocks() throws IOException {
        RowBlockMatrix m = sample(10, 3, 3);
        Path p = dir.resolve("out.npy");
        NpyWriter.write(p, m);
        assertSameBits(m, NpyReader.create().read(p));
        assertSameBits(m, NpyReader.create().blockRows(4).bufferBytes(16).read(p));
        assertEquals(128 + 10 * 3 * 8, Files.size(p));
    }

    @Test
    void roundTripLargerThanWriteBuffer() throws IOException {
        RowBlockMatrix m = sample(70_000, 3, 9_999); // 1.6 MB of data > 1 MiB buffer
        Path p = dir.resolve("big.npy");
        NpyWriter.write(p, m);
        assertSameBits(m, NpyReader.create().read(p));
    }

    @Test
    void headerIsLaidOutLikeNumpy() throws IOException {
        Path p = dir.resolve("h.npy");
        NpyWriter.write(p, new double[][] {{1, 2}, {3, 4}, {5, 6}});
        byte[] b = Files.readAllBytes(p);
        // what numpy >= 1.24 writes for np.save(p, np.arange(1., 7.).reshape(3, 2))
        String dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }";
        assertArrayEquals(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}, Arrays.copyOf(b, 8));
        int hlen = ByteBuffer.wrap(b, 8, 2).order(ByteOrder.LITTLE_ENDIAN).getShort() & 0xffff;
        assertEquals(118, hlen);
        String header = new String(b, 10, hlen, StandardCharsets.ISO_8859_1);
        assertEquals(dict + " ".repeat(hlen - dict.length() - 1) + "\n", header);
        assertEquals(0, (10 + hlen) % 64);
        ByteBuffer data = ByteBuffer.wrap(b, 10 + hlen, b.length - 10 - hlen).order(ByteOrder.LITTLE_ENDIAN);
        for (double v = 1; v <= 6; v++) {
            assertEquals(v, data.getDouble());
        }
        assertFalse(data.hasRemaining());
    }

    @Test
    void roundTripVersion2Header() throws IOException {
        RowBlockMatrix m = sample(5, 2, 2);
        Path p = dir.resolve("v2.npy");
        NpyWriter.write(p, m, 2);
        byte[] b = Files.readAllBytes(p);
        assertEquals(2, b[6]);
        assertEquals(0, b[7]);
        int hlen = ByteBuffer.wrap(b, 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        assertEquals(0, (12 + hlen) % 64);
        assertEquals(12 + hlen + 5 * 2 * 8, b.length);
        assertSameBits(m, NpyReader.create().read(p));
    }

    @Test
    void roundTripVersion3Header() throws IOException {
        RowBlockMatrix m = sample(4, 4, 3);
        Path p = dir.resolve("v3.npy");
        NpyWriter.write(p, m, 3);
        assertEquals(3, Files.readAllBytes(p)[6]);
        assertSameBits(m, NpyReader.create().read(p));
    }

    @Test
    void headerVersionChoice() {
        assertEquals(1, NpyWriter.header(3, 2, 0)[6]);
        assertEquals(1, NpyWriter.header(Integer.MAX_VALUE, Integer.MAX_VALUE, 0)[6]);
        assertEquals(2, NpyWriter.header(3, 2, 2)[6]);
        assertThrows(IllegalArgumentException.class, () -> NpyWriter.header(3, 2, 4));
    }

    @Test
    void roundTripArray() throws IOException {
        double[][] a = {{-1.5, 0, 1e-300}, {Double.MAX_VALUE, -0.0, 42}};
        Path p = dir.resolve("a.npy");
        NpyWriter.write(p, a);
        assertArrayEquals(a, NpyReader.create().read(p).toArray());
    }

    @Test
    void singleColumnRoundTrip() throws IOException {
        Path p = dir.resolve("col.npy");
        NpyWriter.write(p, new double[][] {{1}, {2}});
        RowBlockMatrix m = NpyReader.create().read(p);
        assertEquals(2, m.rows());
        assertEquals(1, m.cols());
    }

    @Test
    void overwritesLongerFile() throws IOException {
        Path p = dir.resolve("o.npy");
        NpyWriter.write(p, sample(100, 5, 100));
        RowBlockMatrix small = sample(2, 2, 2);
        NpyWriter.write(p, small);
        assertSameBits(small, NpyReader.create().read(p)); // no trailing bytes left over
    }

    @Test
    void raggedArrayRejected() {
        Path p = dir.resolve("r.npy");
        assertThrows(IllegalArgumentException.class,
                () -> NpyWriter.write(p, new double[][] {{1, 2}, {3}}));
        assertFalse(Files.exists(p));
    }

    @Test
    void emptyArrayWritesShape00() throws IOException {
        Path p = dir.resolve("e.npy");
        NpyWriter.write(p, new double[0][]);
        String header = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
        assertTrue(header.contains("'shape': (0, 0)"), header);
    }
}
