package org.dpgauss.release;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.dpgauss.privacy.PrivacyGuarantee;

/**
 * The one value every private release in dpgauss is: status, the noised values (none on FAIL), the guarantee
 * (relation, type, conversion, {@code certified}), the public parameters, and the random source's public
 * description. Nothing else: there is no field for a count, a score or a timing. Immutable; only
 * {@link Releases} makes them.
 */
public final class PrivateRelease {

    private final String mechanism;
    private final String description;
    private final ReleaseStatus status;
    private final Map<String, ReleasedValue> values;
    private final PrivacyGuarantee guarantee;
    private final PublicParameters parameters;
    private final String failMeaning;
    private final boolean insecure;
    private final String randomness;
    private final Accuracy accuracy;

    PrivateRelease(Statement stated, Outcome outcome, PrivacyGuarantee guarantee, boolean insecure,
            String randomness) {
        this.mechanism = stated.mechanism();
        this.description = stated.description();
        this.status = outcome.isPass() ? ReleaseStatus.PASS : ReleaseStatus.FAIL;
        this.values = outcome.values();
        this.guarantee = guarantee;
        this.parameters = stated.parameters();
        this.failMeaning = stated.failMeaning();
        this.insecure = insecure;
        this.randomness = randomness;
        this.accuracy = stated.accuracyAfter(outcome).orElse(null);
    }

    /**
     * @return the accuracy statement (public), if the mechanism makes one: the a-priori statement, with its expected
     *     value computed from the released values where the mechanism does so ({@link Accuracy#isFromRelease})
     */
    public java.util.Optional<Accuracy> accuracy() {
        return java.util.Optional.ofNullable(accuracy);
    }

    /** @return the mechanism's identifier, e.g. {@code mean.clipped} */
    public String mechanism() {
        return mechanism;
    }

    /** @return what is released, in a few words */
    public String description() {
        return description;
    }

    /** @return PASS or FAIL */
    public ReleaseStatus status() {
        return status;
    }

    /** @return whether values were released */
    public boolean isPass() {
        return status == ReleaseStatus.PASS;
    }

    /** @return the released values by name, in order; empty on FAIL */
    public Map<String, ReleasedValue> values() {
        return Collections.unmodifiableMap(values);
    }

    /**
     * @param name a released value's name
     * @return the value
     * @throws IllegalStateException on FAIL, or if there is no such value
     */
    public ReleasedValue value(String name) {
        if (!isPass()) {
            throw new IllegalStateException(mechanism + " returned FAIL: nothing was released");
        }
        ReleasedValue v = values.get(name);
        if (v == null) {
            throw new IllegalStateException(mechanism + " released no value '" + name + "' (it released "
                    + values.keySet() + ")");
        }
        return v;
    }

    /**
     * @param name a released vector's name, e.g. {@code mean}
     * @return a copy of it
     */
    public double[] vector(String name) {
        return value(name).asVector();
    }

    /**
     * @param name a released matrix's name, e.g. {@code secondMoment}
     * @return a copy of its rows
     */
    public double[][] matrix(String name) {
        return value(name).asMatrix();
    }

    /**
     * @param name a released scalar's name
     * @return it
     */
    public double scalar(String name) {
        return value(name).asScalar();
    }

    /** @return the guarantee of this release; {@code certified} is false for an insecure random source */
    public PrivacyGuarantee guarantee() {
        return guarantee;
    }

    /** @return the public parameters */
    public PublicParameters parameters() {
        return parameters;
    }

    /** @return what a FAIL of this mechanism can mean, in public words; empty if it never fails */
    public String failMeaning() {
        return failMeaning;
    }

    /** @return whether the noise came from a seeded, predictable source (then the release is not private) */
    public boolean insecure() {
        return insecure;
    }

    /** @return the random source's public description */
    public String randomness() {
        return randomness;
    }

    /**
     * The one JSON shape of a release: {@code status}, {@code mechanism}, the released values under their names
     * (PASS only), {@code parameters}, {@code accuracy} (if stated), {@code guarantee}, {@code insecure},
     * {@code randomness}, and on FAIL
     * {@code failMeaning}. A fresh, mutable, ordered map.
     *
     * @return the map
     */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status.name());
        m.put("mechanism", mechanism);
        for (Map.Entry<String, ReleasedValue> e : values.entrySet()) {
            m.put(e.getKey(), e.getValue().toJsonValue());
        }
        m.put("parameters", parameters.toMap());
        if (accuracy != null) {
            m.put("accuracy", accuracy.toMap());
        }
        m.put("guarantee", guarantee.toMap());
        if (!isPass() && !failMeaning.isEmpty()) {
            m.put("failMeaning", failMeaning);
        }
        m.put("insecure", insecure);
        m.put("randomness", randomness);
        return m;
    }

    @Override
    public String toString() {
        return mechanism + " " + status + (isPass() ? " " + values.keySet() : "") + "; " + guarantee.describe();
    }

    static PrivateRelease assemble(Statement stated, Outcome outcome, PrivacyGuarantee guarantee, boolean insecure,
            String randomness) {
        return new PrivateRelease(Objects.requireNonNull(stated), Objects.requireNonNull(outcome), guarantee,
                insecure, randomness);
    }
}
