package org.dpgauss.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * Reads a data matrix (rows = records, columns = attributes) from a file, choosing the format by
 * the file extension, case-insensitively: {@code .csv} ({@link CsvReader}, header detected) or
 * {@code .npy} ({@link NpyReader}). The extension rather than the content decides, because a
 * guess from content could read a binary file as text or vice versa and report a confusing error;
 * an unknown extension is an error that lists the accepted ones.
 *
 * <p>Every failure is an {@link IOException} whose message starts with the file name: a
 * {@link DataFormatException} for bad content or an unsupported extension, a
 * {@link java.nio.file.NoSuchFileException} ("data.csv: no such file") for a missing file.
 *
 * <p>Every value of a matrix it returns is finite: each reader rejects NaN and infinities as it parses them, naming
 * the row and the column ({@code Dataset.read} relies on this and does not scan the rows again).
 */
public final class DataReader {

    /** Extensions {@link #read} accepts, with the dot. */
    public static final String ACCEPTED_EXTENSIONS = ".csv, .npy";

    private DataReader() {
    }

    /** Reads {@code path} with the reader its extension selects, using default options. */
    public static RowBlockMatrix read(Path path) throws IOException {
        Objects.requireNonNull(path, "path");
        String ext = extension(path);
        switch (ext) {
            case "csv":
                return CsvReader.create().read(path);
            case "npy":
                return NpyReader.create().read(path);
            default:
                if (ext.equals("npz")) {
                    throw DataFormatException.of(path, "unsupported file type .npz (a NumPy archive);"
                            + " save a single array with numpy.save as .npy; accepted extensions: "
                            + ACCEPTED_EXTENSIONS);
                }
                throw DataFormatException.of(path, (ext.isEmpty()
                        ? "no file extension"
                        : "unsupported file extension ." + ext)
                        + "; accepted extensions: " + ACCEPTED_EXTENSIONS);
        }
    }

    /**
     * The number of columns d of {@code path} from its schema only: a CSV file's first line with content (a header
     * or the first row, counted, not parsed), a .npy file's header. Nothing after it is read: a release charged to
     * a ledger is stated from this before the data are read (docs/ledger.md).
     *
     * @param path the file
     * @return d
     * @throws IOException as {@link #read}, for what the schema shows
     */
    public static int dimension(Path path) throws IOException {
        Objects.requireNonNull(path, "path");
        switch (extension(path)) {
            case "csv":
                return CsvReader.create().dimension(path);
            case "npy":
                return NpyReader.create().dimension(path);
            default:
                read(path); // the same refusal of an unknown extension, before anything is opened
                throw new IllegalStateException("unreachable");
        }
    }

    /** Lower-case extension without the dot, or "" if the file name has none. */
    static String extension(Path path) {
        Path name = path.getFileName();
        if (name == null) {
            return "";
        }
        String s = name.toString();
        int dot = s.lastIndexOf('.');
        return dot <= 0 || dot == s.length() - 1 ? "" : s.substring(dot + 1).toLowerCase(Locale.ROOT);
    }
}
