package org.dpgauss.io;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * Reads a NumPy {@code .npy} file (format versions 1.0, 2.0 and 3.0) holding a 1-D or 2-D array
 * of little-endian float64 in C order into a {@link RowBlockMatrix}. A 1-D array of shape
 * {@code (n,)} becomes an {@code n x 1} matrix. Immutable.
 *
 * <p>Only {@code '<f8'} is accepted, with no conversion: converting integers or float32 silently
 * would hide a wrong file (an index column, a label array) behind plausible numbers, and
 * big-endian or Fortran-order files are rare enough that one explicit
 * {@code numpy.save(path, numpy.ascontiguousarray(x, dtype='<f8'))} is the better fix. Every
 * rejection is a {@link DataFormatException} naming the file and saying what was found and what
 * is required; NaN and infinite values are reported with their 1-based row and column.
 *
 * <p>The file size is checked against the shape before anything is allocated (a truncated or
 * over-long file fails fast, stating expected and found value counts), then the data is read
 * with a {@link FileChannel} in fixed-size chunks straight into the matrix blocks, so files
 * larger than 2 GiB need no single large array or mapping.
 */
public final class NpyReader {

    static final int DEFAULT_BUFFER_BYTES = 1 << 20;
    static final String REQUIRED = "float64 little-endian ('<f8') in C order is required";

    /** Rows per block of the result; {@code <= 0} means the {@link RowBlockMatrix} default. */
    private final int blockRows;
    private final int bufferBytes;

    private NpyReader(int blockRows, int bufferBytes) {
        this.blockRows = blockRows;
        this.bufferBytes = bufferBytes;
    }

    /** A reader with default block layout and buffer size. */
    public static NpyReader create() {
        return new NpyReader(0, DEFAULT_BUFFER_BYTES);
    }

    /** A copy whose results use blocks of {@code rows} rows (tests cross block boundaries). */
    NpyReader blockRows(int rows) {
        if (rows < 1) {
            throw new IllegalArgumentException("blockRows=" + rows + " must be >= 1");
        }
        return new NpyReader(rows, bufferBytes);
    }

    /** A copy reading {@code bytes} (a positive multiple of 8) per chunk (tests cross chunks). */
    NpyReader bufferBytes(int bytes) {
        if (bytes < 8 || bytes % 8 != 0) {
            throw new IllegalArgumentException("bufferBytes=" + bytes + " must be a positive multiple of 8");
        }
        return new NpyReader(blockRows, bytes);
    }

    /**
     * The number of columns d of the file, from its header only (the shape; the data are not read). A release
     * charged to a ledger states itself from this before the data are read (docs/ledger.md).
     *
     * @param path the file
     * @return d (1 for a 1-D array)
     * @throws DataFormatException if the header is not an acceptable .npy header
     * @throws IOException on other read failures
     */
    public int dimension(Path path) throws IOException {
        InputFiles.requireReadableFile(path);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            NpyHeader h = NpyHeader.read(path, ch);
            if (h.shape.length == 0 || h.shape.length > 2) {
                throw DataFormatException.of(path, "shape " + h.shapeString() + " is not a 1-D (n,) or 2-D (n, d)"
                        + " array");
            }
            long d = h.shape.length == 2 ? h.shape[1] : 1;
            if (d < 1 || d > Integer.MAX_VALUE - 8) {
                throw DataFormatException.of(path, "shape " + h.shapeString() + " has no or too many columns");
            }
            return (int) d;
        }
    }

    /**
     * Reads the whole file.
     *
     * @throws DataFormatException if the file is not an acceptable .npy file or holds NaN/infinity
     * @throws java.nio.file.NoSuchFileException if the file does not exist
     * @throws IOException on other read failures
     */
    public RowBlockMatrix read(Path path) throws IOException {
        InputFiles.requireReadableFile(path);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            NpyHeader h = NpyHeader.read(path, ch);
            checkDtype(path, h.descr);
            if (h.fortranOrder) {
                throw DataFormatException.of(path, "fortran_order is True (column-major data); "
                        + REQUIRED + ": save numpy.ascontiguousarray(x)");
            }
            String shape = h.shapeString();
            if (h.shape.length == 0) {
                throw DataFormatException.of(path, "shape () is a 0-d scalar; expected a 1-D (n,) or"
                        + " 2-D (n, d) array");
            }
            if (h.shape.length > 2) {
                throw DataFormatException.of(path, "shape " + shape + " has " + h.shape.length
                        + " dimensions; expected a 1-D (n,) or 2-D (n, d) array");
            }
            long n = h.shape[0];
            long d = h.shape.length == 2 ? h.shape[1] : 1;
            if (n == 0) {
                throw DataFormatException.of(path, "shape " + shape + " has no rows");
            }
            if (d == 0) {
                throw DataFormatException.of(path, "shape " + shape + " has no columns");
            }
            checkSize(path, ch.size() - h.dataOffset, n, d, shape);
            if (n > Integer.MAX_VALUE) {
                throw DataFormatException.of(path, "shape " + shape + " has more than "
                        + Integer.MAX_VALUE + " rows (not supported)");
            }
            if (d > Integer.MAX_VALUE - 8) {
                throw DataFormatException.of(path, "shape " + shape + " has too many columns");
            }
            RowBlockMatrix m = blockRows > 0
                    ? RowBlockMatrix.zeros((int) n, (int) d, blockRows)
                    : RowBlockMatrix.zeros((int) n, (int) d);
            readData(path, ch, h.dataOffset, m);
            return m;
        }
    }

    private static void checkDtype(Path path, Object descr) throws DataFormatException {
        if ("<f8".equals(descr)) {
            return;
        }
        if (!(descr instanceof String)) {
            throw DataFormatException.of(path, "unsupported structured dtype (descr is a list of"
                    + " fields); " + REQUIRED);
        }
        String s = (String) descr;
        String what = describeDtype(s);
        throw DataFormatException.of(path, "unsupported dtype '" + s + "'"
                + (what.isEmpty() ? "" : " (" + what + ")") + "; " + REQUIRED
                + ": save x.astype('<f8')");
    }

    /**
     * A human name for a numpy type string, e.g. {@code '<i8'} -> "int64", {@code '>f8'} ->
     * "float64, big-endian"; "" if unknown.
     */
    static String describeDtype(String descr) {
        if (descr.length() < 2) {
            return "";
        }
        char order = descr.charAt(0);
        String rest = descr;
        String endian = "";
        if (order == '<' || order == '>' || order == '|' || order == '=') {
            rest = descr.substring(1);
            // only the unexpected byte orders are worth naming
            endian = order == '>' ? "big-endian" : order == '=' ? "native byte order" : "";
        }
        if (rest.isEmpty()) {
            return "";
        }
        char kind = rest.charAt(0);
        String size = rest.substring(1);
        int bytes = -1;
        try {
            bytes = Integer.parseInt(size);
        } catch (NumberFormatException e) {
            // not a plain size (e.g. datetime units); leave -1
        }
        String name;
        switch (kind) {
            case 'f':
                name = bytes > 0 ? "float" + 8 * bytes : "float";
                break;
            case 'i':
                name = bytes > 0 ? "int" + 8 * bytes : "int";
                break;
            case 'u':
                name = bytes > 0 ? "uint" + 8 * bytes : "uint";
                break;
            case 'c':
                name = bytes > 0 ? "complex" + 8 * bytes : "complex";
                break;
            case 'b':
            case '?':
                name = "bool";
                break;
            case 'U':
                name = "unicode string";
                break;
            case 'S':
            case 'a':
                name = "byte string";
                break;
            case 'O':
                name = "Python object";
                break;
            case 'M':
                name = "datetime64";
                break;
            case 'm':
                name = "timedelta64";
                break;
            case 'V':
                name = "void/raw bytes";
                break;
            default:
                return "";
        }
        boolean multiByte = bytes > 1 && (kind == 'f' || kind == 'i' || kind == 'u' || kind == 'c');
        return multiByte && !endian.isEmpty() ? name + ", " + endian : name;
    }

    private static void checkSize(Path path, long available, long n, long d, String shape)
            throws DataFormatException {
        BigInteger values = BigInteger.valueOf(n).multiply(BigInteger.valueOf(d));
        BigInteger bytes = values.shiftLeft(3);
        BigInteger have = BigInteger.valueOf(Math.max(0, available));
        int cmp = bytes.compareTo(have);
        if (cmp > 0) {
            long found = Math.max(0, available) / 8;
            throw DataFormatException.of(path, "truncated data: expected " + values
                    + " float64 values for shape " + shape + ", found " + found + " ("
                    + Math.max(0, available) + " of " + bytes + " bytes)");
        }
        if (cmp < 0) {
            throw DataFormatException.of(path, "unexpected trailing data: expected " + values
                    + " float64 values for shape " + shape + " (" + bytes + " bytes), but "
                    + have.subtract(bytes) + " extra bytes follow them");
        }
    }

    /**
     * Whether {@code v[off, off + len)} is finite, while the chunk just read is in cache: x * 0 is (signed) zero for
     * finite x and NaN for an infinity or NaN, so four independent sums of it scan without a branch per entry; a
     * chunk that fails is scanned again for its first bad cell.
     */
    static boolean allFinite(double[] v, int off, int len) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int end = off + len;
        int k = off;
        for (; k + 3 < end; k += 4) {
            s0 += v[k] * 0.0;
            s1 += v[k + 1] * 0.0;
            s2 += v[k + 2] * 0.0;
            s3 += v[k + 3] * 0.0;
        }
        for (; k < end; k++) {
            s0 += v[k] * 0.0;
        }
        return s0 + s1 + s2 + s3 == 0.0;
    }

    private void readData(Path path, FileChannel ch, long offset, RowBlockMatrix m)
            throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(bufferBytes).order(ByteOrder.LITTLE_ENDIAN);
        int cols = m.cols();
        int perChunk = bufferBytes / 8;
        long pos = offset;
        long flat = 0;
        for (int b = 0; b < m.blockCount(); b++) {
            double[] arr = m.block(b);
            int off = 0;
            while (off < arr.length) {
                int k = Math.min(arr.length - off, perChunk);
                buf.clear().limit(k * 8);
                NpyHeader.readFully(ch, buf, pos);
                buf.flip();
                buf.asDoubleBuffer().get(arr, off, k);
                for (int j = allFinite(arr, off, k) ? off + k : off; j < off + k; j++) { // rescan a failed chunk
                    double v = arr[j];
                    if (!Double.isFinite(v)) {
                        long idx = flat + (j - off);
                        throw DataFormatException.atRow(path, idx / cols + 1, (int) (idx % cols) + 1,
                                (Double.isNaN(v) ? "NaN" : v > 0 ? "+infinity" : "-infinity")
                                        + " value (all values must be finite)");
                    }
                }
                pos += 8L * k;
                off += k;
                flat += k;
            }
        }
    }
}
