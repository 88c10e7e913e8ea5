package org.dpgauss.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * An input data file is malformed: its content, not the act of reading it, is wrong.
 *
 * <p>The message always starts with the file, then the position when one applies, then what is
 * wrong, e.g. {@code data.csv: line 7, column 3: non-numeric value "abc"} or
 * {@code M.npy: row 12, column 2: NaN value}. Positions are 1-based; a position that does not
 * apply is {@code -1}. CSV errors carry the text {@link #line() line} (what an editor shows);
 * {@code .npy} errors carry the matrix {@link #row() row}, since a binary file has no lines.
 *
 * <p><b>Why a checked {@link IOException}.</b> Reading a data file can fail because the file is
 * missing or unreadable (an {@code IOException} the caller must handle anyway) or because its
 * content is bad; both end the same way for the command line: print "file: what is wrong" and
 * exit. Making the format error an {@code IOException}, as the JDK does for
 * {@link java.util.zip.ZipException} and {@link java.nio.charset.CharacterCodingException},
 * lets a caller handle both in one {@code catch (IOException e)} whose {@link #getMessage()} is
 * already user-ready, and the compiler ensures no caller forgets bad input, which in a
 * differential-privacy tool must never be silently turned into numbers. Callers that want to
 * tell the two apart catch this type first.
 */
public final class DataFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    /** Not serialized ({@link Path} is not serializable); the message keeps the file name. */
    private final transient Path path;
    private final long line;
    private final long row;
    private final int column;
    private final String detail;

    private DataFormatException(Path path, long line, long row, int column, String detail) {
        super(format(path, line, row, column, detail));
        this.path = path;
        this.line = line;
        this.row = row;
        this.column = column;
        this.detail = detail;
    }

    /** An error about the file as a whole (empty file, bad magic, wrong dtype...). */
    public static DataFormatException of(Path path, String detail) {
        return new DataFormatException(check(path), -1, -1, -1, Objects.requireNonNull(detail));
    }

    /** An error about a whole text line (blank line, ragged row...). */
    public static DataFormatException atLine(Path path, long line, String detail) {
        return atLine(path, line, -1, detail);
    }

    /** An error about one cell of a text line; {@code column} may be -1 if not applicable. */
    public static DataFormatException atLine(Path path, long line, int column, String detail) {
        if (line < 1) {
            throw new IllegalArgumentException("line=" + line + " must be >= 1");
        }
        return new DataFormatException(check(path), line, -1, checkColumn(column),
                Objects.requireNonNull(detail));
    }

    /** An error about one value of the data matrix (binary formats); {@code column} may be -1. */
    public static DataFormatException atRow(Path path, long row, int column, String detail) {
        if (row < 1) {
            throw new IllegalArgumentException("row=" + row + " must be >= 1");
        }
        return new DataFormatException(check(path), -1, row, checkColumn(column),
                Objects.requireNonNull(detail));
    }

    /** The same position with a different description (used to append a hint). */
    DataFormatException withDetail(String newDetail) {
        return new DataFormatException(path, line, row, column, Objects.requireNonNull(newDetail));
    }

    /** The offending file, as the caller named it; {@code null} after deserialization. */
    public Path path() {
        return path;
    }

    /** 1-based text line, or -1 when the error is not about a text line. */
    public long line() {
        return line;
    }

    /** 1-based matrix row, or -1 when the error is not about a matrix row. */
    public long row() {
        return row;
    }

    /** 1-based column, or -1 when the error is not about one column. */
    public int column() {
        return column;
    }

    /** What is wrong, without the file and position prefix. */
    public String detail() {
        return detail;
    }

    private static Path check(Path path) {
        return Objects.requireNonNull(path, "path");
    }

    private static int checkColumn(int column) {
        if (column < 1 && column != -1) {
            throw new IllegalArgumentException("column=" + column + " must be >= 1 or -1");
        }
        return column;
    }

    private static String format(Path path, long line, long row, int column, String detail) {
        StringBuilder sb = new StringBuilder(path.toString()).append(": ");
        if (line >= 1) {
            sb.append("line ").append(line);
        } else if (row >= 1) {
            sb.append("row ").append(row);
        }
        if (column >= 1) {
            sb.append(line >= 1 || row >= 1 ? ", " : "").append("column ").append(column);
        }
        if (line >= 1 || row >= 1 || column >= 1) {
            sb.append(": ");
        }
        return sb.append(detail).toString();
    }
}
