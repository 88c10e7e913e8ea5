#!/usr/bin/env bash
# run-anisotropic.sh: issue 7 item 6 - L2 error of the private mean estimators of spec
# anisotropic-mean-estimation (Algorithm 1 with M = Sigma, folklore M = I, Algorithm 2 with both TopVar
# thresholds, the clipped Gaussian mechanism, the coordinate-wise mean, the non-private mean) against
# epsilon in {0.1, 0.5, 1} (delta = 1e-6) on N(mu, diag(sigma_i^2)) data with sigma_i^2 = i^-2 and e^-i,
# beside the calibrated predictions and the paper's rates; and the CPU time of one neighbour count.
#
# Usage (from anywhere; the script works from the repository root):
#   bench/run-anisotropic.sh [OUTDIR] [--rebuild] [--cells LIST] [--runs K] [--no-timing]
#
#   OUTDIR       output folder (default: bench/results/anisotropic)
#   --cells      comma list of n:d:heavyRuns[:cheapRuns] (default
#                10000:100:20,10000:1000:20,100000:100:20,100000:1000:20): the Algorithm 1/2 methods run
#                on heavyRuns datasets, the cheap methods on cheapRuns (default --runs) datasets; a cell stops
#                its Algorithm 1/2 runs after -Danisotropic.cellBudgetSeconds (JAVA_OPTS, default 900 s)
#   --runs       datasets per cell for the cheap methods (default 20)
#   --no-timing  skip the stand-alone neighbour-count timing (n = 100000, d = 100, CPU)
#   --no-topvar  skip the TopVar threshold experiment (spec §9 A9; d = 10, n in {1e5, 1e6})
#   --rebuild    rebuild bench/target/benchmarks.jar even if it looks up to date
#
# Environment:
#   JAVA         java executable (default: java on PATH)
#   JAVA_OPTS    extra JVM options (e.g. -Ddpgauss.engine=gpu to count neighbours on the GPU)
#
# What it does:
#   1. Builds the shaded jar bench/target/benchmarks.jar when it is stale (bench/lib.sh).
#   2. Unless --no-timing: times one exact neighbour count at n = 100000, d = 100 on the CPU
#      (org.dpgauss.bench.anisotropic.NeighbourCountTiming: whitened N(0, diag(i^-2)) rows, lambda of
#      spec §3.2) and writes OUTDIR/neighbour-count-cpu.json (command, date, machine, wall and process
#      CPU seconds, load average).
#   3. Runs  java -Djava.awt.headless=true -cp bench/target/benchmarks.jar
#            org.dpgauss.bench.anisotropic.AnisotropicComparison OUTDIR CELLS RUNS
#      which writes OUTDIR/anisotropic.json (rewritten after every cell) and one PNG per cell,
#      OUTDIR/error-<spectrum>-n<N>-d<D>.png; the log goes to OUTDIR/anisotropic.log.
#   4. Unless --no-topvar: runs org.dpgauss.bench.anisotropic.TopVarThresholdComparison
#      OUTDIR/topvar-threshold.json 10 (Algorithm 2 with TopVar threshold HIGH vs PAPER where k >= 1).
#   Randomness is SEEDED (Philox keys for the data, RandomSource.insecureSeeded for the noise): a
#   reproducible simulation, not private releases.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # moves to the repository root

outdir=""
rebuild=0
cells="10000:100:20,10000:1000:20,100000:100:20,100000:1000:20"
runs=20
timing=1
topvar=1
while (($# > 0)); do
    case "$1" in
        --cells) shift; cells="$1" ;;
        --runs) shift; runs="$1" ;;
        --no-timing) timing=0 ;;
        --no-topvar) topvar=0 ;;
        *) common_option run-anisotropic.sh "$1" ;;
    esac
    shift
done
outdir="${outdir:-bench/results/anisotropic}"

ensure_benchmarks_jar run-anisotropic.sh "$rebuild"
mkdir -p "$outdir"

if [[ $timing -eq 1 ]]; then
    tcmd=("$JAVA" ${JAVA_OPTS:-} -cp "$JAR" org.dpgauss.bench.anisotropic.NeighbourCountTiming "$outdir/neighbour-count-cpu.json" 100000 100 1)
    echo ">> ${tcmd[*]}" >&2
    "${tcmd[0]}" "-Dtiming.command=bench/run-anisotropic.sh -> ${tcmd[*]}" "${tcmd[@]:1}"
fi

cmd=("$JAVA" ${JAVA_OPTS:-} -Djava.awt.headless=true -cp "$JAR" org.dpgauss.bench.anisotropic.AnisotropicComparison "$outdir" "$cells" "$runs")
command_line="$(describe_command "bench/run-anisotropic.sh $outdir --cells $cells --runs $runs" "${cmd[@]}")"
log="$outdir/anisotropic.log"
run_logged "$log" anisotropic.command "$command_line" "${cmd[@]}"
echo ">> done: $outdir/anisotropic.json, $outdir/error-*.png, $log" >&2

if [[ $topvar -eq 1 ]]; then
    vcmd=("$JAVA" ${JAVA_OPTS:-} -cp "$JAR" org.dpgauss.bench.anisotropic.TopVarThresholdComparison "$outdir/topvar-threshold.json" 10)
    echo ">> ${vcmd[*]}" >&2
    "${vcmd[0]}" "-Dtopvar.command=bench/run-anisotropic.sh -> ${vcmd[*]}" "${vcmd[@]:1}" | tee "$outdir/topvar-threshold.log"
fi
