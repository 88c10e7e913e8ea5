"""plan blr's recommended lambda for the point estimate (mechanism blr --output point): a simulation.

The point estimate is theta^ + N(0, s^2 I), theta^ the regularised logistic minimiser (within r ~ 1e-5 of it) and
s the analytic Gaussian's sigma at sensitivity l/lambda (l = 1 here; r is negligible at these facts). This script
simulates that release with scikit-learn's minimiser of the same objective (sum of logistic losses + lambda/2
||theta||^2: LogisticRegression(C=1/lambda, fit_intercept=False)) on breast cancer, preprocessed as
bench/realdata/learn_vs_diffprivlib.py does (centred, divided by the spread and sqrt(d), rows onto the unit ball;
70/30 split per seed, 20 seeds), and prints the median and worst held-out accuracy for lambda on plan blr's grid.

Run: /usr/bin/python3 bench/realdata/blr_point_lambda.py
S1 is `dpgauss calibrate gaussian --epsilon 1 --delta 1e-6 --sensitivity 1` (sigma at sensitivity 1; it scales
linearly). Result (2026-11-29, scikit-learn 1.2.1), lambda: median, worst:
  1: 0.877 0.596 | 1.8: 0.901 0.825 | 3.2: 0.918 0.871 | 5.6: 0.933 0.901 | 10: 0.936 0.901 | 18: 0.942 0.906 |
  32: 0.939 0.901
plan blr recommends 18 at these facts (its rule on the posterior sample's score noise); a rule on the point
estimate's own score noise s l' <= 1.5 would stop at 3.2. The real release at 18 measured 0.944
(bench/results/realdata/learn-vs-diffprivlib.md).
"""
import math

import numpy as np
from sklearn import datasets
from sklearn.linear_model import LogisticRegression

S1 = 4.224678889328613  # analytic Gaussian sigma at (1, 1e-6), sensitivity 1

b = datasets.load_breast_cancer()
x = b.data.astype(float)
y = b.target
n, d = x.shape
z = (x - x.mean(0)) / x.std(0) / math.sqrt(d)
z = z / np.maximum(1, np.linalg.norm(z, axis=1))[:, None]
for lam in [1, 1.8, 3.2, 5.6, 10, 18, 32]:
    accs = []
    for seed in range(1, 21):
        perm = np.random.default_rng(seed).permutation(n)
        cut = int(round(0.7 * n))
        tr, te = perm[:cut], perm[cut:]
        w = LogisticRegression(C=1 / lam, fit_intercept=False, max_iter=2000).fit(z[tr], y[tr]).coef_.ravel()
        th = w + np.random.default_rng(1000 + seed).normal(size=d) * S1 / lam
        accs.append(np.mean(((z[te] @ th) > 0) == (y[te] > 0)))
    print(f"lambda {lam:g}: median {np.median(accs):.3f}, worst {np.min(accs):.3f}")
