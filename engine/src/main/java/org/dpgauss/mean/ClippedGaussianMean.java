package org.dpgauss.mean;

import java.util.Objects;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;

/**
 * The clipped Gaussian-mechanism mean (the baseline of spec anisotropic-mean-estimation §10): each row is
 * projected onto the L2 ball of public radius C around a public centre c, the projected rows are averaged,
 * and isotropic Gaussian noise is added.
 *
 * <p><b>Guarantee:</b> rho-zCDP under <b>replace-one</b> neighbours with n public. Replacing one row moves
 * the average of the clipped rows by at most {@code 2C/n} in L2, and releasing {@code f + N(0, sigma^2 I)}
 * is {@code Delta^2 / (2 sigma^2)}-zCDP (spec second-moment-estimation §1.2), so
 * {@code sigma = 2C / (n sqrt(2 rho))}. The (epsilon, delta) statement uses the Bun–Steinke conversion.
 *
 * <p>Clipping is the mechanism's definition, not input cleaning: rows outside the ball contribute their
 * projection. Accuracy degrades when C is small relative to the data's spread around c. How many rows were
 * clipped is itself a function of the data and is not reported.
 */
public final class ClippedGaussianMean {

    private final double clipRadius;
    private final double[] centre;
    private final Zcdp budget;

    private ClippedGaussianMean(double clipRadius, double[] centre, Zcdp budget) {
        this.clipRadius = clipRadius;
        this.centre = centre;
        this.budget = budget;
    }

    /**
     * @param clipRadius C > 0, public
     * @param centre     c, public (length d)
     * @param rho        the zCDP budget, > 0
     */
    public static ClippedGaussianMean of(double clipRadius, double[] centre, double rho) {
        if (!(clipRadius > 0) || !Double.isFinite(clipRadius)) {
            throw new IllegalArgumentException("clip radius C=" + clipRadius + " must be finite and > 0");
        }
        Objects.requireNonNull(centre, "centre");
        if (centre.length == 0) {
            throw new IllegalArgumentException("centre has no coordinates");
        }
        for (int j = 0; j < centre.length; j++) {
            if (!Double.isFinite(centre[j])) {
                throw new IllegalArgumentException("centre coordinate " + j + " is " + centre[j]);
            }
        }
        if (!(rho > 0)) {
            throw new IllegalArgumentException("rho=" + rho + " must be > 0: a zero budget releases nothing useful");
        }
        return new ClippedGaussianMean(clipRadius, centre.clone(), Zcdp.of(rho));
    }

    /** Noise standard deviation per coordinate for n rows. */
    public double sigma(int n) {
        return budget.sigmaFor(2.0 * clipRadius / n);
    }

    /** The guarantee of one release, with the (epsilon, delta) implied at {@code delta}. */
    public PrivacyGuarantee guarantee(double delta) {
        return PrivacyGuarantee.zcdp(NeighbouringRelation.REPLACE_ONE, budget, delta, true,
                "clipped Gaussian mechanism, L2 sensitivity 2C/n, n public");
    }

    /** Releases the private mean of the rows of x. */
    public double[] release(RowBlockMatrix x, RandomSource random) {
        Objects.requireNonNull(random, "random source");
        if (x == null || x.rows() == 0) {
            throw new IllegalArgumentException("data have no rows");
        }
        int d = x.cols();
        if (d != centre.length) {
            throw new IllegalArgumentException("data have " + d + " columns but the centre has " + centre.length);
        }
        int n = x.rows();
        double[] sum = new double[d];
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            x.copyRow(i, row, 0);
            double norm2 = 0;
            for (int j = 0; j < d; j++) {
                row[j] -= centre[j];
                norm2 += row[j] * row[j];
            }
            double scale = norm2 > clipRadius * clipRadius ? clipRadius / Math.sqrt(norm2) : 1.0;
            for (int j = 0; j < d; j++) {
                sum[j] += scale * row[j];
            }
        }
        double sigma = sigma(n);
        double[] out = new double[d];
        for (int j = 0; j < d; j++) {
            out[j] = centre[j] + sum[j] / n + sigma * random.nextGaussian();
        }
        return out;
    }
}
