package org.dpgauss.kernels;

import jcuda.driver.CUdeviceptr;

/**
 * A row-block matrix as the device holds it. Resident: every block was uploaded once and stays until
 * {@link #close()} (LargestGoodSubset reuses it across rounds and thresholds). Streamed (the data do not
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
    private final DevicePool.Buffer[] blocks;
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
        this.blocks = new DevicePool.Buffer[host.blockCount()];
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
        return blocks.length;
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
            if (blocks[b] == null) {
                blocks[b] = device.uploadBlock(host, b);
            }
            return blocks[b].ptr;
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
            for (int k = 0; k < blocks.length; k++) {
                maxBytes = Math.max(maxBytes, (long) host.blockRowCount(k) * cols * 8);
            }
            slotBuf[victim] = device.pool().takeOwned(maxBytes);
        }
        device.uploadInto(slotBuf[victim].ptr, host, b);
        slotBlock[victim] = b;
        slotUse[victim] = clock;
        return slotBuf[victim].ptr;
    }

    /** Owning thread only: uploads every block now (resident mode). */
    void uploadAll() {
        for (int b = 0; b < blocks.length; b++) {
            block(b);
        }
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
        for (int b = 0; b < blocks.length; b++) {
            device.pool().give(blocks[b]);
            blocks[b] = null;
        }
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
