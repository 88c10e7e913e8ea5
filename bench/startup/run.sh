#!/usr/bin/env bash
# Wall and CPU time of one command-line call on small data (issue 27): `mean` on a 1,000 x 10 CSV and `demo`, the
# current build (./dpgauss) against a baseline, in the same run, alternating call by call so that both see the same
# machine load.
#   bench/startup/run.sh BASELINE [ROUNDS] [DEMO_ROUNDS] > bench/results/startup/RESULT.md
# BASELINE is either a checkout of an earlier commit with its jar built (its own ./dpgauss launcher is timed, with
# its class-data-sharing archive made before timing, like the current one's), or a shaded jar (timed as
# `java -jar BASELINE`). Rows with "no build check" run with DPGAUSS_NO_BUILD=1 (the launcher does not look for
# changed sources); the others are plain calls, as a user makes them. Medians and min-max over ROUNDS calls; the
# first call of the current build (which makes the archive) is timed separately.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
base="$1"; rounds="${2:-15}"; demo_rounds="${3:-3}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
awk 'BEGIN { srand(7); for (i = 0; i < 1000; i++) { l = ""; for (j = 0; j < 10; j++) l = l (j ? "," : "") rand(); print l } }' > "$tmp/x.csv"
if [ -d "$base" ]; then
  base_cmd=("$base/dpgauss"); base_label="baseline: BASELINE/dpgauss"
else
  base_cmd=(java -jar "$base"); base_label="baseline: java -jar BASELINE"
fi
mean=(mean --input "$tmp/x.csv" --bounds 0:1 --epsilon 1)
clipped=(mean --input "$tmp/x.csv" --method clipped --clip 4 --epsilon 1)
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
# one call: "wall,cpu" seconds (cpu = user + system of the process tree), by GNU time
secs() { /usr/bin/time -f "%e,%U,%S" -o "$tmp/time" "$@" > /dev/null 2>&1; awk -F, '{ printf "%s,%.2f", $1, $2 + $3 }' "$tmp/time"; }
rm -f "$here"/cli/target/dpgauss-cli-jdk*.jsa
first=$(DPGAUSS_NO_BUILD=1 secs "$here/dpgauss" "${mean[@]}" | cut -d, -f1)
DPGAUSS_NO_BUILD=1 "${base_cmd[@]}" "${mean[@]}" > /dev/null 2>&1 # the baseline's archive, if its launcher makes one
declare -A t
labels=("$base_label mean --bounds 0:1 --epsilon 1 (no build check)"
        "current: ./dpgauss mean --bounds 0:1 --epsilon 1 (no build check)"
        "$base_label mean --bounds 0:1 --epsilon 1"
        "current: ./dpgauss mean --bounds 0:1 --epsilon 1"
        "$base_label mean --method clipped --clip 4 --epsilon 1 (no build check)"
        "current: ./dpgauss mean --method clipped --clip 4 --epsilon 1 (no build check)")
for ((r = 0; r < rounds; r++)); do
  t[0]+="$(DPGAUSS_NO_BUILD=1 secs "${base_cmd[@]}" "${mean[@]}") "
  t[1]+="$(DPGAUSS_NO_BUILD=1 secs "$here/dpgauss" "${mean[@]}") "
  t[2]+="$(secs "${base_cmd[@]}" "${mean[@]}") "
  t[3]+="$(secs "$here/dpgauss" "${mean[@]}") "
  t[4]+="$(DPGAUSS_NO_BUILD=1 secs "${base_cmd[@]}" "${clipped[@]}") "
  t[5]+="$(DPGAUSS_NO_BUILD=1 secs "$here/dpgauss" "${clipped[@]}") "
done
for ((r = 0; r < demo_rounds; r++)); do
  t[6]+="$(DPGAUSS_NO_BUILD=1 secs "${base_cmd[@]}" demo) "
  t[7]+="$(DPGAUSS_NO_BUILD=1 secs "$here/dpgauss" demo) "
done
labels+=("$base_label demo (no build check)" "current: ./dpgauss demo (no build check)")
med() { sort -g | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.3f | %.2f-%.2f", m, a[1], a[NR] }'; }
stats() { local v; v="$(tr ' ' '\n' | grep -v '^$')"; echo "$(echo "$v" | cut -d, -f1 | med) | $(echo "$v" | cut -d, -f2 | med) | $(echo "$v" | wc -l)"; }
# current / baseline ratio of the medians of a pair of rows
ratio() { paste <(echo "${t[$1]}" | tr ' ' '\n' | grep -v '^$' | cut -d, -f"$3" | sort -g) \
  <(echo "${t[$2]}" | tr ' ' '\n' | grep -v '^$' | cut -d, -f"$3" | sort -g) \
  | awk '{ a[NR] = $1; b[NR] = $2 } END { i = int((NR + 1) / 2); printf "%.2f", b[i] / a[i] }'; }
echo "One call, seconds ($(date -u +%Y-%m-%dT%H:%MZ); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); $(java -version 2>&1 | head -n 1); load average before: $load_before): wall time, and CPU time (user + system), which a loaded machine disturbs less"
echo
echo "| call | wall median | wall min-max | CPU median | CPU min-max | calls |"
echo "|---|---|---|---|---|---|"
for i in 0 1 2 3 4 5 6 7; do
  echo "| ${labels[$i]} | $(echo "${t[$i]}" | stats) |"
done
echo "| current, first call (makes the class-data-sharing archive) | $first | | | | 1 |"
echo
echo "Current / baseline, ratio of medians (wall, CPU): mean --bounds $(ratio 0 1 1), $(ratio 0 1 2) (no build check)," \
  "$(ratio 2 3 1), $(ratio 2 3 2) (plain call); mean --method clipped $(ratio 4 5 1), $(ratio 4 5 2); demo $(ratio 6 7 1), $(ratio 6 7 2)"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
