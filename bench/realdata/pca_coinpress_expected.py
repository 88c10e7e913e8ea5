#!/usr/bin/env python3
"""pca --method coinpress: the stated expected loss (computed from the release) against the realised loss.

For each of scikit-learn's five tables (columns min-max scaled to [0, 1], as learn_vs_diffprivlib.py does) and
k in {2, 5}, runs `dpgauss pca --method coinpress` over SEEDS seeds (--insecure-seed 1..SEEDS) and prints the
median realised top-k variance missed (sum of the k largest eigenvalues of the rows' covariance minus the variance
the released components capture; NOT private, computed here for the comparison only), the median stated
`accuracy.expected`, their ratio, and whether the release flagged itself as noise-dominated ("NOTE" in
`expectedBasis`).

Usage: python3 bench/realdata/pca_coinpress_expected.py LAUNCHER SEEDS "BUDGET OPTIONS" [box|max]
  LAUNCHER  a dpgauss-cli-*-all.jar (or ./dpgauss)
  box       --radius sqrt(d), the box's diameter (the default); max: --radius 1.0001 x the largest centred row norm
            (NOT private: a public radius chosen with hindsight, so that CoinPress has signal to lock onto)
--mean-radius is sqrt(d) in both.
"""
import json, math, subprocess, sys, tempfile, os
import numpy as np
from sklearn import datasets

launcher, seeds, budget = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
mode = sys.argv[4] if len(sys.argv) > 4 else "box"
base = ["java", "-jar", launcher] if launcher.endswith(".jar") else [launcher]
loaders = {"breast_cancer": datasets.load_breast_cancer, "diabetes": lambda: datasets.load_diabetes(scaled=False),
           "digits": datasets.load_digits, "wine": datasets.load_wine, "iris": datasets.load_iris}
with tempfile.TemporaryDirectory() as tmp:
    for name, load in loaders.items():
        x = load().data.astype(float)
        lo, hi = x.min(axis=0), x.max(axis=0)
        u = np.clip((x - lo) / np.where(hi > lo, hi - lo, 1.0), 0.0, 1.0)
        n, d = u.shape
        c = u - u.mean(axis=0)
        cov = c.T @ c / n
        lam = np.sort(np.linalg.eigvalsh(cov))[::-1]
        r = math.sqrt(d) if mode == "box" else 1.0001 * float(np.linalg.norm(c, axis=1).max())
        path = os.path.join(tmp, name + ".npy")
        np.save(path, u)
        for k in (2, 5):
            if k > d:
                continue
            real, stated, notes = [], [], 0
            for s in range(1, seeds + 1):
                p = subprocess.run([*base, "pca", "--input", path, "--k", str(k), "--radius", repr(r),
                                    "--mean-radius", repr(math.sqrt(d)), "--method", "coinpress", *budget, "--json",
                                    "--insecure-seed", str(s)], capture_output=True, text=True)
                o = json.loads(p.stdout)
                q, _ = np.linalg.qr(np.array(o["components"]).T)
                real.append(lam[:k].sum() - np.trace(q.T @ cov @ q))
                stated.append(o["accuracy"]["expected"])
                notes += "NOTE" in o["accuracy"]["expectedBasis"]
            mr, ms = float(np.median(real)), float(np.median(stated))
            print(f"| {name} ({n} x {d}) | {k} | {' '.join(budget)} | {r:.3g} | {mr:.4g} | {ms:.4g} | {ms / mr:.2f} "
                  f"| {lam[:k].sum():.4g} | {notes}/{seeds} |", flush=True)
