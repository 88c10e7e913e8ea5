package org.dpgauss.engine;

/**
 * A compute backend shipped in its own artifact and found at run time by {@link java.util.ServiceLoader}
 * (a {@code META-INF/services/org.dpgauss.engine.ComputeEngineProvider} entry in that artifact). The GPU backend
 * ({@code org.dpgauss:dpgauss-gpu}, engine name {@code gpu}) is one: a library user who does not add that artifact
 * carries neither JCuda nor its natives, and {@link ComputeEngines} says which artifact to add when the GPU is
 * asked for. The CPU engines live in this artifact and need no provider.
 *
 * <p>An implementation has a public no-argument constructor and is cheap to construct: the probe runs in
 * {@link #unavailableReason()}, not in the constructor.
 */
public interface ComputeEngineProvider {

    /** The engine name this provider opens, as {@code --engine} spells it (e.g. {@code gpu}). */
    String name();

    /**
     * Why the backend cannot run in this process, or null when it can. Never throws; the probe's outcome may be
     * kept for the life of the process (drivers and jars do not change while it runs).
     */
    String unavailableReason();

    /**
     * The process-wide engine of this backend.
     *
     * @throws EngineUnavailableException with the reason when {@link #unavailableReason()} is not null
     */
    ComputeEngine open();

    /**
     * Why the backend cannot run on device {@code device} (0-based ordinal, e.g. the GPU address a cluster scheduler
     * assigned a task), or null when it can. The default knows device 0 only. Never throws.
     */
    default String unavailableReason(int device) {
        if (device == 0) {
            return unavailableReason();
        }
        return "the " + name() + " backend cannot select device " + device + " (it opens device 0 only)";
    }

    /**
     * The process-wide engine of this backend on device {@code device}.
     *
     * @throws EngineUnavailableException with the reason when {@link #unavailableReason(int)} is not null
     */
    default ComputeEngine open(int device) {
        String why = unavailableReason(device);
        if (why != null) {
            throw new EngineUnavailableException(why);
        }
        return open();
    }
}
