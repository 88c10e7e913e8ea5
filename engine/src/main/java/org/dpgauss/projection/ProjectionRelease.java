package org.dpgauss.projection;

import java.util.Objects;
import org.dpgauss.release.PrivateRelease;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * A random-projection release read as a projection: the {@code d x r} matrix {@code M = D̄^T G} (spec ndis §6.1,
 * the released value {@code projection}), the ridge level {@code lambda} that was added (a public parameter, or for
 * PTR the released value {@code ridge}, a function of the privately released lower bound, spec §6.4), and the
 * factor the Gram estimate is divided by (the Poisson rate {@code samplingRate}, otherwise 1). Everything here is
 * part of the {@link PrivateRelease} it was read from; the ChaCha20 key that generated G is not, and is never kept.
 *
 * <p>The Gram estimator of spec §6.2 (Theorem 5.2) is {@link #gramEstimate()}: {@code (1/r) M M^T - lambda I},
 * unbiased for {@code D^T D}; for the Poisson wrapper it is divided by the sampling rate q (spec §6.3 [X]), which
 * makes it unbiased for {@code D^T D} of the full data. Immutable.
 */
public final class ProjectionRelease {

    private final DMatrixRMaj output;
    private final double ridge;
    private final double gramScale;
    private final double lambdaLowerBound;

    ProjectionRelease(DMatrixRMaj output, double ridge, double gramScale) {
        this(output, ridge, gramScale, Double.NaN);
    }

    ProjectionRelease(DMatrixRMaj output, double ridge, double gramScale, double lambdaLowerBound) {
        this.output = output.copy();
        this.ridge = ridge;
        this.gramScale = gramScale;
        this.lambdaLowerBound = lambdaLowerBound;
    }

    /**
     * Reads a PASS release of {@link RandomProjectionMechanism}, {@link PoissonSubsampledProjection} or
     * {@link PtrProjection}.
     *
     * @param release the release
     * @return the projection view
     * @throws IllegalStateException if the release is a FAIL or holds no {@code projection}
     * @throws IllegalArgumentException if it states no ridge
     */
    public static ProjectionRelease of(PrivateRelease release) {
        Objects.requireNonNull(release, "release");
        double[][] m = release.matrix("projection");
        double ridge = release.values().containsKey("ridge") ? release.scalar("ridge")
                : release.parameters().number("ridge");
        double scale = release.parameters().has("samplingRate") ? release.parameters().number("samplingRate") : 1.0;
        double lb = release.values().containsKey("lambdaLowerBound") ? release.scalar("lambdaLowerBound") : Double.NaN;
        return new ProjectionRelease(new DMatrixRMaj(m), ridge, scale, lb);
    }

    /** @return a copy of the released {@code d x r} matrix {@code M} */
    public DMatrixRMaj output() {
        return output.copy();
    }

    /** @return the released matrix as rows, {@code d} arrays of length {@code r} */
    public double[][] outputArray() {
        double[][] a = new double[output.numRows][output.numCols];
        for (int i = 0; i < output.numRows; i++) {
            for (int j = 0; j < output.numCols; j++) {
                a[i][j] = output.get(i, j);
            }
        }
        return a;
    }

    /** @return the data dimension d (rows of M) */
    public int dimension() {
        return output.numRows;
    }

    /** @return the number of projection columns r */
    public int rank() {
        return output.numCols;
    }

    /** @return the ridge level lambda added as {@code sqrt(lambda) I_d} rows (spec §6.1 step 2) */
    public double ridge() {
        return ridge;
    }

    /** @return the released private lower bound on {@code lambda_min(D^T D)} (PTR only; NaN otherwise) */
    public double lambdaLowerBound() {
        return lambdaLowerBound;
    }

    /** @return the factor the Gram estimate is divided by: the Poisson rate q, otherwise 1 */
    public double gramScale() {
        return gramScale;
    }

    /**
     * The unbiased estimator of {@code D^T D} (spec §6.2): {@code ((1/r) M M^T - lambda I) / q}.
     *
     * @return a new symmetric {@code d x d} matrix
     */
    public DMatrixRMaj gramEstimate() {
        int d = output.numRows;
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(1.0 / output.numCols, output, output, s);
        for (int i = 0; i < d; i++) {
            s.add(i, i, -ridge);
        }
        if (gramScale != 1) {
            CommonOps_DDRM.scale(1.0 / gramScale, s);
        }
        return s;
    }

    /** @return {@link #gramEstimate()} as rows */
    public double[][] gramEstimateArray() {
        DMatrixRMaj s = gramEstimate();
        double[][] a = new double[s.numRows][s.numCols];
        for (int i = 0; i < s.numRows; i++) {
            for (int j = 0; j < s.numCols; j++) {
                a[i][j] = s.get(i, j);
            }
        }
        return a;
    }
}
