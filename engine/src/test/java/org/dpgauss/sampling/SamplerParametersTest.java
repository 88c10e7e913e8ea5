package org.dpgauss.sampling;

import org.dpgauss.privacy.ApproxDp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The certified size recipe of spec §2.2 / §2.3 and the --constants overrides. */
class SamplerParametersTest {

    /** The doubling-then-bisection search behind both requiredRows of the covariance-aware estimators. */
    @Test
    void smallestRowsFindsTheThresholdOfAMonotoneCondition() {
        for (long t : new long[] {1, 2, 3, 4, 5, 1000, 1024, 1025, 123_456_789L}) {
            long threshold = t;
            assertEquals(Math.max(2, t), SamplerParameters.smallestRows(n -> n >= threshold, "none"), "t=" + t);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SamplerParameters.smallestRows(n -> false, "no n for this test"));
        assertEquals("no n for this test", e.getMessage());
    }


    /**
     * The worked sizes of spec §2.2 (docs/references/sampling-values.md §1; alpha = 0.05, paper k, i.e. the BHS23 PTR whose k is not raised): total n,
     * lambda0 and M at the fixed point. The table rounds to two significant digits, hence 3% on n.
     */
    @Test
    void workedSizesOfSpecTable() {
        double[][] rows = { // d, eps, delta, lambda0, k, M, total n
            {1, 1, 1e-6, 199, 98, 1172, 7.4e6},
            {10, 1, 1e-6, 317, 98, 1180, 1.2e7},
            {100, 1, 1e-6, 942, 98, 1199, 3.4e7},
            {100, 1, 1e-3, 933, 57, 820, 2.0e7},
            {1000, 1, 1e-6, 5404, 98, 1231, 2.0e8},
            {100, 0.1, 1e-6, 981, 941, 6300, 3.6e8}};
        for (double[] r : rows) {
            int d = (int) r[0];
            long n = SamplerParameters.requiredRows(d, r[1], r[2], 0.05, PtrMechanism.BHS23_AS_PUBLISHED);
            assertEquals(r[6], n, 0.03 * r[6], "total n for d=" + d + " eps=" + r[1] + " delta=" + r[2]);
            assertEquals(r[3], SamplerParameters.lambda0(n, d, 0.05), 1.0, "lambda0");
            assertEquals((int) r[4], SamplerParameters.kPaper(r[1], r[2]));
            assertEquals(r[5], SamplerParameters.referenceSize((int) r[4], n, r[2]), 2, "M");
        }
    }

    /** Spec §2.3 (docs/references/sampling-values.md §2): raising k to ceil(T_PTR) grows the sizes by roughly 10% at d = 100. */
    @Test
    void soundPtrRaisesKAndSizesModestly() {
        long paper = SamplerParameters.requiredRows(100, 1, 1e-6, 0.05, PtrMechanism.BHS23_AS_PUBLISHED);
        long sound = SamplerParameters.requiredRows(100, 1, 1e-6, 0.05, PtrMechanism.SOUND);
        assertTrue(sound > paper && sound < 1.3 * paper, paper + " -> " + sound);
    }

    @Test
    void certifiedRecipeIsMinimalAndFailsBeforeDataWithTheNeededN() {
        long need = SamplerParameters.requiredRows(2, 1, 0.1, 0.05, PtrMechanism.SOUND);
        SamplerParameters p = SamplerParameters.certified((int) need, 2, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND);
        assertTrue(p.certified());
        assertEquals(SamplerParameters.n1Min(need, 2, 1, 0.1, 0.05, PtrMechanism.SOUND), p.n1());
        assertTrue(p.n2() >= SamplerParameters.n2Min(need, 2, 1, 0.1, 0.05, PtrMechanism.SOUND));
        assertTrue(p.rowsUsed() <= need && p.rowsUsed() >= need - 1);
        assertTrue(p.n1() >= p.referenceSize());
        assertTrue(p.k() >= PtrMechanism.SOUND.failThreshold(1.0 / 3, 0.1 / 6), "k >= T_PTR (spec §2.3)");
        InsufficientSampleSizeException e = assertThrows(InsufficientSampleSizeException.class,
                () -> SamplerParameters.certified((int) need - 1, 2, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND));
        assertEquals(need, e.requiredRows());
        assertTrue(e.getMessage().contains("n=" + (need - 1)), e.getMessage());
        assertTrue(e.getMessage().contains(SamplerParameters.sci(need)), e.getMessage());
        assertTrue(e.getMessage().contains("--constants"), e.getMessage());
        // the design.md example: n = 1e5 at d = 100, eps = 1, delta = 1e-6 is far below what is certified
        InsufficientSampleSizeException big = assertThrows(InsufficientSampleSizeException.class,
                () -> SamplerParameters.certified(100_000, 100, ApproxDp.of(1, 1e-6), 0.05, PtrMechanism.SOUND));
        assertTrue(big.requiredRows() > 3.4e7, big.getMessage());
        // the BHS23 PTR can never be certified
        SamplerParameters b = SamplerParameters.certified((int) need * 2, 2, ApproxDp.of(1, 0.1), 0.05,
                PtrMechanism.BHS23_AS_PUBLISHED);
        assertFalse(b.certified());
    }

    @Test
    void constantsGiveUncertifiedSizes() {
        SamplerParameters c = SamplerParameters.withConstants(10_000, 3, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND,
                SizeConstants.parse("C1=20, C2=1"));
        double lambda0 = SamplerParameters.lambda0(10_000, 3, 0.05);
        assertEquals((long) Math.ceil(20 * Math.sqrt(lambda0) * Math.log(10)), c.n1());
        assertEquals((10_000 - c.n1()) / 2, c.n2());
        assertFalse(c.certified());
        SamplerParameters s = SamplerParameters.withConstants(10_001, 3, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND,
                SizeConstants.parse("n1=2000,n2=3000"));
        assertEquals(2000, s.n1());
        assertEquals(3000, s.n2());
        assertEquals(8000, s.rowsUsed());
        assertFalse(s.certified());
        assertEquals(Math.sqrt((1 - 1 / 2000.0) * 3000), s.releaseScale(), 1e-12);
        // n1 below M: R cannot be drawn
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SamplerParameters.withConstants(10_000, 3, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND,
                        SizeConstants.partSizes(100, 3000)));
        assertTrue(e.getMessage().contains("M="), e.getMessage());
        // n2 <= d: certain FAIL, rejected
        assertThrows(IllegalArgumentException.class, () -> SamplerParameters.withConstants(10_000, 50, ApproxDp.of(1, 0.1), 0.05,
                PtrMechanism.SOUND, SizeConstants.partSizes(2000, 50)));
        // sizes that do not fit
        assertThrows(IllegalArgumentException.class, () -> SamplerParameters.withConstants(5000, 3, ApproxDp.of(1, 0.1), 0.05,
                PtrMechanism.SOUND, SizeConstants.partSizes(2000, 2000)));
    }

    @Test
    void parsesConstantsAndRejectsOtherForms() {
        assertEquals(SizeConstants.Kind.PAPER_CONSTANTS, SizeConstants.parse("c2=3,C1=4").kind());
        assertEquals(4.0, SizeConstants.parse("c2=3,C1=4").first());
        assertEquals(SizeConstants.Kind.PART_SIZES, SizeConstants.parse("N1=10,n2=20").kind());
        for (String bad : new String[] {"", "50,20", "C1=5", "C1=5,n2=3", "C1=5,C2=x", "n1=1.5,n2=3", "C1=0,C2=1",
            "C1=1,C1=2", "n1=1,n2=5", "C1=-1,C2=2", "C1=NaN,C2=1"}) {
            assertThrows(IllegalArgumentException.class, () -> SizeConstants.parse(bad), bad);
        }
    }

    @Test
    void validatesPrivacyParametersWithTheirRanges() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SamplerParameters.certified(1000, 2, ApproxDp.of(2, 0.1), 0.05, PtrMechanism.SOUND));
        assertTrue(e.getMessage().contains("epsilon=2.0") && e.getMessage().contains("(0, 1]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> SamplerParameters.certified(1000, 2, ApproxDp.of(0.5, 0.1), 0.05, PtrMechanism.SOUND));
        assertTrue(e.getMessage().contains("delta=0.1"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> SamplerParameters.certified(1000, 2, ApproxDp.of(1, 0.1), 0, PtrMechanism.SOUND));
        assertThrows(IllegalArgumentException.class,
                () -> SamplerParameters.certified(1000, 0, ApproxDp.of(1, 0.1), 0.05, PtrMechanism.SOUND));
        assertThrows(IllegalArgumentException.class,
                () -> SamplerParameters.certified(1000, 2, ApproxDp.of(Double.NaN, 0.1), 0.05, PtrMechanism.SOUND));
    }
}
