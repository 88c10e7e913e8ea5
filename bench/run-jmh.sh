#!/usr/bin/env bash
# run-jmh.sh: run the dpgauss JMH benchmarks and file the results.
#
# Usage (from anywhere; the script works from the repository root):
#   bench/run-jmh.sh [REGEX] [--quick] [--rebuild] [-- EXTRA_JMH_ARGS...]
#
#   REGEX      JMH benchmark regex (default: all benchmarks), e.g. 'PrimitivesBenchmark',
#              'PrimitivesBenchmark.gram', 'WeightedGramVariants', 'NeighbourCounts'.
#   --quick    smoke run: 1 warm-up and 1 measured iteration of 1 s (an operation slower than
#              that still runs once per iteration). Results land in a '-quick' file; do not quote them.
#   --rebuild  rebuild bench/target/benchmarks.jar even if it looks up to date.
#   -- ARGS    passed to JMH as they are, e.g. -- -p shape=20000x500   or   -- -prof gc
#
# Environment:
#   DPGAUSS_ENGINE     auto|cpu|gpu, passed as -Ddpgauss.engine (the forked benchmark JVM inherits
#                      it); unset means auto (CPU fallback when no GPU backend is usable).
#   BENCH_RESULTS_DIR  output folder (default: bench/results/<host>-<YYYY-MM-DD>, UTC date).
#   JAVA               java executable (default: java on PATH).
#
# What it does:
#   1. Builds the shaded jar (mvn -B -q -DskipTests package -pl bench -am, from the repository root; see bench/lib.sh) when
#      bench/target/benchmarks.jar is missing, older than any pom.xml or module source, or --rebuild.
#   2. Writes <dir>/machine.json (hostname, nproc, total memory from free -g, CPU model from
#      /proc/cpuinfo, java -version, date, git commit, the exact command) and appends the command
#      to <dir>/commands.txt.
#   3. Runs  java -jar bench/target/benchmarks.jar REGEX -rf json -rff <dir>/jmh-<name>.json
#      and tees the raw log to <dir>/jmh-<name>.log. <name> is the regex made file-safe ('all'
#      without one); an existing file of that name gets a -HHMMSS suffix instead of being overwritten.
#   4. Prints the median (scorePercentiles 50.0) of each benchmark when jq is installed.
#
# Examples:
#   bench/run-jmh.sh                                   # everything (long: tens of minutes)
#   bench/run-jmh.sh PrimitivesBenchmark
#   bench/run-jmh.sh 'PrimitivesBenchmark.eigen' --quick -- -p shape=20000x500
#   DPGAUSS_ENGINE=cpu bench/run-jmh.sh WeightedGramVariants
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # moves to the repository root

regex=""
quick=0
rebuild=0
extra=()
while (($# > 0)); do
    case "$1" in
        --quick) quick=1 ;;
        --rebuild) rebuild=1 ;;
        -h | --help) print_header_help; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        -*) echo "run-jmh.sh: unknown option '$1' (JMH options go after --)" >&2; exit 2 ;;
        *)
            if [[ -n "$regex" ]]; then
                echo "run-jmh.sh: more than one regex given ('$regex', '$1')" >&2
                exit 2
            fi
            regex="$1"
            ;;
    esac
    shift
done

# ---- 1. build if needed ------------------------------------------------------------------------
ensure_benchmarks_jar run-jmh.sh "$rebuild"

# ---- 2. output folder, names, command ----------------------------------------------------------
host="$(hostname -s 2>/dev/null || uname -n)"
day="$(date -u +%Y-%m-%d)"
outdir="${BENCH_RESULTS_DIR:-bench/results/${host}-${day}}"
mkdir -p "$outdir"

if [[ -n "$regex" ]]; then
    name="$(printf '%s' "${regex#org.dpgauss.bench.}" | tr -c 'A-Za-z0-9._-' '_' | cut -c1-80)"
else
    name="all"
fi
[[ $quick -eq 1 ]] && name="${name}-quick"
if [[ -e "$outdir/jmh-${name}.json" || -e "$outdir/jmh-${name}.log" ]]; then
    name="${name}-$(date -u +%H%M%S)"
fi
json="$outdir/jmh-${name}.json"
log="$outdir/jmh-${name}.log"

cmd=("$JAVA")
[[ -n "${DPGAUSS_ENGINE:-}" ]] && cmd+=("-Ddpgauss.engine=${DPGAUSS_ENGINE}")
cmd+=(-jar "$JAR")
[[ -n "$regex" ]] && cmd+=("$regex")
[[ $quick -eq 1 ]] && cmd+=(-wi 1 -i 1 -w 1s -r 1s)
cmd+=(-rf json -rff "$json")
((${#extra[@]} > 0)) && cmd+=("${extra[@]}")
command_line="$(printf '%q ' "${cmd[@]}")"
command_line="${command_line% }"

# ---- 3. machine.json ---------------------------------------------------------------------------
json_str() {
    local s="$1"
    s="${s//\\/\\\\}"
    s="${s//\"/\\\"}"
    s="${s//$'\n'/\\n}"
    s="${s//$'\t'/\\t}"
    s="${s//$'\r'/}"
    printf '"%s"' "$s"
}

cpu_model="$(grep -m1 -E '^(model name|Model|cpu model)' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^[[:space:]]*//' || true)"
mem_total_gib="$(free -g 2>/dev/null | awk '/^Mem:/ {print $2}' || true)"
java_version="$("$JAVA" -version 2>&1 || true)"
git_commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
git_dirty=false
[[ -n "$(git status --porcelain 2>/dev/null | head -1 || true)" ]] && git_dirty=true
now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"

{
    printf '{\n'
    printf '  "hostname": %s,\n' "$(json_str "$(hostname 2>/dev/null || uname -n)")"
    printf '  "nproc": %s,\n' "$(nproc)"
    printf '  "mem_total_gib": %s,\n' "${mem_total_gib:-null}"
    printf '  "cpu_model": %s,\n' "$(json_str "${cpu_model:-unknown}")"
    printf '  "os": %s,\n' "$(json_str "$(uname -srm)")"
    printf '  "java_version": %s,\n' "$(json_str "$java_version")"
    printf '  "date": %s,\n' "$(json_str "$now")"
    printf '  "dpgauss_engine": %s,\n' "$(json_str "${DPGAUSS_ENGINE:-auto (unset)}")"
    printf '  "git_commit": %s,\n' "$(json_str "$git_commit")"
    printf '  "git_dirty": %s,\n' "$git_dirty"
    printf '  "quick": %s,\n' "$([[ $quick -eq 1 ]] && echo true || echo false)"
    printf '  "result_json": %s,\n' "$(json_str "$json")"
    printf '  "raw_log": %s,\n' "$(json_str "$log")"
    printf '  "command": %s\n' "$(json_str "$command_line")"
    printf '}\n'
} >"$outdir/machine.json"
printf '%s\t%s\n' "$now" "$command_line" >>"$outdir/commands.txt"

# ---- 4. run --------------------------------------------------------------------------------------
echo ">> $command_line" >&2
echo ">> results: $json, log: $log" >&2
{
    echo "# command: $command_line"
    echo "# date: $now; host: $host; nproc: $(nproc); git: $git_commit (dirty: $git_dirty)"
} >"$log"
status=0
"${cmd[@]}" 2>&1 | tee -a "$log" || status=$?
if ((status != 0)); then
    echo "run-jmh.sh: JMH exited with status $status; see $log" >&2
    exit "$status"
fi

if command -v jq >/dev/null 2>&1 && [[ -s "$json" ]]; then
    echo ">> medians (scorePercentiles 50.0):" >&2
    jq -r '.[] | [(.benchmark | sub("^org\\.dpgauss\\.bench\\."; "")),
                  ((.params // {}) | to_entries | map("\(.key)=\(.value)") | join(",")),
                  (.primaryMetric.scorePercentiles["50.0"] | tostring),
                  .primaryMetric.scoreUnit] | @tsv' "$json" >"$outdir/.medians.tmp" || true
    if command -v column >/dev/null 2>&1; then
        column -t -s $'\t' "$outdir/.medians.tmp" >&2 || cat "$outdir/.medians.tmp" >&2
    else
        cat "$outdir/.medians.tmp" >&2
    fi
    rm -f "$outdir/.medians.tmp"
fi
echo ">> done: $outdir" >&2
