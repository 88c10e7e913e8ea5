package org.dpgauss.release;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a mechanism's private computation returns: PASS with its noised values, or FAIL with nothing. There is no
 * slot for anything else (counts, scores, timings), so nothing else can leave. Immutable.
 */
public final class Outcome {

    private static final Outcome FAIL = new Outcome(Collections.emptyMap());

    private final Map<String, ReleasedValue> values;

    private Outcome(Map<String, ReleasedValue> values) {
        this.values = values;
    }

    /** @return the FAIL outcome: nothing is released */
    public static Outcome fail() {
        return FAIL;
    }

    /** @return a builder of a PASS outcome */
    public static Builder pass() {
        return new Builder();
    }

    /** @return whether values were released */
    public boolean isPass() {
        return !values.isEmpty();
    }

    Map<String, ReleasedValue> values() {
        return values;
    }

    /** Collects the noised values of a PASS, in order. */
    public static final class Builder {
        private final Map<String, ReleasedValue> values = new LinkedHashMap<>();

        private Builder() {
        }

        private Builder add(String name, ReleasedValue v) {
            Names.check(name, "released value");
            if (values.putIfAbsent(name, v) != null) {
                throw new IllegalArgumentException("released value '" + name + "' is given twice");
            }
            return this;
        }

        /**
         * @param name lower camelCase name, e.g. {@code mean}
         * @param value the noised scalar
         * @return this builder
         */
        public Builder scalar(String name, double value) {
            return add(name, ReleasedValue.scalar(value));
        }

        /**
         * @param name lower camelCase name, e.g. {@code mean}
         * @param value the noised vector (copied)
         * @return this builder
         */
        public Builder vector(String name, double[] value) {
            return add(name, ReleasedValue.vector(value));
        }

        /**
         * @param name lower camelCase name, e.g. {@code secondMoment}
         * @param rows the noised matrix by rows (copied)
         * @return this builder
         */
        public Builder matrix(String name, double[][] rows) {
            return add(name, ReleasedValue.matrix(rows));
        }

        /** @return the PASS outcome */
        public Outcome build() {
            if (values.isEmpty()) {
                throw new IllegalStateException("a PASS releases at least one value");
            }
            return new Outcome(Collections.unmodifiableMap(new LinkedHashMap<>(values)));
        }
    }
}
