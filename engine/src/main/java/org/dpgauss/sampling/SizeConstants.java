package org.dpgauss.sampling;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * User-supplied sizes that override the certified recipe of spec §2.2 ({@code --constants}). Either the paper's
 * constants {@code C1, C2} of {@code n1 = ceil(C1 sqrt(lambda0) ln(1/delta)/eps)} and
 * {@code n2 = ceil(C2 lambda0 ln(1/delta)/eps)} (spec §2.1), or the part sizes {@code n1, n2} themselves. Runs with
 * overridden sizes carry <b>no formal DP guarantee</b> (spec §2.2 "Consequence") and are reported as
 * {@code "certified": false}. Immutable.
 */
public final class SizeConstants {

    /** Which pair was given. */
    public enum Kind {
        /** {@code C1, C2}: sizes from the paper's formulas of spec §2.1. */
        PAPER_CONSTANTS,
        /** {@code n1, n2}: explicit part sizes. */
        PART_SIZES
    }

    private final Kind kind;
    private final double first;
    private final double second;

    private SizeConstants(Kind kind, double first, double second) {
        this.kind = kind;
        this.first = first;
        this.second = second;
    }

    /**
     * The paper's constants.
     *
     * @param c1 C1, finite and {@code > 0} (the paper asks {@code >= 1}; smaller values are allowed for experiments)
     * @param c2 C2, finite and {@code > 0}
     * @return the constants
     */
    public static SizeConstants paperConstants(double c1, double c2) {
        positive("C1", c1);
        positive("C2", c2);
        return new SizeConstants(Kind.PAPER_CONSTANTS, c1, c2);
    }

    /**
     * Explicit part sizes: the first {@code n1} rows feed StableMean, the next {@code 2 n2} rows StableCov; further
     * rows are ignored.
     *
     * @param n1 mean-part size, {@code >= 2}
     * @param n2 number of covariance pairs, {@code >= 2}
     * @return the sizes
     */
    public static SizeConstants partSizes(int n1, int n2) {
        if (n1 < 2) {
            throw new IllegalArgumentException("n1=" + n1 + " is outside [2, inf): the release scale sqrt(1 - 1/n1)"
                    + " needs at least two mean-part rows (spec §2.1)");
        }
        if (n2 < 2) {
            throw new IllegalArgumentException("n2=" + n2 + " is outside [2, inf): z must be a direction on the"
                    + " sphere S^{n2-1} with n2 > d (spec §3.1)");
        }
        return new SizeConstants(Kind.PART_SIZES, n1, n2);
    }

    /**
     * Parses the {@code --constants} value: {@code C1=a,C2=b} or {@code n1=a,n2=b} (keys in any case and order).
     *
     * @param text the option value
     * @return the constants
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static SizeConstants parse(String text) {
        String usage = "--constants=" + text + " is not understood: expected 'C1=a,C2=b' (the paper's constants of "
                + "spec §2.1, positive numbers) or 'n1=a,n2=b' (the part sizes, integers >= 2)";
        if (text == null) {
            throw new IllegalArgumentException(usage);
        }
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            String[] pair = part.split("=", -1);
            if (pair.length != 2 || pair[0].isBlank() || pair[1].isBlank()) {
                throw new IllegalArgumentException(usage);
            }
            String key = pair[0].strip().toLowerCase(Locale.ROOT);
            if (kv.put(key, pair[1].strip()) != null) {
                throw new IllegalArgumentException(usage + " (key " + key + " given twice)");
            }
        }
        try {
            if (kv.size() == 2 && kv.containsKey("c1") && kv.containsKey("c2")) {
                return paperConstants(Double.parseDouble(kv.get("c1")), Double.parseDouble(kv.get("c2")));
            }
            if (kv.size() == 2 && kv.containsKey("n1") && kv.containsKey("n2")) {
                return partSizes(Integer.parseInt(kv.get("n1")), Integer.parseInt(kv.get("n2")));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(usage + " (" + e.getMessage() + ")");
        }
        throw new IllegalArgumentException(usage);
    }

    /** @return which pair was given */
    public Kind kind() {
        return kind;
    }

    /** @return C1 or n1 */
    public double first() {
        return first;
    }

    /** @return C2 or n2 */
    public double second() {
        return second;
    }

    /** @return e.g. {@code C1=50.0,C2=20.0} or {@code n1=2000,n2=4000} */
    @Override
    public String toString() {
        return kind == Kind.PAPER_CONSTANTS ? "C1=" + first + ",C2=" + second
                : "n1=" + (long) first + ",n2=" + (long) second;
    }

    private static void positive(String name, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(name + "=" + v + " is outside (0, inf): the sizes n1, n2 of spec §2.1"
                    + " are positive multiples of it");
        }
    }
}
