package org.dpgauss.kernels;

import jcuda.driver.CUdeviceptr;

/**
 * A row-block matrix as the device holds it. Resident: every block was uploaded once, into one contiguous
 * device buffer (row-major n x d, whatever the host blocking, so vendor routines and fixed row chunks see the
 * same layout for any block size), and stays until {@link #close()} (the engine reuses it across primitives,
 * LargestGoodSubset across rounds and thresholds). Streamed (the data do not
 * fit the memory budget): blocks are uploaded on demand into three slots, least recently used first,
 * so any pass touches each block (or each pair of blocks) with one upload.
 */
public final class DeviceRows implements AutoCloseable {

    private static final int SLOTS = 3;

    final CudaDevice device;
    final HostRows host;
    final int rows;
    final int cols;
    final boolean resident;
    private final int blockCount;
    private DevicePool.Buffer all;
    private final int[] slotBlock = new int[SLOTS];
    private final long[] slotUse = new long[SLOTS];
    private final DevicePool.Buffer[] slotBuf = new DevicePool.Buffer[SLOTS];
    private long clock;
    private volatile boolean closed;
    private final long fingerprint;

    DeviceRows(CudaDevice device, HostRows host, boolean resident, long fingerprint) {
        this.device = device;
        this.host = host;
        this.rows = host.rows();
        this.cols = host.cols();
        this.resident = resident;
        this.blockCount = host.blockCount();
        this.fingerprint = fingerprint;
        java.util.Arrays.fill(slotBlock, -1);
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public int blockCount() {
        return blockCount;
    }

    public int blockStart(int b) {
        return host.blockStart(b);
    }

    public int blockRowCount(int b) {
        return host.blockRowCount(b);
    }

    /** True when every block stays on the device; false when blocks are streamed through slots. */
    public boolean resident() {
        return resident;
    }

    /** The content fingerprint taken at upload time (see {@link CudaDevice#fingerprint}). */
    public long fingerprint() {
        return fingerprint;
    }

    /** True for the same host data, unchanged since the upload. */
    public boolean holds(HostRows h, long currentFingerprint) {
        return !closed && h == host && currentFingerprint == fingerprint;
    }

    /** Owning thread only: block b on the device. */
    CUdeviceptr block(int b) {
        check();
        if (resident) {
            if (all == null) {
                uploadAll();
            }
            long off = (long) host.blockStart(b) * cols * 8;
            return off == 0 ? all.ptr : all.ptr.withByteOffset(off);
        }
        clock++;
        for (int s = 0; s < SLOTS; s++) {
            if (slotBlock[s] == b) {
                slotUse[s] = clock;
                return slotBuf[s].ptr;
            }
        }
        int victim = 0;
        for (int s = 1; s < SLOTS; s++) {
            if (slotUse[s] < slotUse[victim]) {
                victim = s;
            }
        }
        if (slotBuf[victim] == null) {
            long maxBytes = 0;
            for (int k = 0; k < blockCount; k++) {
                maxBytes = Math.max(maxBytes, (long) host.blockRowCount(k) * cols * 8);
            }
            slotBuf[victim] = device.pool().takeOwned(maxBytes);
        }
        device.uploadInto(slotBuf[victim].ptr, host, b);
        slotBlock[victim] = b;
        slotUse[victim] = clock;
        return slotBuf[victim].ptr;
    }

    /** Owning thread only: uploads every block now, into one contiguous buffer (resident mode). */
    void uploadAll() {
        check();
        if (all != null) {
            return;
        }
        all = device.pool().takeOwned(Math.max(8L, (long) rows * cols * 8));
        for (int b = 0; b < blockCount; b++) {
            long off = (long) host.blockStart(b) * cols * 8;
            device.uploadInto(off == 0 ? all.ptr : all.ptr.withByteOffset(off), host, b);
        }
    }

    /** Owning thread only, resident only: the device address of row {@code row} (rows are contiguous). */
    long address(long row) {
        check();
        if (!resident) {
            throw new IllegalStateException("streamed rows have no contiguous device address");
        }
        if (all == null) {
            uploadAll();
        }
        return Handles.address(all.ptr) + row * cols * 8;
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("device rows were closed");
        }
    }

    /** Owning thread only. */
    void release() {
        if (closed) {
            return;
        }
        closed = true;
        device.pool().give(all);
        all = null;
        for (int s = 0; s < SLOTS; s++) {
            device.pool().give(slotBuf[s]);
            slotBuf[s] = null;
        }
    }

    /** Returns the device memory to the pool. */
    @Override
    public void close() {
        if (!closed) {
            device.release(this);
        }
    }
}
