#!/usr/bin/env bash
# run-figure2.sh: reproduce Figure 2 of the NDIS paper (spec ndis.md §8.2) and file the results.
#
# Usage (from anywhere; the script works from the repository root):
#   bench/run-figure2.sh [OUTDIR] [--rebuild]
#
#   OUTDIR     output folder (default: bench/results/figure2)
#   --rebuild  rebuild bench/target/benchmarks.jar even if it looks up to date
#
# Environment:
#   JAVA       java executable (default: java on PATH)
#
# What it does:
#   1. Builds the shaded jar bench/target/benchmarks.jar (mvn -B -q -DskipTests package -pl bench -am) when
#      it is missing, older than any pom.xml or module source, or --rebuild.
#   2. Runs  java -Djava.awt.headless=true -cp bench/target/benchmarks.jar org.dpgauss.bench.Figure2Reproduction OUTDIR
#      which writes OUTDIR/figure2.json (p*, p_LSV and their ratio for delta=1e-6, r in {50,100,200,500},
#      eps on a log grid over [0.1, 5] with the §8.2 table epsilons, plus machine, command and date) and
#      OUTDIR/figure2.png (ratio against eps, log-scale eps axis, one line per r).
#   3. Tees the printed table (with the §8.2 reference ratios beside it) to OUTDIR/figure2.log.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # moves to the repository root

outdir=""
rebuild=0
while (($# > 0)); do
    common_option run-figure2.sh "$1"
    shift
done
outdir="${outdir:-bench/results/figure2}"

ensure_benchmarks_jar run-figure2.sh "$rebuild"

mkdir -p "$outdir"
cmd=("$JAVA" -Djava.awt.headless=true -cp "$JAR" org.dpgauss.bench.Figure2Reproduction "$outdir")
command_line="$(describe_command "bench/run-figure2.sh $outdir" "${cmd[@]}")"
log="$outdir/figure2.log"
run_logged "$log" figure2.command "$command_line" "${cmd[@]}"
echo ">> done: $outdir/figure2.json, $outdir/figure2.png, $log" >&2
