#!/usr/bin/env python3
"""Joins bench/run-cpu-native.sh --e2e timings (dpgauss in one warmed JVM, both CPU engines; the numpy ports of
CoinPress and Analyze Gauss) into a markdown table.

usage: e2e_table.py OUT_MD JVM_START_SECONDS e2e-NxD.json e2e-numpy-NxD.json [...]
Process CPU seconds, both sides pinned to one core with one BLAS thread; reading the .npy file, the finiteness
check and the JSON output included on both sides (the port's computation alone in its own column); JVM start excluded
(reported below the table).
"""
import json
import sys


def main():
    out_md, start = sys.argv[1], sys.argv[2]
    lines = ["| command | n x d | EJML CPU s | OpenBLAS CPU s | numpy port CPU s | numpy port without check and output"
             " CPU s | OpenBLAS / numpy | OpenBLAS / numpy (wall) |", "|---|---|---|---|---|---|---|---|"]
    for a, b in zip(sys.argv[3::2], sys.argv[4::2]):
        jv, py = json.load(open(a)), json.load(open(b))
        for name, per in jv["times"].items():
            ej = per.get("ejml", {}).get("median_cpu_seconds")
            ob = per.get("cpu", {}).get("median_cpu_seconds")
            obw = per.get("cpu", {}).get("median_seconds")
            nps = py["times"].get(name, {}).get("median_cpu_seconds")
            npw = py["times"].get(name, {}).get("median_seconds")
            npc = py["times"].get(name, {}).get("core_median_cpu_seconds")

            def f(v):
                return "-" if v is None else f"{v:.3g}"

            def r(x, y):
                return f"{x / y:.2f}x" if x and y else "-"
            lines.append(f"| {name} | {jv['n']} x {jv['d']} | {f(ej)} | {f(ob)} | {f(nps)} | {f(npc)} | {r(ob, nps)} "
                         f"| {r(obw, npw)} |")
    lines.append("")
    lines.append(f"JVM start (`dpgauss --version`, pinned), not included above: {start} s. Both sides read the .npy,"
                 " reject non-finite values and print the result as JSON; the ratios compare that whole work.")
    open(out_md, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
