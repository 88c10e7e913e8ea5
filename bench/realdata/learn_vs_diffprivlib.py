"""dpgauss pca / regress / mechanism blr against IBM diffprivlib's PCA / LinearRegression / LogisticRegression on
scikit-learn's bundled tables (issue 26 item 3, issue 29's BLR comparison).

Usage:
  PYTHONPATH=DIFFPRIVLIB_SRC python3 bench/realdata/learn_vs_diffprivlib.py LAUNCHER SEEDS OUTDIR [options]
  LAUNCHER: ./dpgauss (DPGAUSS_NO_BUILD=1 to run the jar as built) or a .jar. Every option is in OPTIONS below.
Writes OUTDIR/learn-vs-diffprivlib.md (the tables) and OUTDIR/learn-vs-diffprivlib.jsonl (every run). Exits 1 if,
on some table and budget, dpgauss's median is worse than diffprivlib's (PCA: captured share; regress: held-out MSE;
blr: held-out accuracy against diffprivlib's better configuration), 0 otherwise; the tables are written either way.

Data (the public bounds, the same for both libraries). Each table's columns are min-max scaled to [0, 1] by the
whole table's per-column range (a stand-in for ranges known from the schema, as in mean_vs_diffprivlib.py; a constant
column becomes 0), so the public feature bounds are [0, 1]^d for both libraries:
- PCA (whole table, unsupervised): diffprivlib PCA(n_components=k, epsilon, data_norm=R, bounds=(0, 1)) and
  dpgauss `pca --k k --radius R` with R = sqrt(d), the diameter of the box: the only centred-row bound the box gives
  for a centre inside the box, whatever the centre (diffprivlib centres on its private mean, which its truncated
  Laplace keeps in the box). Metric: tr(V^T C V) / sum_{i<=k} lambda_i(C), C the exact covariance (1/n) of the
  scaled rows, V the released k components (orthonormalised; both libraries release orthonormal rows).
- Regression (70/30 split drawn per seed): features scaled as above; the target in its own units, with public bounds
  [lo, hi] = the whole table's range of the target column. diffprivlib LinearRegression(epsilon, bounds_X=([0]*d,
  [1]*d), bounds_y=(lo, hi)); dpgauss `regress` with the documented translation of the same box (docs/cli.md,
  regress): --feature-centre 0.5,..,0.5 --feature-bound sqrt(d)/2 --target-centre (lo+hi)/2 --target-bound
  (hi-lo)/2. Metrics on the held-out 30 %: MSE / MSE of non-private OLS (sklearn LinearRegression) fitted on the
  same training rows, and R^2 = 1 - MSE / mean((y - mean(y))^2) (R^2 > 0: better than predicting the test mean).
- BLR (breast cancer only): features centred and divided by their spread (the whole table's mean and standard
  deviation, stand-ins for public ones) and by sqrt(d), rows clipped to norm 1 (both libraries clip), labels 0/1.
  dpgauss `mechanism blr --row-bound 1 --max-rows n_train` with lambda from `plan blr` (its JSON "command"), as
  the point estimate (--output point) and the posterior sample (--output sample); diffprivlib
  LogisticRegression(epsilon, data_norm=1) with its defaults (C=1, fit_intercept=True) and with the same
  regulariser (C = 1/lambda, fit_intercept=False: its objective sum_i loss_i + ||w||^2/(2C)). Metric: held-out
  accuracy.

Privacy. diffprivlib's PCA, LinearRegression and LogisticRegression are pure epsilon-DP (delta = 0; their accountant
spends (epsilon, 0)), under replace-one neighbours with n public; they take no delta, so at (eps, 1e-6) they run the
same mechanism as at pure eps and their guarantee is stronger than the dpgauss one it is compared with. dpgauss pca
and regress are rho-zCDP under replace-one neighbours (n public), run with --epsilon eps --delta 1e-6: the largest
rho whose conversion (Canonne-Kamath-Steinke 2020, Cor. 13, the one conversion every command uses) gives
(eps, 1e-6)-DP. dpgauss mechanism blr is (eps, delta)-DP under add/remove neighbours of at most --max-rows rows;
add/remove (e, d) implies replace-one (2e, (1 + e^e) d), so the table also has blr at (eps/2, delta/(1 + e^(eps/2)))
("replace-one matched"), which is at least as private as diffprivlib's replace-one eps-DP up to that delta.
"""
import argparse
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

# ---------------------------------------------------------------------------------------------------------------
# OPTIONS: everything the lead may change when re-running after `pca` / `regress` improve (all in one place).
# ---------------------------------------------------------------------------------------------------------------
ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("launcher", help="./dpgauss or a dpgauss-cli-*-all.jar")
ap.add_argument("seeds", type=int, help="seeds per cell (the issue: 20)")
ap.add_argument("outdir")
ap.add_argument("--epsilons", default="1,0.5", help="comma list of epsilons (default 1,0.5)")
ap.add_argument("--delta", type=float, default=1e-6, help="dpgauss delta (default 1e-6)")
ap.add_argument("--tables", default="breast_cancer,diabetes,digits,wine,iris", help="comma list of tables")
ap.add_argument("--parts", default="pca,regress,blr", help="comma list among pca,regress,blr")
ap.add_argument("--ks", default="2,5", help="PCA: comma list of k (k > d is skipped)")
ap.add_argument("--test-share", type=float, default=0.3, help="regress, blr: held-out share (default 0.3)")
ap.add_argument("--pca-radius", default="box",
                help="PCA radius R (dpgauss --radius, diffprivlib data_norm, the same for both): 'box' (sqrt(d), the "
                     "box's diameter, the default: no centred row is ever clipped), 'half' (sqrt(d)/2, the box's "
                     "half-diagonal: also the largest root-mean-square centred norm any data in the box can have), "
                     "a number, or 'oracle:Q' (NOT private, diagnosis only: the Q-quantile of the exact centred row "
                     "norms), or 'auto': dpgauss --radius auto --radius-cap sqrt(d) (the radius found privately below "
                     "the box's diameter with a share of the same budget), diffprivlib data_norm=sqrt(d)")
ap.add_argument("--pca-args", default="", help="extra dpgauss pca options, e.g. '--method auto --mean-share 0.2'")
ap.add_argument("--regress-args", default="", help="extra dpgauss regress options")
ap.add_argument("--regress-box", default="per-column", choices=["per-column", "ball"],
                help="regress: the public box as per-column --bounds (default; the same box diffprivlib gets) or "
                     "the older translation to one L2 ball (--feature-centre/--feature-bound)")
ap.add_argument("--blr-args", default="", help="extra dpgauss mechanism blr options")
ap.add_argument("--blr-outputs", default="point,sample", help="dpgauss blr --output values to run")
ap.add_argument("--name", default="learn-vs-diffprivlib", help="output file stem")
opt = ap.parse_args()

# Regression targets, one per table (index into the table's columns, or "target" for the table's own target):
#  breast_cancer: the diagnosis label (0 malignant / 1 benign) as a linear probability model: the table's target,
#                 a [0, 1] target (the new-user example);
#  diabetes:      the table's target (disease progression one year after baseline), on the 10 raw baseline columns;
#  digits:        pixel 36 (row 4, column 4: the image centre) from the other 63 pixels (inpainting; the digit
#                 label 0-9 is a class, not a quantity a linear model should predict);
#  wine:          alcohol (column 0) from the other 12 chemical measurements (the class is a cultivar, not a
#                 quantity);
#  iris:          petal width (column 3) from the other three measurements (the classic iris regression).
#  boston:        the median home value (the table's target) from the 13 other columns (not in the default list:
#                 the extra tables for a check on data the defaults were not chosen on);
#  linnerud:      waist (column 4) from the three exercises, weight and pulse (20 rows: a table too small to learn).
TARGETS = {"breast_cancer": "target", "diabetes": "target", "digits": 36, "wine": 0, "iris": 3, "boston": "target",
           "linnerud": 4}
BLR_TABLE = "breast_cancer"
# ---------------------------------------------------------------------------------------------------------------

import diffprivlib  # noqa: E402  (after the options so that --help works without it)
from diffprivlib.models import PCA as DplPCA, LinearRegression as DplLR, LogisticRegression as DplLogit  # noqa
from sklearn import datasets  # noqa: E402
from sklearn.linear_model import LinearRegression as OLS, LogisticRegression as SkLogit  # noqa: E402
import sklearn  # noqa: E402

import diffprivlib.models.logistic_regression as _dlr  # noqa: E402


class _AveragedLinearModelLoss(_dlr.LinearModelLoss):
    """scikit-learn >= 1.4's LinearModelLoss (the loss averaged over the rows) on an older scikit-learn.

    diffprivlib 0.6.6 requires scikit-learn >= 1.4 (its setup.py), where LinearModelLoss.loss_gradient returns the
    sample-weighted AVERAGE of the row losses; it pairs that with l2_reg_strength = 1/(C n) and adds the objective
    perturbation b.w/n (Chaudhuri-Monteleoni-Sarwate 2011: n (average loss + ||w||^2/(2Cn) + b.w/n) = sum loss +
    ||w||^2/(2C) + b.w). Debian's scikit-learn 1.2.1 returns the SUM, so unpatched the perturbation is n times too
    small against the loss (the fit is not epsilon-DP) and the ridge n times too weak. Dividing the sample weights by
    their sum gives the average, as scikit-learn 1.2.1's own LogisticRegression does (_logistic.py, sw_sum).
    """

    def loss_gradient(self, coef, X, y, sample_weight=None, l2_reg_strength=0.0, n_threads=1):
        sw = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        return super().loss_gradient(coef, X, y, sw / sw.sum(), l2_reg_strength, n_threads)


SKLEARN_AVERAGES = tuple(int(v) for v in sklearn.__version__.split(".")[:2]) >= (1, 4)
if not SKLEARN_AVERAGES:
    _dlr.LinearModelLoss = _AveragedLinearModelLoss

warnings.filterwarnings("ignore", category=diffprivlib.utils.PrivacyLeakWarning)
warnings.filterwarnings("ignore", category=diffprivlib.utils.DiffprivlibCompatibilityWarning)

EPS = [float(e) for e in opt.epsilons.split(",")]
os.makedirs(opt.outdir, exist_ok=True)
raw = open(os.path.join(opt.outdir, opt.name + ".jsonl"), "w")
# a .jar runs with the quick-start flags (C1 only, serial GC: these tables are small; Java arithmetic is the same)
base_cmd = (["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", opt.launcher]
            if opt.launcher.endswith(".jar") else [opt.launcher])


def load(name):
    if name == "boston":  # scikit-learn 1.2 no longer loads it, but still ships the file (Harrison & Rubinfeld 1978)
        path = os.path.join(os.path.dirname(datasets.__file__), "data", "boston_house_prices.csv")
        tab = np.loadtxt(path, delimiter=",", skiprows=2)
        return tab[:, :-1], tab[:, -1]
    if name == "linnerud":  # 20 rows: the three exercises, then weight, waist, pulse
        b = datasets.load_linnerud()
        return np.hstack([b.data, b.target]).astype(float), np.zeros(20)
    b = {"iris": datasets.load_iris, "diabetes": lambda: datasets.load_diabetes(scaled=False),
         "wine": datasets.load_wine, "digits": datasets.load_digits,
         "breast_cancer": datasets.load_breast_cancer}[name]()
    return b.data.astype(float), b.target.astype(float)


def minmax(x):
    lo, hi = x.min(axis=0), x.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return np.clip((x - lo) / span, 0.0, 1.0)


def dpgauss(args, seed):
    cmd = [*base_cmd, *args, "--json", "--insecure-seed", str(seed)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"dpgauss failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
    return json.loads(p.stdout)


def budget_args(eps, delta):
    return ["--epsilon", repr(eps), "--delta", repr(delta)]


def emit(rec):
    raw.write(json.dumps(rec) + "\n")
    raw.flush()


def med(v):
    return float(np.median(v))


def split(n, seed):
    perm = np.random.default_rng(seed).permutation(n)
    cut = int(round((1 - opt.test_share) * n))
    return perm[:cut], perm[cut:]


results = {"pca": [], "regress": [], "blr": []}
losses = []
t0 = time.time()

with tempfile.TemporaryDirectory() as tmp:
    # ------------------------------------------------------------------ PCA
    if "pca" in opt.parts:
        for name in opt.tables.split(","):
            x, _ = load(name)
            u = minmax(x)
            n, d = u.shape
            c = u - u.mean(axis=0)
            cov = c.T @ c / n
            lam = np.sort(np.linalg.eigvalsh(cov))[::-1]
            norms = np.linalg.norm(c, axis=1)
            if opt.pca_radius in ("box", "auto"):
                radius = math.sqrt(d)
            elif opt.pca_radius == "half":
                radius = math.sqrt(d) / 2
            elif opt.pca_radius.startswith("oracle:"):
                radius = float(np.quantile(norms, float(opt.pca_radius.split(":")[1])))
            else:
                radius = float(opt.pca_radius)
            path = os.path.join(tmp, name + ".csv")
            np.savetxt(path, u, delimiter=",", fmt="%.17g")
            for k in (int(v) for v in opt.ks.split(",")):
                if k > d:
                    continue
                top = lam[:k].sum()

                def share(v):
                    q, _ = np.linalg.qr(np.asarray(v, dtype=float).T)  # d x k, orthonormal columns
                    return float(np.trace(q.T @ cov @ q) / top)

                for eps in EPS:
                    cell = {"dpl": [], "dpg": []}
                    for seed in range(1, opt.seeds + 1):
                        m = DplPCA(n_components=k, epsilon=eps, data_norm=radius, bounds=(0.0, 1.0),
                                   random_state=seed).fit(u)
                        s = share(m.components_)
                        cell["dpl"].append(s)
                        emit({"part": "pca", "table": name, "k": k, "epsilon": eps, "seed": seed,
                              "lib": "diffprivlib", "share": s, "radius": radius})
                        # --mean-radius sqrt(d): the box's farthest point from the origin, around which the
                        # private mean clips (the default, --radius, would clip the mean when R < sqrt(d))
                        rargs = (["--radius", "auto", "--radius-cap", repr(radius)] if opt.pca_radius == "auto"
                                 else ["--radius", repr(radius)])
                        out = dpgauss(["pca", "--input", path, "--k", str(k), *rargs,
                                       "--mean-radius", repr(math.sqrt(d)),
                                       *budget_args(eps, opt.delta), *shlex.split(opt.pca_args)], seed)
                        s = share(out["components"]) if out["status"] == "PASS" else 0.0
                        cell["dpg"].append(s)
                        emit({"part": "pca", "table": name, "k": k, "epsilon": eps, "seed": seed, "lib": "dpgauss",
                              "share": s, "radius": radius, "status": out["status"],
                              "releasedRadius": out.get("radius"),
                              "method": out.get("parameters", {}).get("secondMomentMethod"),
                              "statedBound": out.get("accuracy", {}).get("bound")})
                    # the share a uniformly random k-subspace captures in expectation: tr(C) k / d / top
                    rnd = float(np.trace(cov) * k / d / top)
                    row = {"table": name, "n": n, "d": d, "k": k, "epsilon": eps, "radius": radius,
                           "dpl": med(cell["dpl"]), "dpg": med(cell["dpg"]), "dplMin": min(cell["dpl"]),
                           "dpgMin": min(cell["dpg"]), "random": rnd}
                    results["pca"].append(row)
                    if row["dpg"] < row["dpl"]:
                        losses.append(f"pca {name} k={k} eps={eps}: dpgauss {row['dpg']:.3f} < diffprivlib "
                                      f"{row['dpl']:.3f}")
                    print(json.dumps(row), flush=True)

    # ------------------------------------------------------------------ regression
    if "regress" in opt.parts:
        for name in opt.tables.split(","):
            x, t = load(name)
            tgt = TARGETS[name]
            if tgt == "target":
                feats, y = x, t
                tname = "target"
            else:
                feats, y = np.delete(x, tgt, axis=1), x[:, tgt]
                tname = f"column {tgt}"
            u = minmax(feats)
            n, d = u.shape
            lo, hi = float(y.min()), float(y.max())
            for eps in EPS:
                cell = {"dpl": [], "dpg": [], "dplR2": [], "dpgR2": [], "olsR2": []}
                for seed in range(1, opt.seeds + 1):
                    tr, te = split(n, seed)
                    var_te = float(np.mean((y[te] - y[te].mean()) ** 2))
                    ols = OLS().fit(u[tr], y[tr])
                    mse_ols = float(np.mean((ols.predict(u[te]) - y[te]) ** 2))
                    m = DplLR(epsilon=eps, bounds_X=(np.zeros(d), np.ones(d)), bounds_y=(lo, hi),
                              random_state=seed).fit(u[tr], y[tr])
                    mse_dpl = float(np.mean((m.predict(u[te]) - y[te]) ** 2))
                    path = os.path.join(tmp, f"{name}-train.csv")
                    np.savetxt(path, np.hstack([u[tr], y[tr, None]]), delimiter=",", fmt="%.17g")
                    if opt.regress_box == "per-column":  # the same box as diffprivlib's bounds_X, bounds_y
                        bpath = os.path.join(tmp, f"{name}-bounds.csv")
                        with open(bpath, "w") as bf:
                            bf.write("".join("0,1\n" for _ in range(d)) + f"{lo!r},{hi!r}\n")
                        box = ["--bounds", bpath]
                    else:  # the older translation: one L2 ball around the box centre
                        box = ["--feature-centre", ",".join(["0.5"] * d), "--feature-bound", repr(math.sqrt(d) / 2),
                               "--target-centre", repr((lo + hi) / 2), "--target-bound", repr((hi - lo) / 2)]
                    out = dpgauss(["regress", "--input", path, "--target", str(d), *box,
                                   *budget_args(eps, opt.delta), *shlex.split(opt.regress_args)], seed)
                    if out["status"] == "PASS":
                        pred = u[te] @ np.array(out["coefficients"]) + out["intercept"]
                    else:  # a FAIL releases nothing: predict the public target centre
                        pred = np.full(len(te), (lo + hi) / 2)
                    mse_dpg = float(np.mean((pred - y[te]) ** 2))
                    for key, v in (("dpl", mse_dpl / mse_ols), ("dpg", mse_dpg / mse_ols),
                                   ("dplR2", 1 - mse_dpl / var_te), ("dpgR2", 1 - mse_dpg / var_te),
                                   ("olsR2", 1 - mse_ols / var_te)):
                        cell[key].append(v)
                    emit({"part": "regress", "table": name, "target": tname, "epsilon": eps, "seed": seed,
                          "mseOls": mse_ols, "mseDiffprivlib": mse_dpl, "mseDpgauss": mse_dpg, "varTest": var_te,
                          "status": out["status"], "ridge": out.get("ridge"),
                          "statedBound": out.get("accuracy", {}).get("bound")})
                row = {"table": name, "n": n, "d": d, "target": tname, "epsilon": eps,
                       "dpl": med(cell["dpl"]), "dpg": med(cell["dpg"]), "dplR2": med(cell["dplR2"]),
                       "dpgR2": med(cell["dpgR2"]), "olsR2": med(cell["olsR2"]),
                       "dpgR2Min": min(cell["dpgR2"]), "dplR2Min": min(cell["dplR2"])}
                results["regress"].append(row)
                if row["dpg"] > row["dpl"]:
                    losses.append(f"regress {name} eps={eps}: dpgauss MSE/OLS {row['dpg']:.3g} > diffprivlib "
                                  f"{row['dpl']:.3g}")
                print(json.dumps(row), flush=True)

    # ------------------------------------------------------------------ BLR vs logistic regression
    if "blr" in opt.parts:
        x, y01 = load(BLR_TABLE)
        n, d = x.shape
        z = (x - x.mean(axis=0)) / x.std(axis=0) / math.sqrt(d)
        z = z / np.maximum(1.0, np.linalg.norm(z, axis=1))[:, None]  # rows onto the unit ball (both would clip)
        # check of the loss semantics above: at a huge epsilon diffprivlib's fit must be sklearn's non-private one
        tr0, _ = split(n, 1)
        w_np = SkLogit(C=1.0, fit_intercept=False, max_iter=1000).fit(z[tr0], y01[tr0]).coef_.ravel()
        w_dp = DplLogit(epsilon=1e9, data_norm=1.0, C=1.0, fit_intercept=False, max_iter=1000,
                        random_state=1).fit(z[tr0], y01[tr0]).coef_.ravel()
        if np.linalg.norm(w_dp - w_np) > 0.05 * np.linalg.norm(w_np):  # unshimmed: a ridge n times weaker
            raise SystemExit("diffprivlib's LogisticRegression does not minimise scikit-learn's objective at a huge "
                             "epsilon: the loss semantics shim does not fit this scikit-learn version")
        for eps in EPS:
            n_tr = len(split(n, 1)[0])
            settings = [("matched", eps / 2, opt.delta / (1 + math.exp(eps / 2))), ("stated", eps, opt.delta)]
            lambdas = {}
            for tag, e, dl in settings:
                plan = dpgauss(["plan", "blr", "--n", str(n_tr), "--d", str(d), "--row-bound", "1",
                                *budget_args(e, dl)], 1)
                cmd = plan["methods"][0]["command"].split()
                lambdas[tag] = float(cmd[cmd.index("--lambda") + 1])
            cell = {}
            for seed in range(1, opt.seeds + 1):
                tr, te = split(n, seed)
                acc = {}
                sk = SkLogit(C=1.0, max_iter=1000).fit(z[tr], y01[tr])
                acc["non-private sklearn LogisticRegression (C=1)"] = float(sk.score(z[te], y01[te]))
                m = DplLogit(epsilon=eps, data_norm=1.0, random_state=seed).fit(z[tr], y01[tr])
                acc["diffprivlib default (C=1, intercept)"] = float(m.score(z[te], y01[te]))
                m = DplLogit(epsilon=eps, data_norm=1.0, C=1.0 / lambdas["stated"], fit_intercept=False,
                             random_state=seed).fit(z[tr], y01[tr])
                acc[f"diffprivlib C=1/lambda (lambda={lambdas['stated']:g}, no intercept)"] = \
                    float(m.score(z[te], y01[te]))
                path = os.path.join(tmp, "blr-train.csv")
                np.savetxt(path, np.hstack([z[tr], y01[tr, None]]), delimiter=",", fmt="%.17g")
                for tag, e, dl in settings:
                    for output in opt.blr_outputs.split(","):
                        out = dpgauss(["mechanism", "blr", "--input", path, "--lambda", repr(lambdas[tag]),
                                       "--row-bound", "1", "--max-rows", str(len(tr)), "--output", output,
                                       *budget_args(e, dl), *shlex.split(opt.blr_args)], 1000 + seed)
                        th = np.array(out["theta"])
                        a = float(np.mean(((z[te] @ th[:d]) > 0) == (y01[te] > 0)))
                        label = (f"dpgauss blr {output}, lambda={lambdas[tag]:g}, "
                                 + (f"add/remove ({e:g}, {dl:.3g})" if tag == "stated"
                                    else f"add/remove ({e:g}, {dl:.3g}): replace-one matched"))
                        acc[label] = a
                for label, a in acc.items():
                    cell.setdefault(label, []).append(a)
                    emit({"part": "blr", "table": BLR_TABLE, "epsilon": eps, "seed": seed, "config": label,
                          "accuracy": a})
            rows = {label: (med(v), min(v)) for label, v in cell.items()}
            best_dpl = max(v[0] for k_, v in rows.items() if k_.startswith("diffprivlib"))
            best_dpg = max(v[0] for k_, v in rows.items() if k_.startswith("dpgauss"))
            results["blr"].append({"epsilon": eps, "n": n, "d": d, "nTrain": n_tr, "rows": rows,
                                   "lambdas": lambdas})
            if best_dpg < best_dpl:
                losses.append(f"blr eps={eps}: best dpgauss {best_dpg:.3f} < best diffprivlib {best_dpl:.3f}")
            print(json.dumps(results["blr"][-1]), flush=True)

# ---------------------------------------------------------------------- the report
elapsed = time.time() - t0
md = os.path.join(opt.outdir, opt.name + ".md")
with open(md, "w") as f:
    f.write(f"Generated by `bench/realdata/learn_vs_diffprivlib.py {opt.launcher} {opt.seeds} OUTDIR"
            + "".join(f" {a}" for a in sys.argv[4:]) + "`"
            + f" (diffprivlib {diffprivlib.__version__}, scikit-learn {sklearn.__version__}, numpy {np.__version__},"
              f" Python {platform.python_version()}, {platform.machine()}, {elapsed / 60:.0f} min). Median over "
              f"{opt.seeds} seeds; dpgauss at (eps, {opt.delta:g})-DP, diffprivlib at pure eps-DP (see the script's"
              " header for the data, bounds and privacy conversion)."
            + ("" if SKLEARN_AVERAGES else " scikit-learn < 1.4: diffprivlib's LogisticRegression ran with its loss"
               " averaged as on scikit-learn >= 1.4, which it requires (_AveragedLinearModelLoss in the script);"
               " without it its perturbation is n times too small and its fit is not epsilon-DP.") + "\n\n")
    if results["pca"]:
        f.write("### PCA: share of the exact top-k variance captured (1 = perfect; higher is better)\n\n"
                "| table (n x d) | k | eps | radius R | diffprivlib PCA | dpgauss pca | dpgauss - diffprivlib |"
                " random k-subspace | worst seed dpl / dpg |\n|---|---|---|---|---|---|---|---|---|\n")
        for r in results["pca"]:
            f.write(f"| {r['table']} ({r['n']} x {r['d']}) | {r['k']} | {r['epsilon']:g} | {r['radius']:.3g} |"
                    f" {r['dpl']:.3f} | {r['dpg']:.3f} | {r['dpg'] - r['dpl']:+.3f} | {r['random']:.3f} |"
                    f" {r['dplMin']:.3f} / {r['dpgMin']:.3f} |\n")
        f.write("\n")
    if results["regress"]:
        f.write("### Regression: held-out MSE / non-private OLS's (1 = OLS; lower is better) and held-out R^2\n\n"
                "| table (n x d) | target | eps | diffprivlib MSE/OLS | dpgauss MSE/OLS | diffprivlib R^2 |"
                " dpgauss R^2 (worst seed) | OLS R^2 |\n|---|---|---|---|---|---|---|---|\n")
        for r in results["regress"]:
            f.write(f"| {r['table']} ({r['n']} x {r['d']}) | {r['target']} | {r['epsilon']:g} | {r['dpl']:.3g} |"
                    f" {r['dpg']:.3g} | {r['dplR2']:.3g} | {r['dpgR2']:.3g} ({r['dpgR2Min']:.3g}) |"
                    f" {r['olsR2']:.3f} |\n")
        f.write("\n")
    for b in results["blr"]:
        f.write(f"### Logistic regression on breast cancer ({b['n']} x {b['d']}, {b['nTrain']} training rows),"
                f" eps = {b['epsilon']:g}: held-out accuracy\n\n| configuration | median | worst seed |\n|---|---|---|\n")
        for label, (m_, lo_) in b["rows"].items():
            f.write(f"| {label} | {m_:.3f} | {lo_:.3f} |\n")
        f.write("\n")
    f.write("Verdict: " + ("dpgauss is at least as good as diffprivlib on every row above.\n" if not losses else
                          "dpgauss loses on: " + "; ".join(losses) + ".\n"))
print(open(md).read())
sys.exit(1 if losses else 0)
