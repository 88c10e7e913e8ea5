#!/usr/bin/env bash
# Wall time of one command-line call on small data (issue 27): `mean` on a 1,000 x 10 CSV and `demo`, the
# current build (./dpgauss: engine resolved on first use, class-data-sharing archive) against a baseline jar built
# from an earlier commit, in the same run, alternating so that both see the same machine load.
#   bench/startup/run.sh BASELINE_JAR [ROUNDS] [DEMO_ROUNDS] > bench/results/startup/RESULT.md
# The baseline has no --bounds: its row is the nearest call (--method clipped); the current build is timed on
# both. Medians and the spread (min-max) over ROUNDS calls; the first call of the current build (which builds the
# archive) is made before timing and reported separately.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
base="$1"; rounds="${2:-15}"; demo_rounds="${3:-3}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN { srand(7); for (i = 0; i < 1000; i++) { l = ""; for (j = 0; j < 10; j++) l = l (j ? "," : "") rand(); print l } }' > "$tmp/x.csv"
export DPGAUSS_NO_BUILD=1
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
# one call: "wall,cpu" seconds (cpu = user + system of the process tree), by GNU time
secs() { /usr/bin/time -f "%e,%U,%S" -o "$tmp/time" "$@" > /dev/null 2>&1; awk -F, '{ printf "%s,%.2f", $1, $2 + $3 }' "$tmp/time"; }
rm -f "$here"/cli/target/dpgauss-cli-jdk*.jsa
first=$(secs "$here/dpgauss" mean --input "$tmp/x.csv" --bounds 0:1 --epsilon 1 | cut -d, -f1)
declare -A t
labels=("baseline: java -jar BASELINE mean --method clipped --clip 4 --epsilon 1"
        "current: ./dpgauss mean --method clipped --clip 4 --epsilon 1"
        "current: ./dpgauss mean --bounds 0:1 --epsilon 1")
for ((r = 0; r < rounds; r++)); do
  t[0]+="$(secs java -jar "$base" mean --input "$tmp/x.csv" --method clipped --clip 4 --epsilon 1) "
  t[1]+="$(secs "$here/dpgauss" mean --input "$tmp/x.csv" --method clipped --clip 4 --epsilon 1) "
  t[2]+="$(secs "$here/dpgauss" mean --input "$tmp/x.csv" --bounds 0:1 --epsilon 1) "
done
for ((r = 0; r < demo_rounds; r++)); do
  t[3]+="$(secs java -jar "$base" demo) "
  t[4]+="$(secs "$here/dpgauss" demo) "
done
labels+=("baseline: java -jar BASELINE demo" "current: ./dpgauss demo")
med() { sort -g | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.2f | %.2f-%.2f", m, a[1], a[NR] }'; }
stats() { local v; v="$(tr ' ' '\n' | grep -v '^$')"; echo "$(echo "$v" | cut -d, -f1 | med) | $(echo "$v" | cut -d, -f2 | med) | $(echo "$v" | wc -l)"; }
echo "One call, seconds ($(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $(java -version 2>&1 | head -n 1); load average before: $load_before): wall time, and CPU time (user + system), which a loaded machine disturbs less"
echo
echo "| call | wall median | wall min-max | CPU median | CPU min-max | calls |"
echo "|---|---|---|---|---|---|"
for i in 0 1 2 3 4; do
  echo "| ${labels[$i]} | $(echo "${t[$i]}" | stats) |"
done
echo "| current, first call (builds the class-data-sharing archive) | $first | | | | 1 |"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
