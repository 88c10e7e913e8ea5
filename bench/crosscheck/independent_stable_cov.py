#!/usr/bin/env python3
"""Independent reference for `dpgauss inspect stable-cov` (spec unbounded-gaussian-sampling §3.2-3.3).

Shares no code with dpgauss: numpy only, Algorithm 3 with Algorithm 4 run from scratch at every threshold,
the Mahalanobis norms by np.linalg.solve (LU), not by a Cholesky factor; "A singular" when the smallest
eigenvalue of the equilibrated matrix D^-1/2 A D^-1/2 (D = diag A) is <= 1e-12. (Until issue 24 it was 1e-12
times A's largest diagonal entry, as spec §9 suggests; one row at 1e10 then makes every A singular. The generated
cases are well conditioned, so both tests give the same verdicts on them.) Like dpgauss, each round first removes the
rows holding more than lam/m of a coordinate's sum of squares (their norm exceeds lam whatever A is), so one huge
row no longer swamps A; dpgauss's dominant-row basis (lam > m/4 only) is not reproduced here.

  independent_stable_cov.py stable-cov Y.csv LAMBDA0 K     -> {"score":..,"weights":[..]} on stdout
  independent_stable_cov.py check [--dpgauss ./dpgauss] [--seed S] [--cases N]
        generates fresh Gaussian pairs with planted outliers (several scales, so different thresholds peel
        different rows), runs both, and compares score and weights output for output (exact equality).
"""
import argparse
import json
import subprocess
import sys
import tempfile
import os

import numpy as np


def largest_good_subset(y, lam):
    m, d = y.shape
    s = np.ones(m, dtype=bool)
    while True:
        if not s.any():
            return s
        ys = y[s]
        # rows holding more than lam/m of a coordinate's sum of squares exceed lam whatever A is (Cauchy-Schwarz:
        # q_i >= m y_ij^2 / sum_S y_lj^2): they leave first, as in dpgauss (same set in exact arithmetic)
        c = np.max(np.abs(ys), axis=0)
        c[c == 0] = 1
        sh = (ys / c) ** 2
        cert = np.any(m * sh > lam * sh.sum(axis=0) * (1 + 1e-6), axis=1)
        if cert.any():
            idx = np.flatnonzero(s)
            s[idx[cert]] = False
            continue
        a = ys.T @ ys / m                      # divide by m, not |S| (spec §3.3 line 3)
        dg = np.diag(a)
        if np.any(dg <= 0) or np.linalg.eigvalsh(a / np.sqrt(np.outer(dg, dg)))[0] <= 1e-12:
            return np.zeros(m, dtype=bool)     # singular: OUT = S
        q = np.einsum('ij,ji->i', ys, np.linalg.solve(a, ys.T))
        out = q > lam                          # strict
        if not out.any():
            return s
        idx = np.flatnonzero(s)
        s[idx[out]] = False


def stable_cov(y, lambda0, k):
    m = y.shape[0]
    sets = [largest_good_subset(y, np.exp(l / k) * lambda0) for l in range(2 * k + 1)]
    score = min(k, min(m - int(sets[l].sum()) + l for l in range(k + 1)))
    counts = np.zeros(m, dtype=np.int64)
    for l in range(k + 1, 2 * k + 1):
        counts += sets[l]
    weights = [int(c) / (k * m) for c in counts]
    return {"score": int(score), "weights": weights}


def generate(rng, m, d, outlier_fraction):
    a = np.tril(rng.normal(scale=0.5, size=(d, d)), -1) + np.diag(rng.uniform(1, 3, size=d))
    x = rng.normal(size=(2 * m, d)) @ a.T + rng.normal(scale=10, size=d)
    n_out = int(round(outlier_fraction * 2 * m))
    rows = rng.choice(2 * m, size=n_out, replace=False)
    scales = np.geomspace(1.5, 50, n_out)      # moderate to huge: peeled at different thresholds
    x[rows] += rng.normal(size=(n_out, d)) * scales[:, None] * a.diagonal()[None, :]
    return (x[:m] - x[m:]) / np.sqrt(2)


def check(args):
    rng = np.random.default_rng(args.seed)
    # the last two plant fewer outliers than k, so the score is below k
    cases = [(400, 3, 0.02), (1000, 5, 0.05), (600, 8, 0.02), (2000, 10, 0.03), (300, 2, 0.1), (1500, 20, 0.02),
             (800, 4, 0.002), (1200, 6, 0.0015)]
    cases = cases[:args.cases]
    failures = 0
    report = []
    with tempfile.TemporaryDirectory() as tmp:
        for c, (m, d, frac) in enumerate(cases):
            y = generate(rng, m, d, frac)
            path = os.path.join(tmp, f"y{c}.csv")
            np.savetxt(path, y, delimiter=",", fmt="%.17g")
            for lambda0, k in [(4 * d + 20, 7), (1.5 * d + 1, 5), (max(1.0, 0.8 * d), 3)]:
                ref = stable_cov(np.loadtxt(path, delimiter=",", ndmin=2), lambda0, k)
                cmd = [args.dpgauss, "--engine", "cpu", "inspect", "stable-cov", "--input", path,
                       "--lambda0", repr(lambda0), "--k", str(k)]
                got = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                same = got["score"] == ref["score"] and got["weights"] == ref["weights"]
                peeled = sum(1 for w in ref["weights"] if w < 1.0 / m)
                report.append({"m": m, "d": d, "outliers": frac, "lambda0": lambda0, "k": k,
                               "score": ref["score"], "rows_with_reduced_weight": peeled, "identical": same})
                if not same:
                    failures += 1
    print(json.dumps({"seed": args.seed, "comparisons": len(report), "mismatches": failures, "cases": report},
                     indent=1))
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("stable-cov")
    s.add_argument("input")
    s.add_argument("lambda0", type=float)
    s.add_argument("k", type=int)
    c = sub.add_parser("check")
    c.add_argument("--dpgauss", default="./dpgauss")
    c.add_argument("--seed", type=int, default=20261121)
    c.add_argument("--cases", type=int, default=8)
    args = p.parse_args()
    if args.cmd == "stable-cov":
        y = np.loadtxt(args.input, delimiter=",", ndmin=2)
        print(json.dumps(stable_cov(y, args.lambda0, args.k)))
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
