package org.dpgauss.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;

/**
 * Writes a matrix as a NumPy {@code .npy} file: dtype {@code '<f8'}, C order, shape
 * {@code (rows, cols)}, so {@code numpy.load} gives back exactly the doubles written (and
 * {@link NpyReader} reads it back unchanged). The header is laid out byte for byte as
 * {@code numpy.save} does it (sorted keys, spare spaces after the dict for in-place growth,
 * padding to a 64-byte boundary); format version 1.0 is used, or 2.0 in the unlikely case that
 * the header does not fit 1.0's 16-bit length, since 1.0 is readable by every numpy.
 *
 * <p>Data is streamed block by block through a fixed buffer, so matrices larger than 2 GiB are
 * fine. If writing fails the partial file is deleted, so a failed run leaves no truncated file
 * that a later step could mistake for output.
 */
public final class NpyWriter {

    private static final int BUFFER_BYTES = 1 << 20;
    /** numpy's ARRAY_ALIGN: data starts at a multiple of 64 bytes. */
    private static final int ALIGN = 64;
    /** numpy's GROWTH_AXIS_MAX_DIGITS: spare spaces so the row count can grow in place. */
    private static final int GROWTH_DIGITS = 21;

    private NpyWriter() {
    }

    /** Writes {@code m} to {@code path}, replacing any existing file. */
    public static void write(Path path, RowBlockMatrix m) throws IOException {
        write(path, m, 0);
    }

    /**
     * Writes a rectangular {@code double[rows][cols]} array ({@code double[0][]} gives shape
     * {@code (0, 0)}), replacing any existing file.
     */
    public static void write(Path path, double[][] data) throws IOException {
        Objects.requireNonNull(data, "data");
        int cols = data.length == 0 ? 0 : data[0].length;
        for (int i = 0; i < data.length; i++) {
            if (data[i].length != cols) {
                throw new IllegalArgumentException("row " + i + " has " + data[i].length
                        + " columns, expected " + cols);
            }
        }
        try (Out out = new Out(path, header(data.length, cols, 0))) {
            for (double[] row : data) {
                out.put(row, 0, row.length);
            }
            out.commit();
        }
    }

    /** As {@link #write(Path, RowBlockMatrix)}, with format version {@code major} (0 = auto). */
    static void write(Path path, RowBlockMatrix m, int major) throws IOException {
        Objects.requireNonNull(m, "m");
        try (Out out = new Out(path, header(m.rows(), m.cols(), major))) {
            for (int b = 0; b < m.blockCount(); b++) {
                double[] block = m.block(b);
                out.put(block, 0, block.length);
            }
            out.commit();
        }
    }

    /**
     * The complete preamble (magic, version, length, padded header) for a C-order {@code '<f8'}
     * array of shape {@code (rows, cols)}; {@code major} 1, 2 or 3 forces a version, 0 picks 1.0
     * unless the header is too long for it.
     */
    static byte[] header(long rows, long cols, int major) {
        if (major < 0 || major > 3) {
            throw new IllegalArgumentException("major=" + major + " must be 0 (auto), 1, 2 or 3");
        }
        String rowsText = Long.toString(rows);
        String dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + rowsText + ", " + cols
                + "), }" + " ".repeat(Math.max(0, GROWTH_DIGITS - rowsText.length()));
        byte[] text = dict.getBytes(StandardCharsets.US_ASCII);
        int hlen = text.length + 1; // + '\n'
        int version = major == 0 ? 1 : major;
        int total = paddedLength(hlen, version);
        if (major == 0 && total > 0xffff) {
            version = 2;
            total = paddedLength(hlen, version);
        } else if (version == 1 && total > 0xffff) {
            throw new IllegalArgumentException("header of " + total + " bytes too long for version 1.0");
        }
        int prefix = version == 1 ? 10 : 12;
        ByteBuffer b = ByteBuffer.allocate(prefix + total).order(ByteOrder.LITTLE_ENDIAN);
        b.put(NpyHeader.MAGIC).put((byte) version).put((byte) 0);
        if (version == 1) {
            b.putShort((short) total);
        } else {
            b.putInt(total);
        }
        b.put(text);
        while (b.position() < b.capacity() - 1) {
            b.put((byte) ' ');
        }
        b.put((byte) '\n');
        return b.array();
    }

    /** Header length field value: text + '\n' + spaces so the data starts 64-byte aligned. */
    private static int paddedLength(int hlen, int version) {
        int prefix = version == 1 ? 10 : 12;
        return hlen + ALIGN - ((prefix + hlen) % ALIGN);
    }

    /** A buffered channel that deletes the file unless {@link #commit()} was reached. */
    private static final class Out implements AutoCloseable {
        private final Path path;
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        private boolean committed;

        Out(Path path, byte[] header) throws IOException {
            this.path = Objects.requireNonNull(path, "path");
            this.ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            try {
                writeFully(ByteBuffer.wrap(header));
            } catch (IOException | RuntimeException e) {
                abort(e);
                throw e;
            }
        }

        void put(double[] src, int off, int len) throws IOException {
            try {
                int i = off;
                int end = off + len;
                while (i < end) {
                    if (buf.remaining() < 8) {
                        flush();
                    }
                    int k = Math.min(end - i, buf.remaining() / 8);
                    buf.asDoubleBuffer().put(src, i, k);
                    buf.position(buf.position() + 8 * k);
                    i += k;
                }
            } catch (IOException | RuntimeException e) {
                abort(e);
                throw e;
            }
        }

        void commit() throws IOException {
            try {
                flush();
                ch.close();
                committed = true;
            } catch (IOException | RuntimeException e) {
                abort(e);
                throw e;
            }
        }

        private void flush() throws IOException {
            buf.flip();
            writeFully(buf);
            buf.clear();
        }

        private void writeFully(ByteBuffer b) throws IOException {
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }

        private void abort(Exception cause) {
            try {
                ch.close();
            } catch (IOException e) {
                cause.addSuppressed(e);
            }
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                cause.addSuppressed(e);
            }
            committed = true; // nothing left to clean up
        }

        @Override
        public void close() throws IOException {
            if (!committed) {
                // an exception escaped between put() calls: do not leave a partial file
                ch.close();
                Files.deleteIfExists(path);
            }
        }
    }
}
