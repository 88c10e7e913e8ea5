package org.dpgauss.secondmoment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;
import org.dpgauss.linalg.RowBlockMatrix;
import org.dpgauss.privacy.ApproxDp;
import org.dpgauss.privacy.RandomSource;
import org.dpgauss.release.Dataset;
import org.dpgauss.release.PrivateRelease;
import org.dpgauss.release.ReleaseContext;
import org.dpgauss.release.Releases;
import org.dpgauss.rows.LocalRows;
import org.dpgauss.rows.RowLayout;
import org.dpgauss.rows.RowReleases;
import org.dpgauss.testing.GaussianTestData;
import org.junit.jupiter.api.Test;

/**
 * Subsample-and-aggregate as a row pass (the partition drawn on the caller's machine, the groups' second moments from
 * {@code RowSource.groupGrams}) is the in-memory release bit for bit in any layout. n = 4010 rows in groups of
 * m = 100: 40 groups and 10 dropped rows; uncertified (Thm A.6 needs about 1e9 rows), as every run at this size.
 */
class SubsampleAndAggregateRowsTest {

    private static final ComputeEngine CPU = CpuEngine.instance();

    private static SubsampleAndAggregate mechanism() {
        return SubsampleAndAggregate.builder().groupSize(100).alpha(0.5).xi(0.1).stepBudget(ApproxDp.of(5, 1e-6))
                .allowUncertified(true).build();
    }

    @Test
    void releaseIsTheInMemoryReleaseBitForBitInAnyLayout() {
        RowBlockMatrix x = GaussianTestData.centred(4010, new double[] {4, 1, 0.25}, 17);
        PrivateRelease memory = Releases.run(mechanism(), Dataset.of(x), 1e-5,
                ReleaseContext.of(CPU, RandomSource.insecureSeeded(21)));
        assertTrue(memory.isPass());
        for (RowLayout layout : new RowLayout[] {RowLayout.forDimension(3), RowLayout.of(64, 3)}) {
            PrivateRelease rows = RowReleases.run(mechanism(), LocalRows.of(x, CPU, layout), 1e-5,
                    ReleaseContext.of(CPU, RandomSource.insecureSeeded(21)));
            double[][] a = memory.matrix("secondMoment");
            double[][] b = rows.matrix("secondMoment");
            for (int i = 0; i < a.length; i++) {
                assertArrayEquals(a[i], b[i], 0.0, layout + ", row " + i);
            }
        }
    }

    @Test
    void groupsAreDistinctPositionsInWholeGroups() {
        LocalRows rows = LocalRows.of(GaussianTestData.centred(10, new double[] {1, 1}, 2), CPU);
        assertThrows(IllegalArgumentException.class, () -> rows.groupGrams(new int[] {0, 1, 2}, 2));
        assertThrows(IllegalArgumentException.class, () -> rows.groupGrams(new int[] {0, 1, 1, 2}, 2));
        assertThrows(IllegalArgumentException.class, () -> rows.groupGrams(new int[] {0, 10}, 2));
    }
}
