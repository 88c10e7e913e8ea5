"""Exports scikit-learn's bundled tables (Debian package python3-sklearn ships them as CSV) as unit-norm rows.

Each row is divided by its own L2 norm (a per-row map, so neighbouring datasets stay neighbours), so a public
radius of 1 covers every row. Usage: python3 export.py OUTDIR [SKLEARN_DATA_DIR]
"""
import csv
import gzip
import os
import sys

import numpy as np

out = sys.argv[1]
src = sys.argv[2] if len(sys.argv) > 2 else "/usr/lib/python3/dist-packages/sklearn/datasets/data"
os.makedirs(out, exist_ok=True)


def first_line_table(name):
    # breast_cancer.csv, iris.csv, wine_data.csv: first line "n,d,...", then rows of d features + target
    with open(os.path.join(src, name)) as f:
        r = csv.reader(f)
        head = next(r)
        d = int(head[1])
        return np.array([[float(v) for v in row[:d]] for row in r])


tables = {
    "breast_cancer": first_line_table("breast_cancer.csv"),
    "iris": first_line_table("iris.csv"),
    "wine": first_line_table("wine_data.csv"),
    "digits": np.loadtxt(gzip.open(os.path.join(src, "digits.csv.gz")), delimiter=",")[:, :-1],
    "diabetes": np.loadtxt(gzip.open(os.path.join(src, "diabetes_data_raw.csv.gz"))),
}
for name, x in tables.items():
    norms = np.linalg.norm(x, axis=1)
    norms[norms == 0] = 1.0
    u = x / norms[:, None]
    np.savetxt(os.path.join(out, name + ".csv"), u, delimiter=",", fmt="%.17g")
    print(name, u.shape)
