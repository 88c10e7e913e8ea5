#!/usr/bin/env python3
"""Line-by-line numpy ports of dpgauss's CoinPress and Analyze Gauss second-moment estimators, timed end to end
(reading the .npy file included, as `dpgauss second-moment --input FILE` reads it), the yardstick for
bench/run-cpu-native.sh --e2e.

usage: numpy_mechanisms.py DATA_NPY OUT_JSON REPEAT RHO CLIP

The ports follow org.dpgauss.secondmoment.CoinPress.matrix and AnalyzeGauss.matrix step for step with numpy/scipy
(OpenBLAS) calls: the same clipping radius tau = sqrt(d + 2 sqrt(d ln(1/b)) + 2 ln(1/b)), b = 0.1, the same budget
split [1/12 x3, 3/4], eta = (2 sqrt(d/n) + d/n)/2, whitening X L^-T by a triangular solve, clipping by row norms,
Gram / n, symmetric noise on the upper triangle, PSD projection by eigh, the next factor chol(L (Z + eta I) L^T),
and the output L Z L^T. The noise is numpy's continuous Gaussian (rng.standard_normal, PCG64), as in the authors'
public code; dpgauss draws exact discrete Gaussians from a ChaCha20 keystream keyed from SecureRandom and adds its
floating-point accounting slack to sigma, which the port leaves out (it only changes sigma by a relative 1e-6).
Not a private implementation: a timing yardstick.

Like the command, each timed run also rejects a non-finite input value (dpgauss refuses NaN and infinities, naming
the cell) and writes the result as JSON text (dpgauss --json prints the release); `median_cpu_seconds` includes
both. The same computation without them is timed too (`core_median_cpu_seconds`), so the table can show both.
"""
import json
import math
import sys
import time

import numpy as np
import scipy.linalg as sla

WARMUP = 2


def symmetric_noise(rng, d, sigma):
    g = rng.standard_normal((d, d)) * sigma
    upper = np.triu(g)
    return upper + np.triu(g, 1).T


def load(path, validate):
    x = np.load(path)
    if validate and not np.isfinite(x).all():
        i, j = np.argwhere(~np.isfinite(x))[0]
        raise ValueError(f"row {i + 1}, column {j + 1} is not a finite number")
    return x


def output(result, validate):
    return json.dumps({"secondMoment": result.tolist()}) if validate else result


def coinpress(path, rho, clip, rng, t=4, b=0.1, validate=True):
    x = load(path, validate)
    n, d = x.shape
    u = clip * clip  # the default prior scale u = R^2
    fractions = [0.25 / (t - 1)] * (t - 1) + [0.75]
    lb = math.log(1 / b)
    tau = math.sqrt(d + 2 * math.sqrt(d * lb) + 2 * lb)
    eta = 0.5 * (2 * math.sqrt(d / n) + d / n)
    lower = math.sqrt(u) * np.eye(d)
    z = None
    for i in range(t):
        w = sla.solve_triangular(lower, x.T, lower=True, check_finite=False).T  # rows L^-1 x_j
        norms = np.sqrt(np.einsum("ij,ij->i", w, w))
        w *= np.minimum(1.0, tau / np.maximum(norms, 1e-300))[:, None]
        sigma = tau * tau / (n * math.sqrt(rho * fractions[i]))
        gram = sla.blas.dsyrk(1.0 / n, w, trans=1)  # upper triangle of W^T W / n
        gram = np.triu(gram) + np.triu(gram, 1).T
        noisy = gram + symmetric_noise(rng, d, sigma)
        vals, vecs = np.linalg.eigh(noisy)
        z = (vecs * np.maximum(vals, 0)) @ vecs.T
        if i < t - 1:
            shifted = z + eta * np.eye(d)
            nxt = lower @ shifted @ lower.T
            nxt = (nxt + nxt.T) / 2
            lower = np.linalg.cholesky(nxt)
    return output(lower @ z @ lower.T, validate)


def analyze_gauss(path, rho, clip, rng, validate=True):
    x = load(path, validate)
    n, d = x.shape
    norms = np.sqrt(np.einsum("ij,ij->i", x, x))
    clipped = x * np.minimum(1.0, clip / np.maximum(norms, 1e-300))[:, None]
    sigma = clip * clip / (n * math.sqrt(rho))
    gram = sla.blas.dsyrk(1.0 / n, clipped, trans=1)
    gram = np.triu(gram) + np.triu(gram, 1).T
    return output(gram + symmetric_noise(rng, d, sigma), validate)


def main():
    path, out, repeat, rho, clip = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    rng = np.random.default_rng(1)
    n, d = np.load(path, mmap_mode="r").shape
    times = {}
    for name, f in (("second-moment coinpress", coinpress), ("second-moment analyze-gauss", analyze_gauss)):
        for _ in range(WARMUP):
            f(path, rho, clip, rng)
        wall, cpu, core = [], [], []
        for _ in range(repeat):
            w0, c0 = time.perf_counter(), time.process_time()
            f(path, rho, clip, rng)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
            c0 = time.process_time()
            f(path, rho, clip, rng, validate=False)
            core.append(time.process_time() - c0)
        times[name] = {"seconds": wall, "cpu_seconds": cpu, "median_seconds": float(np.median(wall)),
                       "median_cpu_seconds": float(np.median(cpu)), "core_cpu_seconds": core,
                       "core_median_cpu_seconds": float(np.median(core))}
        print(f"numpy {name:32s} median {np.median(wall):.3f} s (CPU {np.median(cpu):.3f} s; without the finiteness"
              f" check and JSON output {np.median(core):.3f} s)", file=sys.stderr)
    json.dump({"what": "numpy ports of CoinPress and Analyze Gauss, reading the .npy, the finiteness check and the"
               " JSON output included (core: without the check and the output)", "n": int(n),
               "d": int(d), "rho": rho, "clip": clip, "repeat": repeat, "numpy": np.__version__, "times": times},
              open(out, "w"), indent=2)


if __name__ == "__main__":
    main()
