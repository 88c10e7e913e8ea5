package org.dpgauss.release;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The public parameters of a release: values fixed before the data are read (the user's choices, and what
 * follows from them and from public facts such as a public n), e.g. {@code clipRadius}, {@code noiseSigma}.
 * Ordered, immutable, lower-camelCase names. A mechanism builds them in its
 * {@link PrivateMechanism#state statement}, before it sees data, so nothing data-dependent can enter here.
 */
public final class PublicParameters {

    /** No parameters. */
    public static final PublicParameters NONE = builder().build();

    private final Map<String, Object> values;

    private PublicParameters(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    /** @return a new builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return whether {@code name} is present */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /**
     * @param name the parameter
     * @return its value as a double
     * @throws IllegalArgumentException if absent or not a number
     */
    public double number(String name) {
        Object v = values.get(name);
        if (!(v instanceof Number)) {
            throw new IllegalArgumentException("no numeric public parameter '" + name + "' (have " + values.keySet()
                    + ")");
        }
        return ((Number) v).doubleValue();
    }

    /** @return the names in order */
    public java.util.Set<String> names() {
        return values.keySet();
    }

    /**
     * @return a fresh JSON-ready map (String, Double, Long, Integer, Boolean, double[], double[][] and nested maps;
     *         arrays are copies)
     */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : values.entrySet()) {
            m.put(e.getKey(), copyOut(e.getValue()));
        }
        return m;
    }

    private static Object copyOut(Object v) {
        if (v instanceof double[]) {
            return ((double[]) v).clone();
        }
        if (v instanceof double[][]) {
            double[][] a = (double[][]) v;
            double[][] c = new double[a.length][];
            for (int i = 0; i < a.length; i++) {
                c[i] = a[i].clone();
            }
            return c;
        }
        if (v instanceof PublicParameters) {
            return ((PublicParameters) v).toMap();
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PublicParameters)) {
            return false;
        }
        Map<String, Object> a = values;
        Map<String, Object> b = ((PublicParameters) o).values;
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (String k : a.keySet()) {
            if (!Objects.deepEquals(a.get(k), b.get(k))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return values.keySet().hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, Object> e : values.entrySet()) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            Object v = e.getValue();
            sb.append(e.getKey()).append('=').append(v instanceof double[] ? Arrays.toString((double[]) v)
                    : v instanceof double[][] ? Arrays.deepToString((double[][]) v) : String.valueOf(v));
        }
        return sb.append('}').toString();
    }

    /** Collects parameters in order; a name may be given once. */
    public static final class Builder {
        private final Map<String, Object> values = new LinkedHashMap<>();

        private Builder() {
        }

        private Builder add(String name, Object value) {
            Names.check(name, "public parameter");
            if (values.containsKey(name)) {
                throw new IllegalArgumentException("public parameter '" + name + "' is given twice");
            }
            values.put(name, value);
            return this;
        }

        /**
         * @param name lower camelCase name
         * @param value a number (may be infinite or NaN only if that is its public meaning)
         * @return this builder
         */
        public Builder put(String name, double value) {
            return add(name, value);
        }

        /**
         * @param name lower camelCase name
         * @param value an integer
         * @return this builder
         */
        public Builder put(String name, long value) {
            return add(name, value);
        }

        /**
         * @param name lower camelCase name
         * @param value text, not null
         * @return this builder
         */
        public Builder put(String name, String value) {
            return add(name, Objects.requireNonNull(value, name));
        }

        /**
         * @param name lower camelCase name
         * @param value a flag
         * @return this builder
         */
        public Builder put(String name, boolean value) {
            return add(name, value);
        }

        /**
         * @param name lower camelCase name
         * @param value a vector (copied)
         * @return this builder
         */
        public Builder put(String name, double[] value) {
            return add(name, Objects.requireNonNull(value, name).clone());
        }

        /**
         * @param name lower camelCase name
         * @param value a matrix by rows (copied)
         * @return this builder
         */
        public Builder put(String name, double[][] value) {
            Objects.requireNonNull(value, name);
            double[][] c = new double[value.length][];
            for (int i = 0; i < value.length; i++) {
                c[i] = value[i].clone();
            }
            return add(name, c);
        }

        /**
         * @param name lower camelCase name
         * @param value nested parameters
         * @return this builder
         */
        public Builder put(String name, PublicParameters value) {
            return add(name, Objects.requireNonNull(value, name));
        }

        /**
         * Adds every parameter of {@code other} (names must not clash).
         *
         * @param other parameters to copy
         * @return this builder
         */
        public Builder putAll(PublicParameters other) {
            for (Map.Entry<String, Object> e : other.values.entrySet()) {
                add(e.getKey(), e.getValue());
            }
            return this;
        }

        /** @return the parameters */
        public PublicParameters build() {
            return new PublicParameters(new LinkedHashMap<>(values));
        }
    }
}
