package org.dpgauss.engine;

/** The engine that was picked and why (reported by {@code demo}, {@code bench} and every JSON result). */
public final class EngineSelection {

    private final ComputeEngine engine;
    private final EngineChoice requested;
    private final String reason;

    EngineSelection(ComputeEngine engine, EngineChoice requested, String reason) {
        this.engine = engine;
        this.requested = requested;
        this.reason = reason;
    }

    public ComputeEngine engine() {
        return engine;
    }

    public EngineChoice requested() {
        return requested;
    }

    /** One line: what was chosen and why. */
    public String reason() {
        return reason;
    }
}
