package org.dpgauss.release;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a mechanism's private computation returns: PASS with its noised values, or FAIL with nothing. There is no
 * slot for anything else (counts, scores, timings), so nothing else can leave. Immutable.
 */
public final class Outcome {

    private static final Outcome FAIL = new Outcome(Collections.emptyMap(), Collections.emptyMap());

    private final Map<String, ReleasedValue> values;
    private final Map<String, ReleasedValue> accuracyInputs;

    private Outcome(Map<String, ReleasedValue> values, Map<String, ReleasedValue> accuracyInputs) {
        this.values = values;
        this.accuracyInputs = accuracyInputs;
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

    /** The released values and the accuracy inputs, for {@link Statement.AccuracyFromRelease} only. */
    Map<String, ReleasedValue> valuesForAccuracy() {
        if (accuracyInputs.isEmpty()) {
            return values;
        }
        Map<String, ReleasedValue> all = new LinkedHashMap<>(values);
        all.putAll(accuracyInputs);
        return Collections.unmodifiableMap(all);
    }

    /** Collects the noised values of a PASS, in order. */
    public static final class Builder {
        private final Map<String, ReleasedValue> values = new LinkedHashMap<>();
        private final Map<String, ReleasedValue> accuracyInputs = new LinkedHashMap<>();

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

        /**
         * An input of the statement's accuracy refinement ({@link Statement.Builder#accuracyFromRelease}) that is not
         * published itself: it must be post-processing of this outcome's noised values (e.g. an expected error
         * simulated from a noised matrix the release does not print); only the refined accuracy leaves.
         *
         * @param name lower camelCase name, distinct from every released value's
         * @param value the scalar
         * @return this builder
         */
        public Builder accuracyInput(String name, double value) {
            Names.check(name, "accuracy input");
            if (values.containsKey(name) || accuracyInputs.putIfAbsent(name, ReleasedValue.scalar(value)) != null) {
                throw new IllegalArgumentException("accuracy input '" + name + "' is given twice");
            }
            return this;
        }

        /** @return the PASS outcome */
        public Outcome build() {
            if (values.isEmpty()) {
                throw new IllegalStateException("a PASS releases at least one value");
            }
            return new Outcome(Collections.unmodifiableMap(new LinkedHashMap<>(values)),
                    Collections.unmodifiableMap(new LinkedHashMap<>(accuracyInputs)));
        }
    }
}
