package org.dpgauss.mean.anisotropic;

import org.dpgauss.privacy.ApproxDp;
import java.util.Locale;
import java.util.Objects;

/**
 * The two known-covariance estimators of spec anisotropic-mean-estimation §3.2, as the CLI's
 * {@code mean --method anisotropic|folklore} should select them: both are Algorithm 1 with the provable
 * calibration under replace-one neighbours (n public); they differ only in M and lambda.
 * <ul>
 *   <li>{@link #ANISOTROPIC}: {@code M = Sigma}, {@code lambda = sqrt(2 tr Sigma^{1/2}) + 2 sqrt(2 ||Sigma||^{1/2}
 *       log(n/beta))}; privacy error about {@code tr(Sigma^{1/2}) / (epsilon n)} (Thm 1.2);</li>
 *   <li>{@link #FOLKLORE}: {@code M = I}, {@code lambda = sqrt(2 tr Sigma) + 2 sqrt(2 ||Sigma|| log(n/beta))};
 *       privacy error about {@code sqrt(d tr Sigma) / (epsilon n)} (baseline B1, §10).</li>
 * </ul>
 */
public enum AnisotropicMethod {

    /** Known covariance, {@code M = Sigma} (the paper's estimator). */
    ANISOTROPIC("anisotropic") {
        @Override
        public RescaledAveraging estimator(ShapeMatrix sigma, int n, double beta, ApproxDp target) {
        double epsilon = Objects.requireNonNull(target, "target (epsilon, delta)").epsilon();
        double delta = target.delta();
            return RescaledAveraging.knownCovariance(Objects.requireNonNull(sigma, "Sigma"), n, beta, ApproxDp.of(epsilon, delta));
        }
    },

    /** Folklore, {@code M = I} with lambda from {@code tr Sigma} and {@code ||Sigma||_2}. */
    FOLKLORE("folklore") {
        @Override
        public RescaledAveraging estimator(ShapeMatrix sigma, int n, double beta, ApproxDp target) {
            Objects.requireNonNull(sigma, "Sigma");
            return RescaledAveraging.folklore(sigma.dimension(), sigma.tracePower(1.0), sigma.normPower(1.0), n, beta,
                    target);
        }
    };

    private final String id;

    AnisotropicMethod(String id) {
        this.id = id;
    }

    /** @return the command-line identifier */
    public String id() {
        return id;
    }

    /**
     * The estimator for a public covariance proxy Sigma (PD; pass {@link ShapeMatrix#diagonal} for a diagonal one).
     *
     * @param sigma the known covariance proxy
     * @param n the public number of rows
     * @param beta the accuracy failure probability of the lambda rule, in {@code (0, 1)} (e.g. 0.01)
     * @param target the target (epsilon*, delta*): epsilon* (replace-one), in {@code (0, 21)}
     *        (delta: the target delta*, in {@code (0, 1)})
     * @return the provable estimator; call {@link RescaledAveraging#release}
     */
    public abstract RescaledAveraging estimator(ShapeMatrix sigma, int n, double beta, ApproxDp target);

    /**
     * @param text {@code anisotropic} or {@code folklore} (case-insensitive)
     * @return the method
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static AnisotropicMethod fromId(String text) {
        Objects.requireNonNull(text, "method");
        for (AnisotropicMethod m : values()) {
            if (m.id.equals(text.strip().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new IllegalArgumentException("method=" + text + " is not one of anisotropic, folklore: the known-covariance"
                + " estimators of spec anisotropic-mean-estimation §3.2");
    }
}
