package org.dpgauss.gx2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.special.Normal;
import org.dpgauss.special.NoncentralChiSquare;
import org.junit.jupiter.api.Test;

/** Validation, closed forms and distributional properties of {@link GeneralizedChiSquare}. */
class GeneralizedChiSquareTest {

    private static final GeneralizedChiSquare[] CASES = {
        GeneralizedChiSquare.of(new double[] {6, 3, 1}, new int[] {1, 1, 1}, null, 0),
        GeneralizedChiSquare.of(new double[] {7, 3, -7, -3}, new int[] {6, 2, 1, 1}, new double[] {6, 2, 6, 2}, 0),
        GeneralizedChiSquare.of(new double[] {1, -0.5}, new int[] {1, 1}, null, 0),
        GeneralizedChiSquare.of(new double[] {1, -1}, new int[] {1, 1}, null, 0.3),
        GeneralizedChiSquare.of(new double[] {0.5, -2}, new int[] {3, 2}, new double[] {1, 0}, 4),
        GeneralizedChiSquare.of(new double[] {-6, -3, -1}, new int[] {1, 1, 1}, new double[] {1, 0, 2}, 0),
        GeneralizedChiSquare.of(new double[] {2}, new int[] {3}, new double[] {1.5}, 0),
    };

    private static IllegalArgumentException rejects(double[] w, int[] k, double[] nc, double s) {
        return assertThrows(IllegalArgumentException.class, () -> GeneralizedChiSquare.of(w, k, nc, s));
    }

    @Test
    void rejectsInvalidParametersNamingThem() {
        assertTrue(rejects(new double[] {1, 0}, new int[] {1, 1}, null, 0).getMessage().contains("weights[1]=0.0"));
        assertTrue(rejects(new double[] {Double.NaN}, new int[] {1}, null, 0).getMessage().contains("weights[0]=NaN"));
        assertTrue(rejects(new double[] {Double.NEGATIVE_INFINITY}, new int[] {1}, null, 0).getMessage().contains("finite"));
        assertTrue(rejects(new double[] {1, 2}, new int[] {1, 0}, null, 0).getMessage().contains("dof[1]=0 must be >= 1"));
        assertTrue(rejects(new double[] {1}, new int[] {1}, new double[] {-1}, 0).getMessage()
            .contains("noncentrality[0]=-1.0 must be finite and >= 0"));
        assertTrue(rejects(new double[] {1}, new int[] {1}, null, -0.5).getMessage().contains("sigma=-0.5"));
        assertTrue(rejects(new double[] {1}, new int[] {1}, null, Double.NaN).getMessage().contains("sigma=NaN"));
        assertTrue(rejects(new double[] {1, 2}, new int[] {1}, null, 0).getMessage().contains("equal lengths"));
        GeneralizedChiSquare q = CASES[0];
        assertThrows(IllegalArgumentException.class, () -> q.cdf(Double.NaN));
    }

    @Test
    void mergesExactlyEqualWeightsAndReportsMoments() {
        GeneralizedChiSquare q = GeneralizedChiSquare.of(new double[] {2, -1, 2}, new int[] {1, 2, 3},
            new double[] {0.5, 1, 2}, 0.25);
        assertArrayEquals(new double[] {-1, 2}, q.weights());
        assertArrayEquals(new int[] {2, 4}, q.degreesOfFreedom());
        assertArrayEquals(new double[] {1, 2.5}, q.noncentralities());
        assertEquals(2, q.numberOfTerms());
        assertEquals(0.25, q.sigma());
        assertEquals(-1 * 3 + 2 * 6.5, q.mean(), 1e-15);
        assertEquals(2 * 1 * (2 + 2) + 2 * 4 * (4 + 5) + 0.0625, q.variance(), 1e-13);
    }

    /** Merged equal weights agree with the unmerged terms at weights 2 and 2(1 + 2^-40) (continuity). */
    @Test
    void mergingEqualWeightsMatchesNearlyEqualUnmerged() {
        double w2 = 2 * (1 + 0x1p-40);
        GeneralizedChiSquare merged = GeneralizedChiSquare.of(new double[] {2, 2, -1}, new int[] {1, 2, 1},
            new double[] {1, 0.5, 0}, 0);
        GeneralizedChiSquare unmerged = GeneralizedChiSquare.of(new double[] {2, w2, -1}, new int[] {1, 2, 1},
            new double[] {1, 0.5, 0}, 0);
        assertEquals(2, merged.numberOfTerms());
        assertEquals(3, unmerged.numberOfTerms());
        for (double x : new double[] {-8, -1, 0.5, 3, 10, 40}) {
            assertEquals(merged.cdf(x), unmerged.cdf(x), 1e-10, "x=" + x);
            assertEquals(merged.sf(x), unmerged.sf(x), 1e-10 * merged.sf(x) + 1e-300, "x=" + x);
        }
    }

    @Test
    void cdfPlusSfIsOneAndCdfIsMonotone() {
        for (GeneralizedChiSquare q : CASES) {
            double sd = Math.sqrt(q.variance());
            double prev = 0;
            for (double z = -6; z <= 12; z += 0.5) {
                double x = q.mean() + z * sd;
                double c = q.cdf(x);
                double s = q.sf(x);
                assertEquals(1, c + s, 1e-15, q + " x=" + x);
                assertTrue(c >= prev - 1e-15, q + " not monotone at x=" + x);
                assertTrue(c >= 0 && c <= 1);
                prev = c;
            }
        }
    }

    /** P[Q <= x] = P[-Q >= -x]: negating all weights mirrors the distribution. */
    @Test
    void negatingWeightsMirrorsTheTails() {
        for (GeneralizedChiSquare q : CASES) {
            GeneralizedChiSquare n = q.negate();
            assertEquals(-q.mean(), n.mean(), 1e-12);
            double sd = Math.sqrt(q.variance());
            for (double z : new double[] {-3, -1, 0, 0.7, 2, 6}) {
                double x = q.mean() + z * sd;
                double c = q.cdf(x);
                double s = q.sf(x);
                assertEquals(c, n.sf(-x), 1e-12 * Math.min(c, s) + 1e-300, q + " x=" + x);
                assertEquals(s, n.cdf(-x), 1e-12 * Math.min(c, s) + 1e-300, q + " x=" + x);
            }
        }
    }

    @Test
    void closedForms() {
        GeneralizedChiSquare normal = GeneralizedChiSquare.of(new double[0], new int[0], null, 2);
        assertEquals(Normal.cdf(-1.5), normal.cdf(-3), 0);
        assertEquals(Normal.sf(20), normal.sf(40), 0);
        assertEquals("normal", normal.cdfWithError(1).method());
        GeneralizedChiSquare point = GeneralizedChiSquare.of(new double[0], new int[0], null, 0);
        assertEquals(1, point.cdf(0));
        assertEquals(1, point.sf(-1e-300));
        // One class, negative weight: P[-2 X <= x] = P[X >= -x/2].
        GeneralizedChiSquare neg = GeneralizedChiSquare.of(new double[] {-2, -2}, new int[] {2, 1}, new double[] {1, 0.5}, 0);
        assertEquals(NoncentralChiSquare.sf(3, 3, 1.5), neg.cdf(-6), 1e-16);
        assertEquals(NoncentralChiSquare.cdf(3, 3, 1.5), neg.sf(-6), 1e-16);
        assertEquals("noncentral-chi-square", neg.cdfWithError(-6).method());
        // One dof-1 term: normal differences, tail-accurate far out.
        GeneralizedChiSquare one = GeneralizedChiSquare.of(new double[] {0.5}, new int[] {1}, new double[] {4}, 0);
        // y = 200/0.5 = 400, sqrt(y) = 20, mu = 2: P = Phi(-22) + Phi(-18), about 1e-72.
        assertEquals(Normal.cdf(-22) + Normal.sf(18), one.sf(200), 1e-14 * one.sf(200));
        assertEquals("normal-difference", one.sfWithError(200).method());
        // Support edges and infinities.
        assertEquals(0, CASES[0].cdf(-1));
        assertEquals(1, CASES[5].cdf(0));
        assertEquals(1, CASES[1].cdf(Double.POSITIVE_INFINITY));
        assertEquals(1, CASES[1].sf(Double.NEGATIVE_INFINITY));
    }

    /** As sigma -> 0 the probabilities approach those without the normal term (|change| <= sigma * density bound). */
    @Test
    void continuousAsSigmaVanishes() {
        double[] w = {1, -0.5, 2};
        int[] k = {1, 1, 2};
        double[] nc = {0.5, 0, 1};
        GeneralizedChiSquare q0 = GeneralizedChiSquare.of(w, k, nc, 0);
        for (double s : new double[] {1e-3, 1e-7}) {
            GeneralizedChiSquare qs = GeneralizedChiSquare.of(w, k, nc, s);
            for (double x : new double[] {-3, 4}) {
                assertEquals(q0.cdf(x), qs.cdf(x), 10 * s, "sigma=" + s + " x=" + x);
            }
        }
    }

    /** Ruben's series and the saddlepoint inversion agree on same-sign cases (both tails, relative 1e-10). */
    @Test
    void rubenAgreesWithInversion() {
        GeneralizedChiSquare[] same = {
            GeneralizedChiSquare.of(new double[] {6, 3, 1}, new int[] {6, 4, 2}, null, 0),
            GeneralizedChiSquare.of(new double[] {7, 3}, new int[] {6, 2}, new double[] {6, 2}, 0),
            GeneralizedChiSquare.of(new double[] {-1, -2, -3, -4, -5}, new int[] {2, 3, 4, 3, 2}, new double[] {1, 0, 2, 0, 1}, 0),
        };
        for (GeneralizedChiSquare q : same) {
            double sd = Math.sqrt(q.variance());
            for (double z : new double[] {-1.8, -1, 0, 1, 3, 8}) {
                double x = q.mean() + z * sd;
                if (x * q.mean() <= 0) {
                    continue; // outside the support (exact 0/1, tested in closedForms)
                }
                Gx2Probability[] r = q.evaluate(x, GeneralizedChiSquare.Method.RUBEN);
                Gx2Probability[] i = q.evaluate(x, GeneralizedChiSquare.Method.INVERSION);
                assertTrue(r[0].method().startsWith("ruben"), r[0].method());
                assertEquals("saddlepoint-inversion", i[0].method());
                for (int t = 0; t < 2; t++) {
                    assertEquals(r[t].value(), i[t].value(), 1e-10 * r[t].value(), q + " x=" + x);
                    assertTrue(Math.abs(r[t].value() - i[t].value()) <= r[t].absoluteErrorBound() + i[t].absoluteErrorBound()
                        + 1e-14 * r[t].value(), q + " x=" + x);
                }
            }
        }
    }

    /** Conditioning (on a term, on the normal term) and inversion agree where both are affordable. */
    @Test
    void conditioningAgreesWithInversion() {
        GeneralizedChiSquare[] mixed = {
            GeneralizedChiSquare.of(new double[] {2, 1, -3}, new int[] {3, 4, 1}, new double[] {1, 0, 2}, 0),
            GeneralizedChiSquare.of(new double[] {6, 3, 1}, new int[] {1, 1, 1}, null, 2),
        };
        for (GeneralizedChiSquare q : mixed) {
            double sd = Math.sqrt(q.variance());
            for (double z : new double[] {-2, 0, 1, 4}) {
                double x = q.mean() + z * sd;
                Gx2Probability[] c = q.evaluate(x, GeneralizedChiSquare.Method.CONDITIONING);
                Gx2Probability[] i = q.evaluate(x, GeneralizedChiSquare.Method.INVERSION);
                assertTrue(c[0].method().startsWith("conditioning"), c[0].method());
                for (int t = 0; t < 2; t++) {
                    assertEquals(i[t].value(), c[t].value(), 1e-10 * i[t].value(), q + " x=" + x + " " + c[t]);
                }
            }
        }
    }
}
