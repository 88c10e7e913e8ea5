package org.dpgauss.mechanism;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.release.Statement;
import org.junit.jupiter.api.Test;

/**
 * Issue 29: 0/1 labels and the intercept column. Each is a fixed public map of the records, so with the same seed
 * the release must equal, bit for bit, the release of the equivalent input: the +-1 labels, and the feature
 * vectors with the constant appended under the bound {@code sqrt(l^2 + c^2)}.
 */
class BlrLabelsAndInterceptTest {

    private static final ApproxDp BUDGET = ApproxDp.of(1, 1e-5);

    private static ReleaseContext seeded(long seed) {
        return ReleaseContext.of(CpuEngine.instance(), RandomSource.insecureSeeded(seed));
    }

    /** 200 rows of 5 features inside the unit ball (norm <= 0.9), +-1 labels from a logistic model. */
    private static double[][] pm1Rows() {
        double[][] rows = NdisReleaseTest.scaled(200, 0.9 / Math.sqrt(5), 21);
        return rows;
    }

    private static double[][] withLabels01(double[][] pm1) {
        double[][] out = new double[pm1.length][];
        for (int i = 0; i < pm1.length; i++) {
            out[i] = pm1[i].clone();
            out[i][5] = pm1[i][5] > 0 ? 1 : 0;
        }
        return out;
    }

    private static double[][] augmented(double[][] rows, double c) {
        double[][] out = new double[rows.length][7];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(rows[i], 0, out[i], 0, 5);
            out[i][5] = c;
            out[i][6] = rows[i][5];
        }
        return out;
    }

    private static BayesianLogisticRegression.Builder builder(int d, double l) {
        return BayesianLogisticRegression.builder().dimension(d).lambda(2).rowBound(l).maxRows(1000).budget(BUDGET);
    }

    @Test
    void zeroOneLabelsReleaseExactlyAsPlusMinusOne() {
        BayesianLogisticRegression m = builder(5, 1).build();
        double[][] pm1 = pm1Rows();
        double[] a = Releases.run(m, Dataset.of(pm1), 1e-5, seeded(31)).vector("theta");
        double[] b = Releases.run(m, Dataset.of(withLabels01(pm1)), 1e-5, seeded(31)).vector("theta");
        assertArrayEquals(a, b, 0.0);
        // and the labels matter: flipping them moves the release (so the equality above is not vacuous)
        double[][] flipped = withLabels01(pm1);
        for (double[] r : flipped) {
            r[5] = 1 - r[5];
        }
        double[] f = Releases.run(m, Dataset.of(flipped), 1e-5, seeded(31)).vector("theta");
        assertFalse(Arrays.equals(a, f));
    }

    @Test
    void interceptIsTheMechanismOnTheAugmentedRows() {
        double l = 1;
        double c = 0.7;
        BayesianLogisticRegression withIntercept = builder(5, l).intercept(c).build();
        BayesianLogisticRegression onAugmented = builder(6, Math.hypot(l, c)).build();
        double[][] rows = withLabels01(pm1Rows());
        PrivateRelease a = Releases.run(withIntercept, Dataset.of(rows), 1e-5, seeded(32));
        PrivateRelease b = Releases.run(onAugmented, Dataset.of(augmented(rows, c)), 1e-5, seeded(32));
        assertEquals(6, a.vector("theta").length);
        assertArrayEquals(b.vector("theta"), a.vector("theta"), 0.0);
        assertEquals(withIntercept.mechanism().variance(), onAugmented.mechanism().variance(), 0.0);
        assertEquals(withIntercept.residualBound(), onAugmented.residualBound(), 0.0);
    }

    @Test
    void interceptClipsTheFeaturesToLNotTheAugmentedRow() {
        // a feature vector of norm 3 > l = 1 is clipped to 1, then c appended: the augmented row (x/3, c) of the
        // mechanism on augmented data under sqrt(l^2 + c^2) releases the same
        double l = 1;
        double c = 0.5;
        double[][] rows = withLabels01(pm1Rows());
        rows[0] = new double[] {3, 0, 0, 0, 0, 1};
        BayesianLogisticRegression withIntercept = builder(5, l).intercept(c).build();
        BayesianLogisticRegression onAugmented = builder(6, Math.hypot(l, c)).build();
        double[][] aug = augmented(rows, c);
        aug[0][0] = 1; // the clipped feature vector
        double[] a = Releases.run(withIntercept, Dataset.of(rows), 1e-5, seeded(33)).vector("theta");
        double[] b = Releases.run(onAugmented, Dataset.of(aug), 1e-5, seeded(33)).vector("theta");
        assertArrayEquals(b, a, 1e-9);
    }

    @Test
    void interceptStatementAndValidation() {
        BayesianLogisticRegression m = builder(5, 3).intercept(4).build();
        Statement s = Releases.state(m, Dataset.of(new double[][] {{0, 0, 0, 0, 0, 1}}), 1e-5);
        assertEquals(5, s.parameters().number("d"));
        assertEquals(6, s.parameters().number("modelDimension"));
        assertEquals(4, s.parameters().number("intercept"));
        assertEquals(3, s.parameters().number("rowBound"));
        assertEquals(5, s.parameters().number("modelRowBound"), 1e-15);
        // the data still have d + 1 columns: the constant is appended by the mechanism, not read
        assertThrows(IllegalArgumentException.class,
                () -> Releases.state(m, Dataset.of(new double[][] {{0, 0, 0, 0, 0, 1, 1}}), 1e-5));
        assertThrows(IllegalArgumentException.class, () -> builder(5, 1).intercept(-1).build());
        assertThrows(IllegalArgumentException.class, () -> builder(5, 1).intercept(Double.NaN).build());
    }

    @Test
    void pointEstimateIsCalibratedAtTheMinimisersSensitivity() {
        double l = 1;
        double c = 0.7;
        BayesianLogisticRegression m = builder(5, l).intercept(c).pointEstimate(true).build();
        double sens = Math.hypot(l, c) * (1 + 1e-12) / 2 + 2 * m.residualBound(); // lambda = 2
        assertEquals(org.dpgauss.calibration.AnalyticGaussian.sigma(1, 1e-5, sens), m.pointSigma(), 0.0);
        Statement s = Releases.state(m, Dataset.of(new double[][] {{0, 0, 0, 0, 0, 1}}), 1e-5);
        assertEquals(m.pointSigma(), s.parameters().number("noiseSigma"), 0.0);
        assertEquals(sens, s.parameters().number("sensitivity"), 0.0);
        assertEquals("point", s.parameters().toMap().get("output"));
        assertFalse(s.parameters().has("noiseVariance"));
    }

    /**
     * The point release is theta^ + N(0, s^2 I): over 400 seeds, each coordinate's deviation from theta^ has mean
     * within 4.5 standard errors of 0 and sample variance within 25 % of s^2 (failure probability below 1e-4 per
     * check, fixed seeds, so deterministic).
     */
    @Test
    void pointReleaseIsTheEstimatePlusIsotropicNoise() {
        BayesianLogisticRegression m = builder(5, 1).pointEstimate(true).build();
        double[][] rows = withLabels01(pm1Rows());
        double[][][] xy = m.records(org.dpgauss.linalg.RowBlockMatrix.of(rows), null);
        double[] centre = m.estimate(xy[0], xy[1][0]);
        int runs = 400;
        double[] sum = new double[5];
        double[] sq = new double[5];
        for (int k = 0; k < runs; k++) {
            double[] t = Releases.run(m, Dataset.of(rows), 1e-5, seeded(1000 + k)).vector("theta");
            for (int j = 0; j < 5; j++) {
                double z = t[j] - centre[j];
                sum[j] += z;
                sq[j] += z * z;
            }
        }
        double s2 = m.pointSigma() * m.pointSigma();
        for (int j = 0; j < 5; j++) {
            double mean = sum[j] / runs;
            assertTrue(Math.abs(mean) < 4.5 * Math.sqrt(s2 / runs), "coordinate " + j + " mean " + mean);
            double var = sq[j] / runs - mean * mean;
            assertTrue(Math.abs(var / s2 - 1) < 0.25, "coordinate " + j + " variance ratio " + var / s2);
        }
    }

    @Test
    void pointEstimateNeighboursMoveLessThanTheSensitivity() {
        // a strongly informative added row: the computed points of the neighbours differ by at most l/lambda + 2r
        BayesianLogisticRegression m = builder(5, 1).pointEstimate(true).build();
        double[][] rows = withLabels01(pm1Rows());
        double[][] bigger = Arrays.copyOf(rows, rows.length + 1);
        bigger[rows.length] = new double[] {1, 0, 0, 0, 0, 0};
        double[][][] a = m.records(org.dpgauss.linalg.RowBlockMatrix.of(rows), null);
        double[][][] b = m.records(org.dpgauss.linalg.RowBlockMatrix.of(bigger), null);
        double[] ta = m.estimate(a[0], a[1][0]);
        double[] tb = m.estimate(b[0], b[1][0]);
        double dist = 0;
        for (int j = 0; j < 5; j++) {
            dist += (ta[j] - tb[j]) * (ta[j] - tb[j]);
        }
        dist = Math.sqrt(dist);
        assertTrue(dist > 0.01, "the added row moves the point: " + dist);
        assertTrue(dist <= 1.0 / 2 + 2 * m.residualBound(), "moved " + dist);
    }
}
