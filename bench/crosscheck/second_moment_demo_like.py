#!/usr/bin/env python3
"""`second-moment` (recursive) on demo-like data: N(0, diag(logspace(0, -4, 10))), n = 20000, rho = 0.5,
--clip 3 sqrt(trace), public lambda_min bound 0.5e-4; default m = d = 10 against --noise-scaling tight and
--m 5. Relative spectral error ||S^-1/2 S~ S^-1/2 - I|| against the non-private second moment, 10 seeded runs
(--insecure-seed 1..10: reproducible, not private). Usage: python3 bench/crosscheck/second_moment_demo_like.py"""
import json, os, subprocess, tempfile
import numpy as np

DPG = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "dpgauss")
rng = np.random.default_rng(5150)
d, n = 10, 20000
ev = np.logspace(0, -4, d)
x = rng.standard_normal((n, d)) * np.sqrt(ev)
f = os.path.join(tempfile.mkdtemp(), "demo-like.csv")
np.savetxt(f, x, delimiter=",", fmt="%.17g")
s = x.T @ x / n
w, v = np.linalg.eigh(s)
sm = v @ np.diag(w ** -0.5) @ v.T
for name, extra in (("m = 10 (default m = d)", []), ("m = 10, tight", ["--noise-scaling", "tight"]),
                    ("m = 5", ["--m", "5"]), ("m = 5, tight", ["--m", "5", "--noise-scaling", "tight"])):
    errs = []
    for seed in range(1, 11):
        r = json.loads(subprocess.run([DPG, "second-moment", "--input", f, "--rho", "0.5", "--clip", str(3 * np.sqrt(ev.sum())),
                                       "--min-eigenvalue", "0.5e-4", "--insecure-seed", str(seed), "--json", *extra],
                                      capture_output=True, text=True, check=True).stdout)
        t = np.array(r["secondMoment"])
        errs.append(np.abs(np.linalg.eigvalsh(sm @ t @ sm - np.eye(d))).max())
    print(f"{name}: mean {np.mean(errs):.3f} (min {np.min(errs):.3f}, max {np.max(errs):.3f}), levels {r['parameters']['levels']}")
