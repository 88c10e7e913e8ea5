package org.dpgauss.privacy.accounting;

import java.util.Objects;
import org.dpgauss.ndis.Gaussian;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.NeighbouringRelation;
import org.dpgauss.privacy.PrivacyGuarantee;
import org.dpgauss.privacy.Zcdp;

/**
 * One release made on the dataset, as the {@link PrivacyAccountant} composes it: a name, the neighbouring
 * relation its guarantee is stated under, and the guarantee in one of three forms. The form decides which
 * composition theorems apply, so state the most specific one that holds:
 * <ul>
 *   <li>{@link #gaussian}: a Gaussian mechanism {@code f(x) + N(0, sigma^2 I)} with L2 sensitivity
 *       {@code Delta} (or any {@code mu}-GDP mechanism, {@code mu = Delta/sigma}: one whose privacy profile is
 *       dominated by the Gaussian pair {@code N(0,1)}, {@code N(mu, 1)}). These compose <em>exactly</em>: the
 *       composition is the
 *       Gaussian mechanism with {@code tau = sqrt(sum (Delta_i / sigma_i)^2)}. Use it for continuous Gaussian
 *       noise; for the discrete Gaussian of {@code org.dpgauss.privacy.noise} state {@link #zcdp} (its exact
 *       zCDP is proven, CKS20 Thm. 14; its (epsilon, delta) profile is close to but not the same as the
 *       continuous one).</li>
 *   <li>{@link #gaussianPair}: a mechanism with Gaussian output given by a dominating pair of Gaussians
 *       {@code (P, Q)} (its output on a dataset and on the worst neighbour, e.g. an NDIS or projection
 *       mechanism, spec ndis); pairs compose exactly by stacking them block-diagonally, and the profile of the
 *       composition is {@code max(delta_{P,Q}, delta_{Q,P})} from {@code HockeyStickDivergence}.</li>
 *   <li>{@link #zcdp}: {@code rho}-zCDP; composes by adding rho.</li>
 *   <li>{@link #approxDp}: {@code (epsilon, delta)}-DP; composes by basic or advanced composition.</li>
 * </ul>
 * Immutable.
 */
public final class Release {

    /** The form of the guarantee. */
    public enum Kind {
        /** {@code (epsilon, delta)}-DP. */
        APPROX_DP,
        /** {@code rho}-zCDP. */
        ZCDP,
        /** A Gaussian mechanism with Mahalanobis distance {@code tau = Delta / sigma}. */
        GAUSSIAN,
        /** A Gaussian-output mechanism given by a dominating pair of Gaussians. */
        GAUSSIAN_PAIR
    }

    private final String name;
    private final NeighbouringRelation relation;
    private final Kind kind;
    private final ApproxDp approxDp; // APPROX_DP
    private final Zcdp zcdp;         // ZCDP, and the zCDP of a GAUSSIAN
    private final double tau;        // GAUSSIAN
    private final Gaussian onDataset;   // GAUSSIAN_PAIR
    private final Gaussian onNeighbour; // GAUSSIAN_PAIR

    private Release(String name, NeighbouringRelation relation, Kind kind, ApproxDp approxDp, Zcdp zcdp,
            double tau) {
        this(name, relation, kind, approxDp, zcdp, tau, null, null);
    }

    private Release(String name, NeighbouringRelation relation, Kind kind, ApproxDp approxDp, Zcdp zcdp,
            double tau, Gaussian onDataset, Gaussian onNeighbour) {
        this.name = checkName(name);
        this.relation = Objects.requireNonNull(relation, "relation");
        this.kind = kind;
        this.approxDp = approxDp;
        this.zcdp = zcdp;
        this.tau = tau;
        this.onDataset = onDataset;
        this.onNeighbour = onNeighbour;
    }

    /**
     * A Gaussian-output release given by a dominating pair {@code (P, Q) = (onDataset, onNeighbour)}.
     *
     * <p>Requirement (what makes the accountant's composition valid): for every ordered pair of neighbours
     * {@code (x, x')}, the hockey-stick divergence of {@code (M(x), M(x'))} is at most that of {@code (P, Q)} for
     * every epsilon (a dominating pair in the sense of Zhu, Dong &amp; Wang 2022) — or, for the same
     * {@code (x, x')}, at most that of {@code (Q, P)} for <em>every</em> recorded pair at once (e.g. all pairs
     * are the releases' outputs on one common worst-case pair of datasets). The accountant then bounds the
     * composition by the stacked pair, taking the maximum over its two orderings. A pair worked out for one
     * worst case {@code (x, x')} of an asymmetric mechanism (different covariances) need not dominate the
     * reverse direction {@code (x', x)} in another release's orientation; record such releases by their
     * {@code (epsilon, delta)} unless the requirement is known to hold.
     *
     * @param name a non-blank name
     * @param relation the neighbouring relation the pair is worst-case for
     * @param onDataset the output distribution on the dataset
     * @param onNeighbour the output distribution on the neighbour, same dimension
     * @return the release
     * @throws IllegalArgumentException if the dimensions differ
     */
    public static Release gaussianPair(String name, NeighbouringRelation relation, Gaussian onDataset,
            Gaussian onNeighbour) {
        Objects.requireNonNull(onDataset, "onDataset");
        Objects.requireNonNull(onNeighbour, "onNeighbour");
        if (onDataset.dimension() != onNeighbour.dimension()) {
            throw new IllegalArgumentException("release '" + name + "': the pair's dimensions differ ("
                    + onDataset.dimension() + " vs " + onNeighbour.dimension() + "): both are the output"
                    + " distribution of the same mechanism");
        }
        return new Release(name, relation, Kind.GAUSSIAN_PAIR, null, null, Double.NaN, onDataset, onNeighbour);
    }

    /**
     * @param name a non-blank name for the log and error messages
     * @param relation the neighbouring relation the guarantee holds under
     * @param guarantee the {@code (epsilon, delta)}-DP guarantee
     * @return the release
     */
    public static Release approxDp(String name, NeighbouringRelation relation, ApproxDp guarantee) {
        return new Release(name, relation, Kind.APPROX_DP, Objects.requireNonNull(guarantee, "guarantee"), null,
                Double.NaN);
    }

    /**
     * @param name a non-blank name for the log and error messages
     * @param relation the neighbouring relation the guarantee holds under
     * @param guarantee the zCDP guarantee
     * @return the release
     */
    public static Release zcdp(String name, NeighbouringRelation relation, Zcdp guarantee) {
        return new Release(name, relation, Kind.ZCDP, null, Objects.requireNonNull(guarantee, "guarantee"),
                Double.NaN);
    }

    /**
     * A Gaussian mechanism release.
     *
     * @param name a non-blank name for the log and error messages
     * @param relation the neighbouring relation the sensitivity is computed under
     * @param l2Sensitivity the L2 sensitivity {@code Delta}, finite and {@code >= 0}
     * @param sigma the noise standard deviation, finite and {@code > 0}
     * @return the release, with {@code tau = Delta / sigma}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Release gaussian(String name, NeighbouringRelation relation, double l2Sensitivity, double sigma) {
        Zcdp rho = Zcdp.gaussianMechanism(l2Sensitivity, sigma); // validates both
        return new Release(name, relation, Kind.GAUSSIAN, null, rho, l2Sensitivity / sigma);
    }

    /**
     * The release of a mechanism that reports a {@link PrivacyGuarantee}: its zCDP if it has one, otherwise its
     * {@code (epsilon, delta)}-DP.
     *
     * @param name a non-blank name
     * @param guarantee the mechanism's guarantee
     * @return the release
     */
    public static Release of(String name, PrivacyGuarantee guarantee) {
        Objects.requireNonNull(guarantee, "guarantee");
        if (guarantee.zcdp().isPresent()) {
            return zcdp(name, guarantee.relation(), guarantee.zcdp().get());
        }
        return approxDp(name, guarantee.relation(), guarantee.approxDp().orElseThrow());
    }

    /** @return the name */
    public String name() {
        return name;
    }

    /** @return the neighbouring relation */
    public NeighbouringRelation relation() {
        return relation;
    }

    /** @return the form of the guarantee */
    public Kind kind() {
        return kind;
    }

    /** @return the {@code (epsilon, delta)} guarantee; only for {@link Kind#APPROX_DP} */
    public ApproxDp approxDp() {
        if (kind != Kind.APPROX_DP) {
            throw new IllegalStateException("release '" + name + "' is " + kind + ", not APPROX_DP");
        }
        return approxDp;
    }

    /** @return the zCDP guarantee; for {@link Kind#ZCDP} and {@link Kind#GAUSSIAN} ({@code tau^2 / 2}) */
    public Zcdp zcdp() {
        if (kind != Kind.ZCDP && kind != Kind.GAUSSIAN) {
            throw new IllegalStateException("release '" + name + "' is " + kind + " and has no zCDP guarantee");
        }
        return zcdp;
    }

    /** @return the output distribution on the dataset; only for {@link Kind#GAUSSIAN_PAIR} */
    public Gaussian onDataset() {
        checkPair();
        return onDataset;
    }

    /** @return the output distribution on the neighbour; only for {@link Kind#GAUSSIAN_PAIR} */
    public Gaussian onNeighbour() {
        checkPair();
        return onNeighbour;
    }

    private void checkPair() {
        if (kind != Kind.GAUSSIAN_PAIR) {
            throw new IllegalStateException("release '" + name + "' is " + kind + ", not GAUSSIAN_PAIR");
        }
    }

    /** @return {@code tau = Delta / sigma}; only for {@link Kind#GAUSSIAN} */
    public double tau() {
        if (kind != Kind.GAUSSIAN) {
            throw new IllegalStateException("release '" + name + "' is " + kind + ", not GAUSSIAN");
        }
        return tau;
    }

    /** @return the guarantee in words, e.g. {@code Gaussian mechanism tau=0.5} */
    public String describeGuarantee() {
        switch (kind) {
            case APPROX_DP:
                return approxDp.toString();
            case ZCDP:
                return zcdp.toString();
            case GAUSSIAN_PAIR:
                return "Gaussian pair of dimension " + onDataset.dimension();
            default:
                return "Gaussian mechanism tau=Delta/sigma=" + tau + " " + zcdp;
        }
    }

    @Override
    public String toString() {
        return "'" + name + "' " + describeGuarantee() + " [" + relation.id() + "]";
    }

    private static String checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("release name '" + name + "' is blank: releases are logged and"
                    + " refused by name");
        }
        return name.strip();
    }
}
