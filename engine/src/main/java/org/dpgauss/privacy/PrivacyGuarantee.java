package org.dpgauss.privacy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A privacy claim as reported to the user: the neighbouring relation it is stated under, the guarantee itself
 * (either {@code (epsilon, delta)}-DP, or {@code rho}-zCDP optionally with the {@code (epsilon, delta)}-DP it
 * implies), whether it is {@code certified} and free-text notes.
 *
 * <p>{@code certified} records whether the claim follows from the accounting of an implementation whose
 * assumptions hold (for example data clipped to the stated bound and noise from a secure {@link RandomSource}).
 * An uncertified claim is what the mechanism would give under those assumptions, e.g. a run with
 * {@code --insecure-seed}, and must be presented as such.
 *
 * <p>{@code conversion} names how the stated {@code (epsilon, delta)} was obtained when it is not the
 * mechanism's native form (the project's {@link ConversionPolicy} for zCDP, or a composition of sub-steps by the
 * accountant); it is empty otherwise. This class does not re-derive or check a supplied implied
 * {@code (epsilon, delta)}. Use {@link #zcdp(NeighbouringRelation, Zcdp, double, boolean, String)} to derive it
 * with the {@link ConversionPolicy}. Instances are immutable.
 */
public final class PrivacyGuarantee {

    /** JSON {@code type} of an {@code (epsilon, delta)}-DP guarantee. */
    public static final String TYPE_APPROX_DP = "approxDP";
    /** JSON {@code type} of a zCDP guarantee. */
    public static final String TYPE_ZCDP = "zCDP";

    private final NeighbouringRelation relation;
    private final Zcdp zcdp;         // null for an (epsilon, delta)-DP guarantee
    private final ApproxDp approxDp; // the guarantee itself, or the implied one for zCDP (may then be null)
    private final boolean certified;
    private final String notes;
    private final String conversion;

    private PrivacyGuarantee(NeighbouringRelation relation, Zcdp zcdp, ApproxDp approxDp, boolean certified,
            String notes) {
        this(relation, zcdp, approxDp, certified, notes, "");
    }

    private PrivacyGuarantee(NeighbouringRelation relation, Zcdp zcdp, ApproxDp approxDp, boolean certified,
            String notes, String conversion) {
        this.relation = Objects.requireNonNull(relation, "relation");
        this.zcdp = zcdp;
        this.approxDp = approxDp;
        this.certified = certified;
        this.notes = notes == null ? "" : notes.strip();
        this.conversion = conversion == null ? "" : conversion.strip();
    }

    /**
     * An {@code (epsilon, delta)}-DP guarantee obtained by a named conversion or composition (for example the
     * accountant's composition of a mechanism's sub-steps).
     *
     * @param relation the neighbouring relation, not null
     * @param guarantee the guarantee, not null
     * @param certified whether the claim is certified (see class comment)
     * @param notes free text, may be null
     * @param conversion how the guarantee was derived, may be null
     * @return the guarantee
     */
    public static PrivacyGuarantee approxDp(NeighbouringRelation relation, ApproxDp guarantee, boolean certified,
            String notes, String conversion) {
        return new PrivacyGuarantee(relation, null, Objects.requireNonNull(guarantee, "guarantee"), certified,
                notes, conversion);
    }

    /**
     * This guarantee with {@code certified} and-ed with {@code stillCertified}, and {@code reason} appended to the
     * notes when that withdraws the certification. The one place where a run's circumstances (such as an
     * insecure random source) withdraw a recipe's certification ({@code org.dpgauss.release.Releases}).
     *
     * @param stillCertified false to withdraw the certification
     * @param reason why, shown in the notes; may be null when {@code stillCertified}
     * @return the guarantee
     */
    public PrivacyGuarantee certifiedOnlyIf(boolean stillCertified, String reason) {
        if (stillCertified || !certified && notes.contains(String.valueOf(reason))) {
            return this;
        }
        String n = reason == null || reason.isBlank() ? notes : (notes.isEmpty() ? reason : notes + "; " + reason);
        return new PrivacyGuarantee(relation, zcdp, approxDp, false, n, conversion);
    }

    /**
     * An {@code (epsilon, delta)}-DP guarantee.
     *
     * @param relation the neighbouring relation, not null
     * @param guarantee the guarantee, not null
     * @param certified whether the claim is certified (see class comment)
     * @param notes free text, may be null (stored as empty)
     * @return the guarantee
     */
    public static PrivacyGuarantee approxDp(NeighbouringRelation relation, ApproxDp guarantee, boolean certified,
            String notes) {
        return new PrivacyGuarantee(relation, null, Objects.requireNonNull(guarantee, "guarantee"), certified,
                notes);
    }

    /**
     * A zCDP guarantee, with an optional implied {@code (epsilon, delta)}-DP guarantee.
     *
     * @param relation the neighbouring relation, not null
     * @param guarantee the zCDP guarantee, not null
     * @param implied the {@code (epsilon, delta)}-DP it implies, or null if none is reported
     * @param certified whether the claim is certified (see class comment)
     * @param notes free text, may be null (stored as empty)
     * @return the guarantee
     */
    public static PrivacyGuarantee zcdp(NeighbouringRelation relation, Zcdp guarantee, ApproxDp implied,
            boolean certified, String notes) {
        return new PrivacyGuarantee(relation, Objects.requireNonNull(guarantee, "guarantee"), implied, certified,
                notes);
    }

    /**
     * A zCDP guarantee with its implied {@code (epsilon, delta)}-DP derived by the project's
     * {@link ConversionPolicy} (CKS20 Cor. 13), which the guarantee names.
     *
     * @param relation the neighbouring relation, not null
     * @param guarantee the zCDP guarantee, not null
     * @param delta the delta to convert at, in {@code (0, 1)}
     * @param certified whether the claim is certified (see class comment)
     * @param notes free text, may be null (stored as empty)
     * @return the guarantee
     */
    public static PrivacyGuarantee zcdp(NeighbouringRelation relation, Zcdp guarantee, double delta,
            boolean certified, String notes) {
        Objects.requireNonNull(guarantee, "guarantee");
        return new PrivacyGuarantee(relation, guarantee, ConversionPolicy.toApproxDp(guarantee, delta), certified,
                notes, ConversionPolicy.NAME);
    }

    /** @return the neighbouring relation the guarantee is stated under */
    public NeighbouringRelation relation() {
        return relation;
    }

    /** @return {@value #TYPE_ZCDP} or {@value #TYPE_APPROX_DP} */
    public String type() {
        return zcdp != null ? TYPE_ZCDP : TYPE_APPROX_DP;
    }

    /** @return whether the primary guarantee is zCDP */
    public boolean isZcdp() {
        return zcdp != null;
    }

    /** @return the zCDP guarantee, empty for an {@code (epsilon, delta)}-DP guarantee */
    public Optional<Zcdp> zcdp() {
        return Optional.ofNullable(zcdp);
    }

    /**
     * @return the {@code (epsilon, delta)}-DP guarantee: the guarantee itself for type {@value #TYPE_APPROX_DP},
     *         the implied one (possibly empty) for {@value #TYPE_ZCDP}
     */
    public Optional<ApproxDp> approxDp() {
        return Optional.ofNullable(approxDp);
    }

    /** @return whether the claim is certified (see class comment) */
    public boolean certified() {
        return certified;
    }

    /** @return how the stated {@code (epsilon, delta)} was derived (conversion or composition); empty if native */
    public String conversion() {
        return conversion;
    }

    /** @return the notes, stripped; empty if none */
    public String notes() {
        return notes;
    }

    /**
     * A JSON-ready map with a fixed key order, e.g.
     * {@code {"relation":"replace-one","type":"zCDP","rho":0.5,"epsilon":5.75...,"delta":1e-06,"certified":true}}.
     * {@code rho} appears only for zCDP, {@code epsilon}/{@code delta} only when an {@code (epsilon, delta)}
     * guarantee is present, {@code notes} only when non-empty. Values are {@link String}, {@link Double} and
     * {@link Boolean}. The map is a fresh mutable copy.
     *
     * @return the map
     */
    public Map<String, Object> toMap() {
        LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        m.put("relation", relation.id());
        m.put("type", type());
        if (zcdp != null) {
            m.put("rho", zcdp.rho());
        }
        if (approxDp != null) {
            m.put("epsilon", approxDp.epsilon());
            m.put("delta", approxDp.delta());
        }
        if (!conversion.isEmpty()) {
            m.put("conversion", conversion);
        }
        m.put("certified", certified);
        if (!notes.isEmpty()) {
            m.put("notes", notes);
        }
        return m;
    }

    /**
     * One line for human output, e.g.
     * {@code (rho=0.5)-zCDP, implying (eps=5.756521769756932, delta=1e-06)-DP, under replace-one neighbours; certified}.
     *
     * @return the description, without line breaks
     */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        if (zcdp != null) {
            sb.append(zcdp);
            if (approxDp != null) {
                sb.append(", implying ").append(approxDp);
            }
        } else {
            sb.append(approxDp);
        }
        sb.append(", under ").append(relation.id()).append(" neighbours; ")
                .append(certified ? "certified" : "NOT certified");
        if (!notes.isEmpty()) {
            sb.append(" (").append(notes.replaceAll("\\s+", " ")).append(')');
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PrivacyGuarantee)) {
            return false;
        }
        PrivacyGuarantee that = (PrivacyGuarantee) o;
        return relation == that.relation && Objects.equals(zcdp, that.zcdp)
                && Objects.equals(approxDp, that.approxDp) && certified == that.certified
                && notes.equals(that.notes) && conversion.equals(that.conversion);
    }

    @Override
    public int hashCode() {
        return Objects.hash(relation, zcdp, approxDp, certified, notes, conversion);
    }

    @Override
    public String toString() {
        return describe();
    }
}
