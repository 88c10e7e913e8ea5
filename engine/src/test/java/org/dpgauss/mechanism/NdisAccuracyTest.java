package org.dpgauss.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Accuracy;
import org.dpgauss.release.PublicContext;
import org.junit.jupiter.api.Test;

/**
 * Truthfulness of the stated accuracy of the NDIS mechanisms: on data meeting each statement's assumptions, the
 * realised error exceeds the stated 0.95 bound in no more of the runs than a binomial allowance (more has
 * probability below 0.002 if the true rate is 5%), and the stated expected value is within a factor 2 of the
 * realised median. Fixed seeds.
 */
class NdisAccuracyTest {

    static final int RUNS = 200;

    static int allowed(int runs) {
        BinomialDistribution b = BinomialDistribution.of(runs, 0.05);
        int k = 0;
        while (b.survivalProbability(k) >= 0.002) {
            k++;
        }
        return k;
    }

    static void check(String what, Accuracy a, double[] e) {
        Arrays.sort(e);
        double med = 0.5 * (e[e.length / 2 - 1] + e[e.length / 2]);
        int over = 0;
        for (double v : e) {
            if (v > a.bound()) {
                over++;
            }
        }
        System.out.printf(Locale.ROOT, "%s: expected %.4g bound %.4g median %.4g (expected/median %.3f) over %d/%d%n",
                what, a.expected(), a.bound(), med, a.expected() / med, over, e.length);
        assertEquals(0.95, a.probability(), 0);
        assertTrue(over <= allowed(e.length), what + ": " + over + " runs exceeded " + a.bound());
        assertTrue(a.expected() <= 2 * med && med <= 2 * a.expected(), what + ": expected " + a.expected()
                + " vs median " + med);
    }

    /** n records in the unit ball of R^d with logistic labels. */
    static double[][][] logistic(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double m = 0;
            for (int j = 0; j < d; j++) {
                x[i][j] = (2 * r.nextDouble() - 1) / Math.sqrt(d);
                m += 2 * x[i][j];
            }
            y[i] = r.nextDouble() < 1 / (1 + Math.exp(-m)) ? 1 : -1;
        }
        return new double[][][] {x, {y}};
    }

    @Test
    void blrSampleIsWithinTheStatedDistanceOfThePosteriorMode() {
        int d = 3;
        int n = 100;
        BayesianLogisticRegression m = BayesianLogisticRegression.builder().dimension(d).lambda(1).rowBound(1)
                .maxRows(n).budget(ApproxDp.of(1, 1e-5)).build();
        Accuracy a = m.state(PublicContext.forPlanning(n, d + 1, NeighbouringRelation.ADD_REMOVE, 1e-5)).accuracy()
                .orElseThrow();
        assertEquals(Math.sqrt(d), a.units().get(0).value(), 1e-12); // sqrt(d/lambda)
        double[][][] xy = logistic(n, d, 3);
        double[] mode = m.estimate(xy[0], xy[1][0]); // within residualBound of theta*, which the bound adds
        RandomSource random = RandomSource.insecureSeeded(4);
        double[] e = new double[RUNS];
        for (int k = 0; k < RUNS; k++) {
            double[] theta = m.release(xy[0], xy[1][0], random);
            double s = 0;
            for (int j = 0; j < d; j++) {
                s += (theta[j] - mode[j]) * (theta[j] - mode[j]);
            }
            e[k] = Math.sqrt(s);
        }
        check("blr", a, e);
    }

    @Test
    void gprPredictionIsWithinTheStatedDistanceOfThePosteriorMean() {
        int n = 60;
        GaussianProcessRegression m = GaussianProcessRegression.builder()
                .kernel(GaussianProcessRegression.rbf(1, 1)).noiseVariance(0.5).labelBound(1).maxRows(n)
                .query(new double[] {3}).budget(ApproxDp.of(1, 1e-5)).build();
        Accuracy a = m.state(PublicContext.forPlanning(n, 2, NeighbouringRelation.ADD_REMOVE, 1e-5)).accuracy()
                .orElseThrow();
        assertEquals(1.0, a.units().get(0).value(), 0); // in units of B
        SplittableRandom r = new SplittableRandom(5);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 2 * r.nextDouble() - 1;
            y[i] = Math.max(-1, Math.min(1, Math.sin(2 * x[i][0]) + 0.2 * r.nextGaussian()));
        }
        double mu = m.posterior(x, y)[0];
        RandomSource random = RandomSource.insecureSeeded(6);
        double[] e = new double[RUNS];
        for (int k = 0; k < RUNS; k++) {
            e[k] = Math.abs(m.release(x, y, random)[0] - mu);
        }
        check("gpr", a, e);
    }
}
