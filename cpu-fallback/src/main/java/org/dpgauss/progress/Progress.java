package org.dpgauss.progress;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress reporting for long loops. The listener is per thread: the command line (or a release context)
 * installs one with {@link #with}; a loop calls {@link #track} on the thread that starts it and may advance the
 * returned tracker from any worker thread. Without a listener, tracking costs one atomic add per call.
 */
public final class Progress {

    private static final ThreadLocal<ProgressListener> LISTENER = ThreadLocal.withInitial(() -> ProgressListener.NONE);

    private Progress() {
    }

    /**
     * Runs {@code body} with {@code listener} receiving the progress of loops started on this thread.
     *
     * @param listener the listener
     * @param body the work
     * @param <T> the result type
     * @return the body's result
     */
    public static <T> T with(ProgressListener listener, java.util.function.Supplier<T> body) {
        ProgressListener before = LISTENER.get();
        LISTENER.set(Objects.requireNonNull(listener, "listener"));
        try {
            return body.get();
        } finally {
            LISTENER.set(before);
        }
    }

    /** @return the listener of this thread ({@link ProgressListener#NONE} if none) */
    public static ProgressListener current() {
        return LISTENER.get();
    }

    /**
     * Starts tracking a phase of {@code total} units, reporting to this thread's listener.
     *
     * @param phase a short public name
     * @param total the units of work, fixed before the loop
     * @return the tracker; close it when the phase ends
     */
    public static Tracker track(String phase, long total) {
        return new Tracker(LISTENER.get(), phase, total);
    }

    /** One phase's counter. Thread-safe. */
    public static final class Tracker implements AutoCloseable {
        private final ProgressListener listener;
        private final String phase;
        private final long total;
        private final AtomicLong done = new AtomicLong();

        private Tracker(ProgressListener listener, String phase, long total) {
            this.listener = listener;
            this.phase = phase;
            this.total = Math.max(1, total);
            if (listener != ProgressListener.NONE) {
                listener.update(phase, 0, this.total);
            }
        }

        /** @param units units just completed */
        public void advance(long units) {
            long now = done.addAndGet(units);
            if (listener != ProgressListener.NONE) {
                listener.update(phase, Math.min(now, total), total);
            }
        }

        @Override
        public void close() {
            if (listener != ProgressListener.NONE) {
                listener.finished(phase);
            }
        }
    }
}
