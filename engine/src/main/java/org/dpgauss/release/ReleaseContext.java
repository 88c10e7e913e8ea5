package org.dpgauss.release;

import java.util.Objects;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.ComputeEngines;
import org.dpgauss.privacy.RandomSource;

/** What a mechanism computes with: the compute backend and the source of privacy noise. Immutable. */
public final class ReleaseContext {

    private final ComputeEngine engine;
    private final RandomSource random;

    private ReleaseContext(ComputeEngine engine, RandomSource random) {
        this.engine = engine;
        this.random = random;
    }

    /**
     * @param engine the compute backend
     * @param random the noise source; {@link RandomSource#secure()} unless the outputs may be uncertified
     * @return the context
     */
    public static ReleaseContext of(ComputeEngine engine, RandomSource random) {
        return new ReleaseContext(Objects.requireNonNull(engine, "engine"), Objects.requireNonNull(random, "random"));
    }

    /** @return the backend chosen by the {@code dpgauss.engine} system property (default auto) and secure noise */
    public static ReleaseContext secure() {
        return of(ComputeEngines.fromSystemProperty().engine(), RandomSource.secure());
    }

    /** @return the compute backend */
    public ComputeEngine engine() {
        return engine;
    }

    /** @return the noise source */
    public RandomSource random() {
        return random;
    }
}
