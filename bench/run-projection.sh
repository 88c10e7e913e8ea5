#!/usr/bin/env bash
# run-projection.sh: spec ndis.md §8.4 experiments for the random projection mechanism (M_RP vs LSV ridge
# utility against epsilon; ridge of the Poisson / PTR wrappers against lambda_min) and file the results.
#
# Usage (from anywhere; the script works from the repository root):
#   bench/run-projection.sh [OUTDIR] [--rebuild] [--n N] [--d D] [--reps K]
#
#   OUTDIR     output folder (default: bench/results/projection)
#   --n, --d   data size (default 100000 x 100; rows N(0, diag(1..1/d)) scaled onto the unit sphere)
#   --reps     independent projections averaged per (r, epsilon) (default 3)
#   --rebuild  rebuild bench/target/benchmarks.jar even if it looks up to date
#
# Environment:
#   JAVA       java executable (default: java on PATH)
#
# What it does:
#   1. Builds the shaded jar bench/target/benchmarks.jar (mvn -B -q -DskipTests package -pl bench -am) when
#      it is missing, older than any pom.xml or module source, or --rebuild.
#   2. Runs  java -Djava.awt.headless=true -cp bench/target/benchmarks.jar
#            org.dpgauss.bench.projection.ProjectionComparison OUTDIR N D K
#      which writes OUTDIR/projection.json (relative Gram errors, ridges, wrapper ridge curves, machine,
#      command, date), OUTDIR/utility.png and OUTDIR/ridge.png. Engine: -Ddpgauss.engine=cpu (default) or gpu
#      via JAVA_OPTS.
#   3. Tees the printed summary to OUTDIR/projection.log.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # moves to the repository root

outdir=""
rebuild=0
n=100000
d=100
reps=3
while (($# > 0)); do
    case "$1" in
        --n) shift; n="$1" ;;
        --d) shift; d="$1" ;;
        --reps) shift; reps="$1" ;;
        *) common_option run-projection.sh "$1" ;;
    esac
    shift
done
outdir="${outdir:-bench/results/projection}"

ensure_benchmarks_jar run-projection.sh "$rebuild"

mkdir -p "$outdir"
cmd=("$JAVA" ${JAVA_OPTS:-} -Djava.awt.headless=true -cp "$JAR" org.dpgauss.bench.projection.ProjectionComparison "$outdir" "$n" "$d" "$reps")
command_line="$(describe_command "bench/run-projection.sh $outdir --n $n --d $d --reps $reps" "${cmd[@]}")"
log="$outdir/projection.log"
run_logged "$log" projection.command "$command_line" "${cmd[@]}"
echo ">> done: $outdir/projection.json, $outdir/utility.png, $outdir/ridge.png, $log" >&2
