package org.dpgauss.kernels;

import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuInit;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Supplier;
import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * Every native CUDA driver call of this package goes through here (the native boundary is one small
 * package-private class; handles stay plain values and statuses become {@link CudaFailure}s whose
 * message names the call and what to do). Callers are on the owning thread of {@link CudaDevice},
 * where the primary context is current.
 */
final class DriverCalls {

    static final long NULL = 0L;

    private DriverCalls() {
    }

    static CudaProbe.Result probeDevice(boolean kernels) {
        JCudaDriver.setExceptionsEnabled(true);
        cuInit(0);
        int[] count = new int[1];
        cuDeviceGetCount(count);
        if (count[0] == 0) {
            return new CudaProbe.Result(false, kernels, null, "CUDA driver present but reports no device");
        }
        CUdevice dev = new CUdevice();
        cuDeviceGet(dev, 0);
        String devName = describe(dev);
        String reason = "device 0: " + devName + (kernels ? "" : "; this build has no compiled kernels (nvcc was absent)");
        return new CudaProbe.Result(true, kernels, devName, reason);
    }

    private static String describe(CUdevice dev) {
        byte[] name = new byte[256];
        cuDeviceGetName(name, name.length, dev);
        int[] major = new int[1];
        int[] minor = new int[1];
        cuDeviceGetAttribute(major, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
        cuDeviceGetAttribute(minor, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
        int[] version = new int[1];
        cuDriverGetVersion(version);
        return new String(name, java.nio.charset.StandardCharsets.US_ASCII).trim().replace("\0", "")
                + " (sm_" + major[0] + minor[0] + ", driver API " + version[0] / 1000 + "." + (version[0] % 1000) / 10 + ")";
    }

    // ---------- status handling --------------------------------------------------------------------

    /** Runs one driver call; a CudaException becomes a CudaFailure naming the call and a remedy. */
    static <T> T call(String what, Supplier<T> body) {
        try {
            return body.get();
        } catch (CudaException e) {
            String status = statusOf(e.getMessage());
            throw new CudaFailure(what + " failed with " + status + ": " + remedy(status), status, e);
        }
    }

    static void run(String what, Runnable body) {
        call(what, () -> {
            body.run();
            return null;
        });
    }

    static String statusOf(String message) {
        if (message == null) {
            return "CUDA_ERROR_UNKNOWN";
        }
        for (String token : message.split("[^A-Z_0-9]+")) {
            if (token.startsWith("CUDA_ERROR_") || token.startsWith("CUSOLVER_STATUS_")) {
                return token;
            }
        }
        return message.trim();
    }

    static String remedy(String status) {
        switch (status) {
            case "CUDA_ERROR_OUT_OF_MEMORY":
                return "the device ran out of memory; the engine retries in row blocks after freeing its pool, "
                        + "else falls back to the CPU (use smaller blocks with -Ddpgauss.gpu.maxResidentBytes=BYTES "
                        + "or --engine cpu)";
            case "CUDA_ERROR_NO_BINARY_FOR_GPU":
            case "CUDA_ERROR_INVALID_IMAGE":
            case "CUDA_ERROR_INVALID_PTX":
            case "CUDA_ERROR_UNSUPPORTED_PTX_VERSION":
                return "the kernels in this jar were not built for this GPU or driver (they carry sm_90 code and "
                        + "compute_90 PTX, which needs a driver for CUDA 13 or later); rebuild with "
                        + "DPGAUSS_CUDA_ARCHS set for this GPU, or use --engine cpu";
            case "CUDA_ERROR_NOT_INITIALIZED":
            case "CUDA_ERROR_NO_DEVICE":
            case "CUDA_ERROR_INVALID_DEVICE":
                return "no usable CUDA device; check nvidia-smi and CUDA_VISIBLE_DEVICES, or use --engine cpu";
            case "CUDA_ERROR_LAUNCH_FAILED":
            case "CUDA_ERROR_ILLEGAL_ADDRESS":
            case "CUDA_ERROR_LAUNCH_TIMEOUT":
                return "a kernel failed and the CUDA context is unusable for the rest of this process; "
                        + "this is a dpgauss bug (please report it with the input shape); rerun with --engine cpu";
            default:
                return "unexpected CUDA status; rerun with --engine cpu and report the message";
        }
    }

    // ---------- context, modules, functions ----------------------------------------------------------

    /** cuInit, device 0, its primary context made current on the calling thread. */
    static Object[] openPrimaryContext(int ordinal) {
        JCudaDriver.setExceptionsEnabled(true);
        run("cuInit", () -> cuInit(0));
        CUdevice dev = new CUdevice();
        run("cuDeviceGet(" + ordinal + ")", () -> cuDeviceGet(dev, ordinal));
        CUcontext ctx = new CUcontext();
        run("cuDevicePrimaryCtxRetain", () -> JCudaDriver.cuDevicePrimaryCtxRetain(ctx, dev));
        run("cuCtxSetCurrent", () -> JCudaDriver.cuCtxSetCurrent(ctx));
        return new Object[] {dev, ctx, describe(dev)};
    }

    static void releasePrimaryContext(CUdevice dev) {
        run("cuDevicePrimaryCtxRelease", () -> JCudaDriver.cuDevicePrimaryCtxRelease(dev));
    }

    static CUstream createStream() {
        CUstream s = new Handles.Stream();
        run("cuStreamCreate", () -> JCudaDriver.cuStreamCreate(s, 0));
        return s;
    }

    static CUevent createEvent() {
        CUevent e = new CUevent();
        run("cuEventCreate", () -> JCudaDriver.cuEventCreate(e, 0));
        return e;
    }

    static void record(CUevent e, CUstream s) {
        run("cuEventRecord", () -> JCudaDriver.cuEventRecord(e, s));
    }

    /** Later work on {@code s} waits for {@code e} (recorded on another stream) without blocking the host. */
    static void streamWait(CUstream s, CUevent e) {
        run("cuStreamWaitEvent", () -> JCudaDriver.cuStreamWaitEvent(s, e, 0));
    }

    static void destroyEvent(CUevent e) {
        run("cuEventDestroy", () -> JCudaDriver.cuEventDestroy(e));
    }

    static void waitFor(CUevent e) {
        run("cuEventSynchronize", () -> JCudaDriver.cuEventSynchronize(e));
    }

    /** Seconds between two recorded events (both complete). */
    static double elapsedSeconds(CUevent start, CUevent end) {
        float[] ms = new float[1];
        run("cuEventElapsedTime", () -> JCudaDriver.cuEventElapsedTime(ms, start, end));
        return ms[0] * 1e-3;
    }

    static void synchronize(CUstream s) {
        run("cuStreamSynchronize", () -> JCudaDriver.cuStreamSynchronize(s));
    }

    static CUmodule loadModule(String name, byte[] fatbin) {
        CUmodule m = new CUmodule();
        run("cuModuleLoadData(" + name + ".fatbin)", () -> JCudaDriver.cuModuleLoadData(m, fatbin));
        return m;
    }

    static CUfunction function(CUmodule m, String name) {
        CUfunction f = new CUfunction();
        run("cuModuleGetFunction(" + name + ")", () -> JCudaDriver.cuModuleGetFunction(f, m, name));
        return f;
    }

    /** {free, total} device memory in bytes. */
    static long[] memInfo() {
        long[] free = new long[1];
        long[] total = new long[1];
        run("cuMemGetInfo", () -> JCudaDriver.cuMemGetInfo(free, total));
        return new long[] {free[0], total[0]};
    }

    // ---------- memory -----------------------------------------------------------------------------

    static CUdeviceptr alloc(long bytes) {
        CUdeviceptr p = new Handles.DevicePtr();
        run("cuMemAlloc(" + bytes + " bytes)", () -> JCudaDriver.cuMemAlloc(p, Math.max(bytes, 8)));
        return p;
    }

    static void free(CUdeviceptr p) {
        run("cuMemFree", () -> JCudaDriver.cuMemFree(p));
    }

    /** Page-locked host memory and a native-order view of it. */
    static Pointer allocPinned(long bytes) {
        Pointer p = new Pointer();
        run("cuMemAllocHost(" + bytes + " bytes)", () -> JCudaDriver.cuMemAllocHost(p, bytes));
        return p;
    }

    static ByteBuffer pinnedView(Pointer p, long bytes) {
        return p.getByteBuffer(0, bytes).order(ByteOrder.nativeOrder());
    }

    static void freePinned(Pointer p) {
        run("cuMemFreeHost", () -> JCudaDriver.cuMemFreeHost(p));
    }

    static void copyToDeviceAsync(CUdeviceptr dst, Pointer src, long bytes, CUstream s) {
        run("cuMemcpyHtoDAsync(" + bytes + " bytes)", () -> JCudaDriver.cuMemcpyHtoDAsync(dst, src, bytes, s));
    }

    /** Synchronous copy of a small Java array (JCuda pins it for the duration of the call). */
    static void copyToDevice(CUdeviceptr dst, Pointer src, long bytes) {
        run("cuMemcpyHtoD(" + bytes + " bytes)", () -> JCudaDriver.cuMemcpyHtoD(dst, src, bytes));
    }

    static void copyDeviceAsync(CUdeviceptr dst, CUdeviceptr src, long bytes, CUstream s) {
        run("cuMemcpyDtoDAsync(" + bytes + " bytes)", () -> JCudaDriver.cuMemcpyDtoDAsync(dst, src, bytes, s));
    }

    static void copyToHost(Pointer dst, CUdeviceptr src, long bytes) {
        run("cuMemcpyDtoH(" + bytes + " bytes)", () -> JCudaDriver.cuMemcpyDtoH(dst, src, bytes));
    }

    static void zero32(CUdeviceptr p, long words, CUstream s) {
        run("cuMemsetD32Async", () -> JCudaDriver.cuMemsetD32Async(p, 0, words, s));
    }

    // ---------- launches ---------------------------------------------------------------------------

    static void launch(String name, CUfunction f, int gx, int gy, int gz, int bx, int by, int bz, CUstream s,
            Pointer params) {
        if (gx < 1 || gy < 1 || gz < 1 || gy > 65535 || gz > 65535) {
            throw new CudaFailure(name + ": grid " + gx + " x " + gy + " x " + gz + " is outside the device limits; "
                    + "this is a dpgauss bug (please report it with the input shape)", "DPGAUSS_BAD_GRID", null);
        }
        run("cuLaunchKernel(" + name + ")",
                () -> JCudaDriver.cuLaunchKernel(f, gx, gy, gz, bx, by, bz, 0, s, params, null));
    }

    static String statusName(int code) {
        return CUresult.stringFor(code);
    }
}
