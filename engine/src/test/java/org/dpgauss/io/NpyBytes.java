package org.dpgauss.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds .npy file bytes by hand for tests, independent of {@link NpyWriter} (and of Python), so
 * that reader tests can also produce every kind of malformed file.
 */
final class NpyBytes {

    private int major = 1;
    private int minor = 0;
    private String dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (0,), }";
    private byte[] data = new byte[0];
    private boolean pad = true;

    static NpyBytes of(String dict) {
        NpyBytes b = new NpyBytes();
        b.dict = dict;
        return b;
    }

    /** A standard 2-D '<f8' C-order file holding {@code values} (row-major) as shape (rows, cols). */
    static NpyBytes matrix(int rows, int cols, double... values) {
        return of("{'descr': '<f8', 'fortran_order': False, 'shape': (" + rows + ", " + cols + "), }")
                .doubles(values);
    }

    NpyBytes version(int maj, int min) {
        this.major = maj;
        this.minor = min;
        return this;
    }

    NpyBytes doubles(double... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (double v : values) {
            b.putDouble(v);
        }
        data = b.array();
        return this;
    }

    NpyBytes rawData(byte[] bytes) {
        data = bytes.clone();
        return this;
    }

    /** Skips the 64-byte alignment padding (numpy does not require it on read). */
    NpyBytes unpadded() {
        pad = false;
        return this;
    }

    byte[] bytes() {
        byte[] text = (dict).getBytes(major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        int lenBytes = major == 1 ? 2 : 4;
        int prefix = 8 + lenBytes;
        int hlen = text.length + 1;
        int padding = pad ? (64 - (prefix + hlen) % 64) % 64 : 0;
        int total = hlen + padding;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, (byte) minor});
        ByteBuffer len = ByteBuffer.allocate(lenBytes).order(ByteOrder.LITTLE_ENDIAN);
        if (major == 1) {
            len.putShort((short) total);
        } else {
            len.putInt(total);
        }
        out.writeBytes(len.array());
        out.writeBytes(text);
        out.writeBytes(" ".repeat(padding).getBytes(StandardCharsets.US_ASCII));
        out.write('\n');
        out.writeBytes(data);
        return out.toByteArray();
    }

    Path writeTo(Path file) throws IOException {
        Files.write(file, bytes());
        return file;
    }
}
