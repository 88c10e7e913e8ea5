package org.dpgauss.kernels;

/**
 * A CUDA driver call failed. The message names the call, the CUresult and what to do about it
 * (for example: use {@code --engine cpu}, smaller row blocks, or a fresh {@code java.io.tmpdir}).
 */
public class CudaFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String status;

    public CudaFailure(String message, String status, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The CUresult name (for example {@code CUDA_ERROR_OUT_OF_MEMORY}), or a short tag. */
    public String status() {
        return status;
    }

    /** Device memory ran out; the device is still usable (the caller may fall back to the CPU). */
    public boolean isOutOfMemory() {
        return "CUDA_ERROR_OUT_OF_MEMORY".equals(status);
    }
}
