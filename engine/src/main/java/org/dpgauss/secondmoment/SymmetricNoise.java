package org.dpgauss.secondmoment;

import org.dpgauss.privacy.RandomSource;
import org.ejml.data.DMatrixRMaj;

/**
 * The primitive {@code SymGauss(d, sigma)} of spec second-moment-estimation §2.1, as a perturbation of a symmetric
 * query: {@code perturb(Q, sigma) = Q + N} with {@code N} real symmetric, {@code N_ij = N_ji ~ N(0, sigma^2)}
 * independent for {@code i <= j} (diagonal variance {@code sigma^2}, not {@code 2 sigma^2}; {@code d(d+1)/2}
 * independent draws). Only the upper triangle of {@code Q} is read; the result is exactly symmetric.
 *
 * <p>The production implementation is {@link #secure(RandomSource)} ({@link SymmetricGaussianNoise}: exact discrete
 * Gaussian noise on a power-of-two grid, {@code privacy.noise}). Tests inject other implementations (for example
 * {@link #none()}, or a fixed matrix) to check the closed form of an output with known noise; such
 * implementations report {@link #isSecure()} {@code false}, and every guarantee built on them is uncertified.
 *
 * <p>Privacy accounting of a release {@code perturb(Q(X), sigma)}: the Gaussian mechanism on the
 * {@code d(d+1)/2} upper-triangle entries, {@code (Delta + roundingInflation(d, sigma))^2 / (2 sigma^2)}-zCDP, where
 * {@code Delta} is the L2 sensitivity of the upper triangle of {@code Q}.
 */
public interface SymmetricNoise {

    /**
     * Returns {@code Q + N} (a new matrix).
     *
     * @param query the symmetric query {@code Q}, {@code d x d}, finite; only the upper triangle is read
     * @param sigma the noise standard deviation per entry, {@code > 0}
     * @return the perturbed, exactly symmetric matrix
     */
    DMatrixRMaj perturb(DMatrixRMaj query, double sigma);

    /**
     * A pure noise matrix {@code SymGauss(d, sigma)}: {@code perturb(0, sigma)}.
     *
     * @param d the dimension, {@code >= 1}
     * @param sigma the standard deviation per entry
     * @return the symmetric noise matrix
     */
    default DMatrixRMaj sample(int d, double sigma) {
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " is outside [1, inf): a noise matrix needs a dimension");
        }
        return perturb(new DMatrixRMaj(d, d), sigma);
    }

    /**
     * The L2 sensitivity (over the {@code d(d+1)/2} released entries) that rounding the query onto the release grid
     * adds; 0 for implementations that do not round.
     *
     * @param d the dimension
     * @param sigma the standard deviation per entry
     * @return the inflation, {@code >= 0}
     */
    double roundingInflation(int d, double sigma);

    /** @return whether the noise is privacy noise (secure source, exact sampler), i.e. guarantees may be certified */
    boolean isSecure();

    /** @return a one-line description for reports */
    String describe();

    /**
     * @param random the source of uniform bits ({@link RandomSource#secure()} in production)
     * @return the discrete-Gaussian implementation {@link SymmetricGaussianNoise}
     */
    static SymmetricNoise secure(RandomSource random) {
        return SymmetricGaussianNoise.using(random);
    }

    /**
     * TEST ORACLE ONLY: no noise at all ({@code perturb(Q, sigma) = Q} symmetrised from the upper triangle), the
     * "sigma = 0" hook of spec §4.2 item 5. Not secure; provides no privacy.
     *
     * @return the zero-noise implementation
     */
    static SymmetricNoise none() {
        return new OracleNoise("NO NOISE (test oracle, not private)") {
            @Override
            public DMatrixRMaj perturb(DMatrixRMaj query, double sigma) {
                return SymmetricGaussianNoise.symmetricCopy(query);
            }
        };
    }
}
