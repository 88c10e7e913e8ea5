#!/usr/bin/env bash
# run-cpu-native.sh: issue 16 item 5, the CPU primitives side by side in one run: dpgauss's two CPU engines (EJML,
# the pure-Java reference, and cpu-openblas, the bundled native OpenBLAS) in one warmed JVM, and numpy/scipy on the
# same data (written by the Java side as .npy), at n x d = 1e5 x 100 and 2e4 x 500.
#
# Usage (from anywhere; the script works from the repository root):
#   bench/run-cpu-native.sh [OUTDIR] [--rebuild] [--repeat R] [--shapes 100000x100,20000x500] [--ops op,op,..]
#                           [--cores all] [--e2e]
#
#   OUTDIR     output folder (default: bench/results/cpu-native)
#   --repeat   timed samples per primitive (default 5; after a warm-up of >= 2 calls and >= 0.5 s; each sample
#              averages as many calls as fill 0.25 s)
#   --shapes   comma-separated n x d shapes (default 100000x100,20000x500)
#   --ops      subset of gram,gram_weighted_subset,cholesky,mahalanobis,whiten,eigen,projection,distances
#   --cores all  run on every core (OpenBLAS and numpy with their default threads) instead of the default:
#              both sides pinned to core 0 (taskset -c 0) with one BLAS thread (OPENBLAS_NUM_THREADS=1,
#              -Ddpgauss.openblas.threads=1), so the ratios compare single-core work on a shared machine
#   --e2e      also time whole commands in one warmed JVM (CpuNativeEndToEnd: second-moment coinpress and
#              analyze-gauss, mean clipped, mean anisotropic with a known covariance) on both engines at each
#              --e2e-shapes shape (the anisotropic mean on EJML only with JAVA_OPTS=-Dcpunative.e2e.ejmlAnisotropic=true:
#              its quadratic neighbour count takes minutes), the numpy ports of CoinPress and Analyze Gauss
#              (bench/cpu-native/numpy_mechanisms.py) on the same file, and the JVM start of `dpgauss --version`,
#              into OUTDIR/e2e-NxD.json, OUTDIR/e2e-numpy-NxD.json and the table OUTDIR/e2e.md
#   --e2e-shapes  comma-separated n x d shapes for --e2e (default 100000x100,20000x50)
#   --rebuild  rebuild bench/target/benchmarks.jar even if it looks up to date
#
# Environment:
#   JAVA       java executable (default: java on PATH)
#   PYTHON     python3 with numpy and scipy (default: python3); without them the numpy column is left out
#
# What it does, per shape:
#   1. java -cp bench/target/benchmarks.jar org.dpgauss.bench.cpunative.CpuNativeBench OUTDIR/java-NxD.json
#      OUTDIR/data.npy N D R  (each primitive on each engine: 2 warm-ups, R timed runs, medians)
#   2. python3 bench/cpu-native/numpy_primitives.py OUTDIR/data.npy OUTDIR/numpy-NxD.json R  (same ops, same data)
#   3. java ... org.dpgauss.bench.cpunative.OffHeapCopyCost OUTDIR/offheap-NxD.json N D R  (issue 16 item 2: the cost of
#      getting heap row blocks to BLAS: zero-copy, streamed chunks, mirror refresh, fresh buffer, double[] via JNI)
#   then bench/cpu-native/table.py joins them into OUTDIR/cpu-native.json and OUTDIR/cpu-native.md (ratios of medians
#   from the same run), and writes the machine, the command and the date to OUTDIR/machine.txt; the raw log goes
#   to OUTDIR/cpu-native.log. The .npy data (regenerated from a fixed seed) is deleted afterwards.
set -euo pipefail

# shellcheck source=bench/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # moves to the repository root

PYTHON="${PYTHON:-python3}"
outdir=""
rebuild=0
repeat=5
shapes="100000x100,20000x500"
ops=""
cores=one
e2e=0
e2e_shapes="100000x100,20000x50"
command_line="bench/run-cpu-native.sh $*"
while (($# > 0)); do
    case "$1" in
        --repeat) repeat="$2"; shift ;;
        --shapes) shapes="$2"; shift ;;
        --ops) ops="$2"; shift ;;
        --e2e) e2e=1 ;;
        --e2e-shapes) e2e_shapes="$2"; shift ;;
        --cores) [[ "$2" == all ]] || { echo "run-cpu-native.sh: --cores takes 'all'" >&2; exit 2; }; cores=all; shift ;;
        *) common_option run-cpu-native.sh "$1" ;;
    esac
    shift
done
outdir="${outdir:-bench/results/cpu-native}"
mkdir -p "$outdir"
ensure_benchmarks_jar run-cpu-native.sh "$rebuild"

pin=()
jopts=()
if [[ $cores == one ]]; then
    pin=(taskset -c 0)
    jopts=(-Ddpgauss.openblas.threads=1)
    export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
fi
major=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -n 1)
if [[ -n "$major" && "${major%%.*}" -ge 22 ]]; then jopts+=(--enable-native-access=ALL-UNNAMED); fi

have_numpy=1
"$PYTHON" -c 'import numpy, scipy' 2>/dev/null || { have_numpy=0; echo "run-cpu-native.sh: no numpy/scipy: numpy column left out" >&2; }

log="$outdir/cpu-native.log"
: > "$log"
pairs=()
for shape in ${shapes//,/ }; do
    n="${shape%x*}"; d="${shape#*x}"
    jj="$outdir/java-${n}x${d}.json"; pj="$outdir/numpy-${n}x${d}.json"; npy="$outdir/data-${n}x${d}.npy"
    jcmd=("${pin[@]}" "$JAVA" -Xmx6g "${jopts[@]}" ${JAVA_OPTS:-} -cp "$JAR" org.dpgauss.bench.cpunative.CpuNativeBench
          "$jj" "$npy" "$n" "$d" "$repeat" ${ops:+"$ops"})
    echo ">> ${jcmd[*]}" | tee -a "$log" >&2
    "${jcmd[@]}" 2>&1 | tee -a "$log" >&2
    if [[ $have_numpy == 1 ]]; then
        pcmd=("${pin[@]}" "$PYTHON" bench/cpu-native/numpy_primitives.py "$npy" "$pj" "$repeat" ${ops:+"$ops"})
        echo ">> ${pcmd[*]}" | tee -a "$log" >&2
        "${pcmd[@]}" 2>&1 | tee -a "$log" >&2
    else
        echo '{"times":{}}' > "$pj"
    fi
    rm -f "$npy"
    pairs+=("$jj" "$pj")
    ocmd=("${pin[@]}" "$JAVA" -Xmx6g "${jopts[@]}" ${JAVA_OPTS:-} -cp "$JAR" org.dpgauss.bench.cpunative.OffHeapCopyCost
          "$outdir/offheap-${n}x${d}.json" "$n" "$d" "$repeat")
    echo ">> ${ocmd[*]}" | tee -a "$log" >&2
    "${ocmd[@]}" 2>&1 | tee -a "$log" >&2
done
if [[ $e2e == 1 ]]; then
    e2e_pairs=()
    for shape in ${e2e_shapes//,/ }; do
        n="${shape%x*}"; d="${shape#*x}"
        enpy="$outdir/e2e-data-${n}x${d}.npy"
        ecmd=("${pin[@]}" "$JAVA" -Xmx6g "${jopts[@]}" ${JAVA_OPTS:-} -cp "$JAR" org.dpgauss.bench.cpunative.CpuNativeEndToEnd
              "$outdir/e2e-${n}x${d}.json" "$enpy" "$n" "$d" "$repeat")
        echo ">> ${ecmd[*]}" | tee -a "$log" >&2
        "${ecmd[@]}" 2>&1 | tee -a "$log" >&2
        if [[ $have_numpy == 1 ]]; then
            clip=$("$PYTHON" -c "import json; print(json.load(open('$outdir/e2e-${n}x${d}.json'))['times']['second-moment coinpress']['cpu']['clip'])")
            ncmd=("${pin[@]}" "$PYTHON" bench/cpu-native/numpy_mechanisms.py "$enpy" "$outdir/e2e-numpy-${n}x${d}.json"
                  "$repeat" 0.5 "$clip")
            echo ">> ${ncmd[*]}" | tee -a "$log" >&2
            "${ncmd[@]}" 2>&1 | tee -a "$log" >&2
            e2e_pairs+=("$outdir/e2e-${n}x${d}.json" "$outdir/e2e-numpy-${n}x${d}.json")
        fi
        rm -f "$enpy"
    done
    start=$( { /usr/bin/time -f %e "${pin[@]}" "$JAVA" "${jopts[@]}" -jar cli/target/dpgauss-cli-0.1.0-SNAPSHOT-all.jar --version >/dev/null; } 2>&1 | tail -n 1)
    echo "JVM start (dpgauss --version, pinned): $start s" | tee -a "$log" >&2
    echo "jvm_start_seconds: $start" > "$outdir/e2e-jvm-start.txt"
    if ((${#e2e_pairs[@]} > 0)); then
        "$PYTHON" bench/cpu-native/e2e_table.py "$outdir/e2e.md" "$start" "${e2e_pairs[@]}" | tee -a "$log"
    fi
fi
"$PYTHON" bench/cpu-native/table.py "$outdir/cpu-native.json" "$outdir/cpu-native.md" "${pairs[@]}" | tee -a "$log"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "command: $command_line"
    echo "pinning: $([[ $cores == one ]] && echo 'taskset -c 0, one BLAS thread on both sides' || echo 'all cores, default threads')"
    echo "cpu: $(lscpu | sed -n 's/^Model name: *//p') ($(getconf _NPROCESSORS_ONLN) cores online)"
    echo "memory: $(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
    echo "java: $("$JAVA" -version 2>&1 | head -n 1)"
    [[ $have_numpy == 1 ]] && echo "python: $("$PYTHON" -c 'import sys, numpy, scipy; print(sys.version.split()[0], "numpy", numpy.__version__, "scipy", scipy.__version__)')"
    echo "note: the machine is shared with other engineers' builds (load average: $(cut -d' ' -f1-3 /proc/loadavg)); medians of $repeat samples"
} > "$outdir/machine.txt"
cat "$outdir/machine.txt" >&2
