package org.dpgauss.secondmoment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.ejml.data.DMatrixRMaj;

/**
 * The release of a private second-moment method: either PASS, a symmetric {@code d x d} matrix with its privacy
 * guarantee, or FAIL (bottom), which carries nothing at all (design.md: no partial estimate, no diagnostics).
 *
 * <p>The matrix is the raw private estimate: symmetric, but not necessarily positive semidefinite (noise can make
 * small eigenvalues negative). {@link #psdProjection()} is its Euclidean projection onto the PSD cone, which is
 * post-processing and costs no privacy. {@link #parameters()} holds only public, data-independent values (the
 * noise scales, the level count, the budget split), never functions of the data.
 *
 * <p>Immutable: accessors return copies.
 */
public final class SecondMomentEstimate {

    private static final SecondMomentEstimate FAIL = new SecondMomentEstimate(null, null, null, false, Map.of());

    private final DMatrixRMaj matrix;
    private final PrivacyGuarantee guarantee;
    private final String method;
    private final boolean certified;
    private final Map<String, Object> parameters;

    private SecondMomentEstimate(DMatrixRMaj matrix, PrivacyGuarantee guarantee, String method, boolean certified,
            Map<String, Object> parameters) {
        this.matrix = matrix;
        this.guarantee = guarantee;
        this.method = method;
        this.certified = certified;
        this.parameters = parameters;
    }

    /**
     * A PASS release.
     *
     * @param matrix the private estimate, square, finite; symmetrised from its upper triangle and copied
     * @param guarantee the privacy guarantee of the whole release, not null
     * @param method the method's registered name, e.g. {@code recursive}
     * @param certified whether the guarantee is certified (see {@link PrivacyGuarantee}); the stored flag is
     *        {@code certified && guarantee.certified()}
     * @param parameters public, data-independent parameters for reports (copied; may be null)
     * @return the release
     */
    public static SecondMomentEstimate pass(DMatrixRMaj matrix, PrivacyGuarantee guarantee, String method,
            boolean certified, Map<String, Object> parameters) {
        Objects.requireNonNull(matrix, "matrix");
        Objects.requireNonNull(guarantee, "guarantee");
        Objects.requireNonNull(method, "method");
        DMatrixRMaj m = SymmetricGaussianNoise.symmetricCopy(matrix);
        Map<String, Object> p = parameters == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        return new SecondMomentEstimate(m, guarantee, method, certified && guarantee.certified(), p);
    }

    /** @return the FAIL release (bottom); it carries no matrix, guarantee, method or parameters */
    public static SecondMomentEstimate fail() {
        return FAIL;
    }

    /** @return true for PASS, false for FAIL */
    public boolean passed() {
        return this != FAIL;
    }

    /** @return a copy of the raw private matrix (symmetric, possibly indefinite) */
    public DMatrixRMaj matrix() {
        return requirePass().matrix.copy();
    }

    /** @return the PSD projection of {@link #matrix()} (negative eigenvalues clamped to 0); free post-processing */
    public DMatrixRMaj psdProjection() {
        return SpectralMetrics.psdProjection(requirePass().matrix, 0);
    }

    /** @return the privacy guarantee of the release */
    public PrivacyGuarantee guarantee() {
        return requirePass().guarantee;
    }

    /** @return the method's registered name */
    public String method() {
        return requirePass().method;
    }

    /** @return whether the guarantee is certified (false for insecure randomness or uncertified constants) */
    public boolean certified() {
        return requirePass().certified;
    }

    /** @return the public, data-independent parameters (unmodifiable) */
    public Map<String, Object> parameters() {
        return requirePass().parameters;
    }

    /** @return the matrix as rows, for JSON */
    public double[][] matrixRows() {
        return rows(matrix());
    }

    /** @return the {@link #psdProjection()} as rows, for JSON */
    public double[][] psdProjectionRows() {
        return rows(psdProjection());
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

    private SecondMomentEstimate requirePass() {
        if (!passed()) {
            throw new IllegalStateException("the release is FAIL (bottom): it carries nothing");
        }
        return this;
    }

    @Override
    public String toString() {
        return passed() ? "PASS " + method + " " + matrix.numRows + "x" + matrix.numCols + ", " + guarantee.describe()
                : "FAIL";
    }
}
