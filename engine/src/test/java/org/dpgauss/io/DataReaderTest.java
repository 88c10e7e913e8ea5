package org.dpgauss.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataReaderTest {

    @TempDir
    Path dir;

    @Test
    void readsCsvByExtension() throws IOException {
        Path p = dir.resolve("data.csv");
        Files.writeString(p, "a,b\n1,2\n");
        assertArrayEquals(new double[][] {{1, 2}}, DataReader.read(p).toArray());
    }

    @Test
    void extensionIsCaseInsensitive() throws IOException {
        Path p = dir.resolve("DATA.CSV");
        Files.writeString(p, "1,2\n");
        assertArrayEquals(new double[][] {{1, 2}}, DataReader.read(p).toArray());
        Path q = NpyBytes.matrix(1, 1, 3).writeTo(dir.resolve("M.Npy"));
        assertEquals(3.0, DataReader.read(q).get(0, 0));
    }

    @Test
    void readsNpyByExtension() throws IOException {
        Path p = dir.resolve("M.npy");
        NpyWriter.write(p, new double[][] {{1, 2}, {3, 4}});
        assertArrayEquals(new double[][] {{1, 2}, {3, 4}}, DataReader.read(p).toArray());
    }

    @Test
    void csvContentInNpyFileIsABadMagicError() throws IOException {
        Path p = dir.resolve("M.npy");
        Files.writeString(p, "1,2\n");
        DataFormatException e = assertThrows(DataFormatException.class, () -> DataReader.read(p));
        assertTrue(e.getMessage().contains("M.npy") && e.getMessage().contains("bad magic"), e.getMessage());
    }

    @Test
    void unknownExtension() throws IOException {
        Path p = dir.resolve("data.txt");
        Files.writeString(p, "1,2\n");
        DataFormatException e = assertThrows(DataFormatException.class, () -> DataReader.read(p));
        assertTrue(e.getMessage().contains("data.txt"), e.getMessage());
        assertTrue(e.getMessage().contains(".txt"), e.getMessage());
        assertTrue(e.getMessage().contains(".csv, .npy"), e.getMessage());
    }

    @Test
    void npzGetsAHint() {
        Path p = dir.resolve("arrays.npz");
        DataFormatException e = assertThrows(DataFormatException.class, () -> DataReader.read(p));
        assertTrue(e.getMessage().contains("numpy.save"), e.getMessage());
    }

    @Test
    void noExtension() {
        Path p = dir.resolve("data");
        DataFormatException e = assertThrows(DataFormatException.class, () -> DataReader.read(p));
        assertTrue(e.getMessage().contains("no file extension"), e.getMessage());
        assertTrue(e.getMessage().contains(".csv, .npy"), e.getMessage());
    }

    @Test
    void missingFile() {
        Path p = dir.resolve("missing.csv");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> DataReader.read(p));
        assertEquals(p + ": no such file", e.getMessage());
        Path q = dir.resolve("missing.npy");
        NoSuchFileException f = assertThrows(NoSuchFileException.class, () -> DataReader.read(q));
        assertTrue(f.getMessage().contains("missing.npy: no such file"), f.getMessage());
    }

    @Test
    void extensionHelper() {
        assertEquals("csv", DataReader.extension(Path.of("a/b.c/x.CSV")));
        assertEquals("", DataReader.extension(Path.of(".csv")));
        assertEquals("", DataReader.extension(Path.of("x.")));
        assertEquals("gz", DataReader.extension(Path.of("x.csv.gz")));
    }
}
