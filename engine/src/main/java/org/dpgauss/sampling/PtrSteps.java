package org.dpgauss.sampling;

import java.util.List;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.accounting.PrivacyAccountant;
import org.dpgauss.privacy.accounting.Release;

/**
 * The budget split shared by the PTR-guarded mechanisms of this package (BHS23 Lemma 15, spec
 * unbounded-gaussian-sampling §5): the PTR test {@code (eps/3, delta/6)}, the uniform reference set
 * {@code (0, delta/6)} and the release {@code (2 eps/3, 2 delta/3)}, composed by the accountant
 * ({@link PrivacyAccountant#composeSteps}) under replace-one neighbours. The composed statement is at most the
 * target {@code (eps, delta)}.
 */
final class PtrSteps {

    /** The note every PTR-guarded statement carries about timing. */
    static final String TIMING_NOTE = "the same computations run whether the PTR test passes or fails (the release is"
            + " discarded on FAIL); timing side channels in general are outside the guarantee";

    private PtrSteps() {
    }

    /**
     * @param epsilon the target epsilon
     * @param delta the target delta
     * @param certified the recipe's certification
     * @param notes the mechanism's notes
     * @return the composed guarantee
     */
    static PrivacyGuarantee guarantee(double epsilon, double delta, boolean certified, String notes) {
        NeighbouringRelation rel = NeighbouringRelation.REPLACE_ONE;
        double ptrEps = epsilon / 3;
        double sixth = delta / 6;
        List<Release> steps = List.of(
                Release.approxDp("ptrTest", rel, ApproxDp.of(ptrEps, sixth)),
                Release.approxDp("referenceSet", rel, ApproxDp.of(0, sixth)),
                // 2 eps/3 and 2 delta/3, written as the rest of the target so the sum cannot round above it
                Release.approxDp("release", rel, ApproxDp.of(epsilon - ptrEps, delta - 2 * sixth)));
        return PrivacyAccountant.composeSteps(rel, steps, delta, certified, notes + "; " + TIMING_NOTE);
    }
}
