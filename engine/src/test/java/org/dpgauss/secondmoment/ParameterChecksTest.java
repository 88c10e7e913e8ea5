package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dpgauss.privacy.Zcdp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The shared parameter rules, reached through each method's public factories, and their messages. */
class ParameterChecksTest {

    private static String message(Executable e) {
        return assertThrows(IllegalArgumentException.class, e).getMessage();
    }

    @Test
    void radiusAndScaleRules() {
        assertEquals("radius R=0.0 is outside (0, inf): it must be a finite positive number",
                message(() -> AnalyzeGauss.of(0, Zcdp.of(1))));
        assertEquals("prior scale u=1.0E200 is outside [1e-150, 1e150]: its square sets the noise scale and must be a"
                + " normal double; rescale the data by a public factor", message(() -> CoinPress.of(1e200, Zcdp.of(1))));
        assertEquals(3.0, ParameterChecks.radius("r", 3.0));
        assertEquals(1e150, ParameterChecks.radius("r", 1e150)); // the edge of the range is accepted
    }

    @Test
    void budgetRowsAndNormBound() {
        assertEquals("rho=0.0 is outside (0, inf): the zCDP budget must be finite and positive",
                message(() -> AnalyzeGauss.of(1, Zcdp.of(0))));
        assertEquals("n=0 rows: the data must have at least one row", message(() -> AnalyzeGauss.of(1, Zcdp.of(1))
                .sigma(0, 3)));
        String bound = "norm lower bound=-1.0 is outside (0, inf): it is a public lower bound on the spectral norm of"
                + " the rows' second moment";
        assertEquals(bound, message(() -> CoinPress.of(1, Zcdp.of(1)).withNormLowerBound(-1)));
        assertEquals(bound, message(() -> AnalyzeGauss.builder().normLowerBound(-1)));
    }

    @Test
    void wholeExtraOptions() {
        assertEquals("iterations=2.5 is not an integer in [1, 50]: CoinPress runs a whole number of preconditioning"
                + " steps", message(() -> CoinPress.fromParams(SecondMomentParams.builder().budget(Zcdp.of(1))
                        .radius(3).extra(CoinPress.EXTRA_ITERATIONS, 2.5).build())));
        assertEquals("iterations=51.0 is not an integer in [1, 50]: CoinPress runs a whole number of preconditioning"
                + " steps", message(() -> CoinPress.fromParams(SecondMomentParams.builder().budget(Zcdp.of(1))
                        .radius(3).extra(CoinPress.EXTRA_ITERATIONS, 51).build())));
        assertEquals("group-size=0.0 is not an integer in [1, n]: it counts the rows of each group",
                message(() -> SubsampleAndAggregate.fromParams(SecondMomentParams.builder().budget(Zcdp.of(1))
                        .radius(3).extra(SubsampleAndAggregate.EXTRA_GROUP_SIZE, 0).build())));
        assertEquals(50, ParameterChecks.wholeExtra("k", 50, 50, "[1, 50]", "why"));
    }
}
