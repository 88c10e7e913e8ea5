package org.dpgauss.secondmoment;

import java.util.Map;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.ejml.data.DMatrixRMaj;

/**
 * Test view of a second-moment release: runs a method through the one release path ({@link Releases#run}) and
 * reads the {@link PrivateRelease} back as matrices and maps. Test code only.
 */
final class SecondMomentEstimate {

    /** The delta the tests state guarantees at unless they say otherwise. */
    static final double DELTA = 1e-6;

    private final PrivateRelease release;

    private SecondMomentEstimate(PrivateRelease release) {
        this.release = release;
    }

    static SecondMomentEstimate run(SecondMomentMethod method, RowBlockMatrix x, RandomSource random,
            ComputeEngine engine) {
        return run(method, DELTA, x, random, engine);
    }

    static SecondMomentEstimate run(SecondMomentMethod method, double delta, RowBlockMatrix x, RandomSource random,
            ComputeEngine engine) {
        return new SecondMomentEstimate(Releases.run(method, Dataset.of(x), delta, ReleaseContext.of(engine, random)));
    }

    /** The noise seam of {@link AnalyzeGauss}: the same mechanism with injected (uncertified) noise. */
    static AnalyzeGauss withNoise(AnalyzeGauss m, SymmetricNoise noise) {
        return new AnalyzeGauss(m, noise);
    }

    /** The noise seam of {@link CoinPress}. */
    static CoinPress withNoise(CoinPress m, SymmetricNoise noise) {
        return new CoinPress(m, noise);
    }

    /** The noise seam of {@link RecursiveSecondMoment}. */
    static RecursiveSecondMoment withNoise(SecondMomentParams params, SymmetricNoise noise) {
        return new RecursiveSecondMoment(RecursiveSecondMoment.fromParams(params), noise);
    }

    PrivateRelease release() {
        return release;
    }

    boolean passed() {
        return release.isPass();
    }

    DMatrixRMaj matrix() {
        return new DMatrixRMaj(release.matrix(SecondMomentRelease.VALUE));
    }

    DMatrixRMaj psdProjection() {
        return SpectralMetrics.psdProjection(matrix(), 0);
    }

    PrivacyGuarantee guarantee() {
        return release.guarantee();
    }

    boolean certified() {
        return release.guarantee().certified();
    }

    String mechanism() {
        return release.mechanism();
    }

    Map<String, Object> parameters() {
        return release.parameters().toMap();
    }
}
