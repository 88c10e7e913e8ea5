package org.dpgauss.ndis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleFunction;
import org.dpgauss.ndis.LoewnerComparableBound.Variant;
import org.junit.jupiter.api.Test;

/** Spec ndis §6.5 (Def. 6, §6.5.1-6.5.4), §9.1 item 14, §9.2 counterexamples, §8.3 sanity values. */
class LoewnerComparableBoundTest {

    private static final HockeyStickDivergence HSD = HockeyStickDivergence.cpu();
    private static final LoewnerComparableBound PAPER = LoewnerComparableBound.of(Variant.PAPER_FAITHFUL);
    private static final LoewnerComparableBound SOUND = LoewnerComparableBound.sound();
    private static final LoewnerComparableBound EXACT = LoewnerComparableBound.of(Variant.SOUND_EXACT_HARD);

    private static Gaussian g(double mean, double variance) {
        return Gaussian.of(new double[] {mean}, new double[][] {{variance}});
    }

    /** §9.2 hard counterexample (docs/references/ndis-values.md §1.7): R = e^0.5, m = 0, eps = 0.5: Def. 6 gives 0 < exact 0.04447. */
    @Test
    void hardCounterexample() {
        double exact = HSD.delta(g(0, Math.exp(0.5)), g(0, 1), 0.5);
        assertEquals(0.04447, exact, 5e-6);
        assertEquals(0, PAPER.delta(0.5, 0, 0.5, 0.5, 1), 0);
        assertTrue(PAPER.delta(0.5, 0, 0.5, 0.5, 1) < exact, "the published bound must undercut the exact value");
        assertTrue(SOUND.delta(0.5, 0, 0.5, 0.5, 1) >= exact);
        assertTrue(EXACT.delta(0.5, 0, 0.5, 0.5, 1) >= exact - 1e-12);
    }

    /** §9.2 easy counterexample (docs/references/ndis-values.md §1.7): R = e^-1, m = 2, eps = 0.5: Def. 6 gives 0.6827 < exact 0.7177. */
    @Test
    void easyCounterexample() {
        double paper = PAPER.delta(0.5, 2, 1, 1, 1);
        assertEquals(0.6827, paper, 5e-5);
        assertTrue(paper < 0.7177 - 1e-4, "the published bound must undercut the exact value");
        assertTrue(SOUND.delta(0.5, 2, 1, 1, 1) >= 0.7177);
        assertTrue(EXACT.delta(0.5, 2, 1, 1, 1) >= 0.7177);
        double exact = HSD.delta(g(2, Math.exp(-1)), g(0, 1), 0.5);
        assertEquals(0.7177, exact, 5e-5);
        assertTrue(paper < exact);
        assertTrue(SOUND.delta(0.5, 2, 1, 1, 1) >= exact);
    }

    /** §6.5.4 [R] (docs/references/ndis-values.md §2): 1-D R = e^0.5: eps 0.25 -> 0.947 (exact 0.0720), eps 1 -> 0.471 (exact 0.0178). */
    @Test
    void hardChernoffReferenceValues() {
        assertEquals(0.947, LoewnerComparableBound.covarianceHard(0.25, 0.5, 0.5, 1), 5e-4);
        assertEquals(0.471, LoewnerComparableBound.covarianceHard(1, 0.5, 0.5, 1), 5e-4);
        assertEquals(0.0720, HSD.delta(g(0, Math.exp(0.5)), g(0, 1), 0.25), 5e-5);
        assertEquals(0.0178, HSD.delta(g(0, Math.exp(0.5)), g(0, 1), 1), 5e-5);
    }

    /** §9.1 item 14. */
    @Test
    void zeroSensitivityAndThreshold() {
        for (LoewnerComparableBound b : new LoewnerComparableBound[] {PAPER, SOUND, EXACT}) {
            for (double e : new double[] {0, 0.5, 2}) {
                assertEquals(0, b.delta(e, 0, 0, 0, 3), 0);
            }
        }
        assertEquals(0, LoewnerComparableBound.covarianceEasy(0.5, 0.4, 1.0, 5), 0);
        assertEquals(0, LoewnerComparableBound.covarianceEasy(0.51, 0.4, 1.0, 5), 0);
        assertTrue(LoewnerComparableBound.covarianceEasy(0.3, 0.4, 1.0, 5) > 0);
    }

    /** The Chernoff terms bound the exact covariance terms from above (1-D and Kronecker spectra). */
    @Test
    void chernoffAboveExact() {
        for (double l : new double[] {0.1, 0.5, 1.5}) {
            for (int m : new int[] {1, 3}) {
                double[][] big = new double[m][m];
                double[][] small = new double[m][m];
                for (int i = 0; i < m; i++) {
                    big[i][i] = Math.exp(l);
                    small[i][i] = 1;
                }
                Gaussian x = Gaussian.of(new double[m], big);
                Gaussian y = Gaussian.of(new double[m], small);
                for (double e : new double[] {0, 0.1, 0.3, 1, 2}) {
                    assertTrue(LoewnerComparableBound.covarianceHard(e, l, m * l, m) >= HSD.delta(x, y, e) - 1e-12);
                    assertTrue(LoewnerComparableBound.covarianceEasy(e, l, m * l, m) >= HSD.delta(y, x, e) - 1e-12);
                }
            }
        }
    }

    /** Both orientations of 1-D pairs with the sensitivities they define: the sound bounds are never below exact. */
    @Test
    void soundVariantsAboveExactOnEqualMeanPairs() {
        for (double l : new double[] {0.2, 0.7}) {
            for (double e : new double[] {0, 0.2, 0.5, 1, 2}) {
                double hard = HSD.delta(g(0, Math.exp(l)), g(0, 1), e);
                double easy = HSD.delta(g(0, Math.exp(-l)), g(0, 1), e);
                for (LoewnerComparableBound b : new LoewnerComparableBound[] {SOUND, EXACT}) {
                    double v = b.delta(e, 0, l, l, 1);
                    assertTrue(v >= hard - 1e-12 && v >= easy - 1e-12, b.variant() + " at eps=" + e);
                }
            }
        }
    }

    @Test
    void validation() {
        assertThrows(IllegalArgumentException.class, () -> SOUND.delta(-1, 0, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> SOUND.delta(1, Double.NaN, 0, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> SOUND.delta(1, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> LoewnerComparableBound.of(null));
    }

    private static DoubleFunction<double[]> gpr(double l, double b, int n, double sigmaN) {
        return s -> {
            double rho = Math.log((s + l * l) / s);
            return new double[] {l * b * Math.sqrt(n) / (sigmaN * Math.sqrt(s)), rho, rho};
        };
    }

    private static DoubleFunction<double[]> blr(int n, int d, double l, double lambda) {
        return s -> {
            double lo = s + 1 / (lambda + n * l * l / 4);
            double hi = s + 1 / lambda;
            double rho = Math.log(hi / lo);
            return new double[] {(l / lambda) / Math.sqrt(lo), rho, d * rho};
        };
    }

    /** §8.3 [R] (docs/references/ndis-values.md §4; paper-faithful, +-1-2%) and the sound values with the exact hard term (27.06, 35.33). */
    @Test
    void calibratedVarianceSanityValues() {
        double gprPaper = PAPER.calibrateVariance(1, 1e-5, 1, gpr(1, 1, 1, 1), 1);
        double blrPaper = PAPER.calibrateVariance(1, 1e-5, 10, blr(1000, 10, 1, 1), 1);
        double gprExact = EXACT.calibrateVariance(1, 1e-5, 1, gpr(1, 1, 1, 1), 1);
        double blrExact = EXACT.calibrateVariance(1, 1e-5, 10, blr(1000, 10, 1, 1), 1);
        double gprSound = SOUND.calibrateVariance(1, 1e-5, 1, gpr(1, 1, 1, 1), 1);
        System.out.printf("sigma*: GPR paper %.4f exact-hard %.4f sound %.4f; BLR paper %.4f exact-hard %.4f%n",
                gprPaper, gprExact, gprSound, blrPaper, blrExact);
        assertEquals(14.787, gprPaper, 0.02 * 14.787);
        assertEquals(21.902, blrPaper, 0.02 * 21.902);
        assertEquals(27.06, gprExact, 0.02 * 27.06);
        assertEquals(35.33, blrExact, 0.02 * 35.33);
        assertTrue(gprSound >= gprExact * (1 - 1e-6), "Chernoff hard term is looser than the exact one");
        // F(sigma) nonincreasing (spec §9.1 item 14)
        double prev = 1;
        for (double s = 1; s < 200; s *= 1.5) {
            double[] p = gpr(1, 1, 1, 1).apply(s);
            double f = SOUND.delta(1, p[0], p[1], p[2], 1);
            assertTrue(f <= prev + 1e-12);
            prev = f;
        }
    }
}
