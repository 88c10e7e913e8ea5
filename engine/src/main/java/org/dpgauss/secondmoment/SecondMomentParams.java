package org.dpgauss.secondmoment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpgauss.privacy.Zcdp;

/**
 * The public parameters shared by every registered {@link SecondMomentMethod} (one object so that the command line
 * and the demo configure all methods alike). Built with {@link #builder()} from named values (the budget is a typed
 * {@link Zcdp}, the radius a named field, so the two cannot be swapped silently); every value is validated by
 * {@link Builder#build()} with a message naming it, its value, the allowed range and why. Immutable.
 *
 * <ul>
 *   <li>{@code budget}: the zCDP budget rho of the main mechanism (Algorithm 1), required.</li>
 *   <li>{@code radius} R: the public covering radius, required.</li>
 *   <li>{@code delta}: the delta at which the command line states the guarantee as {@code (epsilon, delta)}-DP (the
 *       total delta when an auxiliary (epsilon, delta)-DP step is composed in), and from which the defaults of
 *       Algorithm 4's delta and of the subsample-and-aggregate budget follow. A release states its guarantee at
 *       the delta it is run with ({@code Releases.run}, or the session's).</li>
 *   <li>{@code radius} R: the public covering radius; {@code clipToRadius} decides whether rows with
 *       {@code ||x|| > R} are clipped to R (the mechanism's definition) or rejected as input errors.</li>
 *   <li>{@code m}, {@code alpha}, {@code xi}: subsamplability size, accuracy and failure probability of spec §1.3
 *       ({@code m} null: {@code d}, the smallest size any dataset can be subsamplable at, since a subsample
 *       of fewer than d rows is singular).</li>
 *   <li>{@code minEigenvalue}: a public lower bound on {@code lambda_min(Sigma)}; null: estimated privately by
 *       Algorithm 4 with {@code (lambdaEpsilon, lambdaDelta)} on groups of {@code lambdaGroupSize} rows (default
 *       {@code 10d}).</li>
 *   <li>{@code noiseScaling}: {@link NoiseScaling}.</li>
 *   <li>{@code psdProjection}: also release the PSD projection of the estimate (post-processing).</li>
 *   <li>{@code extras}: named numeric options of individual (baseline) methods.</li>
 * </ul>
 */
public final class SecondMomentParams {

    /**
     * Default subsamplability size per dimension: {@code m = d}. No dataset is {@code (m, alpha, beta)}-subsamplable
     * with {@code m < d} (a subsample of fewer than d rows is singular), and the error grows with m (the leaf noise
     * is proportional to {@code kappa_leaf <= 640 m}); measured: n = 1e5, d = 100, condition number 1e4, rho = 0.5
     * gives a relative spectral error of 25 at m = d against 186 at m = 4d (docs/design/second-moment-defaults.md).
     */
    public static final int DEFAULT_M_PER_DIMENSION = 1;

    /** Default group size of Algorithm 4 per dimension: {@code 10d}, so that group minimum eigenvalues concentrate. */
    public static final int DEFAULT_LAMBDA_GROUP_PER_DIMENSION = 10;

    private final Zcdp budget;
    private final double delta;
    private final double radius;
    private final boolean clipToRadius;
    private final Integer m;
    private final double alpha;
    private final double xi;
    private final Double minEigenvalue;
    private final Double lambdaEpsilon;
    private final Double lambdaDelta;
    private final Integer lambdaGroupSize;
    private final NoiseScaling noiseScaling;
    private final boolean psdProjection;
    private final Map<String, Double> extras;

    private SecondMomentParams(Builder b) {
        this.budget = b.budget;
        this.delta = b.delta;
        this.radius = b.radius;
        this.clipToRadius = b.clipToRadius;
        this.m = b.m;
        this.alpha = b.alpha;
        this.xi = b.xi;
        this.minEigenvalue = b.minEigenvalue;
        this.lambdaEpsilon = b.lambdaEpsilon;
        this.lambdaDelta = b.lambdaDelta;
        this.lambdaGroupSize = b.lambdaGroupSize;
        this.noiseScaling = b.noiseScaling;
        this.psdProjection = b.psdProjection;
        this.extras = Collections.unmodifiableMap(new LinkedHashMap<>(b.extras));
    }

    /**
     * @return a builder with the defaults: delta 1e-6, clip to R, m = d, alpha 1/2, xi 0.1, no public lambda_min,
     *         levels noise scaling, no PSD projection; {@link Builder#budget} and {@link Builder#radius} are required
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the zCDP budget of the main mechanism */
    public Zcdp budget() {
        return budget;
    }

    /** @return rho of the zCDP budget of the main mechanism */
    public double rho() {
        return budget.rho();
    }

    /** @return whether the PSD projection is released too */
    public boolean psdProjection() {
        return psdProjection;
    }

    /** @return the delta of the stated (epsilon, delta) guarantee */
    public double delta() {
        return delta;
    }

    /** @return the public covering radius R */
    public double radius() {
        return radius;
    }

    /** @return true: rows longer than R are clipped; false: they are rejected */
    public boolean clipToRadius() {
        return clipToRadius;
    }

    /**
     * @param d the data dimension
     * @return the subsamplability size m (the explicit value, or {@code d})
     */
    public int m(int d) {
        return m != null ? m : Math.max(1, DEFAULT_M_PER_DIMENSION * d);
    }

    /** @return the explicit m, or null for the default */
    public Integer explicitM() {
        return m;
    }

    /** @return the subsampling accuracy alpha, in (0, 1/2] */
    public double alpha() {
        return alpha;
    }

    /** @return the failure probability xi of the accuracy statements (analysis only) */
    public double xi() {
        return xi;
    }

    /** @return the public lower bound on lambda_min(Sigma), or null (estimated privately) */
    public Double minEigenvalue() {
        return minEigenvalue;
    }

    /** @return Algorithm 4's epsilon, or null */
    public Double lambdaEpsilon() {
        return lambdaEpsilon;
    }

    /** @return Algorithm 4's delta (default {@code delta / 2} when lambdaEpsilon is set), or null */
    public Double lambdaDelta() {
        return lambdaDelta;
    }

    /**
     * @param d the data dimension
     * @return Algorithm 4's group size (the explicit value, or {@code 10d})
     */
    public int lambdaGroupSize(int d) {
        return lambdaGroupSize != null ? lambdaGroupSize : Math.max(1, DEFAULT_LAMBDA_GROUP_PER_DIMENSION * d);
    }

    /** @return the noise scaling of Algorithm 2 */
    public NoiseScaling noiseScaling() {
        return noiseScaling;
    }

    /**
     * The epsilon of the {@code (epsilon, delta)}-DP guarantee that {@code rho}-zCDP implies at {@link #delta()},
     * by the project's {@link org.dpgauss.privacy.ConversionPolicy} (CKS20): what an {@code (epsilon, delta)}-DP baseline
     * should spend to be compared at equal privacy.
     *
     * @return epsilon
     */
    public double equivalentEpsilon() {
        return org.dpgauss.privacy.ConversionPolicy.toApproxDp(budget, delta).epsilon();
    }

    /**
     * @param key the option name
     * @param defaultValue the value when absent
     * @return the named extra option of a method
     */
    public double extra(String key, double defaultValue) {
        Double v = extras.get(key);
        return v == null ? defaultValue : v;
    }

    /**
     * A 0/1 extra option (absent means 0).
     *
     * @param key the option name
     * @param meaningOfZero what 0 selects, for the error message
     * @param meaningOfOne what 1 selects, for the error message
     * @return whether the option is 1
     * @throws IllegalArgumentException when the value is neither 0 nor 1
     */
    public boolean extraFlag(String key, String meaningOfZero, String meaningOfOne) {
        double v = extra(key, 0);
        if (v != 0 && v != 1) {
            throw new IllegalArgumentException(key + "=" + v + " must be 0 (" + meaningOfZero + ") or 1 ("
                    + meaningOfOne + ")");
        }
        return v == 1;
    }

    /** @return all extra options (unmodifiable) */
    public Map<String, Double> extras() {
        return extras;
    }

    /** Builder; {@link #build()} validates. */
    public static final class Builder {
        private Zcdp budget;
        private Double radius;
        private double delta = 1e-6;
        private boolean clipToRadius = true;
        private Integer m;
        private double alpha = 0.5;
        private double xi = 0.1;
        private Double minEigenvalue;
        private Double lambdaEpsilon;
        private Double lambdaDelta;
        private Integer lambdaGroupSize;
        private NoiseScaling noiseScaling = NoiseScaling.LEVELS;
        private boolean psdProjection;
        private final Map<String, Double> extras = new LinkedHashMap<>();

        private Builder() {
        }

        /** @param v the zCDP budget of the main mechanism, rho &gt; 0 (required) @return this */
        public Builder budget(Zcdp v) {
            this.budget = java.util.Objects.requireNonNull(v, "budget");
            return this;
        }

        /** @param v the public covering radius R &gt; 0 (required) @return this */
        public Builder radius(double v) {
            this.radius = v;
            return this;
        }

        /** @param v also release the PSD projection of the estimate (post-processing) @return this */
        public Builder psdProjection(boolean v) {
            this.psdProjection = v;
            return this;
        }

        /** @param v delta in (0, 1) @return this */
        public Builder delta(double v) {
            this.delta = v;
            return this;
        }

        /** @param v true: clip rows to R; false: reject rows longer than R @return this */
        public Builder clipToRadius(boolean v) {
            this.clipToRadius = v;
            return this;
        }

        /** @param v m >= 1, or null for d @return this */
        public Builder m(Integer v) {
            this.m = v;
            return this;
        }

        /** @param v alpha in (0, 1/2] @return this */
        public Builder alpha(double v) {
            this.alpha = v;
            return this;
        }

        /** @param v xi in (0, 1) @return this */
        public Builder xi(double v) {
            this.xi = v;
            return this;
        }

        /** @param v public lower bound on lambda_min(Sigma), > 0, or null @return this */
        public Builder minEigenvalue(Double v) {
            this.minEigenvalue = v;
            return this;
        }

        /** @param epsilon Algorithm 4's epsilon @param delta its delta (null: delta/2) @return this */
        public Builder lambdaBudget(Double epsilon, Double delta) {
            this.lambdaEpsilon = epsilon;
            this.lambdaDelta = delta;
            return this;
        }

        /** @param v Algorithm 4's group size, or null for 10d @return this */
        public Builder lambdaGroupSize(Integer v) {
            this.lambdaGroupSize = v;
            return this;
        }

        /** @param v the noise scaling @return this */
        public Builder noiseScaling(NoiseScaling v) {
            this.noiseScaling = java.util.Objects.requireNonNull(v, "noiseScaling");
            return this;
        }

        /** @param key option name @param value finite value @return this */
        public Builder extra(String key, double value) {
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("extra option name is empty");
            }
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("extra option " + key + "=" + value + " must be finite");
            }
            extras.put(key, value);
            return this;
        }

        /** @return the validated parameters */
        public SecondMomentParams build() {
            if (budget == null) {
                throw new IllegalStateException("budget(Zcdp.of(rho)) is required: the zCDP budget of the release");
            }
            if (radius == null) {
                throw new IllegalStateException("radius(R) is required: the public covering radius of the rows");
            }
            double rho = budget.rho();
            if (!(rho > 0) || Double.isInfinite(rho)) {
                throw new IllegalArgumentException("rho=" + rho + " is outside (0, inf): the zCDP budget must be"
                        + " positive (zero needs infinite noise) and finite (infinite is no guarantee)");
            }
            if (!(radius > 0) || Double.isInfinite(radius)) {
                throw new IllegalArgumentException("radius R=" + radius + " is outside (0, inf): the covering"
                        + " radius bounds every row's L2 norm and sets the noise scale 4R^2/n");
            }
            if (!(delta > 0 && delta < 1)) {
                throw new IllegalArgumentException("delta=" + delta + " is outside (0, 1): converting zCDP to"
                        + " (epsilon, delta)-DP needs ln(1/delta) finite and delta < 1");
            }
            if (m != null && m < 1) {
                throw new IllegalArgumentException("m=" + m + " is outside [1, inf): the subsamplability size"
                        + " (spec §1.3) counts rows");
            }
            if (!(alpha > 0 && alpha <= 0.5)) {
                throw new IllegalArgumentException("alpha=" + alpha + " is outside (0, 1/2]: the analysis of"
                        + " Algorithm 1 (Thm 3.3, Lemma 3.9) assumes subsampling accuracy alpha <= 1/2");
            }
            if (!(xi > 0 && xi < 1)) {
                throw new IllegalArgumentException("xi=" + xi + " is outside (0, 1): it is a failure probability");
            }
            if (minEigenvalue != null) {
                if (!(minEigenvalue > 0) || Double.isInfinite(minEigenvalue)) {
                    throw new IllegalArgumentException("min eigenvalue=" + minEigenvalue + " is outside (0, inf):"
                            + " the public lower bound on lambda_min(Sigma) rescales the data so that Sigma >= I");
                }
                if (lambdaEpsilon != null) {
                    throw new IllegalArgumentException("a public min eigenvalue (" + minEigenvalue + ") and a"
                            + " private estimate (lambda epsilon=" + lambdaEpsilon + ") were both given: pass one");
                }
            }
            if (lambdaEpsilon != null) {
                if (!(lambdaEpsilon >= 0x1p-26 && lambdaEpsilon <= 0x1p16)) {
                    throw new IllegalArgumentException("lambda epsilon=" + lambdaEpsilon + " is outside [2^-26,"
                            + " 2^16]: Algorithm 4's stable histogram needs a positive, finite epsilon in the"
                            + " range of its exact discrete Laplace sampler");
                }
                if (lambdaDelta == null) {
                    lambdaDelta = delta / 2;
                }
                if (!(lambdaDelta > 0 && lambdaDelta < delta)) {
                    throw new IllegalArgumentException("lambda delta=" + lambdaDelta + " is outside (0, delta="
                            + delta + "): Algorithm 4's delta is part of the total delta, and the rest is needed to"
                            + " convert the zCDP part to (epsilon, delta)-DP");
                }
            } else if (lambdaDelta != null) {
                throw new IllegalArgumentException("lambda delta=" + lambdaDelta + " was given without lambda"
                        + " epsilon: Algorithm 4 needs both");
            }
            if (lambdaGroupSize != null && lambdaGroupSize < 1) {
                throw new IllegalArgumentException("lambda group size=" + lambdaGroupSize + " is outside [1, inf)");
            }
            return new SecondMomentParams(this);
        }
    }
}
