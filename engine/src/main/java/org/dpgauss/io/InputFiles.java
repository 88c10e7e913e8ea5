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

}
