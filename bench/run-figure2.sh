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

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

JAR=bench/target/benchmarks.jar
JAVA="${JAVA:-java}"
outdir=""
rebuild=0
while (($# > 0)); do
    case "$1" in
        --rebuild) rebuild=1 ;;
        -h | --help) sed -n '2,/^set -euo pipefail$/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "run-figure2.sh: unknown option '$1'" >&2; exit 2 ;;
        *)
            if [[ -n "$outdir" ]]; then
                echo "run-figure2.sh: more than one output folder given ('$outdir', '$1')" >&2
                exit 2
            fi
            outdir="$1"
            ;;
    esac
    shift
done
outdir="${outdir:-bench/results/figure2}"

# shellcheck source=bench/lib.sh
source bench/lib.sh
ensure_benchmarks_jar run-figure2.sh "$rebuild"

mkdir -p "$outdir"
cmd=("$JAVA" -Djava.awt.headless=true -cp "$JAR" org.dpgauss.bench.Figure2Reproduction "$outdir")
command_line="bench/run-figure2.sh $outdir  ->  $(printf '%q ' "${cmd[@]}")"
command_line="${command_line% }"
log="$outdir/figure2.log"
{
    echo "# command: $command_line"
    echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ); host: $(hostname 2>/dev/null || uname -n); nproc: $(nproc);" \
        "git: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
} >"$log"
echo ">> $command_line" >&2
"${cmd[0]}" "-Dfigure2.command=$command_line" "${cmd[@]:1}" 2>&1 | tee -a "$log"
echo ">> done: $outdir/figure2.json, $outdir/figure2.png, $log" >&2
