package org.dpgauss.mechanism;

/**
 * A (Delta, rho_inf, nu) Loewner-comparable NDIS sensitivity at one noise level (spec ndis §6.5, Def. 5): for every
 * ordered neighbouring pair, the mean shift has (Mahalanobis) norm at most {@code meanSensitivity}, the
 * covariances are Loewner-comparable, and the log-eigenvalues {@code l_i} of their ratio satisfy
 * {@code max |l_i| <= rhoInf} and {@code |sum l_i| <= nu}.
 *
 * @param meanSensitivity Delta, finite and {@code >= 0}
 * @param rhoInf rho_inf, finite and {@code >= 0}
 * @param nu nu, finite and {@code >= 0}
 */
public record NdisSensitivity(double meanSensitivity, double rhoInf, double nu) {

    /** Validates the three bounds. */
    public NdisSensitivity {
        check("meanSensitivity", meanSensitivity);
        check("rhoInf", rhoInf);
        check("nu", nu);
    }

    private static void check(String name, double v) {
        if (!(v >= 0) || !Double.isFinite(v)) {
            throw new IllegalArgumentException(name + "=" + v + " is outside [0, inf): an NDIS sensitivity bound is "
                    + "a finite non-negative number (spec ndis §6.5 Def. 5)");
        }
    }
}
