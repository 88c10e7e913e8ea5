#!/usr/bin/env bash
# run-ledger.sh: what the SQLite privacy ledger adds to one release (issue 25; target < 20 ms per charge) and file
# the result.
#
# Usage (from anywhere): bench/run-ledger.sh [OUTDIR] [--prior P1,P2,..] [--reps R] [--rebuild]
#   OUTDIR   output folder (default: bench/results/ledger)
#   --prior  releases already on the dataset (default 0,10,100,1000): the charge replays them into the accountant
#   --reps   timed charges per setting (default 50, after 10 warm-up)
#
# Runs org.dpgauss.bench.ledger.LedgerChargeBench on a SQLite file in OUTDIR/tmp (on the disk the results go to:
# a charge is fsync-bound), writes OUTDIR/ledger-charge.json and tees the summary to OUTDIR/ledger-charge.log.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # moves to the repository root

outdir=""
prior="0,10,100,1000"
reps=50
rebuild=0
while [ $# -gt 0 ]; do
  case "$1" in
    --prior) prior="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --rebuild) rebuild=1; shift ;;
    -*) echo "run-ledger.sh: unknown option $1" >&2; exit 2 ;;
    *) outdir="$1"; shift ;;
  esac
done
outdir="${outdir:-bench/results/ledger}"
mkdir -p "$outdir/tmp"

ensure_benchmarks_jar run-ledger.sh "$rebuild"

# shellcheck disable=SC2206
cmd=("$JAVA" ${JAVA_OPTS:--Xmx1g} -cp "$JAR" org.dpgauss.bench.ledger.LedgerChargeBench "$outdir/tmp" "$prior" "$reps")
{
  echo "command: bench/run-ledger.sh $outdir --prior $prior --reps $reps"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)  host: $(uname -n)  cpus: $(nproc)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$outdir/ledger-charge.log"
"${cmd[@]}" > "$outdir/ledger-charge.json" 2> >(tee -a "$outdir/ledger-charge.log" >&2)
rm -rf "$outdir/tmp"
echo ">> done: $outdir/ledger-charge.json, $outdir/ledger-charge.log" >&2
