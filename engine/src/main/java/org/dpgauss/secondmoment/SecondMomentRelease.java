package org.dpgauss.secondmoment;

import org.dpgauss.release.Outcome;
import org.dpgauss.release.PublicContext;
import org.dpgauss.release.PublicParameters;
import org.ejml.data.DMatrixRMaj;

/**
 * What every second-moment method releases, in one place: the mechanism identifiers
 * ({@code second-moment.<name>}), the released values ({@code secondMoment}, the raw symmetric private matrix, and
 * optionally {@code psdProjection}, its projection onto the PSD cone, which is post-processing) and the public
 * parameters every method states ({@code n}, {@code d}).
 */
final class SecondMomentRelease {

    /** The family prefix of the mechanism identifiers. */
    static final String FAMILY = "second-moment";
    /** The released matrix. */
    static final String VALUE = "secondMoment";
    /** Its PSD projection (post-processing). */
    static final String PSD = "psdProjection";
    /** Public parameter value of the clipping mode. */
    static final String MODE_CLIP = "clip";
    /** Public parameter value of the public-bound mode. */
    static final String MODE_PUBLIC_BOUND = "publicBound";

    private SecondMomentRelease() {
    }

    /** @return the mechanism identifier of a registered method, e.g. {@code second-moment.recursive} */
    static String id(String name) {
        return FAMILY + "." + name;
    }

    /**
     * The PASS outcome of a release: the symmetrised matrix (from its upper triangle) and, if asked, its PSD
     * projection. A matrix with a non-finite entry cannot arise from the clipped methods (their rows are bounded);
     * should one arise, the outcome is FAIL rather than an exception after the data were read.
     */
    static Outcome outcome(DMatrixRMaj matrix, boolean psd) {
        for (double v : matrix.data) {
            if (!Double.isFinite(v)) {
                return Outcome.fail();
            }
        }
        DMatrixRMaj s = SymmetricGaussianNoise.symmetricCopy(matrix);
        Outcome.Builder b = Outcome.pass().matrix(VALUE, rows(s));
        if (psd) {
            b.matrix(PSD, rows(SpectralMetrics.psdProjection(s, 0)));
        }
        return b.build();
    }

    /** @return a builder holding {@code n} and {@code d} */
    static PublicParameters.Builder parameters(PublicContext context) {
        return PublicParameters.builder().put("n", context.rows()).put("d", context.dimension());
    }

    static double[][] rows(DMatrixRMaj m) {
        double[][] a = new double[m.numRows][m.numCols];
        for (int i = 0; i < m.numRows; i++) {
            for (int j = 0; j < m.numCols; j++) {
                a[i][j] = m.get(i, j);
            }
        }
        return a;
    }
}
