package org.dpgauss.kernels;

import java.io.InputStream;

/**
 * Finds out, without side effects beyond loading JCuda's natives, whether a CUDA device and this
 * build's kernels are usable. Every failure becomes a reason string; nothing here throws.
 */
public final class CudaProbe {

    /** Classpath location of the fatbin that {@code build-fatbin.sh} writes when nvcc is present. */
    public static final String FATBIN_DIR = "/org/dpgauss/kernels/";

    private CudaProbe() {
    }

    /** Result of a probe: usable or not, and why. */
    public static final class Result {
        private final boolean deviceUsable;
        private final boolean kernelsPresent;
        private final String device;
        private final String reason;

        Result(boolean deviceUsable, boolean kernelsPresent, String device, String reason) {
            this.deviceUsable = deviceUsable;
            this.kernelsPresent = kernelsPresent;
            this.device = device;
            this.reason = reason;
        }

        /** A CUDA driver answered and reported at least one device. */
        public boolean deviceUsable() {
            return deviceUsable;
        }

        /** This build carries compiled kernels (nvcc was present at build time). */
        public boolean kernelsPresent() {
            return kernelsPresent;
        }

        /** Device name and compute capability, or null. */
        public String device() {
            return device;
        }

        /** Why the GPU cannot be used, or a description of what was found. */
        public String reason() {
            return reason;
        }

        @Override
        public String toString() {
            return reason;
        }
    }

    /** True where this build's kernels (every module of {@link CudaDevice}) were compiled into the jar. */
    public static boolean kernelsPresent() {
        return kernelsPresent(CudaProbe::resourceExists);
    }

    /** True where {@code present} holds for the fatbin resource of every module of {@link CudaDevice}. */
    static boolean kernelsPresent(java.util.function.Predicate<String> present) {
        for (String[] m : CudaDevice.MODULES) {
            if (!present.test(FATBIN_DIR + m[0] + ".fatbin")) {
                return false;
            }
        }
        return true;
    }

    private static boolean resourceExists(String resource) {
        try (InputStream in = CudaProbe.class.getResourceAsStream(resource)) {
            return in != null;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * The linker's own words from an UnsatisfiedLinkError message (JCuda nests the attempts with stack traces):
     * every {@code UnsatisfiedLinkError: ...} line, e.g. {@code libJCudaDriver-...so: libcuda.so.1: cannot open
     * shared object file: No such file or directory}; the first line where there is none.
     */
    static String linkErrors(String msg) {
        StringBuilder sb = new StringBuilder();
        for (String line : msg.split("\\R")) {
            int at = line.indexOf("UnsatisfiedLinkError: ");
            if (at >= 0) {
                sb.append(sb.length() == 0 ? "" : " | ").append(line.substring(at + "UnsatisfiedLinkError: ".length()).strip());
            }
        }
        if (sb.length() == 0) {
            int nl = msg.indexOf('\n');
            return nl > 0 ? msg.substring(0, nl) : msg;
        }
        return sb.toString();
    }

    public static Result probe() {
        boolean kernels = kernelsPresent();
        if (Boolean.getBoolean("dpgauss.cuda.disable")) {
            return new Result(false, kernels, null, "CUDA disabled by -Ddpgauss.cuda.disable=true");
        }
        try {
            return DriverCalls.probeDevice(kernels);
        } catch (Throwable t) {
            // UnsatisfiedLinkError where JCuda's native library or libcuda.so does not load, CudaException where
            // the driver refuses: the message keeps the real error (the linker's or the driver's own words)
            String msg = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip();
            if (t instanceof UnsatisfiedLinkError) {
                return new Result(false, kernels, null, "no CUDA driver usable from Java: JCuda's native library did not "
                        + "load (it needs libcuda.so.1 from an NVIDIA driver); the linker said: " + linkErrors(msg)
                        + (t.getCause() != null ? " (cause: " + t.getCause() + ")" : ""));
            }
            int nl = msg.indexOf('\n');
            if (nl > 0) {
                msg = msg.substring(0, nl);
            }
            return new Result(false, kernels, null, "no usable CUDA device (" + t.getClass().getSimpleName()
                    + ": " + msg + ")");
        }
    }
}
