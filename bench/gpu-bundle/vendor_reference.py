#!/usr/bin/env python3
"""Vendor reference timings on the GPU (issue 17 item 4): CuPy's cuBLAS / cuSOLVER on the shapes GpuBench uses.

python3 vendor_reference.py OUT.json [--shapes 1000000x100,100000x1000] [--repeat 5] [--r 50]

Per shape (n, d), FP64, data generated on the device (standard normal), each timed with CUDA events after one
warm-up call, median of --repeat:
  syrk        X^T X (d x d) with cupy.cublas.syrk            (the Gram)
  matmul      X^T G (d x r) with cupy.matmul                 (the projection's product, G n x r)
  solve_triangular  L^{-1} X^T (d x n) with cupyx.scipy.linalg.solve_triangular (whitening; L = chol(X^T X / n))
  cholesky    cupy.linalg.cholesky of the d x d Gram         (cuSOLVER potrf)
  eigh        cupy.linalg.eigh of the d x d Gram             (cuSOLVER syevd)
  h2d         upload of X from pinned host memory (the PCIe cost an end-to-end call pays)
Writes JSON (partial results after every shape) and exits 0; without CuPy or a GPU it writes the reason and
exits 3. Also reports where CuPy found libcublas / libcusolver (the directory dpgauss's FFM binding should use).
"""
import json
import os
import sys
import time


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    args = dict(zip(sys.argv[2::2], sys.argv[3::2]))
    shapes = [tuple(int(float(v)) for v in s.lower().split("x"))
              for s in args.get("--shapes", "1000000x100,100000x1000").split(",")]
    repeat = int(args.get("--repeat", "5"))
    r = int(args.get("--r", "50"))
    report = {"benchmark": "vendor reference (CuPy cuBLAS/cuSOLVER), issue 17", "shapes": [list(s) for s in shapes],
              "repeat": repeat, "r": r, "results": []}

    def write():
        with open(out, "w") as f:
            json.dump(report, f, indent=2)

    try:
        import cupy as cp
        import cupyx.scipy.linalg as cpl
        import cupy.cublas
        report["cupy"] = cp.__version__
        report["cuda_runtime"] = cp.cuda.runtime.runtimeGetVersion()
        report["driver"] = cp.cuda.runtime.driverGetVersion()
        props = cp.cuda.runtime.getDeviceProperties(0)
        report["device"] = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    except Exception as e:  # no CuPy, no GPU
        report["status"] = "unavailable"
        report["reason"] = repr(e)
        write()
        print("vendor reference: unavailable: %r" % (e,), file=sys.stderr)
        return 3
    report["status"] = "ok"
    write()

    def timed(fn):
        fn()  # warm-up (handles, workspaces, heuristics)
        cp.cuda.Device().synchronize()
        times = []
        for _ in range(repeat):
            start, end = cp.cuda.Event(), cp.cuda.Event()
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end) * 1e-3)
        times.sort()
        return {"seconds": times, "median": times[len(times) // 2]}

    for n, d in shapes:
        t0 = time.time()
        x = cp.random.standard_normal((n, d), dtype=cp.float64)   # row-major n x d, as dpgauss holds it
        g = cp.random.standard_normal((n, r), dtype=cp.float64)
        gram = cp.empty((d, d), dtype=cp.float64)
        row = {"n": n, "d": d}
        try:
            # x^T x: x (n x d, C order) is column-major d x n, so syrk('N') on x.T computes x^T x
            row["syrk"] = timed(lambda: cupy.cublas.syrk("T", x, out=gram, lower=True))
            row["matmul"] = timed(lambda: cp.matmul(x.T, g))
            a = x.T @ x / n
            lower = cp.linalg.cholesky(a)
            row["solve_triangular"] = timed(lambda: cpl.solve_triangular(lower, x.T, lower=True))
            row["cholesky"] = timed(lambda: cp.linalg.cholesky(a))
            row["eigh"] = timed(lambda: cp.linalg.eigh(a))
            host = cp.cuda.alloc_pinned_memory(n * d * 8)
            dst = cp.empty((n, d), dtype=cp.float64)
            row["h2d"] = timed(lambda: dst.data.copy_from_host(host.ptr, n * d * 8))
            row["h2d_gbps"] = n * d * 8 / row["h2d"]["median"] / 1e9
            del dst, host
        except Exception as e:
            row["error"] = repr(e)
        row["wall_seconds"] = time.time() - t0
        report["libraries"] = loaded_libraries()  # after the first calls: where cuBLAS / cuSOLVER were loaded from
        report["results"].append(row)
        write()
        print("vendor reference n=%d d=%d: %s" % (n, d, {k: (v["median"] if isinstance(v, dict) else v)
                                                        for k, v in row.items()}), flush=True)
        del x, g, gram
        cp.get_default_memory_pool().free_all_blocks()
    report["complete"] = True
    write()
    return 0


def loaded_libraries():
    libs = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                p = line.split()[-1]
                if ("cublas" in p or "cusolver" in p) and p not in libs:
                    libs.append(p)
    except OSError:
        pass
    return libs


if __name__ == "__main__":
    sys.exit(main())
