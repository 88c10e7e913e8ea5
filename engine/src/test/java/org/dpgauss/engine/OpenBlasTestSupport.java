package org.dpgauss.engine;

/**
 * Gate of the OpenBLAS tests: they are reported as skipped, with the reason, where the natives cannot load
 * (never silently passed). {@link #requireOnLinuxX86()} makes the skip impossible where the natives must load.
 */
public final class OpenBlasTestSupport {

    private static String reason;
    private static boolean probed;

    private OpenBlasTestSupport() {
    }

    /** True when the OpenBLAS engine opens on this machine. */
    public static synchronized boolean openBlasUsable() {
        if (!probed) {
            reason = ComputeEngines.openBlasUnavailableReason();
            probed = true;
            if (reason != null) {
                System.err.println("[dpgauss OpenBLAS tests] skipped: " + reason);
            }
        }
        return reason == null;
    }

    /** Linux x86-64 (the platform whose natives the build fetches) without the disable switch. */
    static boolean nativesExpected() {
        return "linux".equalsIgnoreCase(System.getProperty("os.name"))
                && ("amd64".equals(System.getProperty("os.arch")) || "x86_64".equals(System.getProperty("os.arch")))
                && !Boolean.getBoolean(org.dpgauss.cpu.openblas.NativeBlas.DISABLE_PROPERTY);
    }
}
