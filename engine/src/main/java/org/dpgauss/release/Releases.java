package org.dpgauss.release;

import java.util.Objects;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;

/**
 * The one release path: state (public), [charge, in a session], compute (private), assemble. {@code certified} is derived here and only
 * here: the recipe's certification from the statement, withdrawn when the noise source is insecure.
 */
public final class Releases {

    /** The note added to a guarantee whose noise came from {@code --insecure-seed}. */
    public static final String INSECURE_NOTE = "noise from a seeded (insecure) random source: NOT private";

    private Releases() {
    }

    /**
     * States the mechanism for {@code data}'s public context. Reads only the public shape.
     *
     * @param mechanism the mechanism
     * @param data the dataset
     * @param delta the delta of stated conversions
     * @return the statement
     */
    public static Statement state(PrivateMechanism mechanism, Dataset data, double delta) {
        Objects.requireNonNull(mechanism, "mechanism");
        return state(mechanism, PublicContext.of(data, mechanism.relation(), delta));
    }

    /**
     * States the mechanism for public facts given directly (rows held elsewhere, e.g. by a cluster).
     *
     * @param mechanism the mechanism
     * @param pc the public context; its relation must be the mechanism's
     * @return the statement
     */
    public static Statement state(PrivateMechanism mechanism, PublicContext pc) {
        Objects.requireNonNull(mechanism, "mechanism");
        Objects.requireNonNull(pc, "context");
        if (pc.relation() != mechanism.relation()) {
            throw new IllegalArgumentException("the context is stated under " + pc.relation().description()
                    + " but the mechanism under " + mechanism.relation().description());
        }
        Statement s = mechanism.state(pc);
        if (s.guarantee().relation() != mechanism.relation()) {
            throw new IllegalStateException(s.mechanism() + " stated a guarantee under " + s.guarantee().relation().id()
                    + " but declares " + mechanism.relation().id());
        }
        return s;
    }

    /**
     * Runs a mechanism outside any session (no budget is checked; use {@link PrivacySession} to keep one).
     *
     * @param mechanism the mechanism
     * @param data the dataset
     * @param delta the delta of stated conversions, in {@code (0, 1)}
     * @param context backend and noise
     * @return the release
     */
    public static PrivateRelease run(PrivateMechanism mechanism, Dataset data, double delta, ReleaseContext context) {
        Statement stated = state(mechanism, data, delta); // public facts only, then compute: no check reads rows first
        return compute(mechanism, data, stated, context);
    }

    static PrivateRelease compute(PrivateMechanism mechanism, Dataset data, Statement stated,
            ReleaseContext context) {
        Objects.requireNonNull(context, "context");
        Outcome outcome = Objects.requireNonNull(mechanism.compute(data, stated, context), "outcome");
        return assemble(stated, outcome, context.random());
    }

    /**
     * Assembles the release of an outcome computed elsewhere (e.g. from a cluster's row passes); the guarantee is
     * certified only when {@code random} is secure.
     *
     * @param stated the statement the outcome was computed under
     * @param outcome the outcome
     * @param random the noise source the outcome's noise came from
     * @return the release
     */
    public static PrivateRelease assemble(Statement stated, Outcome outcome, RandomSource random) {
        Objects.requireNonNull(stated, "statement");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(random, "random");
        PrivacyGuarantee g = stated.guarantee().certifiedOnlyIf(!random.isInsecure(), INSECURE_NOTE);
        return PrivateRelease.assemble(stated, outcome, g, random.isInsecure(), random.describe());
    }
}
