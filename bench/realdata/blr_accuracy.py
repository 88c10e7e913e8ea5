"""Training and held-out accuracy of `dpgauss mechanism blr` on scikit-learn's breast-cancer table (issue 29).

For each seed: a random 70/30 train/test split; the features are scaled by the preprocessing docs/cli.md
recommends for blr: every column mapped to [-1, 1] by a public range (here the table's own min and max, standing
in for the documented ranges of the measurements; the same ranges for every seed, so they are not derived from the
training split) and divided by sqrt(d), so every feature row has norm <= 1 = --row-bound. Labels stay 0/1 (blr maps
them by sign: 0 -> -1, 1 -> +1). The release is the private sample theta; its accuracy is that of the classifier
sign(x^T w + c b) (with --intercept c, theta = (w, b)). Prints, for each configuration, the median and minimum
training and held-out accuracy over the seeds, and the non-private regularised minimiser's for reference.

Usage: python3 blr_accuracy.py [SEEDS] [CONFIG...] with CONFIG = lambda:rowbound:intercept (intercept 0 = none);
environment DPGAUSS (the launcher, default ../../dpgauss), EPS (default 1), DELTA (default 1e-5), OUTPUT
(sample or point: --output of mechanism blr), SCALING (zscore, the default: each column centred and divided by its
spread, then by sqrt(d); or minmax: each column mapped to [-1, 1] by its range, then divided by sqrt(d)).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
dpgauss = os.environ.get("DPGAUSS", os.path.join(here, "..", "..", "dpgauss"))
eps = float(os.environ.get("EPS", "1"))
delta = float(os.environ.get("DELTA", "1e-5"))
src = os.environ.get("SKLEARN_DATA", "/usr/lib/python3/dist-packages/sklearn/datasets/data")

seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
configs = sys.argv[2:] or ["1:1:0", "1:1:1"]

raw = np.loadtxt(os.path.join(src, "breast_cancer.csv"), delimiter=",", skiprows=1)
x_raw, y01 = raw[:, :-1], raw[:, -1]
d = x_raw.shape[1]
scaling = os.environ.get("SCALING", "zscore")
output = os.environ.get("OUTPUT", "sample")
if scaling == "minmax":
    lo, hi = x_raw.min(axis=0), x_raw.max(axis=0)
    x = (2 * (x_raw - lo) / (hi - lo) - 1) / np.sqrt(d)  # |x_j| <= 1/sqrt(d): ||x|| <= 1
else:
    x = (x_raw - x_raw.mean(axis=0)) / x_raw.std(axis=0) / np.sqrt(d)  # a typical row has norm about 1


def nonprivate(xt, yt, lam, c):
    a = np.hstack([xt, np.full((len(xt), 1), c)]) if c > 0 else xt
    s = 2 * yt - 1
    th = np.zeros(a.shape[1])
    for _ in range(100):
        m = s * (a @ th)
        p = 1 / (1 + np.exp(m))
        g = -(a * (s * p)[:, None]).sum(0) + lam * th
        h = (a * (p * (1 - p))[:, None]).T @ a + lam * np.eye(a.shape[1])
        th -= np.linalg.solve(h, g)
    return th


def accuracy(th, xs, ys, c):
    score = xs @ th[:d] + (c * th[d] if c > 0 else 0)
    return float(np.mean((score > 0) == (ys > 0)))


print(f"breast cancer n={len(x)} d={d} scaling={scaling} output={output} epsilon={eps} delta={delta} seeds={seeds}")
with tempfile.TemporaryDirectory() as tmp:
    for cfg in configs:
        lam, l, c = (float(v) for v in cfg.split(":"))
        rows = []
        for seed in range(seeds):
            rng = np.random.default_rng(seed)
            perm = rng.permutation(len(x))
            cut = int(0.7 * len(x))
            tr, te = perm[:cut], perm[cut:]
            path = os.path.join(tmp, "train.csv")
            np.savetxt(path, np.hstack([x[tr], y01[tr, None]]), delimiter=",", fmt="%.17g")
            cmd = [dpgauss, "--json", "--insecure-seed", str(1000 + seed), "mechanism", "blr", "--input", path,
                   "--lambda", repr(lam), "--row-bound", repr(l), "--max-rows", "1000", "--epsilon", repr(eps),
                   "--delta", repr(delta)]
            if c > 0:
                cmd += ["--intercept", repr(c)]
            if output != "sample":
                cmd += ["--output", output]
            out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            th = np.array(out["theta"])
            npth = nonprivate(x[tr], y01[tr], lam, c)
            rows.append((accuracy(th, x[tr], y01[tr], c), accuracy(th, x[te], y01[te], c),
                         accuracy(npth, x[tr], y01[tr], c), accuracy(npth, x[te], y01[te], c)))
        a = np.array(rows)
        print(f"lambda={lam:g} row-bound={l:g} intercept={c:g}: private train median {np.median(a[:,0]):.3f}"
              f" min {a[:,0].min():.3f}; held-out median {np.median(a[:,1]):.3f} min {a[:,1].min():.3f};"
              f" non-private train {np.median(a[:,2]):.3f} held-out {np.median(a[:,3]):.3f}")
