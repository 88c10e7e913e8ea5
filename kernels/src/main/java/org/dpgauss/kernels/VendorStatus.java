package org.dpgauss.kernels;

/**
 * Names of the status codes that cuBLAS and cuSOLVER routines return, and the meaning of the {@code info} value
 * that cuSOLVER's factorizations write (plain Java 17, so that the names are testable on any JDK; the FFM
 * bindings of the Java 22+ section use them).
 *
 * <p>Sources: {@code cublasStatus_t} ({@code cublas_api.h}) and {@code cusolverStatus_t}
 * ({@code cusolver_common.h}) as documented in the cuBLAS and cuSOLVER guides of CUDA 13; the cuSOLVER headers are
 * not installed on our build machines (only the compiler is), so the cuSOLVER values are checked in
 * {@code VendorStatusTest} against {@code jcuda.jcusolver.cusolverStatus}, JCusolver's copy of that enum.
 */
final class VendorStatus {

    /** Status of a failed cuSOLVER call whose {@code info} said that argument {@code -info} was illegal. */
    static final String ILLEGAL_ARGUMENT = "DPGAUSS_CUSOLVER_ILLEGAL_ARGUMENT";

    private VendorStatus() {
    }

    /** The {@code cublasStatus_t} name of {@code s}, or {@code CUBLAS_STATUS_<s>} for a code the enum does not have. */
    static String cublas(int s) {
        switch (s) {
            case 0: return "CUBLAS_STATUS_SUCCESS";
            case 1: return "CUBLAS_STATUS_NOT_INITIALIZED";
            case 3: return "CUBLAS_STATUS_ALLOC_FAILED";
            case 7: return "CUBLAS_STATUS_INVALID_VALUE";
            case 8: return "CUBLAS_STATUS_ARCH_MISMATCH";
            case 11: return "CUBLAS_STATUS_MAPPING_ERROR";
            case 13: return "CUBLAS_STATUS_EXECUTION_FAILED";
            case 14: return "CUBLAS_STATUS_INTERNAL_ERROR";
            case 15: return "CUBLAS_STATUS_NOT_SUPPORTED";
            case 16: return "CUBLAS_STATUS_LICENSE_ERROR";
            default: return "CUBLAS_STATUS_" + s;
        }
    }

    /** The {@code cusolverStatus_t} name of {@code s}, or {@code CUSOLVER_STATUS_<s>} for a code the enum does not have. */
    static String cusolver(int s) {
        switch (s) {
            case 0: return "CUSOLVER_STATUS_SUCCESS";
            case 1: return "CUSOLVER_STATUS_NOT_INITIALIZED";
            case 2: return "CUSOLVER_STATUS_ALLOC_FAILED";
            case 3: return "CUSOLVER_STATUS_INVALID_VALUE";
            case 4: return "CUSOLVER_STATUS_ARCH_MISMATCH";
            case 5: return "CUSOLVER_STATUS_MAPPING_ERROR";
            case 6: return "CUSOLVER_STATUS_EXECUTION_FAILED";
            case 7: return "CUSOLVER_STATUS_INTERNAL_ERROR";
            case 8: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
            case 9: return "CUSOLVER_STATUS_NOT_SUPPORTED";
            case 10: return "CUSOLVER_STATUS_ZERO_PIVOT";
            case 11: return "CUSOLVER_STATUS_INVALID_LICENSE";
            case 12: return "CUSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED";
            case 13: return "CUSOLVER_STATUS_IRS_PARAMS_INVALID";
            case 14: return "CUSOLVER_STATUS_IRS_PARAMS_INVALID_PREC";
            case 15: return "CUSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE";
            case 16: return "CUSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER";
            case 20: return "CUSOLVER_STATUS_IRS_INTERNAL_ERROR";
            case 21: return "CUSOLVER_STATUS_IRS_NOT_SUPPORTED";
            case 22: return "CUSOLVER_STATUS_IRS_OUT_OF_RANGE";
            case 23: return "CUSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES";
            case 25: return "CUSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED";
            case 26: return "CUSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED";
            case 30: return "CUSOLVER_STATUS_IRS_MATRIX_SINGULAR";
            case 31: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
            default: return "CUSOLVER_STATUS_" + s;
        }
    }

    /**
     * What the {@code info} of a cuSOLVER factorization means (LAPACK convention): 0 success, {@code i > 0} a
     * property of the matrix ({@code potrf}: the leading minor of order i is not positive definite; {@code syevd}:
     * i off-diagonal elements did not converge), {@code i < 0} argument {@code -i} of the call was illegal, a bug
     * in the call rather than a property of the data.
     *
     * @return true for info = 0, false for info > 0
     * @throws CudaFailure (status {@value #ILLEGAL_ARGUMENT}) for info &lt; 0, naming the routine and the argument
     */
    static boolean infoSucceeded(String routine, int info) {
        if (info < 0) {
            throw new CudaFailure(routine + " reported info = " + info + ": argument " + (-info)
                    + " of the call is illegal (a bug in dpgauss's call, not a property of the matrix); use --engine cpu",
                    ILLEGAL_ARGUMENT, null);
        }
        return info == 0;
    }
}
