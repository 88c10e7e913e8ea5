#!/usr/bin/env python3
"""numpy/scipy yardstick for bench/run-cpu-native.sh: times the dpgauss CPU primitives on the same .npy data.

usage: numpy_primitives.py DATA_NPY OUT_JSON REPEAT [op,op,..]

Each op mirrors org.dpgauss.bench.cpunative.CpuNativeBench (same data, same parameters, same timing: warm-up of
at least 2 calls and 0.5 s, then REPEAT samples, each averaging enough calls to fill 0.25 s; medians of wall time
and of process CPU time reported; pinned to one core with one BLAS thread, CPU time is the work). numpy is only the yardstick; nothing in the build or tests needs Python.
"""
import json
import platform
import sys
import time

import numpy as np
import scipy
import scipy.linalg as sla

RANK, REFERENCES, KEEP, WARMUP, TILE = 100, 1200, 21, 2, 256
MIN_WARMUP_SECONDS, MIN_SAMPLE_SECONDS = 0.5, 0.25  # as in CpuNativeBench


def gram_plus_identity(x):
    a = x.T @ x / x.shape[0]
    a[np.diag_indices_from(a)] += 1.0
    return a


def prepare(op, x):
    n, d = x.shape
    if op == "gram":
        return lambda: x.T @ x / n
    if op == "gram_weighted_subset":
        rows = np.arange(0, n, 2)
        w = (np.arange(n) % 97) / 97.0

        def f():
            xs = x[rows] * np.sqrt(w[rows])[:, None]
            return xs.T @ xs / n
        return f
    a = gram_plus_identity(x)
    low = np.linalg.cholesky(a)
    if op == "cholesky":
        return lambda: np.linalg.cholesky(a)
    if op == "mahalanobis":
        def f():
            z = sla.solve_triangular(low, x.T, lower=True, check_finite=False)
            return np.einsum("ij,ij->j", z, z)
        return f
    if op == "whiten":
        return lambda: np.ascontiguousarray(sla.solve_triangular(low, x.T, lower=True, check_finite=False).T)
    if op == "eigen":
        return lambda: np.linalg.eigh(a)
    if op == "projection":
        rng = np.random.default_rng(7)

        def f():  # G generated on the fly, as dpgauss does (numpy's own generator: not the same numbers)
            return x.T @ rng.standard_normal((n, RANK))
        return f
    if op == "distances":
        m = min(REFERENCES, n)
        keep = min(KEEP, m)
        ref = x[:m]
        mu = ref.mean(axis=0)
        rc = ref - mu
        rn = np.einsum("ij,ij->i", rc, rc)

        def f():
            out = np.empty((n, keep))
            for s in range(0, n, TILE):
                xs = x[s:s + TILE]
                xc = xs - mu
                approx = np.einsum("ij,ij->i", xc, xc)[:, None] + rn[None, :] - 2.0 * (xc @ rc.T)
                idx = np.argpartition(approx, m - keep, axis=1)[:, m - keep:]
                exact = ((xs[:, None, :] - ref[idx]) ** 2).sum(axis=2)  # the kept ones recomputed directly
                out[s:s + TILE] = -np.sort(-exact, axis=1)
            return out
        return f
    raise ValueError("unknown op " + op)


def main():
    data, out, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ops = sys.argv[4].split(",") if len(sys.argv) > 4 else [
        "gram", "gram_weighted_subset", "cholesky", "mahalanobis", "whiten", "eigen", "projection", "distances"]
    x = np.load(data)
    assert x.dtype == np.float64 and x.flags.c_contiguous
    times = {}
    for op in ops:
        f = prepare(op, x)
        w0, calls = time.perf_counter(), 0
        while calls < WARMUP or time.perf_counter() - w0 < MIN_WARMUP_SECONDS:
            f()
            calls += 1
        inner = max(1, int(np.ceil(MIN_SAMPLE_SECONDS / ((time.perf_counter() - w0) / calls))))
        s, cpu = [], []
        for _ in range(repeat):
            c0, t0 = time.process_time(), time.perf_counter()
            for _ in range(inner):
                f()
            s.append((time.perf_counter() - t0) / inner)
            cpu.append((time.process_time() - c0) / inner)
        times[op] = {"seconds": s, "median_seconds": float(np.median(s)), "cpu_seconds": cpu,
                     "median_cpu_seconds": float(np.median(cpu)), "calls_per_sample": inner}
        print(f"{op:22s} numpy         median {np.median(s):.5f} s wall, {np.median(cpu):.5f} s CPU", file=sys.stderr)
    cfg = np.show_config(mode="dicts") if "mode" in np.show_config.__code__.co_varnames else {}
    blas = cfg.get("Build Dependencies", {}).get("blas", {}) if isinstance(cfg, dict) else {}
    json.dump({"n": x.shape[0], "d": x.shape[1], "repeat": repeat, "warmup": {"min_calls": WARMUP, "min_seconds": MIN_WARMUP_SECONDS},
               "min_sample_seconds": MIN_SAMPLE_SECONDS,
               "python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__,
               "blas": {k: blas.get(k) for k in ("name", "version", "openblas configuration")},
               "times": times}, open(out, "w"), indent=2)


if __name__ == "__main__":
    main()
