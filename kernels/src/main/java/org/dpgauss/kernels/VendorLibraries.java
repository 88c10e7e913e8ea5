package org.dpgauss.kernels;

/**
 * Report of the CUDA 13 vendor libraries reached through FFM (cuBLAS, cuSOLVER): where each one loads from, or
 * every place searched and why it did not load there. This Java 17 version says that FFM needs Java 22+; the
 * jar's Java 22+ section replaces it.
 */
public final class VendorLibraries {

    private VendorLibraries() {
    }

    /** Multi-line report (no device needed: it loads the libraries, it does not call them). */
    public static String report() {
        return "FFM vendor libraries: not available on this runtime (" + FfmBlas.unavailableReason()
                + "); a Java 22+ runtime would search: " + LibrarySearch.describe();
    }

    /** True where this class is the Java 22+ version (the jar's multi-release section is in use). */
    public static boolean ffmSection() {
        return false;
    }
}
