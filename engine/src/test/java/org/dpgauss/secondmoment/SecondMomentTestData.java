package org.dpgauss.secondmoment;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpgauss.linalg.RowBlockMatrix;
import org.ejml.data.DMatrixRMaj;

/** Data generators and injectable noise for the second-moment tests (all seeded). */
final class SecondMomentTestData {

    private SecondMomentTestData() {
    }

    /**
     * Multivariate Student t with nu degrees of freedom and a rotated, badly conditioned scale:
     * x = Q diag(sqrt(scales)) z / sqrt(w / nu), w ~ chi^2_nu, Q a fixed rotation mixing the coordinates.
     */
    static RowBlockMatrix studentT(int n, double[] scales, int nu, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int d = scales.length;
        DMatrixRMaj q = rotation(d, seed ^ 0x5DEECE66DL);
        double[][] a = new double[n][d];
        double[] z = new double[d];
        for (int i = 0; i < n; i++) {
            double w = 0;
            for (int k = 0; k < nu; k++) {
                double g = r.nextGaussian();
                w += g * g;
            }
            double f = 1.0 / Math.sqrt(w / nu);
            for (int j = 0; j < d; j++) {
                z[j] = Math.sqrt(scales[j]) * r.nextGaussian() * f;
            }
            for (int j = 0; j < d; j++) {
                double s = 0;
                for (int k = 0; k < d; k++) {
                    s += q.get(j, k) * z[k];
                }
                a[i][j] = s;
            }
        }
        return RowBlockMatrix.of(a);
    }

    /** A rotation by Gram-Schmidt on a seeded Gaussian matrix. */
    static DMatrixRMaj rotation(int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        DMatrixRMaj q = new DMatrixRMaj(d, d);
        for (int c = 0; c < d; c++) {
            double[] v = new double[d];
            for (int i = 0; i < d; i++) {
                v[i] = r.nextGaussian();
            }
            for (int p = 0; p < c; p++) {
                double dot = 0;
                for (int i = 0; i < d; i++) {
                    dot += v[i] * q.get(i, p);
                }
                for (int i = 0; i < d; i++) {
                    v[i] -= dot * q.get(i, p);
                }
            }
            double nrm = 0;
            for (double x : v) {
                nrm += x * x;
            }
            nrm = Math.sqrt(nrm);
            for (int i = 0; i < d; i++) {
                q.set(i, c, v[i] / nrm);
            }
        }
        return q;
    }

    /** The rows clipped to norm R (exactly as the mechanism's step 2 would, up to its safety factor). */
    static RowBlockMatrix clipped(RowBlockMatrix x, double radius) {
        return RowBounds.scaleAndClip(x, 1.0, radius);
    }

    /**
     * Injected test noise: continuous Gaussian symmetric noise from a seeded SplittableRandom, recording every
     * noise matrix it adds. Not secure.
     */
    static final class RecordingNoise extends OracleNoise {
        final List<DMatrixRMaj> added = new ArrayList<>();
        final List<Double> sigmas = new ArrayList<>();
        private final SplittableRandom random;
        private final double factor;

        /** @param factor multiplies sigma (0: noise-free oracle that still records zero matrices) */
        RecordingNoise(long seed, double factor) {
            super("recording test noise");
            this.random = new SplittableRandom(seed);
            this.factor = factor;
        }

        @Override
        public DMatrixRMaj perturb(DMatrixRMaj query, double sigma) {
            int d = query.numRows;
            DMatrixRMaj n = new DMatrixRMaj(d, d);
            for (int i = 0; i < d; i++) {
                for (int j = i; j < d; j++) {
                    double v = factor * sigma * random.nextGaussian();
                    n.set(i, j, v);
                    n.set(j, i, v);
                }
            }
            added.add(n);
            sigmas.add(sigma);
            DMatrixRMaj out = SymmetricGaussianNoise.symmetricCopy(query);
            org.ejml.dense.row.CommonOps_DDRM.addEquals(out, n);
            return out;
        }
    }
}
