package org.dpgauss.spark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngineProvider;
import org.dpgauss.engine.EngineUnavailableException;

/**
 * A test double of the GPU backend (engine name {@code gpu}) that has no device: it records which device each thread
 * asked for and says it cannot run, so routing is checked without faking a GPU result. Registered only for the
 * executors of {@link SparkGpuRoutingTest} (a services file on their extra class path), never on the driver's.
 */
public final class RecordingGpuProvider implements ComputeEngineProvider {

    /** The reason this double gives for every device. */
    static final String REASON = "no CUDA device (test double)";

    private static final Map<Long, Integer> ASKED = new ConcurrentHashMap<>();

    public RecordingGpuProvider() {
    }

    /** The device the current thread last asked for, or -1. */
    static int lastAsked() {
        return ASKED.getOrDefault(Thread.currentThread().getId(), -1);
    }

    /** Forgets the current thread's request. */
    static void clear() {
        ASKED.remove(Thread.currentThread().getId());
    }

    @Override
    public String name() {
        return "gpu";
    }

    @Override
    public String unavailableReason() {
        return unavailableReason(0);
    }

    @Override
    public String unavailableReason(int device) {
        ASKED.put(Thread.currentThread().getId(), device);
        return REASON;
    }

    @Override
    public ComputeEngine open() {
        return open(0);
    }

    @Override
    public ComputeEngine open(int device) {
        throw new EngineUnavailableException(unavailableReason(device));
    }
}
