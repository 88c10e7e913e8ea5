package org.dpgauss.mechanism;

import java.util.Objects;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.ndis.LoewnerComparableBound;
import org.dpgauss.ndis.LoewnerComparableBound.Variant;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.PublicParameters;
import org.dpgauss.privacy.noise.MultivariateGaussianNoise;
import org.ejml.data.DMatrixRMaj;

/**
 * The NDIS-calibrated Gaussian mechanism (spec ndis §6.5, Figure 5, Theorem 6.1): for a Gaussian-output query
 * {@code q(D) = (mu(D), Sigma(D))} in dimension m with a public {@link SensitivityFunction}, release one sample of
 * {@code N(mu(D), Sigma(D) + sigma* I_m)} where {@code sigma*} (a variance) is the smallest with
 * {@code deltaBound(eps; Delta(sigma), rhoInf(sigma), nu(sigma)) <= delta} ({@link LoewnerComparableBound}).
 *
 * <p><b>Guarantee.</b> {@code (epsilon, delta)}-DP under <b>add/remove</b> neighbours, given that the sensitivity
 * function is valid (Def. 5) and Delta bounds the Mahalanobis norm of the mean shift under the smaller covariance
 * (true for {@link BayesianLogisticRegression} and {@link GaussianProcessRegression}, spec §6.5.4).
 *
 * <p><b>Bound (decision).</b> Default {@link Variant#SOUND_EXACT_HARD}: the sound composition of spec §6.5.4 with
 * the hard-orientation covariance term computed exactly as {@code delta^gRP_m(eps2; 1 - e^{-rhoInf})} when
 * {@code nu >= m rhoInf} (otherwise LoewnerComparableBound falls back to the Chernoff term). The spec calls the
 * needed monotonicity "numerically checked, not proven"; it does follow from data processing: in the whitened
 * basis the hard-orientation pair is a product of one-dimensional pairs {@code (N(0, tau_i), N(0, 1))},
 * {@code 1 <= tau_i <= e^{rhoInf}}, and for {@code tau' >= tau >= 1} the channel
 * {@code x -> a x + N(0, 1 - a^2)}, {@code a^2 = (tau - 1)/(tau' - 1)}, maps {@code N(0, tau')} to
 * {@code N(0, tau)} and {@code N(0, 1)} to itself, so raising any eigenvalue to {@code e^{rhoInf}} can only
 * increase the hockey-stick divergence at every epsilon. {@link Variant#SOUND} (Chernoff hard term, looser) is
 * available, and {@link Variant#PAPER_FAITHFUL} (Def. 6 as published) only as an explicit option: it is NOT a valid
 * bound for every ordered pair (spec §11.1), so its guarantee is reported as not certified.
 *
 * <p><b>Floating point.</b> The release is {@code mu + A z} with {@code A A^T = Sigma + sigma* I} and {@code z}
 * exact discrete Gaussians on a 2^-20 grid ({@link MultivariateGaussianNoise}); A depends on the data through
 * Sigma, so the output is not an exact grid point and low-order-bit leakage is not excluded; the guarantee is for
 * the real-arithmetic Gaussian. The query itself (e.g. the BLR minimiser) is computed to a stated precision.
 * Immutable.
 */
public final class NdisGaussianMechanism {

    private final double epsilon;
    private final double delta;
    private final int dimension;
    private final SensitivityFunction sensitivity;
    private final Variant variant;
    private final double variance;

    private NdisGaussianMechanism(double epsilon, double delta, int dimension, SensitivityFunction sensitivity,
            Variant variant, double variance) {
        this.epsilon = epsilon;
        this.delta = delta;
        this.dimension = dimension;
        this.sensitivity = sensitivity;
        this.variant = variant;
        this.variance = variance;
    }

    /**
     * Calibrates sigma* (spec §6.5.3): doubling bracket from 1, bisection on log sigma to relative 1e-8, feasible
     * end.
     *
     * @param epsilon finite, {@code >= 0}
     * @param delta in {@code (0, 1)}
     * @param dimension the output dimension m, {@code >= 1}
     * @param sensitivity the public sensitivity function
     * @param variant the bound ({@link #DEFAULT_VARIANT} unless reproducing the paper)
     * @return the calibrated mechanism
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static NdisGaussianMechanism calibrate(double epsilon, double delta, int dimension,
            SensitivityFunction sensitivity, Variant variant) {
        if (!(epsilon >= 0) || !Double.isFinite(epsilon)) {
            throw new IllegalArgumentException("epsilon=" + epsilon + " is outside [0, inf): a privacy loss is a "
                    + "finite non-negative number");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta=" + delta + " is outside (0, 1): the NDIS bound needs delta > 0 "
                    + "(spec ndis §6.5.3)");
        }
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension=" + dimension + " is outside [1, inf): the output needs a "
                    + "coordinate");
        }
        Objects.requireNonNull(sensitivity, "sensitivity");
        Objects.requireNonNull(variant, "variant");
        double v = LoewnerComparableBound.of(variant).calibrateVariance(epsilon, delta, dimension, s -> {
            NdisSensitivity p = sensitivity.at(s);
            return new double[] {p.meanSensitivity(), p.rhoInf(), p.nu()};
        }, 1.0);
        return new NdisGaussianMechanism(epsilon, delta, dimension, sensitivity, variant, v);
    }

    /** The default bound: sound, with the exact hard-orientation covariance term (see the class comment). */
    public static final Variant DEFAULT_VARIANT = Variant.SOUND_EXACT_HARD;

    /** @return sigma*, the calibrated noise VARIANCE */
    public double variance() {
        return variance;
    }

    /** @return the sensitivity at sigma* */
    public NdisSensitivity sensitivityAtVariance() {
        return sensitivity.at(variance);
    }

    /** @return the bound's delta at sigma* ({@code <= delta}) */
    public double boundDelta() {
        NdisSensitivity p = sensitivityAtVariance();
        return LoewnerComparableBound.of(variant).delta(epsilon, p.meanSensitivity(), p.rhoInf(), p.nu(), dimension);
    }

    /** @return epsilon */
    public double epsilon() {
        return epsilon;
    }

    /** @return delta */
    public double delta() {
        return delta;
    }

    /** @return the output dimension m */
    public int dimension() {
        return dimension;
    }

    /** @return the bound used */
    public Variant variant() {
        return variant;
    }

    /**
     * The guarantee of one release, as the recipe certifies it: {@code (epsilon, delta)}-DP under add/remove, not
     * certified for the paper-faithful bound. Whether the noise source is secure is taken into account by
     * {@code org.dpgauss.release.Releases}, not here.
     *
     * @param notes what the query is and why its sensitivity function holds (prepended to the bound's notes)
     * @return the guarantee
     */
    public PrivacyGuarantee guarantee(String notes) {
        boolean paper = variant == Variant.PAPER_FAITHFUL;
        String text = (notes == null || notes.isBlank() ? "" : notes.strip() + "; ")
                + "NDIS-calibrated Gaussian mechanism (spec ndis §6.5), bound " + variant + ", noise variance "
                + variance + (paper ? "; PAPER_FAITHFUL bound is NOT valid for every ordered pair (spec §11.1)" : "")
                + "; idealised real-arithmetic Gaussian noise, floating-point effects of the noise not covered;"
                + " running time is outside the guarantee";
        return PrivacyGuarantee.approxDp(NeighbouringRelation.ADD_REMOVE, ApproxDp.of(epsilon, delta), !paper, text);
    }

    /** @return the guarantee of one release with no query notes (see {@link #guarantee(String)}) */
    public PrivacyGuarantee guarantee() {
        return guarantee(null);
    }

    /**
     * The calibration's public parameters, in camelCase: {@code bound}, {@code noiseVariance} (sigma*, a
     * variance), {@code meanSensitivity}, {@code rhoInf}, {@code nu} (the sensitivity at sigma*) and
     * {@code boundDelta} (the bound's delta at sigma*, at most delta).
     *
     * @param into the builder to add them to
     * @return the builder
     */
    public PublicParameters.Builder putParameters(PublicParameters.Builder into) {
        NdisSensitivity s = sensitivityAtVariance();
        return into.put("bound", variantId(variant))
                .put("noiseVariance", variance)
                .put("meanSensitivity", s.meanSensitivity())
                .put("rhoInf", s.rhoInf())
                .put("nu", s.nu())
                .put("boundDelta", boundDelta());
    }

    /** @return the command-line name of a bound: {@code sound-exact-hard}, {@code sound}, {@code paper-faithful} */
    public static String variantId(Variant v) {
        switch (v) {
            case SOUND_EXACT_HARD:
                return "sound-exact-hard";
            case SOUND:
                return "sound";
            default:
                return "paper-faithful";
        }
    }

    /**
     * @param mean mu(D), length m
     * @param covariance Sigma(D), m x m, symmetric PSD
     * @return the output distribution {@code N(mu, Sigma + sigma* I)} (non-private: for audits in this package)
     */
    Gaussian outputDistribution(double[] mean, DMatrixRMaj covariance) {
        return Gaussian.of(mean, noisy(mean, covariance));
    }

    /**
     * One sample of {@code N(mu, Sigma + sigma* I)}; the computation behind the mechanisms' releases, package-private
     * (releases go through the contract, {@code org.dpgauss.release.Releases}).
     *
     * @param mean mu(D), length m
     * @param covariance Sigma(D), m x m, symmetric PSD
     * @param random the source of the noise
     * @return the release
     */
    double[] release(double[] mean, DMatrixRMaj covariance, RandomSource random) {
        DMatrixRMaj c = noisy(mean, covariance);
        double[] z = MultivariateGaussianNoise.ofCovariance(c, random).sample();
        double[] out = mean.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] += z[i];
        }
        return out;
    }

    private DMatrixRMaj noisy(double[] mean, DMatrixRMaj covariance) {
        Objects.requireNonNull(mean, "mean");
        Objects.requireNonNull(covariance, "covariance");
        if (mean.length != dimension || covariance.numRows != dimension || covariance.numCols != dimension) {
            throw new IllegalArgumentException("the query has mean length " + mean.length + " and covariance "
                    + covariance.numRows + "x" + covariance.numCols + "; the mechanism was calibrated for m="
                    + dimension);
        }
        DMatrixRMaj c = covariance.copy();
        for (int i = 0; i < dimension; i++) {
            c.add(i, i, variance);
        }
        return c;
    }
}
