package org.dpgauss.secondmoment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The registry of private second-moment methods by name: the dispatch point of {@code dpgauss second-moment
 * --method NAME} and of the demo, which reports every registered method. Registration order is the order in
 * listings. Each baseline adds one line to the static block below.
 */
public final class SecondMomentMethods {

    /** Creates a configured method from the shared parameters (validating what it needs). */
    @FunctionalInterface
    public interface Factory {
        /**
         * @param params the shared parameters
         * @return the configured method
         * @throws IllegalArgumentException if a parameter the method needs is missing or out of range
         */
        SecondMomentMethod create(SecondMomentParams params);
    }

    /** A registered method: its name, a one-line description (guarantee type and relation) and its factory. */
    public static final class Entry {
        private final String name;
        private final String description;
        private final Factory factory;

        private Entry(String name, String description, Factory factory) {
            this.name = name;
            this.description = description;
            this.factory = factory;
        }

        /** @return the name */
        public String name() {
            return name;
        }

        /** @return the description */
        public String description() {
            return description;
        }

        /** @return the factory */
        public Factory factory() {
            return factory;
        }
    }

    /** The default method of {@code second-moment}. */
    public static final String DEFAULT = RecursiveSecondMoment.NAME;

    private static final Map<String, Entry> REGISTRY = new LinkedHashMap<>();

    static {
        register(RecursiveSecondMoment.NAME, RecursiveSecondMoment.DESCRIPTION, RecursiveSecondMoment::fromParams);
        // Baselines (spec §8): one register(...) line each below.
        register(AnalyzeGauss.NAME, AnalyzeGauss.DESCRIPTION, AnalyzeGauss::fromParams);
        register(CoinPress.NAME, CoinPress.DESCRIPTION, CoinPress::fromParams);
        register(SubsampleAndAggregate.NAME, SubsampleAndAggregate.DESCRIPTION, SubsampleAndAggregate::fromParams);
    }

    private SecondMomentMethods() {
    }

    private static void register(String name, String description, Factory factory) {
        String key = normalise(name);
        if (REGISTRY.containsKey(key)) {
            throw new IllegalStateException("second-moment method '" + key + "' is registered twice");
        }
        REGISTRY.put(key, new Entry(key, Objects.requireNonNull(description), Objects.requireNonNull(factory)));
    }

    /** @return the registered methods in registration order (unmodifiable) */
    public static Map<String, Entry> all() {
        return Collections.unmodifiableMap(REGISTRY);
    }

    /**
     * @param name a registered name (case-insensitive)
     * @param params the shared parameters
     * @return the configured method
     * @throws IllegalArgumentException naming the available methods if {@code name} is unknown
     */
    public static SecondMomentMethod create(String name, SecondMomentParams params) {
        Entry e = REGISTRY.get(normalise(name));
        if (e == null) {
            throw new IllegalArgumentException("second-moment method '" + name + "' is not available; available: "
                    + String.join(", ", REGISTRY.keySet()));
        }
        return e.factory.create(params);
    }

    private static String normalise(String name) {
        return name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    }
}
