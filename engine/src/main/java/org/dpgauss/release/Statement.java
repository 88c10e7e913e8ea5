package org.dpgauss.release;

import java.util.Map;
import java.util.Objects;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.accounting.Release;

/**
 * What a mechanism says before it reads the data: its name, a one-line description of what it releases, its
 * guarantee (with the recipe's certification; the random source is taken into account by {@link Releases}),
 * its public parameters, the form in which an accountant composes it, and what a FAIL of it can mean. Immutable;
 * made by {@link PrivateMechanism#state}.
 */
public final class Statement {

    private final String mechanism;
    private final String description;
    private final PrivacyGuarantee guarantee;
    private final PublicParameters parameters;
    private final Release accounting;
    private final String failMeaning;
    private final PublicContext context;
    private final Accuracy accuracy;
    private final AccuracyFromRelease fromRelease;

    /**
     * How a mechanism's accuracy statement is refined from its own released values after a PASS (post-processing:
     * it sees the a-priori statement and the released values only, never the data; issue 26 item 0).
     */
    @FunctionalInterface
    public interface AccuracyFromRelease {
        /**
         * @param apriori the a-priori statement
         * @param released the released values of a PASS, by name
         * @return the statement the release carries
         */
        Accuracy refine(Accuracy apriori, Map<String, ReleasedValue> released);
    }

    private Statement(Builder b) {
        this.mechanism = b.mechanism;
        this.description = b.description;
        this.guarantee = b.guarantee;
        this.parameters = b.parameters;
        this.accounting = b.accounting != null ? b.accounting : Release.of(b.mechanism, b.guarantee);
        this.failMeaning = b.failMeaning;
        this.context = b.context;
        this.accuracy = b.accuracy;
        this.fromRelease = b.fromRelease;
    }

    /**
     * The accuracy a release carries: the a-priori statement, refined from the released values where the mechanism
     * says how ({@link Builder#accuracyFromRelease}); on a FAIL, or without a refinement, the a-priori statement.
     *
     * @param outcome the computed outcome
     * @return the statement to publish with it, if any
     */
    java.util.Optional<Accuracy> accuracyAfter(Outcome outcome) {
        if (accuracy == null || fromRelease == null || !outcome.isPass()) {
            return accuracy();
        }
        return java.util.Optional.of(Objects.requireNonNull(fromRelease.refine(accuracy, outcome.valuesForAccuracy()),
                "refined accuracy"));
    }

    /** @return the a-priori accuracy statement, if the mechanism makes one */
    public java.util.Optional<Accuracy> accuracy() {
        return java.util.Optional.ofNullable(accuracy);
    }

    /**
     * @param context the public context the statement is made in
     * @param mechanism the mechanism's identifier, e.g. {@code mean.clipped}
     * @param guarantee the guarantee of one release
     * @return a builder
     */
    public static Builder builder(PublicContext context, String mechanism, PrivacyGuarantee guarantee) {
        return new Builder(context, mechanism, guarantee);
    }

    /** @return the mechanism's identifier, e.g. {@code mean.clipped} */
    public String mechanism() {
        return mechanism;
    }

    /** @return what is released, in a few words */
    public String description() {
        return description;
    }

    /** @return the guarantee of one release, as the recipe certifies it */
    public PrivacyGuarantee guarantee() {
        return guarantee;
    }

    /** @return the public parameters */
    public PublicParameters parameters() {
        return parameters;
    }

    /** @return the guarantee in the form the accountant composes (the most specific that holds) */
    public Release accounting() {
        return accounting;
    }

    /** @return what a FAIL of this mechanism can mean, in public words; empty if it never fails */
    public String failMeaning() {
        return failMeaning;
    }

    /** @return the public context */
    public PublicContext context() {
        return context;
    }

    /**
     * The same statement with more public parameters: where a release was computed (e.g. the engine of a cluster's
     * executors), which is chosen before the data are read and says nothing about them.
     *
     * @param extra the parameters to add
     * @return the statement with them after its own
     * @throws IllegalArgumentException if one of them is already stated
     */
    public Statement withParameters(PublicParameters extra) {
        Builder b = new Builder(context, mechanism, guarantee).description(description)
                .parameters(PublicParameters.builder().putAll(parameters).putAll(extra).build())
                .accounting(accounting).failMeaning(failMeaning);
        if (accuracy != null) {
            b.accuracy(accuracy);
        }
        b.fromRelease = fromRelease;
        return b.build();
    }

    /** Builds a statement. */
    public static final class Builder {
        private final PublicContext context;
        private final String mechanism;
        private final PrivacyGuarantee guarantee;
        private String description = "";
        private PublicParameters parameters = PublicParameters.NONE;
        private Release accounting;
        private String failMeaning = "";
        private Accuracy accuracy;
        private AccuracyFromRelease fromRelease;

        private Builder(PublicContext context, String mechanism, PrivacyGuarantee guarantee) {
            this.context = Objects.requireNonNull(context, "context");
            if (mechanism == null || !mechanism.matches("[a-z][a-z0-9-]*(\\.[a-z][a-z0-9-]*)*")) {
                throw new IllegalArgumentException("mechanism id '" + mechanism + "' is not of the form family.method"
                        + " in lower case (e.g. mean.clipped)");
            }
            this.mechanism = mechanism;
            this.guarantee = Objects.requireNonNull(guarantee, "guarantee");
            if (guarantee.relation() != context.relation()) {
                throw new IllegalArgumentException(mechanism + ": the guarantee is stated under "
                        + guarantee.relation().id() + " but the context under " + context.relation().id());
            }
        }

        /**
         * @param text what is released, in a few words
         * @return this builder
         */
        public Builder description(String text) {
            this.description = Objects.requireNonNull(text, "description").strip();
            return this;
        }

        /**
         * @param params the public parameters
         * @return this builder
         */
        public Builder parameters(PublicParameters params) {
            this.parameters = Objects.requireNonNull(params, "parameters");
            return this;
        }

        /**
         * @param release the accounting form, e.g. {@link Release#zcdp} or {@link Release#gaussianPair}; by
         *        default derived from the guarantee
         * @return this builder
         */
        public Builder accounting(Release release) {
            this.accounting = Objects.requireNonNull(release, "accounting");
            if (release.relation() != guarantee.relation()) {
                throw new IllegalArgumentException(mechanism + ": accounting form and guarantee differ in relation");
            }
            return this;
        }

        /**
         * @param text what a FAIL can mean, in public words (no data-dependent content)
         * @return this builder
         */
        public Builder failMeaning(String text) {
            this.failMeaning = Objects.requireNonNull(text, "failMeaning").strip();
            return this;
        }

        /**
         * @param a the a-priori accuracy statement (public quantities only)
         * @return this builder
         */
        public Builder accuracy(Accuracy a) {
            this.accuracy = Objects.requireNonNull(a, "accuracy");
            return this;
        }

        /**
         * @param f how the accuracy statement is refined from the released values after a PASS (post-processing; see
         *     {@link AccuracyFromRelease}); requires an a-priori {@link #accuracy}
         * @return this builder
         */
        public Builder accuracyFromRelease(AccuracyFromRelease f) {
            this.fromRelease = Objects.requireNonNull(f, "accuracyFromRelease");
            return this;
        }

        /** @return the statement */
        public Statement build() {
            return new Statement(this);
        }
    }
}
