package org.dpgauss.covariance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.ConversionPolicy;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.privacy.accounting.Release;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivacySession;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.dpgauss.secondmoment.SpectralMetrics;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The private covariance (issue 29): one composed guarantee, the planner's split, a truthful statement (fixed
 * seeds; the binomial allowance: more than {@link #allowed} exceedances of the 95% bound in {@code runs} has
 * probability below 0.002 if the true rate is 5%), and the neighbouring-pair view of issue 24.
 */
class PrivateCovarianceTest {

    static int allowed(int runs) {
        org.apache.commons.statistics.distribution.BinomialDistribution b =
                org.apache.commons.statistics.distribution.BinomialDistribution.of(runs, 0.05);
        int k = 0;
        while (b.survivalProbability(k) >= 0.002) {
            k++;
        }
        return k;
    }

    /** n rows c + r0 (random unit direction): every row within r0 of c, mean near c. */
    static double[][] sphereRows(int n, double[] c, double r0, long seed) {
        SplittableRandom g = new SplittableRandom(seed);
        int d = c.length;
        double[][] x = new double[n][d];
        for (double[] row : x) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                row[j] = g.nextGaussian() * (j + 1);
                s += row[j] * row[j];
            }
            double k = r0 / Math.sqrt(s);
            for (int j = 0; j < d; j++) {
                row[j] = c[j] + k * row[j];
            }
        }
        return x;
    }

    static DMatrixRMaj covariance(double[][] x) {
        int n = x.length;
        int d = x[0].length;
        double[] m = new double[d];
        for (double[] r : x) {
            for (int j = 0; j < d; j++) {
                m[j] += r[j] / n;
            }
        }
        DMatrixRMaj c = new DMatrixRMaj(d, d);
        for (double[] r : x) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    c.add(i, j, (r[i] - m[i]) * (r[j] - m[j]) / n);
                }
            }
        }
        return c;
    }

    static double[] errors(PrivateCovariance m, double[][] x, int runs, long seed) {
        Dataset data = Dataset.of(x);
        DMatrixRMaj truth = covariance(x);
        ReleaseContext ctx = ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(seed));
        double[] e = new double[runs];
        for (int r = 0; r < runs; r++) {
            PrivateRelease rel = Releases.run(m, data, 1e-6, ctx);
            assertTrue(rel.isPass());
            DMatrixRMaj diff = new DMatrixRMaj(rel.matrix("covariance"));
            org.ejml.dense.row.CommonOps_DDRM.subtractEquals(diff, truth);
            e[r] = SpectralMetrics.spectralNorm(diff);
        }
        Arrays.sort(e);
        return e;
    }

    static int over(double[] e, double bound) {
        int c = 0;
        for (double v : e) {
            c += v > bound ? 1 : 0;
        }
        return c;
    }

    static Accuracy stated(PrivateCovariance m, int n, int d) {
        return m.state(PublicContext.forPlanning(n, d, NeighbouringRelation.REPLACE_ONE, 1e-6)).accuracy()
                .orElseThrow();
    }

    /**
     * Mean at the public centre: the expected value (an upper bound over the mean's position, for a mean at distance
     * R) is not below the realised median and within a factor 3 of it (the middle term it adds is the price of not
     * knowing the mean's position); the bound holds.
     */
    @Test
    void statementIsTruthfulWithTheMeanAtTheCentre() {
        int n = 2000;
        double[] c = {3, -1, 2, 0.5};
        double[][] x = sphereRows(n, c, 1.0, 1);
        PrivateCovariance m = PrivateCovariance.builder().budget(Zcdp.of(0.5)).radius(1).centre(c).build();
        Accuracy a = stated(m, n, c.length);
        assertTrue(a.isScenario(), a.toString());
        double[] e = errors(m, x, 200, 2);
        double med = 0.5 * (e[99] + e[100]);
        System.out.printf(java.util.Locale.ROOT, "covariance (mean at c): expected %.4g bound %.4g median %.4g"
                + " over %d/200%n", a.expected(), a.bound(), med, over(e, a.bound()));
        assertTrue(over(e, a.bound()) <= allowed(200), "bound " + a.bound());
        assertTrue(a.expected() >= med && a.expected() <= 3 * med, a.expected() + " vs median " + med);
    }

    /**
     * Issue 26 item 0: by CoinPress (Gaussian rows, a loose R), the second-moment part's expected value is computed
     * from the release, which says so ({@code expectedBasis} "release: ..."); the whole is still an upper bound over
     * the mean's position: not below the realised median and within a factor 3 of it; the a-priori scenario was
     * far from it. The bound holds. 40 runs, fixed seed.
     */
    @Test
    @org.junit.jupiter.api.Tag("slow")
    void coinPressPartIsComputedFromTheRelease() {
        int n = 4000;
        double[] c = {0, 0, 0, 0, 0};
        double[][] x = new double[n][5];
        SplittableRandom g = new SplittableRandom(61);
        for (double[] row : x) {
            for (int j = 0; j < 5; j++) {
                row[j] = 0.05 * (j + 1) * g.nextGaussian();
            }
        }
        PrivateCovariance m = PrivateCovariance.builder().budget(Zcdp.of(0.5)).radius(2).centre(c)
                .method("coinpress").build();
        Accuracy a = stated(m, n, 5);
        Dataset data = Dataset.of(x);
        DMatrixRMaj truth = covariance(x);
        ReleaseContext ctx = ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(62));
        double[] e = new double[40];
        double[] ex = new double[40];
        for (int r = 0; r < 40; r++) {
            PrivateRelease rel = Releases.run(m, data, 1e-6, ctx);
            assertTrue(rel.isPass());
            Accuracy ra = rel.accuracy().orElseThrow();
            assertTrue(ra.isFromRelease(), ra.toString());
            assertEquals(a.bound(), ra.bound(), 0);
            ex[r] = ra.expected();
            DMatrixRMaj diff = new DMatrixRMaj(rel.matrix("covariance"));
            org.ejml.dense.row.CommonOps_DDRM.subtractEquals(diff, truth);
            e[r] = SpectralMetrics.spectralNorm(diff);
        }
        Arrays.sort(e);
        Arrays.sort(ex);
        double med = 0.5 * (e[19] + e[20]);
        double exMed = 0.5 * (ex[19] + ex[20]);
        System.out.printf(java.util.Locale.ROOT, "covariance by coinpress: a-priori scenario %.4g, from release %.4g"
                + " (%.4g..%.4g), realised median %.4g, bound %.4g over %d/40%n", a.expected(), exMed, ex[0], ex[39],
                med, a.bound(), over(e, a.bound()));
        assertTrue(over(e, a.bound()) <= allowed(40), "bound " + a.bound());
        assertTrue(exMed >= med / 2 && exMed <= 2 * med, exMed + " vs median " + med);
    }

    /**
     * Mean far from the centre (distance 0.6 R, rows within 0.95 R): the rank-two term matters; the bound holds (it
     * fails without the 2 R B_e term: that mutant has about half the runs over) and the expected value, the worst
     * case over the mean's position, is not below the realised median and within a factor 2.5 of it (1.97 here).
     */
    @Test
    void boundHoldsWithTheMeanFarFromTheCentre() {
        int n = 2000;
        double[] c = {0, 0, 0, 0};
        double[] mu = {0.6, 0, 0, 0};
        double[][] x = sphereRows(n, mu, 0.35, 3); // every row within 0.95 of c
        PrivateCovariance m = PrivateCovariance.builder().budget(Zcdp.of(0.5)).radius(1).centre(c).build();
        Accuracy a = stated(m, n, c.length);
        double[] e = errors(m, x, 200, 4);
        double med = 0.5 * (e[99] + e[100]);
        System.out.printf(java.util.Locale.ROOT, "covariance (mean at 0.6 R): expected %.4g bound %.4g median %.4g max"
                + " %.4g over %d/200%n", a.expected(), a.bound(), med, e[199], over(e, a.bound()));
        assertTrue(over(e, a.bound()) <= allowed(200), "bound " + a.bound());
        assertTrue(a.expected() >= med && a.expected() <= 2.5 * med, a.expected() + " vs median " + med);
        assertTrue(a.expectedBasis().contains("distance R"), a.expectedBasis());
    }

    @Test
    void oneComposedGuaranteeWithThePlannersSplit() {
        int n = 1000;
        int d = 6;
        PrivateCovariance m = PrivateCovariance.builder().budget(Zcdp.of(0.5)).radius(2).build();
        double f = m.plannedMeanFraction(n, d, 1e-6);
        assertTrue(f > 0.01 && f < 0.99, "f=" + f);
        double best = m.accuracy(n, d, 1e-6, f, 0.95).bound();
        for (double g : new double[] {0.05, 0.2, 0.5, 0.8, 0.95}) {
            assertTrue(best <= m.accuracy(n, d, 1e-6, g, 0.95).bound(), "f=" + f + " vs " + g);
        }
        Statement s = m.state(PublicContext.forPlanning(n, d, NeighbouringRelation.REPLACE_ONE, 1e-6));
        assertEquals("covariance.analyze-gauss", s.mechanism());
        assertEquals(f, s.parameters().number("meanFraction"), 0);
        assertEquals(Release.Kind.ZCDP, s.accounting().kind());
        assertEquals(0.5, s.accounting().zcdp().rho(), 0);
        // composed by the accountant: the two parts' rho add up to 0.5, then one conversion
        double eps = ConversionPolicy.toApproxDp(Zcdp.of(0.5), 1e-6).epsilon();
        assertEquals(eps, s.guarantee().approxDp().orElseThrow().epsilon(), 1e-6 * eps);
        // stated as rho-zCDP, as --help and docs/cli.md say (issue 29 replay: it printed only (eps, delta)-DP)
        assertEquals(0.5, s.guarantee().zcdp().orElseThrow().rho(), 0);
        assertTrue(s.guarantee().certified());
        // a fixed split is used as given
        PrivateCovariance fixed = PrivateCovariance.builder().budget(Zcdp.of(0.5)).radius(2).meanFraction(0.3)
                .build();
        assertEquals(0.3, fixed.meanFraction(n, d, 1e-6), 0);
        assertThrows(IllegalArgumentException.class, () -> PrivateCovariance.builder().budget(Zcdp.of(0.5)).radius(2)
                .method("subsample-aggregate").build());
        assertThrows(IllegalArgumentException.class, () -> PrivateCovariance.builder().budget(Zcdp.of(0.5)).radius(2)
                .meanFraction(1.0).build());
    }

    @Test
    void releasesCovarianceMeanAndPsdProjection() {
        double[] c = {1, 1, 1};
        double[][] x = sphereRows(500, c, 0.5, 5);
        PrivateRelease r = Releases.run(PrivateCovariance.builder().budget(Zcdp.of(1)).radius(1).centre(c)
                .psdProjection(true).method("coinpress").build(), Dataset.of(x), 1e-6,
                ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(6)));
        assertTrue(r.isPass());
        assertEquals(java.util.List.of("covariance", "mean", "covariancePsd"),
                java.util.List.copyOf(r.values().keySet()));
        double[] mean = r.vector("mean");
        for (int j = 0; j < 3; j++) {
            assertEquals(c[j], mean[j], 0.2); // mean near c, shifted back by the centre
        }
        DMatrixRMaj p = new DMatrixRMaj(r.matrix("covariancePsd"));
        org.ejml.interfaces.decomposition.EigenDecomposition_F64<DMatrixRMaj> eig =
                org.ejml.dense.row.factory.DecompositionFactory_DDRM.eig(3, false, true);
        assertTrue(eig.decompose(p));
        for (int i = 0; i < 3; i++) {
            assertTrue(eig.getEigenvalue(i).getReal() >= -1e-12);
        }
    }

    private static PrivacySession session(double[][] rows) {
        return PrivacySession.builder(Dataset.of(rows)).relation(NeighbouringRelation.REPLACE_ONE)
                .budget(ApproxDp.of(100, 1e-5))
                .context(ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(11))).open();
    }

    /** Issue 24: a row far outside R (even near Double.MAX_VALUE) is clipped; both neighbours look the same. */
    @Test
    void neighboursWithARowOutsideTheRadiusHaveTheSamePublicView() {
        double[][] a = sphereRows(300, new double[] {0, 0, 0}, 0.5, 7);
        for (double[] far : new double[][] {{30, -40, 1e6}, {Double.MAX_VALUE, -Double.MAX_VALUE, 1}}) {
            double[][] b = a.clone();
            b[17] = far;
            for (String method : new String[] {"analyze-gauss", "coinpress"}) {
                PrivacySession sa = session(a);
                PrivacySession sb = session(b);
                PrivateCovariance m = PrivateCovariance.builder().budget(Zcdp.of(0.5)).radius(1)
                        .centre(new double[] {-1, 0, 0}).method(method).build();
                PrivateRelease ra = sa.release(m);
                PrivateRelease rb = sb.release(m);
                assertEquals(ra.status(), rb.status());
                assertEquals(ra.values().keySet(), rb.values().keySet());
                assertEquals(ra.toMap().keySet(), rb.toMap().keySet());
                assertEquals(ra.parameters(), rb.parameters());
                assertEquals(ra.guarantee().toMap(), rb.guarantee().toMap());
                assertEquals(sa.spent(), sb.spent());
                for (double[] row : rb.matrix("covariance")) {
                    for (double v : row) {
                        assertTrue(Double.isFinite(v));
                    }
                }
            }
        }
    }
}
