"""Issue 29: the new user's session replayed on scikit-learn's five tables through the command line, stated vs
realised accuracy. Raw tables (iris, wine, breast cancer, diabetes, digits) and the same min-max scaled to [0, 1]
(the scaling uses the data's own min/max: a benchmark shortcut, NOT private; docs/cli.md "Scaling columns" says to
use public bounds). Usage (DPGAUSS_NO_BUILD=1 to use the built jar):
  /usr/bin/python3 newuser_replay.py DPGAUSS_LAUNCHER OUTDIR RUNS
Prints one line per table and command: stated expected and bound, realised median, ratio, runs over the bound and
the number of warnings the release printed (secure noise, no seed).
"""
import json
import os
import subprocess
import sys

import numpy as np
from sklearn import datasets

launcher, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(out, exist_ok=True)


def run(args):
    r = subprocess.run([launcher] + args + ["--json"], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else None


loaders = {"iris": datasets.load_iris, "wine": datasets.load_wine, "bc": datasets.load_breast_cancer,
           "diabetes": datasets.load_diabetes, "digits": datasets.load_digits}
for t, load in loaders.items():
    X = load().data
    n, d = X.shape
    lo, hi = X.min(0), X.max(0)
    Z = (X - lo) / np.where(hi > lo, hi - lo, 1)
    raw, z01 = os.path.join(out, t + ".csv"), os.path.join(out, t + "_01.csv")
    np.savetxt(raw, X, delimiter=",", fmt="%.10g")
    np.savetxt(z01, Z, delimiter=",", fmt="%.10g")
    m, C, S = Z.mean(0), np.cov(Z.T, bias=True), Z.T @ Z / n
    ev = np.linalg.eigvalsh(C)[::-1]
    rad = np.sqrt(d) / 2
    cases = {
        "mean clip": (["mean", "--input", z01, "--clip", str(rad), "--centre", "0.5", "--epsilon", "1"],
                      lambda j: np.linalg.norm(np.array(j["mean"]) - m)),
        "mean auto raw": (["mean", "--input", raw, "--clip", "auto", "--epsilon", "1"],
                          lambda j: np.linalg.norm(np.array(j["mean"]) - X.mean(0)) / j["clipRadius"]),
        "mean auto 01": (["mean", "--input", z01, "--clip", "auto", "--centre", "0.5", "--epsilon", "1"],
                         lambda j: np.linalg.norm(np.array(j["mean"]) - m) / j["clipRadius"]),
        "mean box": (["mean", "--input", z01, "--bounds", "0:1", "--method", "box", "--epsilon", "1"],
                     lambda j: np.linalg.norm(np.array(j["mean"]) - m)),
        "second-moment": (["second-moment", "--input", z01, "--radius", str(np.sqrt(d)), "--epsilon", "1"],
                          lambda j: np.linalg.norm(np.array(j["secondMoment"]) - S, 2)),
        "covariance": (["covariance", "--input", z01, "--radius", str(rad), "--centre", "0.5", "--epsilon", "1"],
                       lambda j: np.linalg.norm(np.array(j["covariance"]) - C, 2)),
        "pca k=2": (["pca", "--input", z01, "--k", "2", "--radius", str(np.sqrt(d)), "--mean-radius",
                     str(np.sqrt(d)), "--epsilon", "1"],
                    lambda j: ev[:2].sum() - np.trace(np.array(j["components"]) @ C @ np.array(j["components"]).T)),
    }
    for name, (args, err) in cases.items():
        es, st, ws = [], None, []
        for _ in range(runs):
            j = run(args)
            if j is None or j["status"] != "PASS":
                continue
            es.append(err(j))
            st = j["accuracy"]
            ws.append(len(j.get("warnings", [])))
        es = np.array(es)
        med = np.median(es)
        basis = "scenario" if st.get("expectedBasis") else "expected"
        print(f"| {t} | {name} | {st['expected']:.4g} ({basis}) | {st['bound']:.4g} | {med:.4g} | "
              f"{st['expected'] / med:.2f} | {int(np.sum(es > st['bound']))}/{len(es)} | {max(ws) if ws else 0} |",
              flush=True)
