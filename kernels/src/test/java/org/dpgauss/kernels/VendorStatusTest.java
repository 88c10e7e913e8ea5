package org.dpgauss.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Status names of cuBLAS / cuSOLVER and the meaning of cuSOLVER's {@code info} (issue 28, item 7). */
class VendorStatusTest {

    /**
     * Every constant of {@code jcuda.jcusolver.cusolverStatus} (JCusolver's copy of {@code cusolverStatus_t} from
     * {@code cusolver_common.h}) has its own name here, 5, 9 and 10+ included.
     */
    @Test
    void everyCusolverStatusHasItsHeaderName() throws Exception {
        int checked = 0;
        for (Field f : jcuda.jcusolver.cusolverStatus.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class && f.getName().startsWith("CUSOLVER_STATUS_")) {
                assertEquals(f.getName(), VendorStatus.cusolver(f.getInt(null)), "code " + f.getInt(null));
                checked++;
            }
        }
        assertEquals(25, checked, "cusolverStatus constants seen");
        assertEquals("CUSOLVER_STATUS_MAPPING_ERROR", VendorStatus.cusolver(5));
        assertEquals("CUSOLVER_STATUS_NOT_SUPPORTED", VendorStatus.cusolver(9));
        assertEquals("CUSOLVER_STATUS_ZERO_PIVOT", VendorStatus.cusolver(10));
        assertEquals("CUSOLVER_STATUS_99", VendorStatus.cusolver(99));
    }

    @Test
    void cublasStatusNamesAreDistinctAndUnknownCodesKeepTheirNumber() {
        int[] codes = {0, 1, 3, 7, 8, 11, 13, 14, 15, 16};
        Set<String> names = new HashSet<>();
        for (int c : codes) {
            String n = VendorStatus.cublas(c);
            assertTrue(n.startsWith("CUBLAS_STATUS_") && !n.matches(".*_\\d+$"), n);
            names.add(n);
        }
        assertEquals(codes.length, names.size());
        assertEquals("CUBLAS_STATUS_EXECUTION_FAILED", VendorStatus.cublas(13));
        assertEquals("CUBLAS_STATUS_2", VendorStatus.cublas(2));
    }

    /** LAPACK's convention: info &lt; 0 names an illegal argument, a bug in the call, never "not positive definite". */
    @Test
    void negativeInfoIsAnIllegalArgumentNotAPropertyOfTheMatrix() {
        assertTrue(VendorStatus.infoSucceeded("cusolverDnDpotrf", 0));
        assertFalse(VendorStatus.infoSucceeded("cusolverDnDpotrf", 7)); // leading minor 7 not positive definite
        assertFalse(VendorStatus.infoSucceeded("cusolverDnDsyevd", 2)); // did not converge
        CudaFailure f = assertThrows(CudaFailure.class, () -> VendorStatus.infoSucceeded("cusolverDnDpotrf", -4));
        assertEquals(VendorStatus.ILLEGAL_ARGUMENT, f.status());
        assertTrue(f.getMessage().startsWith("cusolverDnDpotrf reported info = -4: argument 4 of the call is illegal"),
                f.getMessage());
        assertFalse(f.getMessage().contains("positive definite") && !f.getMessage().contains("not a property"),
                f.getMessage());
        assertFalse(f.isOutOfMemory());
    }
}
