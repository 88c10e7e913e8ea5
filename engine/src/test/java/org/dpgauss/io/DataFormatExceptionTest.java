package org.dpgauss.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DataFormatExceptionTest {

    private static final Path CSV = Path.of("data.csv");

    @Test
    void messageFormats() {
        assertEquals("data.csv: line 7, column 3: non-numeric value \"abc\"",
                DataFormatException.atLine(CSV, 7, 3, "non-numeric value \"abc\"").getMessage());
        assertEquals("data.csv: line 4: blank line",
                DataFormatException.atLine(CSV, 4, "blank line").getMessage());
        assertEquals("M.npy: row 12, column 2: NaN value",
                DataFormatException.atRow(Path.of("M.npy"), 12, 2, "NaN value").getMessage());
        assertEquals("data.csv: empty file", DataFormatException.of(CSV, "empty file").getMessage());
    }

    @Test
    void accessors() {
        DataFormatException e = DataFormatException.atLine(CSV, 7, 3, "bad");
        assertEquals(CSV, e.path());
        assertEquals(7, e.line());
        assertEquals(-1, e.row());
        assertEquals(3, e.column());
        assertEquals("bad", e.detail());
        DataFormatException r = DataFormatException.atRow(CSV, 2, -1, "x");
        assertEquals(-1, r.line());
        assertEquals(2, r.row());
        assertEquals(-1, r.column());
        DataFormatException w = e.withDetail("worse");
        assertEquals("data.csv: line 7, column 3: worse", w.getMessage());
    }

    @Test
    void isAnIOException() {
        assertEquals(true, DataFormatException.of(CSV, "x") instanceof java.io.IOException);
    }

    @Test
    void rejectsBadPositions() {
        assertThrows(IllegalArgumentException.class, () -> DataFormatException.atLine(CSV, 0, "x"));
        assertThrows(IllegalArgumentException.class, () -> DataFormatException.atRow(CSV, 1, 0, "x"));
        assertThrows(NullPointerException.class, () -> DataFormatException.of(null, "x"));
    }
}
