package org.dpgauss.kernels;

/**
 * Report of the CUDA 13 vendor libraries reached through FFM (cuBLAS, cuSOLVER): where each one loads from, or
 * every place searched and why it did not load there (Java 22+ section of the multi-release jar).
 */
public final class VendorLibraries {

    private VendorLibraries() {
    }

    /** Multi-line report (no device needed: it loads the libraries, it does not call them). */
    public static String report() {
        return FfmLibraries.report();
    }

    /** True where this class is the Java 22+ version (the jar's multi-release section is in use). */
    public static boolean ffmSection() {
        return true;
    }
}
