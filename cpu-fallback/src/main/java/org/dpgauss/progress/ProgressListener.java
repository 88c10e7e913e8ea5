package org.dpgauss.progress;

/**
 * Receives progress of long computations. It is told only how much of a named phase is done, in units of work
 * the caller fixed before the computation (rows, rounds, thresholds): nothing about the data beyond what the
 * running time already shows. Implementations must be thread-safe (workers report concurrently) and cheap.
 */
public interface ProgressListener {

    /** Ignores everything. */
    ProgressListener NONE = new ProgressListener() {
        @Override
        public void update(String phase, long done, long total) {
        }

        @Override
        public void finished(String phase) {
        }
    };

    /**
     * @param phase a short public name, e.g. {@code neighbour counts}
     * @param done units done so far
     * @param total units in the phase
     */
    void update(String phase, long done, long total);

    /** @param phase the phase that ended */
    void finished(String phase);
}
