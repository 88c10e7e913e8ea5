package org.dpgauss.kernels;

import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;

/**
 * Raw addresses of JCuda handles for the FFM binding (JCuda keeps them in a protected field): device buffers
 * and the stream are created as these subclasses by {@link DriverCalls}, so their address can be read.
 */
final class Handles {

    private Handles() {
    }

    static final class DevicePtr extends CUdeviceptr {
        long address() {
            return getNativePointer();
        }
    }

    static final class Stream extends CUstream {
        long address() {
            return getNativePointer();
        }
    }

    static long address(CUdeviceptr p) {
        if (!(p instanceof DevicePtr)) {
            throw new IllegalArgumentException("not a pool buffer (no readable address): " + p);
        }
        return ((DevicePtr) p).address();
    }

    static long address(CUstream s) {
        if (!(s instanceof Stream)) {
            throw new IllegalArgumentException("not the device stream (no readable address): " + s);
        }
        return ((Stream) s).address();
    }
}
