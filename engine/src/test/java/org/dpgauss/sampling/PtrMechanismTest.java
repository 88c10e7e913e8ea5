package org.dpgauss.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import org.dpgauss.privacy.RandomSource;
import org.junit.jupiter.api.Test;

/** Spec §3.6 / T2 / T10 (PTR level): PTR-A is sound, the BHS23 reference rule is not. */
class PtrMechanismTest {

    private static final double[][] LEVELS = {{1, 0.01}, {1.0 / 3, 1e-6 / 6}, {0.5, 0.05}, {1.0 / 3, 0.1 / 6},
        {0.1, 1e-9}};

    @Test
    void soundPassesAtZeroAndFailsFromThreshold() {
        for (double[] l : LEVELS) {
            double e = l[0];
            double dl = l[1];
            double t = PtrMechanism.SOUND.failThreshold(e, dl);
            assertEquals(0.0, PtrMechanism.SOUND.failProbability(0, e, dl));
            assertEquals(1.0, PtrMechanism.SOUND.failProbability(t, e, dl));
            assertEquals(1.0, PtrMechanism.SOUND.failProbability(Math.ceil(t) + 5, e, dl));
            // T_PTR = (4/eps') ln(1 + (e^eps' - 1)/(2 delta')), spec §2.3
            assertEquals(4 / e * Math.log(1 + Math.expm1(e) / (2 * dl)), t, 1e-9 * t);
            // continuity at B = T/2 (g(B) = 1/2)
            assertEquals(0.5, PtrMechanism.SOUND.failProbability(t / 2, e, dl), 1e-12);
            assertEquals(0.5, PtrMechanism.SOUND.failProbability(t / 2 + 1e-9, e, dl), 1e-8);
            double prev = 0;
            for (double z = 0; z <= t + 1; z += 0.01) {
                double p = PtrMechanism.SOUND.failProbability(z, e, dl);
                assertTrue(p >= prev && p <= 1, "pFail monotone in z at " + z);
                prev = p;
            }
        }
    }

    /** The spec's example: eps=1, delta=1e-6 gives T_PTR = 167.8, so k = 168 (spec §2.3, docs/references/sampling-values.md §2). */
    @Test
    void specWorkedThresholdAndK() {
        double t = PtrMechanism.SOUND.failThreshold(1.0 / 3, 1e-6 / 6);
        assertEquals(167.8, t, 0.05);
        assertEquals(98, SamplerParameters.kPaper(1, 1e-6));
        assertEquals(168, SamplerParameters.k(PtrMechanism.SOUND, 1, 1e-6));
        assertEquals(98, SamplerParameters.k(PtrMechanism.BHS23_AS_PUBLISHED, 1, 1e-6));
    }

    /**
     * T10 at the PTR level, exactly: the output law at score z is Bernoulli(pFail(z)), so the hockey-stick
     * divergence between the outputs at neighbouring scores is max(pF - e^eps pF', pP - e^eps pP', 0). Every pair
     * of scores at most 2 apart on a fine grid (sensitivity 2, spec Lem 3.5) must give at most delta' (up to
     * floating point, 1e-15).
     */
    @Test
    void soundIsDifferentiallyPrivateForSensitivityTwo() {
        for (double[] l : LEVELS) {
            double worst = worstDivergence(PtrMechanism.SOUND, l[0], l[1], 0.05);
            assertTrue(worst <= l[1] + 1e-15, "SOUND eps'=" + l[0] + " delta'=" + l[1] + ": divergence " + worst);
            // the chains hold with equality (spec §3.6): the bound is attained, so the test is sharp
            assertTrue(worst > 0.999 * l[1], "SOUND attains delta' (" + worst + ")");
        }
    }

    /** Spec §3.6 counterexample (docs/references/sampling-values.md §3): eps'=1, delta'=0.01, P[PASS|9] = 0.669 > e P[PASS|11] + 0.01. */
    @Test
    void bhs23RuleIsNotDifferentiallyPrivate() {
        PtrMechanism b = PtrMechanism.BHS23_AS_PUBLISHED;
        assertFalse(b.isDifferentiallyPrivate());
        double pass9 = 1 - b.failProbability(9, 1, 0.01);
        double pass11 = 1 - b.failProbability(11, 1, 0.01);
        assertEquals(0.669, pass9, 5e-4);
        assertEquals(0.100, pass11, 5e-4);
        assertTrue(pass9 > Math.E * pass11 + 0.01);
        assertEquals(2 * Math.log(99) + 4, b.failThreshold(1, 0.01), 1e-12);
        for (double[] l : LEVELS) {
            double worst = worstDivergence(b, l[0], l[1], 1);
            assertTrue(worst > l[1], "BHS23 rule at eps'=" + l[0] + " delta'=" + l[1] + " should violate, got "
                    + worst);
        }
    }

    /**
     * T2 Monte Carlo: the coin's FAIL frequency at each score matches pFail. 40000 draws per score; the
     * acceptance band is 5 binomial standard deviations (+1e-4), so each of the 24 checks fails with probability
     * below 6e-7 (union < 2e-5). Also the empirical counterexample: the BHS23 rule's PASS frequencies at 9 and 11
     * violate the DP inequality by far more than the sampling error.
     */
    @Test
    void coinFrequenciesMatchFailProbability() {
        RandomSource r = RandomSource.insecureSeeded(20261121L);
        int trials = 40_000;
        for (PtrMechanism p : PtrMechanism.values()) {
            for (int z = 0; z <= 22; z += 2) {
                double pf = p.failProbability(z, 1, 0.01);
                int fails = 0;
                for (int i = 0; i < trials; i++) {
                    if (!p.test(z, 1, 0.01, r)) {
                        fails++;
                    }
                }
                double sd = Math.sqrt(pf * (1 - pf) / trials);
                assertEquals(pf, fails / (double) trials, 5 * sd + 1e-4, p + " score " + z);
            }
        }
        int pass9 = 0;
        int pass11 = 0;
        for (int i = 0; i < trials; i++) {
            pass9 += PtrMechanism.BHS23_AS_PUBLISHED.test(9, 1, 0.01, r) ? 1 : 0;
            pass11 += PtrMechanism.BHS23_AS_PUBLISHED.test(11, 1, 0.01, r) ? 1 : 0;
        }
        // true values 0.669 and 0.100: e*0.1+0.01 = 0.282; 5 sd of each frequency is below 0.012
        assertTrue(pass9 / (double) trials > Math.E * pass11 / (double) trials + 0.01 + 0.05);
    }

    /** The coin compares binary expansions: scripted bits give known decisions. */
    @Test
    void exactCoinComparesBinaryDigits() {
        // p = 0.5: digits 1000...; U < p iff U's first digit is 0
        assertTrue(PtrMechanism.bernoulli(0.5, scripted(0x7FFF_FFFF_FFFF_FFFFL)));
        assertFalse(PtrMechanism.bernoulli(0.5, scripted(0x8000_0000_0000_0000L)));
        // p = 0.75 = 0.11b
        assertTrue(PtrMechanism.bernoulli(0.75, scripted(0xBFFF_FFFF_FFFF_FFFFL)));
        assertFalse(PtrMechanism.bernoulli(0.75, scripted(0xC000_0000_0000_0000L)));
        // p = 2^-70: the first 64 digits are 0, so an all-zero first chunk needs a second one
        // (digit 70 is bit 58 of the second chunk)
        assertTrue(PtrMechanism.bernoulli(0x1.0p-70, scripted(0L, 0L)));
        assertTrue(PtrMechanism.bernoulli(0x1.0p-70, scripted(0L, 0x03FF_FFFF_FFFF_FFFFL)));
        assertFalse(PtrMechanism.bernoulli(0x1.0p-70, scripted(0L, 0x0400_0000_0000_0000L)));
        assertFalse(PtrMechanism.bernoulli(0x1.0p-70, scripted(1L)));
        // p = 1 - 2^-53: U < p unless U's first 53 digits are all ones
        assertTrue(PtrMechanism.bernoulli(1 - 0x1.0p-53, scripted(0xFFFF_FFFF_FFFF_F7FFL)));
        assertFalse(PtrMechanism.bernoulli(1 - 0x1.0p-53, scripted(0xFFFF_FFFF_FFFF_F800L)));
        assertFalse(PtrMechanism.bernoulli(0, scripted()));
        assertTrue(PtrMechanism.bernoulli(1, scripted()));
    }

    @Test
    void rejectsLevelsOutsideClaim10() {
        assertThrows(IllegalArgumentException.class, () -> PtrMechanism.SOUND.failProbability(1, 1.5, 0.01));
        assertThrows(IllegalArgumentException.class, () -> PtrMechanism.SOUND.failProbability(1, 1, 0.2));
        assertThrows(IllegalArgumentException.class, () -> PtrMechanism.SOUND.failProbability(1, 1, 0));
        assertThrows(IllegalArgumentException.class,
                () -> PtrMechanism.SOUND.test(-1, 1, 0.01, RandomSource.insecureSeeded(1)));
        assertEquals(PtrMechanism.BHS23_AS_PUBLISHED, PtrMechanism.fromId("BHS23_AS_PUBLISHED"));
        assertEquals(PtrMechanism.SOUND, PtrMechanism.fromId("sound"));
        assertThrows(IllegalArgumentException.class, () -> PtrMechanism.fromId("bhs"));
    }

    /** max over z on a grid of step h, and |z - z'| <= 2, of the hockey-stick divergence of the two coins. */
    private static double worstDivergence(PtrMechanism p, double e, double dl, double h) {
        double top = Math.max(p.failThreshold(e, dl), 1) + 4;
        double worst = 0;
        double ee = Math.exp(e);
        for (double z = 0; z <= top; z += h) {
            for (double s = -2; s <= 2; s += h) {
                double z2 = Math.max(0, z + s);
                double f1 = p.failProbability(z, e, dl);
                double f2 = p.failProbability(z2, e, dl);
                worst = Math.max(worst, Math.max(f1 - ee * f2, (1 - f1) - ee * (1 - f2)));
            }
        }
        return worst;
    }

    private static RandomSource scripted(long... values) {
        Deque<Long> q = new ArrayDeque<>();
        for (long v : values) {
            q.add(v);
        }
        return new RandomSource() {
            @Override
            public long nextLong() {
                if (q.isEmpty()) {
                    throw new AssertionError("the coin drew more bits than scripted");
                }
                return q.poll();
            }

            @Override
            public void nextBytes(byte[] bytes) {
                throw new AssertionError("the coin draws whole words (nextLong), never bytes");
            }

            @Override
            public boolean isInsecure() {
                return true;
            }

            @Override
            public String describe() {
                return "scripted";
            }
        };
    }
}
