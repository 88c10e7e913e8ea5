package org.dpgauss.cli;

/**
 * Phase times of one call on stderr when the environment variable {@code DPGAUSS_TRACE} is set (issue 27: where a
 * small call's start goes). Each line is {@code dpgauss-trace: PHASE +MS} since {@code main} began; the last adds
 * the JVM's own start-up before {@code main}. Only times and phase names are printed, nothing about the data, and
 * nothing at all without the variable.
 */
final class StartupTrace {

    private static final boolean ON = System.getenv("DPGAUSS_TRACE") != null;
    private static long t0;

    private StartupTrace() {
    }

    /** Records the end of a phase (the first call starts the clock). */
    static void mark(String phase) {
        if (!ON) {
            return;
        }
        long now = System.nanoTime();
        if (t0 == 0) {
            t0 = now;
        }
        System.err.printf("dpgauss-trace: %-24s +%.1f ms%n", phase, (now - t0) / 1e6);
    }

    /** The last line: the JVM's uptime when main began (a management bean, loaded only here, when tracing). */
    static void end() {
        if (!ON) {
            return;
        }
        mark("exit");
        long upNow = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
        System.err.printf("dpgauss-trace: %-24s  %.0f ms before main (JVM start-up)%n", "jvm",
                upNow - (System.nanoTime() - t0) / 1e6);
    }
}
