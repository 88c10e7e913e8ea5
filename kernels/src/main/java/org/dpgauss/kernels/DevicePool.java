package org.dpgauss.kernels;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import jcuda.driver.CUdeviceptr;

/**
 * Reusable device memory (owning thread only): freed buffers are kept by size class and handed out
 * again, so the rounds of LargestGoodSubset and the row blocks of a pass do not call cuMemAlloc each
 * time. When an allocation fails for lack of memory the cache is released and the allocation retried
 * once before the out-of-memory failure reaches the caller.
 */
final class DevicePool {

    /** Keeps at most this much freed memory cached. */
    private final long cacheLimit;
    private final Map<Long, ArrayDeque<CUdeviceptr>> free = new HashMap<>();
    private long cachedBytes;
    private long liveBytes;
    /** Buffers taken during the current operation (released if it fails); null outside an operation. */
    private java.util.List<Buffer> scope;

    DevicePool(long cacheLimit) {
        this.cacheLimit = cacheLimit;
    }

    /** A device buffer and its size class. */
    static final class Buffer {
        final CUdeviceptr ptr;
        final long bytes;
        boolean returned;

        Buffer(CUdeviceptr ptr, long bytes) {
            this.ptr = ptr;
            this.bytes = bytes;
        }
    }

    static long sizeClass(long bytes) {
        long b = Math.max(bytes, 256);
        if (b >= (1L << 20)) {
            return (b + (1L << 20) - 1) & ~((1L << 20) - 1);
        }
        return Long.highestOneBit(b - 1) << 1;
    }

    /** A buffer for the current operation: given back by the caller, or by {@link #endScope} if it fails. */
    Buffer take(long bytes) {
        Buffer b = takeOwned(bytes);
        if (scope != null) {
            scope.add(b);
        }
        return b;
    }

    /** A buffer owned beyond the current operation (resident rows, streaming slots). */
    Buffer takeOwned(long bytes) {
        long cls = sizeClass(bytes);
        ArrayDeque<CUdeviceptr> q = free.get(cls);
        if (q != null && !q.isEmpty()) {
            cachedBytes -= cls;
            liveBytes += cls;
            return new Buffer(q.pop(), cls);
        }
        CUdeviceptr p;
        try {
            p = DriverCalls.alloc(cls);
        } catch (CudaFailure e) {
            if (!e.isOutOfMemory() || cachedBytes == 0) {
                throw e;
            }
            releaseCached();
            p = DriverCalls.alloc(cls);
        }
        liveBytes += cls;
        return new Buffer(p, cls);
    }

    void give(Buffer b) {
        if (b == null || b.returned) {
            return;
        }
        b.returned = true;
        liveBytes -= b.bytes;
        if (cachedBytes + b.bytes > cacheLimit) {
            DriverCalls.free(b.ptr);
            return;
        }
        free.computeIfAbsent(b.bytes, k -> new ArrayDeque<>()).push(b.ptr);
        cachedBytes += b.bytes;
    }

    void beginScope() {
        scope = new java.util.ArrayList<>();
    }

    /** Ends the operation's scope; when it failed, gives back every buffer it took and did not return. */
    void endScope(boolean failed) {
        java.util.List<Buffer> taken = scope;
        scope = null;
        if (failed && taken != null) {
            for (Buffer b : taken) {
                try {
                    give(b);
                } catch (CudaFailure e) {
                    // the context is unusable; the memory goes with it
                }
            }
        }
    }

    long cachedBytes() {
        return cachedBytes;
    }

    long liveBytes() {
        return liveBytes;
    }

    void releaseCached() {
        for (ArrayDeque<CUdeviceptr> q : free.values()) {
            while (!q.isEmpty()) {
                DriverCalls.free(q.pop());
            }
        }
        free.clear();
        cachedBytes = 0;
    }
}
