package org.dpgauss.secondmoment;

import java.util.Objects;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.noise.DiscreteGaussian;
import org.dpgauss.privacy.noise.NoiseGrid;
import org.ejml.data.DMatrixRMaj;

/**
 * {@code SymGauss} (spec second-moment-estimation §2.1) drawn as exact discrete Gaussian noise (Canonne, Kamath
 * &amp; Steinke 2020; {@link DiscreteGaussian}) on the power-of-two grid {@code g = NoiseGrid.spacing(sigma)}
 * (about {@code 2^-20 sigma}): every released entry is {@code g * (round(Q_ij / g) + Z_ij)}, {@code i <= j}, with
 * {@code Z_ij ~ N_Z(0, ceil(sigma/g)^2)} independent, mirrored below the diagonal. The output is an exact grid point
 * (no floating-point attack in the style of Mironov 2012), and its standard deviation {@code g ceil(sigma/g)} is at
 * least {@code sigma} and within a relative {@code 2^-20} of it.
 *
 * <p>Accounting (CKS20 Thm. 14): releasing {@code perturb(Q(X), sigma)} is
 * {@code (Delta + g sqrt(d(d+1)/2))^2 / (2 sigma^2)}-zCDP for an upper triangle of L2 sensitivity {@code Delta};
 * {@link #roundingInflation} returns the second term.
 *
 * <p>Not thread-safe unless the {@link RandomSource} is.
 */
public final class SymmetricGaussianNoise implements SymmetricNoise {

    private final RandomSource random;

    private SymmetricGaussianNoise(RandomSource random) {
        this.random = random;
    }

    /**
     * @param random the source of uniform bits, not null ({@link RandomSource#secure()} in production; a seeded
     *        source makes the noise reproducible and NOT private, and {@link #isSecure()} then returns false)
     * @return the noise
     */
    public static SymmetricGaussianNoise using(RandomSource random) {
        return new SymmetricGaussianNoise(Objects.requireNonNull(random, "random"));
    }

    /**
     * @param sigma the requested standard deviation
     * @return the grid spacing {@code g = 2^(floor(log2 sigma) - 20)} of the release
     */
    public static double grid(double sigma) {
        return NoiseGrid.spacing("sigma", sigma);
    }

    /**
     * @param sigma the requested standard deviation
     * @return the standard deviation actually drawn, {@code g ceil(sigma / g)}, in {@code [sigma, sigma(1 + 2^-20)]}
     */
    public static double effectiveSigma(double sigma) {
        double g = grid(sigma);
        return g * NoiseGrid.integerScale("sigma", sigma, g);
    }

    @Override
    public DMatrixRMaj perturb(DMatrixRMaj query, double sigma) {
        int d = checkSquare(query);
        double g = grid(sigma);
        DiscreteGaussian z = DiscreteGaussian.withIntegerSigma(NoiseGrid.integerScale("sigma", sigma, g));
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                long k = NoiseGrid.index(query.get(i, j), g) + z.sample(random);
                double v = g * (double) k;
                out.set(i, j, v);
                out.set(j, i, v);
            }
        }
        return out;
    }

    @Override
    public double roundingInflation(int d, double sigma) {
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " is outside [1, inf)");
        }
        return NoiseGrid.l2RoundingInflation(grid(sigma), upperTriangleSize(d));
    }

    @Override
    public boolean isSecure() {
        return !random.isInsecure();
    }

    @Override
    public String describe() {
        return "symmetric discrete Gaussian noise on a 2^-20 sigma grid (CKS20), " + random.describe();
    }

    /** @return {@code d(d+1)/2}, the number of independent entries of a symmetric {@code d x d} matrix */
    static int upperTriangleSize(int d) {
        long s = (long) d * (d + 1) / 2;
        if (s > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("d=" + d + " is too large: d(d+1)/2 exceeds an int");
        }
        return (int) s;
    }

    /** The upper triangle of {@code q} mirrored into a new symmetric matrix. */
    static DMatrixRMaj symmetricCopy(DMatrixRMaj q) {
        int d = checkSquare(q);
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = i; j < d; j++) {
                double v = q.get(i, j);
                out.set(i, j, v);
                out.set(j, i, v);
            }
        }
        return out;
    }

    static int checkSquare(DMatrixRMaj q) {
        Objects.requireNonNull(q, "query");
        if (q.numRows < 1 || q.numRows != q.numCols) {
            throw new IllegalArgumentException("query is " + q.numRows + "x" + q.numCols
                    + ": a symmetric query must be square and non-empty");
        }
        for (int i = 0; i < q.numRows; i++) {
            for (int j = i; j < q.numCols; j++) {
                if (!Double.isFinite(q.get(i, j))) {
                    // an internal check: the mechanisms bound every row first, so their queries are finite; the
                    // message names the entry, not its value (issue 14, finding 8)
                    throw new IllegalArgumentException("query entry (" + i + "," + j + ") is not finite: it cannot"
                            + " be released");
                }
            }
        }
        return q.numRows;
    }
}
