package org.dpgauss.bench.secondmoment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpgauss.secondmoment.NoiseScaling;
import org.dpgauss.secondmoment.RecursiveSecondMoment;
import org.dpgauss.secondmoment.SecondMomentMethods;
import org.dpgauss.secondmoment.SecondMomentParams;

/**
 * One entry of the comparison's {@code --methods} list: a registered method name, or a variant of {@code recursive}
 * with non-default public parameters, written {@code recursive[OPT,...]} where OPT is {@code m=d/K} (m = d/K,
 * rounded down, at least 1), {@code m=K} (a fixed m) or a noise scaling id ({@code tight}, {@code paper},
 * {@code levels}). Examples: {@code recursive[m=d/4]}, {@code recursive[tight]}, {@code recursive[m=d/4,tight]}.
 *
 * <p>Every variant is still a rho-zCDP mechanism: m and the noise scaling are public, data-independent inputs of the
 * level schedule, and {@code LevelSchedule} verifies the exact accounting (tight sensitivity plus floating-point and
 * grid slack) for every scaling before the guarantee is stated. A variant with m &lt; d gives up Thm 3.3's
 * m-subsamplability hypothesis, so the paper's accuracy bound does not apply to it. Immutable.
 */
final class MethodVariant {

    private final String label;
    private final String base;
    private final Integer mDivisor;
    private final Integer mFixed;
    private final NoiseScaling scaling;

    private MethodVariant(String label, String base, Integer mDivisor, Integer mFixed, NoiseScaling scaling) {
        this.label = label;
        this.base = base;
        this.mDivisor = mDivisor;
        this.mFixed = mFixed;
        this.scaling = scaling;
    }

    /**
     * @param label a registered method name or {@code recursive[...]}
     * @return the parsed entry
     */
    static MethodVariant parse(String label) {
        int open = label.indexOf('[');
        String base = open < 0 ? label : label.substring(0, open);
        if (!SecondMomentMethods.all().containsKey(base)) {
            throw new IllegalArgumentException("--methods: unknown method '" + base + "' in '" + label + "'; known: "
                    + SecondMomentMethods.all().keySet());
        }
        if (open < 0) {
            return new MethodVariant(label, base, null, null, null);
        }
        if (!label.endsWith("]") || !base.equals(RecursiveSecondMoment.NAME)) {
            throw new IllegalArgumentException("--methods: '" + label + "' is not a variant: only "
                    + RecursiveSecondMoment.NAME + "[m=d/K|m=K,tight|paper|levels] takes options");
        }
        Integer div = null;
        Integer fixed = null;
        NoiseScaling scaling = null;
        for (String opt : label.substring(open + 1, label.length() - 1).split(",")) {
            String o = opt.trim();
            if (o.startsWith("m=d/")) {
                div = positive(o.substring(4), label);
            } else if (o.startsWith("m=")) {
                fixed = positive(o.substring(2), label);
            } else {
                scaling = NoiseScaling.fromId(o);
            }
        }
        return new MethodVariant(label, base, div, fixed, scaling);
    }

    private static int positive(String text, String label) {
        int v;
        try {
            v = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--methods: '" + text + "' in '" + label + "' is not an integer");
        }
        if (v < 1) {
            throw new IllegalArgumentException("--methods: " + v + " in '" + label + "' is outside [1, inf)");
        }
        return v;
    }

    /** Splits a --methods list at the commas outside brackets. */
    static String[] splitList(String text) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            depth += c == '[' ? 1 : c == ']' ? -1 : 0;
            if (c == ',' && depth == 0) {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        out.add(text.substring(start));
        return out.toArray(new String[0]);
    }

    String label() {
        return label;
    }

    String base() {
        return base;
    }

    boolean isVariant() {
        return !label.equals(base);
    }

    /** @return the base method's position in the registry, the seed key (a variant replays its base's seeds) */
    int baseIndex() {
        return new ArrayList<>(SecondMomentMethods.all().keySet()).indexOf(base);
    }

    /** @param d dimension @return m for this variant, or null for the default */
    Integer m(int d) {
        return mDivisor != null ? Integer.valueOf(Math.max(1, d / mDivisor)) : mFixed;
    }

    /** @param d dimension @return true when m &lt; d, outside Thm 3.3's hypothesis for Gaussian-like data */
    boolean voidsAccuracyBound(int d) {
        Integer m = m(d);
        return m != null && m < d;
    }

    SecondMomentParams.Builder apply(SecondMomentParams.Builder b, int d) {
        if (m(d) != null) {
            b.m(m(d));
        }
        if (scaling != null) {
            b.noiseScaling(scaling);
        }
        return b;
    }

    /** @param d dimension @return the JSON description of the variant */
    Map<String, Object> describe(int d) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("baseMethod", base);
        v.put("m", m(d) != null ? m(d) : d);
        v.put("noiseScaling", scaling != null ? scaling.id() : NoiseScaling.LEVELS.id());
        v.put("privacy", "rho-zCDP, the same guarantee as the default: m and the noise scaling are public inputs of"
                + " the level schedule, whose exact accounting is verified for every scaling (rho_accounted <= rho)");
        v.put("accuracyBound", voidsAccuracyBound(d)
                ? "none: m < d gives up Thm 3.3's m-subsamplability hypothesis, so the paper's accuracy bound is void"
                : "Thm 3.3's hypothesis on m is kept (m >= d)");
        v.put("seeds", "the same data and noise seeds as the default recursive rows (seeded by the base method)");
        return v;
    }
}
