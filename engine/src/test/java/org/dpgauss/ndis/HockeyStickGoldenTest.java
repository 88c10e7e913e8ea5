package org.dpgauss.ndis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden values of delta_{X,Y}(eps): docs/references/ndis-values.md §1 (spec ndis §9.2), docs/references/reference-values.md
 * §2-4 (hockey stick, random projection, analytic Gaussian mechanism) in hockey-stick-golden.txt, and the independent mpmath values in dimension 3-6
 * (mixed-sign weights) in hockey-stick-mpmath.txt (script gen_ndis_golden.py next to it).
 */
class HockeyStickGoldenTest {

    private static final HockeyStickDivergence HSD = HockeyStickDivergence.cpu();

    static Stream<GoldenCases.Case> published() {
        return GoldenCases.load("hockey-stick-golden.txt").stream();
    }

    static Stream<GoldenCases.Case> mpmath() {
        List<GoldenCases.Case> cases = GoldenCases.load("hockey-stick-mpmath.txt");
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("published")
    void publishedValues(GoldenCases.Case c) {
        check(c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mpmath")
    void mpmathValues(GoldenCases.Case c) {
        check(c);
    }

    private static void check(GoldenCases.Case c) {
        DeltaEvaluation e = HSD.evaluate(c.x(), c.y(), c.epsilon());
        double err = Math.abs(e.delta() - c.expected());
        assertTrue(err <= c.tolerance(), () -> c.name() + " (" + c.source() + "): got " + e.delta() + " expected "
                + c.expected() + " |diff| " + err + " > tol " + c.tolerance() + " via " + e.method());
        // the reported error bound must cover the actual error (up to the reference's own precision)
        assertTrue(err <= e.absoluteErrorBound() + c.precision() + 1e-15 + 1e-9 * c.expected(),
                () -> c.name() + ": error " + err + " exceeds the reported bound " + e.absoluteErrorBound());
    }
}
