package org.dpgauss.kernels;

import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuInit;

import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.JCudaDriver;

/**
 * Every native CUDA driver call of this package goes through here (the native boundary is one small
 * package-private class; handles stay plain values and statuses become exceptions).
 */
final class DriverCalls {

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
        byte[] name = new byte[256];
        cuDeviceGetName(name, name.length, dev);
        int[] major = new int[1];
        int[] minor = new int[1];
        cuDeviceGetAttribute(major, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
        cuDeviceGetAttribute(minor, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
        int[] version = new int[1];
        cuDriverGetVersion(version);
        String devName = new String(name, java.nio.charset.StandardCharsets.US_ASCII).trim().replace("\0", "")
                + " (sm_" + major[0] + minor[0] + ", driver API " + version[0] / 1000 + "." + (version[0] % 1000) / 10 + ")";
        String reason = "device 0: " + devName + (kernels ? "" : "; this build has no compiled kernels (nvcc was absent)");
        return new CudaProbe.Result(true, kernels, devName, reason);
    }
}
