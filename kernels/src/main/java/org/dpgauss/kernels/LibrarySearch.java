package org.dpgauss.kernels;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the CUDA 13 math libraries ({@code libcublas.so.13}, {@code libcusolver.so.12}) are looked for, in this
 * order (issue 17; design.md, "GPU backend"):
 * <ol>
 * <li>{@code DPGAUSS_CUDA_LIBDIR} (environment), or the system property {@value #LIBDIR_PROPERTY};</li>
 * <li>the Python venv's {@code site-packages/nvidia/cu13/lib}: the site-packages named by
 * {@code DPGAUSS_PYTHON_SITE} (the GPU suite sets it from {@code python3}), then {@code $VIRTUAL_ENV}, then the
 * venv of the GPU hosts we are lent ({@code /opt/torch/.venv});</li>
 * <li>the CUDA toolkit, {@code /usr/local/cuda/lib64};</li>
 * <li>the system path (the dynamic linker's own search: {@code LD_LIBRARY_PATH}, the ldconfig cache).</li>
 * </ol>
 * Plain Java 17: the loading itself is the FFM code of the jar's Java 22+ section ({@code FfmLibraries}).
 */
public final class LibrarySearch {

    /** System property naming the library directory (takes precedence over {@code DPGAUSS_CUDA_LIBDIR}). */
    public static final String LIBDIR_PROPERTY = "dpgauss.cuda.libdir";
    /** The pip layout of the CUDA 13 wheels (nvidia-cublas, nvidia-cusolver, ... for cu13). */
    public static final String VENV_SUBDIR = "nvidia/cu13/lib";
    /** The CUDA toolkit's library directory. */
    public static final String TOOLKIT_DIR = "/usr/local/cuda/lib64";
    /** Venvs tried when neither DPGAUSS_PYTHON_SITE nor VIRTUAL_ENV names one (the GPU hosts' PyTorch venv). */
    static final String[] KNOWN_VENVS = {"/opt/torch/.venv"};

    private LibrarySearch() {
    }

    /** One place in the search: a label saying where it comes from, and a directory (null: the system path). */
    public static final class Place {
        private final String label;
        private final Path dir;
        private final String note;

        Place(String label, Path dir, String note) {
            this.label = label;
            this.dir = dir;
            this.note = note;
        }

        /** E.g. {@code DPGAUSS_CUDA_LIBDIR}, {@code venv nvidia/cu13/lib}, {@code CUDA toolkit}, {@code system path}. */
        public String label() {
            return label;
        }

        /** The directory, or null for the system path (or for a step that is not configured, see {@link #note()}). */
        public Path dir() {
            return dir;
        }

        /** Why this step has no directory (e.g. "unset"), or null. */
        public String note() {
            return note;
        }

        public boolean systemPath() {
            return dir == null && note == null;
        }

        @Override
        public String toString() {
            return label + (dir != null ? " (" + dir + ")" : note != null ? " (" + note + ")" : "");
        }
    }

    /** The places, in search order. Steps that are not configured are listed with a note, so reports show them. */
    public static List<Place> places() {
        List<Place> out = new ArrayList<>();
        String explicit = System.getProperty(LIBDIR_PROPERTY);
        String label = "-D" + LIBDIR_PROPERTY;
        if (explicit == null || explicit.isBlank()) {
            explicit = System.getenv("DPGAUSS_CUDA_LIBDIR");
            label = "DPGAUSS_CUDA_LIBDIR";
        }
        if (explicit == null || explicit.isBlank()) {
            out.add(new Place("DPGAUSS_CUDA_LIBDIR", null, "unset"));
        } else {
            for (String dir : explicit.split(File.pathSeparator)) {
                if (!dir.isBlank()) {
                    out.add(new Place(label, Path.of(dir.trim()), null));
                }
            }
        }
        List<Path> venvLibs = new ArrayList<>();
        String site = System.getenv("DPGAUSS_PYTHON_SITE");
        if (site != null && !site.isBlank()) {
            for (String s : site.split(File.pathSeparator)) {
                if (!s.isBlank()) {
                    venvLibs.add(Path.of(s.trim()).resolve(VENV_SUBDIR));
                }
            }
        }
        String venv = System.getenv("VIRTUAL_ENV");
        if (venv != null && !venv.isBlank()) {
            venvLibs.addAll(sitePackagesLibs(Path.of(venv)));
        }
        for (String known : KNOWN_VENVS) {
            venvLibs.addAll(sitePackagesLibs(Path.of(known)));
        }
        List<Path> seen = new ArrayList<>();
        for (Path p : venvLibs) {
            if (!seen.contains(p)) {
                seen.add(p);
                out.add(new Place("venv " + VENV_SUBDIR, p, null));
            }
        }
        if (seen.isEmpty()) {
            out.add(new Place("venv " + VENV_SUBDIR, null, "no venv found: DPGAUSS_PYTHON_SITE and VIRTUAL_ENV unset, no "
                    + String.join(", ", KNOWN_VENVS)));
        }
        out.add(new Place("CUDA toolkit", Path.of(TOOLKIT_DIR), null));
        out.add(new Place("system path", null, null));
        return out;
    }

    /** {@code VENV/lib/python3.N/site-packages/nvidia/cu13/lib} for every python3.N under the venv. */
    static List<Path> sitePackagesLibs(Path venv) {
        List<Path> out = new ArrayList<>();
        Path lib = venv.resolve("lib");
        if (!Files.isDirectory(lib)) {
            return out;
        }
        try (var dirs = Files.list(lib)) {
            dirs.filter(p -> p.getFileName().toString().startsWith("python3")).sorted()
                    .forEach(p -> out.add(p.resolve("site-packages").resolve(VENV_SUBDIR)));
        } catch (java.io.IOException e) {
            // unreadable: nothing found there
        }
        return out;
    }

    /** The search order in one line, for messages: {@code 1. DPGAUSS_CUDA_LIBDIR (unset), 2. ...}. */
    public static String describe() {
        StringBuilder sb = new StringBuilder();
        int k = 1;
        for (Place p : places()) {
            sb.append(k == 1 ? "" : ", ").append(k++).append(". ").append(p);
        }
        return sb.toString();
    }
}
