package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec second-moment-estimation §4.2 item 1 (level schedule) and §3.2 (noise scale and accounting). */
class LevelScheduleTest {

    private static final SymmetricNoise SECURE = SymmetricNoise.secure(RandomSource.insecureSeeded(1));

    /** The spec's worked examples: R^2 (normalised), alpha = 1/2, m -> T and L. */
    @ParameterizedTest
    @CsvSource({"1e6, 100, 4.062, 6", "1e6, 1000, 1.345, 3", "1e12, 1000, 17.65, 19"})
    void specExamplesOfTAndL(double r2, int m, double t, int levels) {
        LevelSchedule s = LevelSchedule.of(r2 / 0.5, m, 100_000, 10, 1.0, NoiseScaling.LEVELS, SECURE);
        assertEquals(t, s.paperT(), 5e-3);
        assertEquals(levels, s.levels());
        assertEquals(levels, 1 + Math.max(0, (int) Math.ceil(s.paperT()))); // L = 1 + ceil(T)^+ (§6)
    }

    @Test
    void kappaShrinksBy3Over7AndStopsAtTheFirstLevelBelow640m() {
        LevelSchedule s = LevelSchedule.of(2e6, 100, 100_000, 10, 1.0, NoiseScaling.LEVELS, SECURE);
        double[] expected = {2e6, 8.571e5, 3.673e5, 1.574e5, 6.747e4, 2.892e4};
        assertEquals(expected.length, s.levels());
        for (int t = 0; t < expected.length; t++) {
            assertEquals(expected[t], s.kappa(t), expected[t] * 1e-3);
            assertEquals(Math.sqrt(s.kappa(t)), s.radius(t), 1e-9 * s.radius(t));
            if (t < expected.length - 1) {
                assertTrue(s.kappa(t) > s.stop(), "intermediate level above C_stop");
            }
        }
        assertTrue(s.kappa(s.levels() - 1) <= 64_000);
        assertEquals(1.0 / 1000, s.psi(), 1e-18);
    }

    @Test
    void singleLevelWhenKappaIsBelowTheStop() {
        LevelSchedule s = LevelSchedule.of(1000, 10, 500, 3, 1.0, NoiseScaling.LEVELS, SECURE);
        assertEquals(1, s.levels());
        assertTrue(s.paperT() < 0);
    }

    /**
     * The split-threshold ratio 2 sigma_t sqrt(d) / (psi kappa_t) = 80 m sqrt(L d) / (n sqrt(2 rho)) (LEVELS) at the
     * benchmark's heavy-tailed d = 100 cell (kappa_0 = 3.74e6, m = 100, n = 1e5, L = 6): 4.38 at rho = 0.1 and 1.39 at
     * rho = 1 (the review measured ||N_t|| / (psi kappa_t) = 4.2-4.4 and 1.33-1.41 there); undefined for one level.
     */
    @Test
    void noiseOverSplitThresholdMatchesTheClosedForm() {
        for (double rho : new double[] {0.1, 1.0}) {
            LevelSchedule s = LevelSchedule.of(3.7398e6, 100, 100_000, 100, rho, NoiseScaling.LEVELS, SECURE);
            assertEquals(6, s.levels());
            double expected = 80 * 100 * Math.sqrt(6 * 100) / (100_000 * Math.sqrt(2 * rho));
            assertEquals(expected, s.noiseOverSplitThreshold(), 1e-5 * expected);
        }
        assertEquals(4.382, LevelSchedule.of(3.7398e6, 100, 100_000, 100, 0.1, NoiseScaling.LEVELS, SECURE)
                .noiseOverSplitThreshold(), 1e-3);
        assertTrue(Double.isNaN(LevelSchedule.of(100, 1, 1000, 3, 1, NoiseScaling.LEVELS, SECURE)
                .noiseOverSplitThreshold()));
    }

    /** §3.2: sigma_t = 4 R_t^2 sqrt(L) / (n sqrt(2 rho)); the exact accounting is about rho/8 <= rho. */
    @Test
    void levelsScalingUsesTheNumberOfLevelsAndStaysWithinBudget() {
        int n = 50_000;
        double rho = 0.7;
        LevelSchedule s = LevelSchedule.of(2e6, 100, n, 20, rho, NoiseScaling.LEVELS, SECURE);
        int levels = s.levels();
        double paperRho = 0;
        for (int t = 0; t < levels; t++) {
            assertEquals(4 * s.kappa(t) * Math.sqrt(levels) / (n * Math.sqrt(2 * rho)), s.sigma(t), 1e-12 * s.sigma(t));
            // the paper's accounting: sensitivity 4 R_t^2/n, rho/L per level
            paperRho += Zcdp.gaussianMechanism(4 * s.kappa(t) / n, s.sigma(t)).rho();
            assertTrue(s.sensitivity(t) <= 4 * s.kappa(t) / n, "accounted sensitivity below the paper's 4R^2/n");
            assertTrue(s.sensitivity(t) >= Math.sqrt(2) * s.kappa(t) / n);
        }
        assertEquals(rho, paperRho, 1e-12);
        assertTrue(s.accountedRho() <= rho / 8 * 1.001 && s.accountedRho() >= rho / 8 * 0.999, "" + s.accountedRho());
    }

    @Test
    void tightScalingSpendsTheWholeBudgetAndNoMore() {
        double rho = 0.5;
        LevelSchedule s = LevelSchedule.of(2e6, 100, 50_000, 20, rho, NoiseScaling.TIGHT, SECURE);
        assertTrue(s.accountedRho() <= rho);
        assertTrue(s.accountedRho() >= rho * (1 - 1e-6));
        LevelSchedule l = LevelSchedule.of(2e6, 100, 50_000, 20, rho, NoiseScaling.LEVELS, SECURE);
        assertEquals(2 * Math.sqrt(2), l.sigma(0) / s.sigma(0), 1e-3); // the paper's sigma is 2.83x the tight one
    }

    @Test
    void paperScalingUsesTAndRefusesTBelowOne() {
        LevelSchedule s = LevelSchedule.of(2e6, 100, 50_000, 5, 1.0, NoiseScaling.PAPER_T, SECURE);
        assertEquals(4 * 2e6 * Math.sqrt(s.paperT()) / (50_000 * Math.sqrt(2.0)), s.sigma(0), 1e-9 * s.sigma(0));
        assertTrue(s.accountedRho() <= 1.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LevelSchedule.of(1000, 10, 500, 3, 1.0, NoiseScaling.PAPER_T, SECURE));
        assertTrue(e.getMessage().contains("T="), e.getMessage());
    }

    @Test
    void rejectsInvalidArguments() {
        assertThrows(IllegalArgumentException.class, () -> LevelSchedule.of(0, 1, 1, 1, 1, NoiseScaling.LEVELS, SECURE));
        assertThrows(IllegalArgumentException.class,
                () -> LevelSchedule.of(Double.NaN, 1, 1, 1, 1, NoiseScaling.LEVELS, SECURE));
        assertThrows(IllegalArgumentException.class, () -> LevelSchedule.of(1, 0, 1, 1, 1, NoiseScaling.LEVELS, SECURE));
        assertThrows(IllegalArgumentException.class, () -> LevelSchedule.of(1, 1, 0, 1, 1, NoiseScaling.LEVELS, SECURE));
        assertThrows(IllegalArgumentException.class, () -> LevelSchedule.of(1, 1, 1, 0, 1, NoiseScaling.LEVELS, SECURE));
        assertThrows(IllegalArgumentException.class, () -> LevelSchedule.of(1, 1, 1, 1, 0, NoiseScaling.LEVELS, SECURE));
        assertThrows(IllegalArgumentException.class, () -> NoiseScaling.fromId("loose"));
        assertEquals(NoiseScaling.PAPER_T, NoiseScaling.fromId(" Paper "));
    }
}
