package org.dpgauss.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Checks done before opening an input file, so that a missing or unusable file gives a message of
 * the same "file: what is wrong" form as {@link DataFormatException} instead of the bare path
 * that {@link NoSuchFileException#getMessage()} would otherwise show.
 */
final class InputFiles {

    private InputFiles() {
    }

    /**
     * Throws a {@link FileSystemException} subclass naming the file unless it is an existing,
     * readable regular file (or a link to one).
     */
    static void requireReadableFile(Path path) throws IOException {
        Objects.requireNonNull(path, "path");
        if (!Files.exists(path)) {
            throw new NoSuchFileException(path.toString(), null, "no such file");
        }
        if (Files.isDirectory(path)) {
            throw new FileSystemException(path.toString(), null, "is a directory, not a data file");
        }
        if (!Files.isReadable(path)) {
            throw new AccessDeniedException(path.toString(), null, "permission denied");
        }
    }

    /** {@code value} quoted for a message, with control characters escaped and long text cut. */
    static String quote(String value) {
        final int max = 40;
        StringBuilder sb = new StringBuilder(Math.min(value.length(), max) + 8).append('"');
        int n = Math.min(value.length(), max);
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (value.length() > max) {
            sb.append("...");
        }
        return sb.append('"').toString();
    }
}
