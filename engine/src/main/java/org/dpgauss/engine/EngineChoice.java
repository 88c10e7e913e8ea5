package org.dpgauss.engine;

import java.util.Locale;

/** Which backend to use: {@code --engine auto|cpu|gpu} or the {@code dpgauss.engine} system property. */
public enum EngineChoice {
    /** The GPU when one is usable, otherwise the CPU; the choice and its reason are reported. */
    AUTO,
    CPU,
    /** The GPU or an error saying why it is unusable. */
    GPU;

    public static final String PROPERTY = "dpgauss.engine";

    public static EngineChoice parse(String s) {
        if (s == null) {
            throw new IllegalArgumentException("engine is null; expected one of auto, cpu, gpu");
        }
        switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "cpu":
                return CPU;
            case "gpu":
                return GPU;
            default:
                throw new IllegalArgumentException("engine '" + s + "' is not one of auto, cpu, gpu");
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
