package org.dpgauss.release;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/**
 * An a-priori accuracy statement of a release, computed from public quantities only (so it is free to publish):
 * the metric the method is judged by, the expected error, a bound that the error exceeds with probability at most
 * {@code 1 - probability}, and the assumptions under which both hold. Immutable.
 */
public final class Accuracy {

    private final String metric;
    private final double expected;
    private final double bound;
    private final double probability;
    private final String assumptions;
    private final List<Unit> units;
    private final String expectedBasis; // empty: the expected value is an expectation for every input assumed

    private Accuracy(String metric, double expected, double bound, double probability, String assumptions,
            List<Unit> units) {
        this(metric, expected, bound, probability, assumptions, units, "");
    }

    private Accuracy(String metric, double expected, double bound, double probability, String assumptions,
            List<Unit> units, String expectedBasis) {
        this.expectedBasis = expectedBasis;
        this.metric = metric;
        this.expected = expected;
        this.bound = bound;
        this.probability = probability;
        this.assumptions = assumptions;
        this.units = List.copyOf(units);
    }

    /**
     * The same statement in another public unit: the error divided by {@code value}. For a public upper bound on the
     * error's natural scale (e.g. {@code R^2} for a second moment) it is the error in those units; for a public lower
     * bound on a private scale (e.g. on {@code ||S||_2}) the quotients bound the error relative to that scale from
     * above. Immutable.
     */
    public static final class Unit {
        private final String name;
        private final double value;

        private Unit(String name, double value) {
            this.name = name;
            this.value = value;
        }

        /** @return the unit in words, e.g. {@code R^2} */
        public String name() {
            return name;
        }

        /** @return its value in the metric's units */
        public double value() {
            return value;
        }
    }

    /**
     * @param metric what is measured, e.g. {@code L2 distance to the mean of the rows}
     * @param expected the expected error, finite and {@code >= 0}
     * @param bound the error bound, finite and {@code >= expected}... or at least {@code >= 0}
     * @param probability the probability that the error is at most {@code bound}, in {@code (0, 1)}
     * @param assumptions under which the statement holds (public words), may be empty
     * @return the statement
     */
    public static Accuracy of(String metric, double expected, double bound, double probability, String assumptions) {
        Objects.requireNonNull(metric, "metric");
        if (!(expected >= 0) || !(bound >= 0) || Double.isInfinite(expected) || Double.isInfinite(bound)) {
            throw new IllegalArgumentException("expected=" + expected + " and bound=" + bound
                    + " must be finite and >= 0");
        }
        if (!(probability > 0 && probability < 1)) {
            throw new IllegalArgumentException("probability=" + probability + " is outside (0, 1)");
        }
        return new Accuracy(metric.strip(), expected, bound, probability,
                assumptions == null ? "" : assumptions.strip(), List.of());
    }

    /**
     * @param unit the unit in words (public), e.g. {@code R^2 (R = 1, the public row-norm bound)}
     * @param value its value in this statement's metric units, finite and {@code > 0}
     * @return this statement also expressed in {@code unit} (expected and bound divided by {@code value})
     */
    public Accuracy alsoIn(String unit, double value) {
        Objects.requireNonNull(unit, "unit");
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("the unit's value " + value + " must be finite and > 0");
        }
        List<Unit> u = new ArrayList<>(units);
        u.add(new Unit(unit.strip(), value));
        return new Accuracy(metric, expected, bound, probability, assumptions, u, expectedBasis);
    }

    /**
     * Marks the expected value as a <b>scenario</b>, not an expectation for the data at hand (issue 26 item 0,
     * issue 29): where the error depends on a private quantity (e.g. the true second moment), the expected value
     * is computed for a public scenario of it and may be far from this data's error in either direction; only the
     * bound is a statement about every input meeting the assumptions.
     *
     * @param scenario the scenario in public words, e.g. {@code rows with S = s I, s = 0.1}
     * @return a copy whose {@link #toMap} has {@code expectedBasis} = {@code "scenario: ..."}
     */
    public Accuracy expectedForScenario(String scenario) {
        Objects.requireNonNull(scenario, "scenario");
        return new Accuracy(metric, expected, bound, probability, assumptions, units,
                SCENARIO + scenario.strip());
    }

    /**
     * The expected value computed <b>from the release itself</b> (issue 26 item 0, issue 29): where the error
     * depends on a private quantity that the released values estimate (e.g. the true second moment, which the
     * released one estimates), the expected error is a public function of the released values and public
     * parameters: post-processing, part of the release, at no privacy cost. It is an estimate of the expected error
     * for the data at hand (not a scenario), with its own accuracy stated in {@code how}; the bound, stated before
     * the data were read, is unchanged.
     *
     * @param expected the expected error computed from the released values, finite and {@code >= 0}
     * @param how how it is computed and how accurate it is (public words)
     * @return a copy with that expected value, whose {@link #toMap} has {@code expectedBasis} = {@code "release:
     *     ..."}
     */
    public Accuracy expectedFromRelease(double expected, String how) {
        Objects.requireNonNull(how, "how");
        if (!(expected >= 0) || Double.isInfinite(expected)) {
            throw new IllegalArgumentException("expected=" + expected + " must be finite and >= 0");
        }
        return new Accuracy(metric, expected, bound, probability, assumptions, units, RELEASE + how.strip());
    }

    private static final String SCENARIO = "scenario: ";
    private static final String RELEASE = "release: ";

    /**
     * @return how to read {@link #expected()}: empty when it is the expected error for every input meeting the
     *     assumptions, computed before the data were read; {@code "release: ..."} when it is computed from the
     *     released values (see {@link #expectedFromRelease}); {@code "scenario: ..."} when it is the expected error
     *     of a public scenario only (see {@link #expectedForScenario}), in which case only {@link #bound()} covers the
     *     data at hand
     */
    public String expectedBasis() {
        return expectedBasis;
    }

    /** @return whether {@link #expected()} holds for a public scenario only (see {@link #expectedForScenario}) */
    public boolean isScenario() {
        return expectedBasis.startsWith(SCENARIO);
    }

    /** @return whether {@link #expected()} was computed from the released values (see {@link #expectedFromRelease}) */
    public boolean isFromRelease() {
        return expectedBasis.startsWith(RELEASE);
    }

    /** @return the other units this statement is also given in (see {@link #alsoIn}); empty if none */
    public List<Unit> units() {
        return units;
    }

    /**
     * The L2 norm of isotropic Gaussian noise {@code N(0, sigma^2 I_d)}: expected value
     * {@code sigma sqrt(2) Gamma((d+1)/2) / Gamma(d/2)} (the mean of the chi distribution) and the bound
     * {@code sigma sqrt(q)} with {@code q} the {@code probability} quantile of chi-square with d degrees of
     * freedom. Exact for the continuous Gaussian; the discrete Gaussian on a grid of spacing {@code <= 2^-20 sigma}
     * differs negligibly.
     *
     * @param metric the metric's words
     * @param sigma the per-coordinate standard deviation
     * @param d the dimension
     * @param probability the bound's probability
     * @param assumptions the assumptions (public words)
     * @return the statement
     */
    public static Accuracy isotropicGaussianL2(String metric, double sigma, int d, double probability,
            String assumptions) {
        if (d < 1) {
            throw new IllegalArgumentException("d=" + d + " must be >= 1");
        }
        double logRatio = LogGamma.value((d + 1) / 2.0) - LogGamma.value(d / 2.0);
        double expected = sigma * Math.sqrt(2) * Math.exp(logRatio);
        double q = ChiSquaredDistribution.of(d).inverseCumulativeProbability(probability);
        return of(metric, expected, sigma * Math.sqrt(q), probability, assumptions);
    }

    /** @return what is measured */
    public String metric() {
        return metric;
    }

    /** @return the expected error */
    public double expected() {
        return expected;
    }

    /** @return the error bound */
    public double bound() {
        return bound;
    }

    /** @return the probability that the error is at most {@link #bound()} */
    public double probability() {
        return probability;
    }

    /** @return the assumptions; empty if none */
    public String assumptions() {
        return assumptions;
    }

    /**
     * @return a fresh JSON-ready map: metric, expected, bound, probability, {@code expectedBasis} (only for a
     *     scenario or a value computed from the release, see {@link #expectedForScenario} and
     *     {@link #expectedFromRelease}), assumptions (if any) and {@code alsoIn}
     *     (if any: a list of {@code unit}, {@code value}, {@code expected}, {@code bound} in that unit)
     */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("metric", metric);
        m.put("expected", expected);
        m.put("bound", bound);
        m.put("probability", probability);
        if (!expectedBasis.isEmpty()) {
            m.put("expectedBasis", expectedBasis);
        }
        if (!assumptions.isEmpty()) {
            m.put("assumptions", assumptions);
        }
        if (!units.isEmpty()) {
            List<Map<String, Object>> list = new ArrayList<>();
            for (Unit u : units) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("unit", u.name);
                e.put("value", u.value);
                e.put("expected", expected / u.value);
                e.put("bound", bound / u.value);
                list.add(e);
            }
            m.put("alsoIn", list);
        }
        return m;
    }

    @Override
    public String toString() {
        return metric + ": expected " + expected + (expectedBasis.isEmpty() ? "" : " (" + expectedBasis + ")")
                + ", at most " + bound + " with probability " + probability
                + (assumptions.isEmpty() ? "" : " (" + assumptions + ")");
    }
}
