package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** SymGauss (spec §2.1) and spec §4.2 item 3: exact symmetry, grid points, entry standard deviation. */
class SymmetricGaussianNoiseTest {

    @Test
    void noiseIsExactlySymmetricOnTheGridWithStdSigmaOnAndOffTheDiagonal() {
        double sigma = 2.5;
        int d = 30;
        int draws = 40;
        SymmetricGaussianNoise noise = SymmetricGaussianNoise.using(RandomSource.insecureSeeded(20261121L));
        double g = SymmetricGaussianNoise.grid(sigma);
        double diag = 0;
        double off = 0;
        int nd = 0;
        int no = 0;
        for (int k = 0; k < draws; k++) {
            DMatrixRMaj q = new DMatrixRMaj(d, d);
            q.set(0, 1, 0.3); // the query's upper triangle is read; (1,0) is ignored
            q.set(1, 0, 99);
            DMatrixRMaj n = noise.perturb(q, sigma);
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    assertEquals(n.get(i, j), n.get(j, i), 0.0, "exactly symmetric");
                    double v = n.get(i, j) / g;
                    assertEquals(Math.rint(v), v, 0.0, "an exact grid point");
                }
                diag += n.get(i, i) * n.get(i, i);
                nd++;
                for (int j = i + 1; j < d; j++) {
                    double v = n.get(i, j) - (i == 0 && j == 1 ? 0.3 : 0);
                    off += v * v;
                    no++;
                }
            }
        }
        // Sample variance / sigma^2 ~ chi^2_k / k with sd sqrt(2/k); 6 sd bounds: failure probability < 1e-8 each.
        double vd = diag / nd / (sigma * sigma);
        double vo = off / no / (sigma * sigma);
        assertEquals(1.0, vd, 6 * Math.sqrt(2.0 / nd), "diagonal variance sigma^2, not 2 sigma^2");
        assertEquals(1.0, vo, 6 * Math.sqrt(2.0 / no));
        assertFalse(noise.isSecure(), "a seeded source is not secure");
        assertTrue(SymmetricNoise.secure(RandomSource.secure()).isSecure());
    }

    @Test
    void effectiveSigmaAndInflation() {
        double s = 0.0123;
        double e = SymmetricGaussianNoise.effectiveSigma(s);
        assertTrue(e >= s && e <= s * (1 + 0x1p-19));
        SymmetricNoise noise = SymmetricNoise.secure(RandomSource.insecureSeeded(3));
        assertEquals(SymmetricGaussianNoise.grid(s) * Math.sqrt(10 * 11 / 2.0), noise.roundingInflation(10, s), 1e-15);
        assertEquals(0.0, SymmetricNoise.none().roundingInflation(10, s));
        DMatrixRMaj z = SymmetricNoise.none().sample(3, 1.0);
        assertEquals(0.0, z.get(1, 2));
    }

    @Test
    void oracleNoisesAreNeverSecureAndAddNoRounding() {
        // OracleNoise is shared by none() and the tests' RecordingNoise
        for (SymmetricNoise oracle : new SymmetricNoise[] {SymmetricNoise.none(),
                new SecondMomentTestData.RecordingNoise(1, 1)}) {
            assertFalse(oracle.isSecure());
            assertEquals(0.0, oracle.roundingInflation(7, 0.5));
        }
        assertEquals("NO NOISE (test oracle, not private)", SymmetricNoise.none().describe());
        assertEquals("recording test noise", new SecondMomentTestData.RecordingNoise(1, 1).describe());
    }

    @Test
    void rejectsBadQueries() {
        SymmetricNoise noise = SymmetricNoise.secure(RandomSource.insecureSeeded(3));
        assertThrows(IllegalArgumentException.class, () -> noise.perturb(new DMatrixRMaj(2, 3), 1));
        DMatrixRMaj nan = new DMatrixRMaj(2, 2);
        nan.set(0, 1, Double.NaN);
        assertThrows(IllegalArgumentException.class, () -> noise.perturb(nan, 1));
        assertThrows(IllegalArgumentException.class, () -> noise.perturb(new DMatrixRMaj(2, 2), 0));
        assertThrows(IllegalArgumentException.class, () -> noise.perturb(new DMatrixRMaj(2, 2), Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> noise.sample(0, 1));
    }
}
