package org.dpgauss.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The preamble of a NumPy {@code .npy} file: magic, version, header length and the header dict,
 * parsed but not yet judged (dtype, order and shape are checked by {@link NpyReader}, which knows
 * what this project accepts).
 *
 * <p>Layout (NEP 1, numpy.lib.format): {@code \x93NUMPY}, major and minor version bytes, the
 * header length as little-endian uint16 (version 1.0) or uint32 (2.0, 3.0), then the header: a
 * Python dict literal with exactly the keys {@code descr}, {@code fortran_order}, {@code shape},
 * padded with spaces and a newline; Latin-1 in 1.0/2.0, UTF-8 in 3.0. Data follows directly.
 * The header is parsed with a small Python-literal parser, never evaluated.
 */
final class NpyHeader {

    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** numpy limits headers to 10000 bytes by default; allow far more but not a 4 GiB read. */
    static final int MAX_HEADER_BYTES = 1 << 20;

    private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");

    final int major;
    final int minor;
    /** A {@code String} such as {@code "<f8"}, or a {@code List} for structured dtypes. */
    final Object descr;
    final boolean fortranOrder;
    final long[] shape;
    /** Byte offset of the first data value. */
    final long dataOffset;
    /** The header text, without trailing padding. */
    final String text;

    private NpyHeader(int major, int minor, Object descr, boolean fortranOrder, long[] shape,
            long dataOffset, String text) {
        this.major = major;
        this.minor = minor;
        this.descr = descr;
        this.fortranOrder = fortranOrder;
        this.shape = shape;
        this.dataOffset = dataOffset;
        this.text = text;
    }

    /** Reads and parses the preamble at the start of {@code ch}; leaves the position unspecified. */
    static NpyHeader read(Path path, FileChannel ch) throws IOException {
        long size = ch.size();
        if (size == 0) {
            throw DataFormatException.of(path, "empty file; not a NumPy .npy file");
        }
        ByteBuffer pre = ByteBuffer.allocate((int) Math.min(size, 12)).order(ByteOrder.LITTLE_ENDIAN);
        readFully(ch, pre, 0);
        byte[] head = Arrays.copyOf(pre.array(), Math.min(pre.capacity(), MAGIC.length));
        if (head.length < MAGIC.length || !Arrays.equals(head, MAGIC)) {
            if (head.length >= 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4) {
                throw DataFormatException.of(path, "is a ZIP archive (an .npz file?), not a .npy file;"
                        + " save a single array with numpy.save");
            }
            throw DataFormatException.of(path, "not a NumPy .npy file: bad magic bytes "
                    + hex(head) + ", expected 93 4e 55 4d 50 59 (\\x93NUMPY)");
        }
        if (size < 8) {
            throw DataFormatException.of(path, "truncated .npy header: no format version");
        }
        int major = pre.get(6) & 0xff;
        int minor = pre.get(7) & 0xff;
        if (minor != 0 || major < 1 || major > 3) {
            throw DataFormatException.of(path, "unsupported .npy format version " + major + "." + minor
                    + " (supported: 1.0, 2.0, 3.0)");
        }
        int lenBytes = major == 1 ? 2 : 4;
        long prefix = 8L + lenBytes;
        if (size < prefix) {
            throw DataFormatException.of(path, "truncated .npy header: no header length");
        }
        long headerLen = major == 1 ? (pre.getShort(8) & 0xffffL) : (pre.getInt(8) & 0xffffffffL);
        if (headerLen > MAX_HEADER_BYTES) {
            throw DataFormatException.of(path, "implausible .npy header length " + headerLen
                    + " bytes (at most " + MAX_HEADER_BYTES + " accepted)");
        }
        if (prefix + headerLen > size) {
            throw DataFormatException.of(path, "truncated .npy header: " + headerLen
                    + " header bytes announced but only " + (size - prefix) + " present");
        }
        ByteBuffer hb = ByteBuffer.allocate((int) headerLen);
        readFully(ch, hb, prefix);
        String text = new String(hb.array(),
                major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1).strip();
        Object parsed;
        try {
            parsed = new Literal(text).parseAll();
        } catch (IllegalArgumentException e) {
            throw DataFormatException.of(path, "malformed .npy header (" + e.getMessage() + "): "
                    + abbreviate(text));
        }
        if (!(parsed instanceof Map)) {
            throw DataFormatException.of(path, "malformed .npy header (not a dict): " + abbreviate(text));
        }
        Map<?, ?> dict = (Map<?, ?>) parsed;
        if (!dict.keySet().equals(KEYS)) {
            throw DataFormatException.of(path, "malformed .npy header (keys must be exactly 'descr',"
                    + " 'fortran_order', 'shape'): " + abbreviate(text));
        }
        Object fortran = dict.get("fortran_order");
        if (!(fortran instanceof Boolean)) {
            throw DataFormatException.of(path, "malformed .npy header (fortran_order is not True or"
                    + " False): " + abbreviate(text));
        }
        Object shapeObj = dict.get("shape");
        if (!(shapeObj instanceof Tuple)) {
            throw DataFormatException.of(path, "malformed .npy header (shape is not a tuple): "
                    + abbreviate(text));
        }
        List<?> dims = ((Tuple) shapeObj).items;
        long[] shape = new long[dims.size()];
        for (int i = 0; i < shape.length; i++) {
            Object v = dims.get(i);
            if (!(v instanceof Long) || (Long) v < 0) {
                throw DataFormatException.of(path, "malformed .npy header (shape entries must be"
                        + " non-negative integers): " + abbreviate(text));
            }
            shape[i] = (Long) v;
        }
        return new NpyHeader(major, minor, dict.get("descr"), (Boolean) fortran, shape,
                prefix + headerLen, text);
    }

    /** The shape as Python prints it: {@code ()}, {@code (5,)}, {@code (3, 2)}. */
    String shapeString() {
        return shapeString(shape);
    }

    static String shapeString(long[] shape) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(shape[i]);
        }
        return sb.append(shape.length == 1 ? ",)" : ")").toString();
    }

    static void readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long pos = position;
        while (buf.hasRemaining()) {
            int r = ch.read(buf, pos);
            if (r < 0) {
                throw new java.io.EOFException("unexpected end of file at byte " + pos);
            }
            pos += r;
        }
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < b.length; i++) {
            sb.append(i == 0 ? "" : " ").append(String.format("%02x", b[i] & 0xff));
        }
        return sb.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    /** A Python tuple (as opposed to a list), so {@code shape} must really be a tuple. */
    static final class Tuple {
        final List<Object> items;

        Tuple(List<Object> items) {
            this.items = Collections.unmodifiableList(items);
        }

        @Override
        public String toString() {
            return "Tuple" + items;
        }
    }

    /**
     * Parser for the Python literals numpy writes: dict, tuple, list, str, int (an old
     * Python 2 {@code L} suffix allowed), True, False, None. Errors are
     * {@link IllegalArgumentException}s with a short reason.
     */
    static final class Literal {
        private final String s;
        private int i;

        Literal(String s) {
            this.s = s;
        }

        Object parseAll() {
            Object v = value();
            space();
            if (i != s.length()) {
                throw error("unexpected text after the dict");
            }
            return v;
        }

        private Object value() {
            space();
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(i);
            switch (c) {
                case '{':
                    return dict();
                case '(':
                    return new Tuple(sequence(')'));
                case '[':
                    return sequence(']');
                case '\'':
                case '"':
                    return string();
                default:
                    break;
            }
            if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
                return integer();
            }
            if (s.startsWith("True", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("False", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            if (s.startsWith("None", i)) {
                i += 4;
                return NONE;
            }
            throw error("unexpected character '" + c + "'");
        }

        private Map<String, Object> dict() {
            i++; // {
            Map<String, Object> m = new LinkedHashMap<>();
            while (true) {
                space();
                if (peek() == '}') {
                    i++;
                    return m;
                }
                Object k = value();
                if (!(k instanceof String)) {
                    throw error("dict key is not a string");
                }
                space();
                expect(':');
                Object v = value();
                if (m.put((String) k, v) != null) {
                    throw error("duplicate key '" + k + "'");
                }
                space();
                if (peek() == ',') {
                    i++;
                } else if (peek() != '}') {
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> sequence(char close) {
            i++; // ( or [
            List<Object> items = new ArrayList<>();
            while (true) {
                space();
                if (peek() == close) {
                    i++;
                    return items;
                }
                items.add(value());
                space();
                if (peek() == ',') {
                    i++;
                } else if (peek() != close) {
                    throw error("expected ',' or '" + close + "'");
                }
            }
        }

        private String string() {
            char q = s.charAt(i++);
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == q) {
                    return sb.toString();
                }
                if (c == '\\' && i < s.length()) {
                    c = s.charAt(i++);
                }
                sb.append(c);
            }
        }

        private Long integer() {
            int start = i;
            if (s.charAt(i) == '-' || s.charAt(i) == '+') {
                i++;
            }
            int digitsStart = i;
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            if (i == digitsStart) {
                throw error("expected digits");
            }
            String num = s.substring(start, i);
            if (i < s.length() && (s.charAt(i) == 'L' || s.charAt(i) == 'l')) {
                i++;
            }
            try {
                return Long.parseLong(num);
            } catch (NumberFormatException e) {
                throw error("integer " + num + " out of range");
            }
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            i++;
        }

        private char peek() {
            return i < s.length() ? s.charAt(i) : '\0';
        }

        private void space() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private IllegalArgumentException error(String why) {
            return new IllegalArgumentException(why + " at character " + (i + 1));
        }

        /** Python's None. */
        static final Object NONE = new Object() {
            @Override
            public String toString() {
                return "None";
            }
        };
    }
}
