package org.dpgauss.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ApproxDpTest {

    private static String message(double epsilon, double delta) {
        return assertThrows(IllegalArgumentException.class, () -> ApproxDp.of(epsilon, delta)).getMessage();
    }

    @Test
    void rejectsNegativeEpsilonNamingParameterValueAndRange() {
        assertEquals("epsilon=-1.0 is outside [0, inf): a privacy loss cannot be negative", message(-1.0, 0.0));
        assertEquals("epsilon=-4.9E-324 is outside [0, inf): a privacy loss cannot be negative",
                message(-Double.MIN_VALUE, 0.0));
    }

    @Test
    void rejectsNanAndInfiniteEpsilon() {
        assertEquals("epsilon=NaN is not a number: a privacy loss must be a finite value in [0, inf)",
                message(Double.NaN, 1e-6));
        assertEquals("epsilon=Infinity is outside [0, inf): an infinite privacy loss gives no guarantee",
                message(Double.POSITIVE_INFINITY, 1e-6));
        assertEquals("epsilon=-Infinity is outside [0, inf): a privacy loss cannot be negative",
                message(Double.NEGATIVE_INFINITY, 1e-6));
    }

    @Test
    void rejectsBadDelta() {
        assertEquals("delta=-0.1 is outside [0, 1): a probability cannot be negative", message(1.0, -0.1));
        assertEquals("delta=1.0 is outside [0, 1): delta >= 1 gives no guarantee", message(1.0, 1.0));
        assertEquals("delta=2.0 is outside [0, 1): delta >= 1 gives no guarantee", message(1.0, 2.0));
        assertEquals("delta=Infinity is outside [0, 1): delta >= 1 gives no guarantee",
                message(1.0, Double.POSITIVE_INFINITY));
        assertEquals("delta=NaN is not a number: delta must be a probability in [0, 1)", message(1.0, Double.NaN));
    }

    @Test
    void acceptsBoundaryValues() {
        ApproxDp pure = ApproxDp.of(0.0, 0.0);
        assertEquals(0.0, pure.epsilon());
        assertEquals(0.0, pure.delta());
        assertEquals(ApproxDp.ZERO, pure);
        ApproxDp nearOne = ApproxDp.of(Double.MAX_VALUE, Math.nextDown(1.0));
        assertEquals(Double.MAX_VALUE, nearOne.epsilon());
        assertEquals(Math.nextDown(1.0), nearOne.delta());
    }

    @Test
    void negativeZeroIsNormalised() {
        ApproxDp a = ApproxDp.of(-0.0, -0.0);
        assertEquals(ApproxDp.of(0.0, 0.0), a);
        assertEquals(ApproxDp.of(0.0, 0.0).hashCode(), a.hashCode());
        assertEquals("(eps=0.0, delta=0.0)-DP", a.toString());
    }

    @Test
    void toStringUsesPythonStyleNumbers() {
        assertEquals("(eps=1.0, delta=1e-06)-DP", ApproxDp.of(1.0, 1e-6).toString());
        assertEquals("(eps=0.5, delta=0.0001)-DP", ApproxDp.of(0.5, 1e-4).toString());
        assertEquals("(eps=2.25, delta=1.5e-05)-DP", ApproxDp.of(2.25, 1.5e-5).toString());
    }

    @Test
    void formatMatchesPythonRepr() {
        // Expected strings are Python 3 repr() of the same doubles.
        assertEquals("1.0", ApproxDp.format(1.0));
        assertEquals("123.0", ApproxDp.format(123.0));
        assertEquals("0.1", ApproxDp.format(0.1));
        assertEquals("0.0001", ApproxDp.format(1e-4));
        assertEquals("1e-05", ApproxDp.format(1e-5));
        assertEquals("1e-300", ApproxDp.format(1e-300));
        assertEquals("1e+16", ApproxDp.format(1e16));
        assertEquals("1234567890123456.0", ApproxDp.format(1234567890123456.0));
        assertEquals("1.5e+20", ApproxDp.format(1.5e20));
        assertEquals("-2.5e-07", ApproxDp.format(-2.5e-7));
        assertEquals("5.756521769756931", ApproxDp.format(5.7565217697569315)); // Python: same shortest repr
        assertEquals("inf", ApproxDp.format(Double.POSITIVE_INFINITY));
        assertEquals("nan", ApproxDp.format(Double.NaN));
    }

    @Test
    void basicCompositionAddsBothParameters() {
        ApproxDp c = ApproxDp.of(1.0, 1e-6).plus(ApproxDp.of(0.5, 2e-6));
        assertEquals(1.5, c.epsilon());
        assertEquals(3e-6, c.delta(), 1e-21);
        assertSame(ApproxDp.class, c.getClass());
        assertEquals(ApproxDp.of(0.3, 1e-7), ApproxDp.ZERO.plus(ApproxDp.of(0.3, 1e-7)));
    }

    @Test
    void compositionThatLosesTheGuaranteeIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ApproxDp.of(1.0, 0.6).plus(ApproxDp.of(1.0, 0.4)));
        assertEquals("composed delta=0.6+0.4=1.0 is outside [0, 1): delta >= 1 gives no guarantee", e.getMessage());
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
                () -> ApproxDp.of(Double.MAX_VALUE, 0).plus(ApproxDp.of(Double.MAX_VALUE, 0)));
        assertTrue(e2.getMessage().startsWith("composed epsilon="), e2.getMessage());
        assertThrows(NullPointerException.class, () -> ApproxDp.ZERO.plus(null));
    }

    @Test
    void equalsAndHashCode() {
        ApproxDp a = ApproxDp.of(1.0, 1e-6);
        assertEquals(a, ApproxDp.of(1.0, 1e-6));
        assertEquals(a.hashCode(), ApproxDp.of(1.0, 1e-6).hashCode());
        assertNotEquals(a, ApproxDp.of(1.0, 2e-6));
        assertNotEquals(a, ApproxDp.of(1.5, 1e-6));
        assertNotEquals(a, "(eps=1.0, delta=1e-06)-DP");
        assertNotEquals(a, null);
    }
}
