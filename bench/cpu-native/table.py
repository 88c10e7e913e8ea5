#!/usr/bin/env python3
"""Joins the dpgauss (both CPU engines) and numpy timings of one bench/run-cpu-native.sh run into a table.

usage: table.py OUT_JSON OUT_MD java1.json numpy1.json [java2.json numpy2.json ...]
Ratios are of medians measured in the same run on the same machine: process CPU seconds (pinned to one core with one
BLAS thread on both sides: the work, robust to other jobs on a shared machine), wall seconds in the JSON beside them.
"""
import json
import sys


def main():
    out_json, out_md = sys.argv[1], sys.argv[2]
    pairs = [(json.load(open(a)), json.load(open(b))) for a, b in zip(sys.argv[3::2], sys.argv[4::2])]
    rows, lines = [], []
    lines.append("| primitive | n x d | EJML CPU s | OpenBLAS CPU s | numpy CPU s | EJML / OpenBLAS | OpenBLAS / numpy "
                 "| OpenBLAS / numpy (wall) |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for jv, py in pairs:
        shape = f"{jv['n']} x {jv['d']}"
        for op, per in jv["times"].items():
            ej = per.get("cpu-ejml", {}).get("median_cpu_seconds")
            ob = per.get("cpu-openblas", {}).get("median_cpu_seconds")
            nps = py["times"].get(op, {}).get("median_cpu_seconds")
            obw = per.get("cpu-openblas", {}).get("median_seconds")
            npw = py["times"].get(op, {}).get("median_seconds")
            row = {"op": op, "n": jv["n"], "d": jv["d"], "ejml_cpu_s": ej, "openblas_cpu_s": ob, "numpy_cpu_s": nps,
                   "ejml_over_openblas": ej / ob if ej and ob else None,
                   "openblas_over_numpy": ob / nps if ob and nps else None,
                   "openblas_wall_s": obw, "numpy_wall_s": npw,
                   "openblas_over_numpy_wall": obw / npw if obw and npw else None}
            rows.append(row)

            def f(v, ratio=False):
                return "-" if v is None else (f"{v:.2f}x" if ratio else f"{v:.4g}")
            lines.append(f"| {op} | {shape} | {f(ej)} | {f(ob)} | {f(nps)} | {f(row['ejml_over_openblas'], True)} "
                         f"| {f(row['openblas_over_numpy'], True)} | {f(row['openblas_over_numpy_wall'], True)} |")
    json.dump({"rows": rows, "java": [p[0] for p in pairs], "numpy": [p[1] for p in pairs]}, open(out_json, "w"),
              indent=2)
    open(out_md, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
