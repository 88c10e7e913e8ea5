package example;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.dpgauss.mean.ClippedGaussianMean;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.PrivacyProfile;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.Zcdp;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivacySession;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.secondmoment.AnalyzeGauss;

/** The dpgauss library in a few lines: a budgeted session, two releases, the exact privacy of a Gaussian mechanism. */
public final class Quickstart {

    public static void main(String[] args) {
        // Your sensitive rows (here synthetic: 5000 rows of N(mu, I) in 3 dimensions).
        Random gen = new Random(1);
        double[][] rows = new double[5000][3];
        for (double[] r : rows) {
            for (int j = 0; j < 3; j++) {
                r[j] = 1.0 + gen.nextGaussian();
            }
        }

        // Open the dataset with a total budget and a neighbouring relation: every release is charged to it, and
        // one that would exceed it is refused before the data are read.
        PrivacySession session = PrivacySession.builder(Dataset.of(rows))
                .relation(NeighbouringRelation.REPLACE_ONE)
                .budget(ApproxDp.of(3.0, 1e-6))
                .open();

        // A clipped mean: rows are projected onto the ball of public radius 6 around the origin.
        PrivateRelease mean = session.release(ClippedGaussianMean.builder().clipRadius(6).rho(0.1).build(3));
        System.out.println("mean        " + Arrays.toString(mean.vector("mean")));
        System.out.println("  accuracy  " + mean.accuracy().orElseThrow());

        // A second-moment matrix (1/n) X^T X by Analyze Gauss, rows clipped to radius 6.
        PrivateRelease cov = session.release(AnalyzeGauss.builder().radius(6).budget(Zcdp.of(0.05)).build());
        System.out.println("2nd moment  " + Arrays.deepToString(cov.matrix("secondMoment")));
        System.out.println("  guarantee " + cov.guarantee().describe());

        // The exact (epsilon, delta) of a Gaussian mechanism through NDIS: outputs N(0, sigma^2 I) on one
        // dataset and N(Delta e1, sigma^2 I) on its neighbour; the profile is the exact hockey-stick divergence.
        double sensitivity = 1.0;
        double sigma = 4.0;
        Gaussian p = Gaussian.of(new double[] {0, 0}, new double[][] {{sigma * sigma, 0}, {0, sigma * sigma}});
        Gaussian q = Gaussian.of(new double[] {sensitivity, 0}, new double[][] {{sigma * sigma, 0}, {0, sigma * sigma}});
        double exactEps = PrivacyProfile.of(p, q).epsilon(1e-6).epsilon();
        System.out.printf(Locale.ROOT, "Gaussian mechanism sigma=%.1f: exactly (%.4f, 1e-06)-DP by NDIS,"
                + " %.4f by its zCDP conversion%n", sigma, exactEps,
                Zcdp.gaussianMechanism(sensitivity, sigma).toApproxDpTight(1e-6).epsilon());

        // What the session spent: the two zCDP releases compose to rho = 0.15, converted once.
        System.out.println("spent " + session.spent() + " of " + session.budget());
    }
}
