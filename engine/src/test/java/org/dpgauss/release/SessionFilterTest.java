package org.dpgauss.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.accounting.BudgetExceededException;
import org.junit.jupiter.api.Test;

/**
 * A session's releases are chosen adaptively, so it charges by the privacy filter
 * (docs/design/adaptive-composition.md), never by the fixed-sequence advanced-composition theorems.
 */
class SessionFilterTest {

    private static final NeighbouringRelation R = NeighbouringRelation.REPLACE_ONE;

    /** An {@code (epsilon, delta)} release whose epsilon is chosen by the caller (e.g. after seeing outputs). */
    private static final class Fixed implements PrivateMechanism {
        private final double epsilon;

        Fixed(double epsilon) {
            this.epsilon = epsilon;
        }

        @Override
        public NeighbouringRelation relation() {
            return R;
        }

        @Override
        public Statement state(PublicContext c) {
            return Statement.builder(c, "test.fixed", PrivacyGuarantee.approxDp(R, ApproxDp.of(epsilon, 1e-8), true,
                    "test")).description("a test release").parameters(PublicParameters.builder().build())
                    .failMeaning("never fails").build();
        }

        @Override
        public Outcome compute(Dataset data, Statement stated, ReleaseContext context) {
            return Outcome.pass().vector("zero", new double[] {0}).build();
        }
    }

    @Test
    void aSessionRefusesWhatOnlyAdvancedCompositionWouldAdmit() {
        // budget (6, 2e-5): 48 releases of (0.125, 1e-8) use the basic filter's 6 exactly; advanced composition
        // (KOV, delta' = 1e-5), valid only for parameters fixed in advance, would state 49 at 4.5566 and admit more.
        PrivacySession s = PrivacySession.builder(Dataset.of(new double[][] {{1}, {2}})).relation(R)
                .budget(ApproxDp.of(6, 2e-5)).open();
        for (int i = 0; i < 48; i++) {
            s.release(new Fixed(0.125));
        }
        assertEquals(6.0, s.spent().epsilon(), 0.0);
        assertEquals(48 * 1e-8, s.spent().delta(), 1e-20);
        assertTrue(s.report().composition().startsWith("basic composition filter"), s.report().composition());
        assertThrows(BudgetExceededException.class, () -> s.release(new Fixed(0.125)));
        assertEquals(48, s.report().releases().size());
    }

    @Test
    void anAdaptivelyChosenBudgetIsChargedByTheFilter() {
        // the caller halves the next epsilon after each release (a parameter chosen after seeing outputs):
        // 0.5 + 0.25 + 0.125 + 0.0625 charged by basic composition, exactly 0.9375
        PrivacySession s = PrivacySession.builder(Dataset.of(new double[][] {{1}, {2}})).relation(R)
                .budget(ApproxDp.of(1, 1e-6)).open();
        double eps = 0.5;
        for (int i = 0; i < 4; i++) {
            PrivateRelease r = s.release(new Fixed(eps));
            eps = r.isPass() ? eps / 2 : eps;
        }
        assertEquals(0.9375, s.spent().epsilon(), 0.0);
    }
}
