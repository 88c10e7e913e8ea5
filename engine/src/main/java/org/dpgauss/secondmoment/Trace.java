package org.dpgauss.secondmoment;

import java.util.ArrayList;
import java.util.List;
import org.ejml.data.DMatrixRMaj;

/**
 * TEST/DEBUG ONLY: the per-level internals of one run of Algorithm 2 (spec second-moment-estimation §4.2, §4.3
 * debug hooks). Everything here is a function of the data and of the noise, so it is never released with an
 * estimate (spec §7.2 "Diagnostics"); only package-private code fills it.
 */
final class Trace {

    /** One level of the recursion. */
    static final class Level {
        double kappa;
        double radius;
        double sigma;
        /** Gram(X_t), exact computation before noise. */
        DMatrixRMaj gram;
        /** The released noisy Gram {@code Sigma~_t}. */
        DMatrixRMaj noisy;
        /** Eigenvectors spanning V_t (d x k), null at the leaf. */
        DMatrixRMaj subspace;
        /** Pi_t = I - (1/2) U U^T, null at the leaf. */
        DMatrixRMaj pi;
        /** Clip factor c_{t,i} of every row at this level's clipping, null at the leaf. */
        double[] clipFactors;
        /** max row norm of X_{t+1} after clipping, NaN at the leaf. */
        double maxNormAfterClip = Double.NaN;
        /** Gram of the transformed rows sqrt(8/7) X_t Pi_t before clipping, null at the leaf. */
        DMatrixRMaj transformedGramBeforeClip;
    }

    final List<Level> levels = new ArrayList<>();
    /** The input rows of Algorithm 2 (after step 2's clipping and step 3's scaling), as arrays. */
    double[][] input;
    /** The accumulated un-whitening matrix M. */
    DMatrixRMaj unwhitening;
    /** Algorithm 2's output {@code M Sigma~_leaf M^T} (before Algorithm 1 multiplies by 1 - alpha). */
    DMatrixRMaj recursionOutput;
    /** Product over levels of the clip factors, s_i. */
    double[] productClipFactors;
}
