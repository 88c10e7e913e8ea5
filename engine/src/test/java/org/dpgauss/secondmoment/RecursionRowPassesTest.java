package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.testing.GaussianTestData;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.privacy.Zcdp;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The recursion's levels run as row maps ({@code ShrinkAndClip}, what a cluster runs) unless a trace is asked for
 * (the traced path transforms the whole matrix and records its clip factors): both give the same bits, so the
 * tests that read the trace also check the maps.
 */
class RecursionRowPassesTest {

    @Test
    void rowMapsGiveTheTracedResult() {
        RowBlockMatrix x = GaussianTestData.centred(3000, new double[] {1, 0.1, 0.01, 1e-3}, 42);
        RecursiveSecondMoment rsm = RecursiveSecondMoment.fromParams(SecondMomentParams.builder()
                .budget(Zcdp.of(1.0)).radius(2.0).m(2).minEigenvalue(0.5e-3).build());
        Trace trace = new Trace();
        DMatrixRMaj traced = rsm.run(x, RandomSource.insecureSeeded(3), CpuEngine.instance(), trace);
        DMatrixRMaj mapped = rsm.run(x, RandomSource.insecureSeeded(3), CpuEngine.instance(), null);
        assertEquals(4, trace.levels.size(), "four levels: three shrink-and-clip steps");
        assertArrayEquals(traced.data, mapped.data, 0.0);
    }
}
