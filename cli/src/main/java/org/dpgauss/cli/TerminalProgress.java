package org.dpgauss.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.dpgauss.progress.ProgressListener;

/**
 * Progress on stderr for a person at a terminal: one line per phase, rewritten at most twice a second, with the
 * fraction done, the time spent and an estimate of the time left (linear in the work done). It starts speaking
 * only after a phase has run for {@link #QUIET_MILLIS}, so short commands print nothing.
 */
final class TerminalProgress implements ProgressListener {

    /** Phases shorter than this print nothing. */
    static final long QUIET_MILLIS = 2000;

    private final PrintWriter err;
    private final java.util.function.LongSupplier clock;
    private String phase;
    private long start;
    private long lastPrint;
    private boolean printed;

    TerminalProgress(PrintWriter err) {
        this(err, System::currentTimeMillis);
    }

    TerminalProgress(PrintWriter err, java.util.function.LongSupplier clock) {
        this.err = err;
        this.clock = clock;
    }

    @Override
    public synchronized void update(String p, long done, long total) {
        long now = clock.getAsLong();
        if (!p.equals(phase)) {
            endLine();
            phase = p;
            start = now;
            lastPrint = now;
            return;
        }
        long elapsed = now - start;
        if (elapsed < QUIET_MILLIS || now - lastPrint < 500) {
            return;
        }
        lastPrint = now;
        double f = (double) done / total;
        String left = f > 0.01 ? String.format(Locale.ROOT, ", about %s left", time((long) (elapsed * (1 - f) / f)))
                : "";
        err.print(String.format(Locale.ROOT, "\r%s: %3.0f%% (%s%s)   ", p, 100 * f, time(elapsed), left));
        err.flush();
        printed = true;
    }

    @Override
    public synchronized void finished(String p) {
        if (p.equals(phase)) {
            endLine();
            phase = null;
        }
    }

    private void endLine() {
        if (printed) {
            err.println();
            err.flush();
            printed = false;
        }
    }

    static String time(long millis) {
        long s = Math.round(millis / 1000.0);
        return s < 60 ? s + " s" : String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
}
