#!/usr/bin/env bash
# run-stable.sh: production vs literal StableCov / StableMean at large n on the CPU (issue 4, item 7) and
# file the results.
#
# Usage (from anywhere; the script works from the repository root):
#   bench/run-stable.sh [OUTDIR] [--n N] [--d D1,D2,..] [--k K] [--outliers F1,F2,..] [--budget S] [--rebuild]
#
#   OUTDIR      output folder (default: bench/results/stable)
#   --n         rows of X (default 100000; StableCov sees N/2 pairs, StableMean all N rows)
#   --d         dimensions (default 50,100,200)
#   --k         discretisation parameter (default 29: the paper k at eps = 1, delta = 0.1; the sound k at
#               eps = 1, delta = 1e-6 is 168, spec §2.3, too slow for the literal references on a shared 2-core box)
#   --outliers  planted outlier fractions (default 0,0.02)
#   --budget    seconds of literal-reference time per algorithm and configuration before the remaining
#               thresholds are extrapolated (default 20)
#   --rebuild   rebuild bench/target/benchmarks.jar even if it looks up to date
#
# Environment: JAVA (java executable), JAVA_OPTS (extra JVM options; default -Xmx6g).
#
# What it does: builds the shaded jar if needed, runs org.dpgauss.bench.stable.StableScaling, which writes
# OUTDIR/stable-scaling.json (machine, command, date, per-configuration timings, extrapolation flags, scores)
# and tees the summary to OUTDIR/stable-scaling.log. Run it under 'nice' on a shared machine.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # moves to the repository root

outdir=""
rebuild=0
n=100000
ds=50,100,200
k=29
fracs=0,0.02
budget=20
while (($# > 0)); do
    case "$1" in
        --n) shift; n="$1" ;;
        --d) shift; ds="$1" ;;
        --k) shift; k="$1" ;;
        --outliers) shift; fracs="$1" ;;
        --budget) shift; budget="$1" ;;
        -*) common_option run-stable.sh "$1" ;;
        *) outdir="$1" ;;
    esac
    shift
done
outdir="${outdir:-bench/results/stable}"

ensure_benchmarks_jar run-stable.sh "$rebuild"

mkdir -p "$outdir"
# shellcheck disable=SC2206
cmd=("$JAVA" ${JAVA_OPTS:--Xmx6g} -cp "$JAR" org.dpgauss.bench.stable.StableScaling "$outdir" "$n" "$ds" "$k" "$fracs" "$budget")
command_line="$(describe_command "bench/run-stable.sh $outdir --n $n --d $ds --k $k --outliers $fracs --budget $budget" "${cmd[@]}")"
log="$outdir/stable-scaling.log"
run_logged "$log" stable.command "$command_line" "${cmd[@]}"
echo ">> done: $outdir/stable-scaling.json, $log" >&2
