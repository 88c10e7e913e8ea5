package org.dpgauss.secondmoment;

import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.SecureGaussianSampler;
import org.ejml.data.DMatrixRMaj;

/** TEMPORARY stand-in for smcore's symmetric Gaussian noise helper; removed once it is merged. */
final class AnalyzeGaussTempNoise {
    private AnalyzeGaussTempNoise() {
    }

    /** Adds SymGauss(d, sigma) (spec §2.1) in place. */
    static void addSymGauss(DMatrixRMaj a, double sigma, RandomSource random) {
        int d = a.numRows;
        SecureGaussianSampler s = SecureGaussianSampler.using(random);
        double[] z = new double[d * (d + 1) / 2];
        s.sample(z, sigma);
        int k = 0;
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                double v = z[k++];
                a.add(i, j, v);
                if (j != i) {
                    a.add(j, i, v);
                }
            }
        }
    }
}
