#!/usr/bin/env bash
# run-second-moment.sh: issue 6 item 6, the private second-moment comparison (spec second-moment-estimation §5, §8):
# every registered method (Algorithm 1's pipeline "recursive", analyze-gauss, coinpress, subsample-aggregate) on a
# Gaussian and a heavy-tailed, badly conditioned input with 1% outliers, relative spectral error against rho with
# the spec's predictions beside it, and file the results.
#
# Usage (from anywhere; the script works from the repository root):
#   bench/run-second-moment.sh [OUTDIR] [--rebuild] [--n N] [--dims 20,100] [--rhos 0.1,0.5,1] [--runs 20]
#                              [--inputs gaussian,heavy-tailed] [--methods M1,M2,...] [--merge-into FILE]
#
#   OUTDIR     output folder (default: bench/results/second-moment)
#   --methods  which registered methods to run (default: all registered in SecondMomentMethods, so the recursive
#              pipeline is included whenever it is registered; e.g. --methods analyze-gauss,coinpress,subsample-aggregate
#              runs the baselines only)
#              A method may be a variant of the recursive pipeline with non-default public parameters:
#              recursive[m=d/K] (m = d/K), recursive[m=K], recursive[tight] (noise scaling tight), combined as
#              recursive[m=d/4,tight]. Seeds are keyed by input, d, the position in --rhos and the base method, so a
#              subset run (same --rhos) and every variant replay the full run's data and noise seeds.
#   --merge-into FILE  after the run, merge its rows into the comparison JSON FILE (it must have the same n, runs,
#              dims, rhos and datasets; rows with the same input, d, rho and method are replaced), draw
#              second-moment-recursive-variants.png beside FILE (default recursive, its variants, analyze-gauss and
#              coinpress) and append the run's log to second-moment-recursive-variants.log there
#   --rebuild  rebuild bench/target/benchmarks.jar even if it looks up to date
#
# Environment:
#   JAVA       java executable (default: java on PATH)
#   NICE       niceness of the run (default 10; the machine is shared)
#
# What it does:
#   1. Builds the shaded jar bench/target/benchmarks.jar (mvn -B -q -DskipTests package -pl bench -am) when
#      it is missing, older than any pom.xml or module source, or --rebuild.
#   2. Runs  nice -n $NICE java -Djava.awt.headless=true -cp bench/target/benchmarks.jar
#            org.dpgauss.bench.secondmoment.SecondMomentComparison --out OUTDIR ...
#      which writes OUTDIR/second-moment.json (per input, d, rho, method: mean/median/quantiles of the relative
#      spectral error over the runs, FAIL counts, sandwich values, wall time, the spec prediction and its formula,
#      machine, command, date; "insecure": true since the noise is seeded for reproducibility) and
#      OUTDIR/second-moment.png. Engine: -Ddpgauss.engine=cpu (default) or gpu via JAVA_OPTS.
#   3. Tees the printed table to OUTDIR/second-moment.log (the raw log).
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # moves to the repository root

NICE="${NICE:-10}"
outdir=""
rebuild=0
pass=()
merge_into=""
while (($# > 0)); do
    case "$1" in
        --n | --dims | --rhos | --runs | --inputs | --methods)
            [[ $# -ge 2 ]] || { echo "run-second-moment.sh: $1 needs a value" >&2; exit 2; }
            pass+=("$1" "$2"); shift ;;
        --merge-into)
            [[ $# -ge 2 ]] || { echo "run-second-moment.sh: $1 needs a value" >&2; exit 2; }
            [[ -f "$2" ]] || { echo "run-second-moment.sh: --merge-into: '$2' is not a file" >&2; exit 2; }
            merge_into="$2"; shift ;;
        *) common_option run-second-moment.sh "$1" ;;
    esac
    shift
done
outdir="${outdir:-bench/results/second-moment}"

ensure_benchmarks_jar run-second-moment.sh "$rebuild"

mkdir -p "$outdir"
# shellcheck disable=SC2086
cmd=(nice -n "$NICE" "$JAVA" ${JAVA_OPTS:-} -Djava.awt.headless=true -cp "$JAR"
    org.dpgauss.bench.secondmoment.SecondMomentComparison --out "$outdir" "${pass[@]}")
command_line="$(describe_command "bench/run-second-moment.sh $outdir ${pass[*]}" "${cmd[@]}")"
log="$outdir/second-moment.log"
run_logged "$log" secondmoment.command "$command_line" "${cmd[@]}"
echo ">> done: $outdir/second-moment.json, $outdir/second-moment.png, $log" >&2
if [[ -n "$merge_into" ]]; then
    "$JAVA" -Djava.awt.headless=true -cp "$JAR" org.dpgauss.bench.secondmoment.MergeVariants \
        --base "$merge_into" --add "$outdir/second-moment.json"
    cat "$log" >>"$(dirname "$merge_into")/second-moment-recursive-variants.log"
fi
