"""dpgauss's box mean against IBM diffprivlib's tools.mean on scikit-learn's five bundled tables (issue 27).

Each table is scaled to [0, 1] per column (min-max; a constant column becomes 0), the public bounds are [0, 1] for
every column, and both libraries release the mean of the columns; the error is the L2 distance to the exact mean.
diffprivlib: tools.mean(x, epsilon=1, bounds=(0, 1), axis=0) (pure 1-DP: epsilon/d per column, Laplace truncated to
the bounds; diffprivlib/tools/utils.py _wrap_axis and _mean). It has no delta, so its (1, 1e-6) row is the same
mechanism as its pure one. dpgauss: the command line, `mean --bounds 0:1 --epsilon 1 --method box-pure` (pure 1-DP)
and `mean --bounds 0:1 --epsilon 1 --delta 1e-6` (--method auto, the default with bounds).
Usage: PYTHONPATH=DIFFPRIVLIB_SRC python3 mean_vs_diffprivlib.py JAR|LAUNCHER SEEDS OUTDIR (LAUNCHER: ./dpgauss)
Writes OUTDIR/mean-vs-diffprivlib.md (the table) and OUTDIR/mean-vs-diffprivlib.jsonl (every run); exits 1 if on
some table the auto mean's median error at (1, 1e-6) exceeds diffprivlib's at pure 1-DP.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import diffprivlib
from diffprivlib.tools import mean as dpl_mean
from sklearn import datasets

jar, seeds, outdir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(outdir, exist_ok=True)
raw = open(os.path.join(outdir, "mean-vs-diffprivlib.jsonl"), "w")

tables = {
    "iris": datasets.load_iris().data,
    "diabetes": datasets.load_diabetes(scaled=False).data,
    "wine": datasets.load_wine().data,
    "digits": datasets.load_digits().data,
    "breast_cancer": datasets.load_breast_cancer().data,
}


def scaled(x):
    lo, hi = x.min(axis=0), x.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return np.clip((x - lo) / span, 0.0, 1.0)


def dpgauss(path, args, seed):
    cmd = ["java", "-jar", jar] if jar.endswith(".jar") else [jar]
    p = subprocess.run([*cmd, "mean", "--input", path, "--bounds", "0:1",
                        "--epsilon", "1", *args, "--json", "--insecure-seed", str(seed)], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"dpgauss failed ({p.returncode}): {p.stderr}")
    out = json.loads(p.stdout)
    return np.array(out["mean"]), out


rows = []
ok = True
with tempfile.TemporaryDirectory() as tmp:
    for name, x in tables.items():
        u = scaled(x.astype(float))
        n, d = u.shape
        path = os.path.join(tmp, name + ".csv")
        np.savetxt(path, u, delimiter=",", fmt="%.17g")
        exact = u.mean(axis=0)
        errs = {"diffprivlib pure 1-DP": [], "dpgauss box-pure, pure 1-DP": [], "dpgauss auto, (1, 1e-6)-DP": []}
        chosen = None
        for seed in range(1, seeds + 1):
            m = dpl_mean(u, epsilon=1.0, bounds=(0.0, 1.0), axis=0, random_state=seed)
            e = float(np.linalg.norm(m - exact))
            errs["diffprivlib pure 1-DP"].append(e)
            raw.write(json.dumps({"table": name, "method": "diffprivlib", "seed": seed, "error": e}) + "\n")
            for label, args in (("dpgauss box-pure, pure 1-DP", ["--method", "box-pure"]),
                                ("dpgauss auto, (1, 1e-6)-DP", ["--delta", "1e-6"])):
                v, out = dpgauss(path, args, seed)
                e = float(np.linalg.norm(v - exact))
                errs[label].append(e)
                if label.startswith("dpgauss auto"):
                    chosen = out.get("method")
                raw.write(json.dumps({"table": name, "method": label, "seed": seed, "error": e,
                                      "chosen": out.get("method"), "stated": out.get("accuracy")}) + "\n")
            raw.flush()
        med = {k: float(np.median(v)) for k, v in errs.items()}
        ratio = med["dpgauss auto, (1, 1e-6)-DP"] / med["diffprivlib pure 1-DP"]
        ok = ok and ratio <= 1.0
        rows.append((name, n, d, med, ratio, chosen))

with open(os.path.join(outdir, "mean-vs-diffprivlib.md"), "w") as f:
    f.write(f"Median L2 error of the mean over {seeds} seeds, columns scaled to [0, 1], public bounds [0, 1] per column"
            f" (diffprivlib {diffprivlib.__version__}; its tools.mean has no delta: its (1, 1e-6) figure is its pure"
            " 1-DP one).\n\n")
    f.write("| table (n x d) | diffprivlib, pure 1-DP | dpgauss box-pure, pure 1-DP | dpgauss auto, (1, 1e-6)-DP |"
            " auto chose | auto / diffprivlib |\n|---|---|---|---|---|---|\n")
    for name, n, d, med, ratio, chosen in rows:
        f.write(f"| {name} ({n} x {d}) | {med['diffprivlib pure 1-DP']:.4g} | {med['dpgauss box-pure, pure 1-DP']:.4g}"
                f" | {med['dpgauss auto, (1, 1e-6)-DP']:.4g} | {chosen} | {ratio:.2f} |\n")
print(open(os.path.join(outdir, "mean-vs-diffprivlib.md")).read())
sys.exit(0 if ok else 1)
