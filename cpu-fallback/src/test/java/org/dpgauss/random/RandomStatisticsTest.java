package org.dpgauss.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Statistical sanity checks with fixed keys, so the outcome is deterministic. Probability that an
 * ideal generator fails (i.e. that a fixed key happens to be an unlucky one):
 * <ul>
 *   <li>moments: 6.5 standard errors, two-sided, normal approximation (CLT at n = 200000):
 *       P(fail) ~ 8e-11 per bound, under 1e-9 for all eleven moment bounds together;</li>
 *   <li>Kolmogorov-Smirnov: level 1e-6 from the Dvoretzky-Kiefer-Wolfowitz-Massart inequality
 *       P(sqrt(n) D_n > x) <= 2 exp(-2 x^2), which holds for every n (no asymptotics):
 *       P(fail) <= 1e-6 per generator.</li>
 * </ul>
 */
class RandomStatisticsTest {

    private static final int N = 200_000;
    private static final double Z = 6.5;

    private static List<CounterBasedGenerator> generators() {
        return List.of(
                ChaCha20.withKey(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 11L),
                Philox4x32.withKey(0x0123456789abcdefL, 5L));
    }

    @Test
    void uniformMomentsAndRange() {
        for (CounterBasedGenerator g : generators()) {
            double[] u = new double[N];
            g.fillUniforms(0, u, 0, N);
            for (double x : u) {
                assertTrue(x > 0.0 && x < 1.0, g.name() + ": uniform " + x + " not in (0,1)");
            }
            double mean = mean(u);
            double var = variance(u, mean);
            // Var(U) = 1/12; Var(sample var) ~ (mu4 - sigma^4) / n with mu4 = 1/80
            assertEquals(0.5, mean, Z * Math.sqrt(1.0 / 12 / N), g.name() + " uniform mean");
            assertEquals(1.0 / 12, var, Z * Math.sqrt((1.0 / 80 - 1.0 / 144) / N), g.name() + " uniform variance");
        }
    }

    @Test
    void normalMoments() {
        for (CounterBasedGenerator g : generators()) {
            double[] z = new double[N];
            g.fillNormals(0, z, 0, N);
            double mean = mean(z);
            double var = variance(z, mean);
            // Var(sample var) ~ (mu4 - 1) / n = 2 / n
            assertEquals(0.0, mean, Z / Math.sqrt(N), g.name() + " normal mean");
            assertEquals(1.0, var, Z * Math.sqrt(2.0 / N), g.name() + " normal variance");
            // the cos and sin members of a pair are uncorrelated: E[z_even z_odd] = 0, Var = 1
            double cross = 0;
            for (int i = 0; i < N; i += 2) {
                cross += z[i] * z[i + 1];
            }
            assertEquals(0.0, cross / (N / 2), Z / Math.sqrt(N / 2.0), g.name() + " pair correlation");
        }
    }

    @Test
    void streamsAreUncorrelated() {
        ChaCha20 a = ChaCha20.withKey(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 0L);
        ChaCha20 b = a.withStream(1L);
        double[] x = new double[N];
        double[] y = new double[N];
        a.fillNormals(0, x, 0, N);
        b.fillNormals(0, y, 0, N);
        double s = 0;
        for (int i = 0; i < N; i++) {
            s += x[i] * y[i];
        }
        assertEquals(0.0, s / N, Z / Math.sqrt(N), "cross-stream correlation");
    }

    @Test
    void normalsPassKolmogorovSmirnovAtLevel1e6() {
        double alpha = 1e-6;
        double critical = Math.sqrt(Math.log(2 / alpha) / 2) / Math.sqrt(N); // DKW-Massart
        for (CounterBasedGenerator g : generators()) {
            double[] z = new double[N];
            g.fillNormals(0, z, 0, N);
            double d = ksStatistic(z);
            assertTrue(d < critical, g.name() + ": KS D=" + d + " >= " + critical);
        }
    }

    @Test
    void kolmogorovSmirnovRejectsAWrongDistribution() {
        // guards the test itself: N(0, 1.05^2) must be rejected
        double[] z = new double[N];
        generators().get(0).fillNormals(0, z, 0, N);
        for (int i = 0; i < N; i++) {
            z[i] *= 1.05;
        }
        double critical = Math.sqrt(Math.log(2 / 1e-6) / 2) / Math.sqrt(N);
        assertTrue(ksStatistic(z) > critical);
    }

    @Test
    void phiIsAccurate() {
        assertEquals(0.5, phi(0), 1e-15);
        assertEquals(0.8413447460685429, phi(1), 1e-13);
        assertEquals(0.15865525393145707, phi(-1), 1e-13);
        assertEquals(0.975, phi(1.959963984540054), 1e-13);
        assertEquals(0.9986501019683699, phi(3), 1e-13);
        assertEquals(2.866515718791939e-7, phi(-5), 1e-15);
    }

    private static double ksStatistic(double[] sample) {
        double[] z = sample.clone();
        Arrays.sort(z);
        int n = z.length;
        double d = 0;
        for (int i = 0; i < n; i++) {
            double f = phi(z[i]);
            d = Math.max(d, Math.max((i + 1.0) / n - f, f - (double) i / n));
        }
        return d;
    }

    /**
     * Standard normal CDF by Marsaglia's series (J. Stat. Softw. 11(4), 2004):
     * Phi(x) = 1/2 + phi(x) * (x + x^3/3 + x^5/(3*5) + ...), absolute error ~1e-15 for |x| <= 8.
     */
    static double phi(double x) {
        if (x < -8) {
            return 0.0; // Phi(-8) = 6.2e-16
        }
        if (x > 8) {
            return 1.0;
        }
        double s = x;
        double t = 0;
        double b = x;
        double q = x * x;
        double i = 1;
        while (s != t) {
            t = s;
            i += 2;
            b *= q / i;
            s = t + b;
        }
        return 0.5 + s * Math.exp(-0.5 * q - 0.91893853320467274178);
    }

    private static double mean(double[] a) {
        double s = 0;
        for (double x : a) {
            s += x;
        }
        return s / a.length;
    }

    private static double variance(double[] a, double mean) {
        double s = 0;
        for (double x : a) {
            s += (x - mean) * (x - mean);
        }
        return s / (a.length - 1);
    }
}
