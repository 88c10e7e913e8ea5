package org.dpgauss.engine;

import java.util.Locale;

/**
 * Which backend to use: {@code --engine auto|cpu|ejml|gpu} or the {@code dpgauss.engine} system property.
 * {@code cpu} is the native OpenBLAS engine where its natives load (otherwise EJML, with the reason);
 * {@code ejml} is the pure-Java reference engine.
 */
public enum EngineChoice {
    /** The GPU when one is usable, otherwise the CPU (OpenBLAS, else EJML); the choice and its reason are reported. */
    AUTO,
    /** The native OpenBLAS CPU engine, or EJML (saying why) where the natives cannot load. */
    CPU,
    /** The pure-Java EJML engine (the reference). */
    EJML,
    /** The GPU or an error saying why it is unusable. */
    GPU;

    public static final String PROPERTY = "dpgauss.engine";

    public static EngineChoice parse(String s) {
        if (s == null) {
            throw new IllegalArgumentException("engine is null; expected one of auto, cpu, ejml, gpu");
        }
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "cpu":
                return CPU;
            case "ejml":
                return EJML;
            case "gpu":
                return GPU;
            default:
                throw new IllegalArgumentException("engine '" + s + "' is not one of auto, cpu, ejml, gpu");
        }
    }

    /** The {@value #PROPERTY} system property, AUTO when unset. */
    public static EngineChoice fromSystemProperty() {
        String v = System.getProperty(PROPERTY);
        return v == null || v.isBlank() ? AUTO : parse(v);
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
