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
        for (String[] m : CudaDevice.MODULES) {
            try (InputStream in = CudaProbe.class.getResourceAsStream(FATBIN_DIR + m[0] + ".fatbin")) {
                if (in == null) {
                    return false;
                }
            } catch (java.io.IOException e) {
                return false;
            }
        }
        return true;
    }

    public static Result probe() {
        boolean kernels = kernelsPresent();
        if (Boolean.getBoolean("dpgauss.cuda.disable")) {
            return new Result(false, kernels, null, "CUDA disabled by -Ddpgauss.cuda.disable=true");
        }
        try {
            return DriverCalls.probeDevice(kernels);
        } catch (Throwable t) {
            // UnsatisfiedLinkError where libcuda.so is absent, CudaException where the driver refuses
            String msg = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            int nl = msg.indexOf('\n');
            if (nl > 0) {
                msg = msg.substring(0, nl);
            }
            if (t instanceof UnsatisfiedLinkError) {
                return new Result(false, kernels, null, "no CUDA driver on this machine (JCuda's native library did not "
                        + "load; it needs libcuda.so from an NVIDIA driver)");
            }
            return new Result(false, kernels, null, "no usable CUDA device (" + t.getClass().getSimpleName()
                    + ": " + msg + ")");
        }
    }
}
