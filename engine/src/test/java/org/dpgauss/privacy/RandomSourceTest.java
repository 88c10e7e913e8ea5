package org.dpgauss.privacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.PrimitiveIterator;
import java.util.stream.LongStream;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;

class RandomSourceTest {

    /** A source that replays fixed nextLong values, to test the derived methods at their edges. */
    private static RandomSource replay(long... values) {
        PrimitiveIterator.OfLong it = LongStream.of(values).iterator();
        return new RandomSource() {
            @Override
            public long nextLong() {
                return it.nextLong();
            }

            @Override
            public boolean isInsecure() {
                return true;
            }

            @Override
            public String describe() {
                return "replay";
            }
        };
    }

    @Test
    void seededSourceIsReproducibleAndSeedDependent() {
        RandomSource a = RandomSource.insecureSeeded(42L);
        RandomSource b = RandomSource.insecureSeeded(42L);
        RandomSource c = RandomSource.insecureSeeded(43L);
        long[] sa = new long[100];
        long[] sb = new long[100];
        long[] sc = new long[100];
        for (int i = 0; i < 100; i++) {
            sa[i] = a.nextLong();
            sb[i] = b.nextLong();
            sc[i] = c.nextLong();
        }
        assertArrayEquals(sa, sb);
        assertFalse(Arrays.equals(sa, sc));

        RandomSource d = RandomSource.insecureSeeded(7L);
        RandomSource e = RandomSource.insecureSeeded(7L);
        for (int i = 0; i < 1000; i++) {
            assertEquals(d.nextDouble(), e.nextDouble());
            assertEquals(d.nextGaussian(), e.nextGaussian());
            assertEquals(d.nextInt(1000), e.nextInt(1000));
        }
        byte[] x = new byte[37];
        byte[] y = new byte[37];
        d.nextBytes(x);
        e.nextBytes(y);
        assertArrayEquals(x, y);
    }

    @Test
    void seededBytesAreLittleEndianLongs() {
        RandomSource a = RandomSource.insecureSeeded(5L);
        long first = RandomSource.insecureSeeded(5L).nextLong();
        byte[] bytes = new byte[3];
        a.nextBytes(bytes);
        assertEquals((byte) first, bytes[0]);
        assertEquals((byte) (first >>> 8), bytes[1]);
        assertEquals((byte) (first >>> 16), bytes[2]);
        a.nextBytes(new byte[0]);
        assertThrows(NullPointerException.class, () -> a.nextBytes(null));
    }

    /** The default nextBytes (shared by the seeded source and the sampling keystream): little-endian nextLong bytes. */
    @Test
    void defaultBytesAreLittleEndianNextLongsAcrossLongBoundaries() {
        RandomSource r = new RandomSource() {
            private final PrimitiveIterator.OfLong it =
                    LongStream.of(0x0807060504030201L, 0x100F0E0D0C0B0A09L, 0x7766554433221100L).iterator();

            @Override
            public long nextLong() {
                return it.nextLong();
            }

            @Override
            public boolean isInsecure() {
                return true;
            }

            @Override
            public String describe() {
                return "replay";
            }
        };
        byte[] bytes = new byte[11];
        r.nextBytes(bytes);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, bytes);
        byte[] next = new byte[1];
        r.nextBytes(next); // the rest of the second long is dropped, not carried over
        assertArrayEquals(new byte[] {0x00}, next);
        assertThrows(NullPointerException.class, () -> r.nextBytes(null));
    }

    @Test
    void seededSourceSaysItIsInsecure() {
        RandomSource s = RandomSource.insecureSeeded(123L);
        assertTrue(s.isInsecure());
        assertEquals("INSECURE seeded generator (seed=123): for reproducible tests only, not private", s.describe());
        assertEquals(s.describe(), s.toString());
        assertEquals("INSECURE seeded generator (seed=-5): for reproducible tests only, not private",
                RandomSource.insecureSeeded(-5L).describe());
    }

    @Test
    void secureSourceIsSecure() {
        RandomSource s = RandomSource.secure();
        assertFalse(s.isInsecure());
        assertTrue(s.describe().startsWith("secure: java.security.SecureRandom ("), s.describe());
        assertFalse(s.describe().toUpperCase().contains("INSECURE"));
        for (int i = 0; i < 10_000; i++) {
            double u = s.nextDouble();
            assertTrue(u > 0 && u < 1);
            int k = s.nextInt(7);
            assertTrue(k >= 0 && k < 7);
            assertTrue(Double.isFinite(s.nextGaussian()));
        }
        byte[] b = new byte[64];
        s.nextBytes(b);
        assertFalse(Arrays.equals(new byte[64], b)); // fails with probability 2^-512
        assertNotEquals(RandomSource.secure().nextLong(), RandomSource.secure().nextLong()); // p = 2^-64
    }

    @Test
    void fromOptionSelectsSource() {
        assertFalse(RandomSource.fromOption(null).isInsecure());
        RandomSource seeded = RandomSource.fromOption(9L);
        assertTrue(seeded.isInsecure());
        assertEquals(RandomSource.insecureSeeded(9L).nextLong(), seeded.nextLong());
    }

    @Test
    void nextDoubleIsInTheOpenUnitInterval() {
        RandomSource s = RandomSource.insecureSeeded(2024L);
        double min = 1;
        double max = 0;
        for (int i = 0; i < 100_000; i++) {
            double u = s.nextDouble();
            assertTrue(u > 0.0 && u < 1.0, "u=" + u);
            min = Math.min(min, u);
            max = Math.max(max, u);
        }
        assertTrue(min < 1e-3 && max > 1 - 1e-3);
    }

    @Test
    void nextDoubleEdgesNeverReachZeroOrOne() {
        // A zero draw is rejected and redrawn; all-ones bits give the largest value, 1 - 2^-53.
        assertEquals(0x1.0p-53, replay(0L, 1L << 11).nextDouble());
        assertEquals(1.0 - 0x1.0p-53, replay(-1L).nextDouble());
        assertTrue(replay(-1L).nextDouble() < 1.0);
        assertEquals(0x1.0p-53, replay(0L, 0L, 0L, 0x7FFL + (1L << 11)).nextDouble()); // low 11 bits ignored
    }

    @Test
    void nextIntIsUniformByChiSquare() {
        // Pearson chi-square goodness of fit with 100,000 draws. The threshold is the 1 - 1e-6 quantile, so
        // for a correct generator and a random seed the test would fail with probability 1e-6; with the fixed
        // seeds below it is deterministic.
        for (int bound : new int[] {2, 7, 10, 100}) {
            RandomSource s = RandomSource.insecureSeeded(1000L + bound);
            int n = 100_000;
            long[] counts = new long[bound];
            for (int i = 0; i < n; i++) {
                counts[s.nextInt(bound)]++;
            }
            double expected = (double) n / bound;
            double chi2 = 0;
            for (long c : counts) {
                chi2 += (c - expected) * (c - expected) / expected;
            }
            double critical = ChiSquaredDistribution.of(bound - 1).inverseSurvivalProbability(1e-6);
            assertTrue(chi2 < critical, "bound=" + bound + " chi2=" + chi2 + " critical=" + critical);
        }
    }

    @Test
    void nextIntRejectsIncompleteBlock() {
        // bound = 3 * 2^29 does not divide 2^63. u = 2^63 - 1 lies in the final incomplete block and must be
        // rejected; the next value, 5, is accepted.
        int bound = 3 << 29;
        assertEquals(5, replay(-1L, 5L << 1).nextInt(bound));
        assertEquals(0, replay(0L).nextInt(bound));
        assertEquals(0, RandomSource.insecureSeeded(1L).nextInt(1));
        RandomSource s = RandomSource.insecureSeeded(3L);
        for (int i = 0; i < 1000; i++) {
            int k = s.nextInt(Integer.MAX_VALUE);
            assertTrue(k >= 0 && k < Integer.MAX_VALUE);
        }
    }

    @Test
    void nextIntRejectsEmptyRange() {
        RandomSource s = RandomSource.insecureSeeded(1L);
        assertEquals("bound=0 is outside [1, 2147483647]: the range [0, bound) must not be empty",
                assertThrows(IllegalArgumentException.class, () -> s.nextInt(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.nextInt(-3));
    }

    @Test
    void nextGaussianHasStandardMoments() {
        // 100,000 draws, fixed seed. Standard errors: mean 1/sqrt(n), variance sqrt(2/n) (normal kurtosis),
        // P(|Z| < 1) = 0.6826894921370859 with standard error sqrt(p(1-p)/n). Each bound is 6 standard errors
        // (two-sided failure probability about 2e-9 per check for a random seed).
        RandomSource s = RandomSource.insecureSeeded(31337L);
        int n = 100_000;
        double sum = 0;
        double sumSq = 0;
        int inside = 0;
        for (int i = 0; i < n; i++) {
            double z = s.nextGaussian();
            assertTrue(Double.isFinite(z));
            sum += z;
            sumSq += z * z;
            if (Math.abs(z) < 1) {
                inside++;
            }
        }
        double mean = sum / n;
        double var = sumSq / n - mean * mean;
        assertEquals(0.0, mean, 6 / Math.sqrt(n), "mean");
        assertEquals(1.0, var, 6 * Math.sqrt(2.0 / n), "variance");
        double p = 0.6826894921370859;
        assertEquals(p, (double) inside / n, 6 * Math.sqrt(p * (1 - p) / n), "P(|Z|<1)");
    }
}
