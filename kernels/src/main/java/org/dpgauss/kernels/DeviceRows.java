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
    /** Resident rows uploaded lazily on the copy stream, block by block (see {@link CudaDevice#upload}). */
    private final boolean overlapped;
    /** Overlapped: blocks [0, issued) have their upload issued; ready[b] completes with block b's copy. */
    private int issued;
    /** Overlapped: the compute stream has waited for blocks [0, waited). */
    private int waited;
    private jcuda.driver.CUevent[] ready;

    DeviceRows(CudaDevice device, HostRows host, boolean resident, long fingerprint) {
        this(device, host, resident, fingerprint, false);
    }

    DeviceRows(CudaDevice device, HostRows host, boolean resident, long fingerprint, boolean overlapped) {
        this.device = device;
        this.host = host;
        this.rows = host.rows();
        this.cols = host.cols();
        this.resident = resident;
        this.blockCount = host.blockCount();
        this.fingerprint = fingerprint;
        this.overlapped = overlapped && resident;
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
            if (overlapped) {
                readyThrough(b);
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

    /**
     * Owning thread only: the contiguous device buffer, and every block's upload issued on the compute stream
     * (resident mode); overlapped rows only get the buffer here, their blocks are uploaded as they are asked for.
     */
    void uploadAll() {
        check();
        if (all != null) {
            return;
        }
        all = device.pool().takeOwned(Math.max(8L, (long) rows * cols * 8));
        if (overlapped) {
            ready = new jcuda.driver.CUevent[blockCount];
            return;
        }
        for (int b = 0; b < blockCount; b++) {
            long off = (long) host.blockStart(b) * cols * 8;
            device.uploadInto(off == 0 ? all.ptr : all.ptr.withByteOffset(off), host, b);
        }
    }

    /**
     * Owning thread only, overlapped rows: issues the uploads of blocks up to {@code b} on the copy stream (in
     * order) and makes the compute stream wait for block {@code b}'s copy (hence for every earlier one).
     */
    private void readyThrough(int b) {
        while (issued <= b) {
            long off = (long) host.blockStart(issued) * cols * 8;
            ready[issued] = device.uploadIntoOverlapped(off == 0 ? all.ptr : all.ptr.withByteOffset(off), host, issued);
            issued++;
        }
        if (waited <= b) {
            device.computeWaits(ready[b]);
            waited = b + 1;
        }
    }

    /** Owning thread only, resident: rows [from, to) are on the device for work issued next on the compute stream. */
    void ready(long from, long to) {
        check();
        if (all == null) {
            uploadAll();
        }
        if (overlapped && to > from) {
            readyThrough(blockOf(to - 1));
        }
    }

    /** The block that holds row {@code row}. */
    int blockOf(long row) {
        int lo = 0;
        int hi = blockCount - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (host.blockStart(mid) <= row) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
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
        if (ready != null) {
            if (issued > 0) {
                device.copiesDone(); // no copy may still write into the buffer the pool hands out next
            }
            for (int b = 0; b < issued; b++) {
                DriverCalls.destroyEvent(ready[b]);
            }
            ready = null;
        }
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
