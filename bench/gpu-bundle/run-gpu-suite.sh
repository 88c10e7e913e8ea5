#!/usr/bin/env bash
# run-gpu-suite.sh RESULTS_DIR   (issue 17: one command, one call, every figure)
#
# Runs with the bundle's own Java 25 runtime, each phase under its own `timeout`, the whole suite within
# DPGAUSS_SUITE_BUDGET seconds (default 540 = 9 minutes: the phase limits plus a kill grace each must fit; the
# script refuses to start otherwise, and a phase never gets more than the time left):
#   probe     nvidia-smi, ldconfig -p, the venv's CUDA 13 libraries, the engine `auto` picks and why, where
#             cuBLAS / cuSOLVER load from (FFM search: DPGAUSS_CUDA_LIBDIR, venv nvidia/cu13/lib,
#             /usr/local/cuda/lib64, system path) or why not
#   tests     GPU contract tests (cuBLAS paths, kernels only, streamed), GPU/CPU parity, CPU contract: strict
#             engines (a device failure throws), zero CPU fall-backs asserted, GPU required when one is present
#   bench     GpuBench: per primitive and path the CPU, GPU end-to-end, GPU resident and device (kernel-only)
#             times at (n, d) = (1e6, 100) and (1e5, 1000)
#   vendor    CuPy's cuBLAS / cuSOLVER on the same shapes (syrk, matmul, solve_triangular, cholesky, eigh, H2D),
#             CUDA events after warm-up
#   data      a 1e6 x 100 standard normal .npy (numpy) for the large mechanism runs
#   mech_*    the mechanisms end to end, each with --engine gpu and --engine cpu: `dpgauss demo` demo-sized
#             (20000 x 10, every mechanism) and, on the 1e6 x 100 file, `dpgauss project` (rank 50) and
#             `dpgauss sample` (the unbounded Gaussian sampler, uncertified n1 = n/5, n2 = 2n/5), wall seconds each
# and writes exactly these 8 files into RESULTS_DIR (the device tool returns at most 8):
#   summary.txt  verdict, per-phase exit status, seconds and limit, the file list
#   probe.txt    the probe phase's output
#   tests.log    the JUnit console output          junit-reports.tar.gz  the JUnit XML reports
#   gpu-bench.json   GpuBench's figures             vendor-reference.json  CuPy's figures
#   mechanisms.tar.gz  each mechanism run's JSON and log  bench.log  GpuBench, vendor, data and mechanism output
#
# Exit status: 0 everything ran on the GPU and passed; 1 a test failed, a phase failed or timed out, or a GPU
# call fell back to the CPU; 2 usage or a budget that does not fit; 3 a GPU is present (nvidia-smi or
# /dev/nvidia0) but the engine did not open (probe.txt then holds nvidia-smi, ldconfig -p and the real link
# error); 4 no GPU on this machine.
#
# Environment: DPGAUSS_SUITE_FAKE_DEVICE=1  run every phase as if a GPU were present, against the CPU (GpuBench
#   --candidate cpu, mechanisms with --engine cpu on both sides, tests skip): a check of the plumbing (file count,
#   limits, timeouts) on a machine without a GPU; the verdict says FAKE. DPGAUSS_SUITE_SCALE=small shrinks every
#   shape (the fake run's default). DPGAUSS_LIMIT_<PHASE>=SECONDS overrides one phase's limit (e.g.
#   DPGAUSS_LIMIT_BENCH=5 to see a timeout). DPGAUSS_SUITE_BUDGET, DPGAUSS_HEAP (default 48g),
#   DPGAUSS_REQUIRE_VENDOR (default true: the GPU tests fail unless cuBLAS and cuSOLVER load through FFM),
#   DPGAUSS_CUDA_LIBDIR (first place searched for the CUDA 13 libraries).
set -u
here=$(cd "$(dirname "$0")" && pwd)
self="$here/$(basename "$0")"
java="$here/runtime/bin/java"
cp_main="$here/lib/dpgauss-bench.jar"
heap=${DPGAUSS_HEAP:-48g}

# phase bodies that are shell functions run as `timeout ... run-gpu-suite.sh --phase NAME ARGS` (timeout runs
# programs, not functions); the state they need comes through the environment (DPGAUSS_SUITE_*)
probe_body() {
  echo "date: $(date -u +%FT%TZ)   host: $(uname -n) $(uname -r)   bundle commit: $(cat "$here/COMMIT" 2>/dev/null)"
  echo "gpu present: $gpu_present   scale: $scale   budget: ${budget}s"
  "$java" -version 2>&1 | head -n 1
  echo "--- nvidia-smi"; nvidia-smi 2>&1 || echo "(nvidia-smi not available)"
  echo "--- ldconfig -p (CUDA)"; ldconfig -p 2>/dev/null | grep -Ei 'libcuda|cublas|cusolver|cusparse|nvjitlink' || echo "(none in the ldconfig cache)"
  echo "--- DPGAUSS_CUDA_LIBDIR=${DPGAUSS_CUDA_LIBDIR:-} DPGAUSS_PYTHON_SITE=${DPGAUSS_PYTHON_SITE:-}"
  for s in ${DPGAUSS_PYTHON_SITE//:/ }; do ls "$s/nvidia/cu13/lib" 2>&1 | grep -E 'cublas|cusolver|cusparse|nvJitLink' | sed "s|^|$s/nvidia/cu13/lib/|"; done
  ls /usr/local/cuda/lib64 2>/dev/null | grep -E 'cublas|cusolver' | sed 's|^|/usr/local/cuda/lib64/|'
  echo "--- engine probe (GpuProbe: engine auto picks, why; vendor libraries)"
  "$java" "${jopts[@]}" -cp "$cp_main" org.dpgauss.bench.gpu.GpuProbe
}
timed() { # name command...: runs one CLI command, stdout to $tmp/mech/NAME.json, stderr to NAME.log, wall seconds
  local name=$1; shift
  local t0 rc
  t0=$(date +%s.%N)
  "$@" > "$tmp/mech/$name.json" 2> "$tmp/mech/$name.log"
  rc=$?
  echo "$name: exit $rc, $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s wall"
  tail -n 2 "$tmp/mech/$name.log"
  return $rc
}
mech_demo() { # NxD engine: every mechanism of `dpgauss demo` on synthetic data
  local nd=$1 engine=$2
  timed "demo-$nd-$engine" "$java" "${jopts[@]}" -cp "$cp_main" org.dpgauss.cli.Main demo --n "${nd%x*}" \
      --d "${nd#*x}" --engine "$engine" --insecure-seed 20261125 --json
}
mech_large() { # NxD engine: projection mechanism and the unbounded Gaussian sampler on the generated file
  local nd=$1 engine=$2 rc=0
  [ -f "$tmp/x.npy" ] || { echo "no $tmp/x.npy (data phase failed)"; return 1; }
  timed "project-$nd-$engine" "$java" "${jopts[@]}" -cp "$cp_main" org.dpgauss.cli.Main project --input "$tmp/x.npy" \
      --rank 50 --epsilon 1 --delta 1e-6 --row-bound 20 --clip-rows --output "$tmp/mech/M-$engine.npy" \
      --engine "$engine" --insecure-seed 20261125 --json || rc=1
  rm -f "$tmp/mech/M-$engine.npy"
  # uncertified split n1 = n/5, n2 = 2n/5 (the certified constants need millions of rows more)
  local n=${nd%x*}
  timed "sample-$nd-$engine" "$java" "${jopts[@]}" -cp "$cp_main" org.dpgauss.cli.Main sample --input "$tmp/x.npy" \
      --epsilon 1 --delta 1e-3 --constants "n1=$((n / 5)),n2=$((2 * n / 5))" --engine "$engine" \
      --insecure-seed 20261125 --json || rc=1
  return $rc
}
make_data() { # NxD: standard normal rows (seed 17) as .npy for the large mechanism runs
  python3 -c 'import sys, numpy as np; n, d = (int(float(v)) for v in sys.argv[1].split("x")); np.save(sys.argv[2], np.random.default_rng(17).standard_normal((n, d)))' "$1" "$tmp/x.npy" \
    && ls -l "$tmp/x.npy"
}
if [ "${1:-}" = "--phase" ]; then
  tmp=$DPGAUSS_SUITE_TMP; gpu_present=$DPGAUSS_SUITE_GPU; scale=$DPGAUSS_SUITE_SCALE_USED; budget=$DPGAUSS_SUITE_BUDGET_USED
  jopts=(-Xmx"$heap" -Djava.io.tmpdir="$tmp/jtmp" --enable-native-access=ALL-UNNAMED)
  shift; fn=$1; shift
  "$fn" "$@"
  exit $?
fi

[ $# -ge 1 ] || { echo "usage: $0 RESULTS_DIR" >&2; exit 2; }
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
start=$(date +%s)
budget=${DPGAUSS_SUITE_BUDGET:-540}
grace=3
fake=${DPGAUSS_SUITE_FAKE_DEVICE:-0}
scale=${DPGAUSS_SUITE_SCALE:-$([ "$fake" = 1 ] && echo small || echo full)}

phases=(probe tests bench vendor data mech_small_gpu mech_small_cpu mech_large_gpu mech_large_cpu)
declare -A limit=([probe]=30 [tests]=90 [bench]=175 [vendor]=50 [data]=15
                  [mech_small_gpu]=20 [mech_small_cpu]=20 [mech_large_gpu]=45 [mech_large_cpu]=60)
total=0
for p in "${phases[@]}"; do
  var="DPGAUSS_LIMIT_$(echo "$p" | tr '[:lower:]' '[:upper:]')"
  [ -n "${!var:-}" ] && limit[$p]=${!var}
  total=$((total + limit[$p] + grace))
done
if [ "$total" -gt "$budget" ]; then
  echo "run-gpu-suite: phase limits plus ${grace}s kill grace each sum to ${total}s, over the ${budget}s budget" >&2
  exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dpgauss-gpu-suite.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/junit" "$tmp/mech" "$tmp/jtmp"
summary="$out/summary.txt"
: > "$summary"
: > "$out/bench.log"
# a private tmpdir: JCuda extracts its natives there and would reuse a stale copy from elsewhere
jopts=(-Xmx"$heap" -Djava.io.tmpdir="$tmp/jtmp" --enable-native-access=ALL-UNNAMED)

# the venv's site-packages, where the CUDA 13 pip wheels keep nvidia/cu13/lib (the FFM search's second place)
if [ -z "${DPGAUSS_PYTHON_SITE:-}" ] && command -v python3 >/dev/null 2>&1; then
  DPGAUSS_PYTHON_SITE=$(python3 -c 'import site; print(":".join(site.getsitepackages()))' 2>/dev/null || true)
  export DPGAUSS_PYTHON_SITE
fi

declare -A rcs secs lims
run_phase() { # name logfile command...: one phase under its own timeout, never past the budget
  local name=$1 log=$2; shift 2
  local now left lim t0 rc
  now=$(date +%s)
  left=$((budget - (now - start) - grace - 2))
  lim=${limit[$name]}
  [ "$lim" -gt "$left" ] && lim=$left
  if [ "$lim" -lt 3 ]; then
    rcs[$name]=skipped; secs[$name]=0; lims[$name]=$lim
    echo "phase $name: skipped (no time left in the ${budget}s budget)" | tee -a "$summary"
    return 0
  fi
  echo ">> phase $name (limit ${lim}s)" | tee -a "$log" >&2
  t0=$(date +%s.%N)
  timeout -k "$grace" "$lim" "$@" >> "$log" 2>&1
  rc=$?
  rcs[$name]=$rc; lims[$name]=$lim
  secs[$name]=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  local note=""
  { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && note=" TIMED OUT"
  echo "phase $name: exit $rc, ${secs[$name]}s of ${lim}s$note" | tee -a "$summary" >&2
  return 0
}

# ---------- probe ---------------------------------------------------------------------------------------
gpu_present=no
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then gpu_present=yes; fi
[ -e /dev/nvidia0 ] && gpu_present=yes
[ "$fake" = 1 ] && gpu_present="fake"
export DPGAUSS_SUITE_TMP=$tmp DPGAUSS_SUITE_GPU=$gpu_present DPGAUSS_SUITE_SCALE_USED=$scale DPGAUSS_SUITE_BUDGET_USED=$budget
run_phase probe "$out/probe.txt" bash "$self" --phase probe_body
probe_rc=${rcs[probe]}
engine_open=no; [ "$probe_rc" = 0 ] && engine_open=yes
if [ "$gpu_present" = yes ] && [ "$engine_open" = no ]; then
  echo "GPU PRESENT BUT THE ENGINE DID NOT OPEN: see probe.txt (nvidia-smi, ldconfig -p, the link error)" | tee -a "$summary" >&2
  tail -n 5 "$out/probe.txt" >&2
fi

# ---------- tests ---------------------------------------------------------------------------------------
topts=("${jopts[@]}" -Ddpgauss.gpu.strict=true)
if [ "$gpu_present" = yes ]; then
  topts+=(-Ddpgauss.gpu.required=true -Ddpgauss.gpu.requireVendor="${DPGAUSS_REQUIRE_VENDOR:-true}")
fi
run_phase tests "$out/tests.log" "$java" "${topts[@]}" -jar "$here/lib/junit-platform-console-standalone.jar" execute \
    --class-path "$cp_main:$here/lib/dpgauss-engine-tests.jar:$here/lib/dpgauss-gpu-tests.jar" \
    --select-class org.dpgauss.gpu.GpuEngineProviderTest \
    --select-class org.dpgauss.gpu.GpuParityTest \
    --select-class org.dpgauss.gpu.GpuEngineContractTest \
    --select-class org.dpgauss.gpu.GpuKernelsOnlyEngineContractTest \
    --select-class org.dpgauss.gpu.GpuStreamedEngineContractTest \
    --select-class org.dpgauss.engine.CpuEngineContractTest \
    --reports-dir "$tmp/junit" --details=summary --details-theme=ascii --disable-banner --disable-ansi-colors
grep -E "tests (successful|failed|skipped|aborted)|containers failed" "$out/tests.log" | sed 's/^/tests: /' | tee -a "$summary"
(cd "$tmp" && tar czf "$out/junit-reports.tar.gz" junit)

# ---------- GPU bench -------------------------------------------------------------------------------------
if [ "$scale" = small ]; then
  shapes="20000x20,5000x100"; pairs="4000,2000"; mech_large="50000x20"
else
  shapes="1000000x100,100000x1000"; pairs="40000,15000"; mech_large="1000000x100"
fi
mech_small="20000x10"
if [ "$engine_open" = yes ] || [ "$gpu_present" = fake ]; then
  candidate=(); [ "$gpu_present" = fake ] && candidate=(--candidate cpu)
  run_phase bench "$out/bench.log" "$java" "${jopts[@]}" -cp "$cp_main" org.dpgauss.bench.gpu.GpuBench \
      --out "$out" --shapes "$shapes" --pairs-rows "$pairs" "${candidate[@]}"
else
  echo "phase bench: not run (no GPU engine)" | tee -a "$summary"; rcs[bench]=not-run
  echo '{"status":"not-run","reason":"no GPU engine: see probe.txt"}' > "$out/gpu-bench.json"
fi

# ---------- vendor reference (CuPy) ----------------------------------------------------------------------
run_phase vendor "$out/bench.log" env PYTHONUNBUFFERED=1 python3 "$here/vendor_reference.py" \
    "$out/vendor-reference.json" --shapes "$shapes"
[ -f "$out/vendor-reference.json" ] || echo '{"status":"not-run","reason":"python3 missing or the script failed: see bench.log"}' > "$out/vendor-reference.json"

# ---------- mechanisms end to end ---------------------------------------------------------------------------
gpu_engine=gpu; [ "$gpu_present" = fake ] && gpu_engine=cpu
run_phase data "$out/bench.log" bash "$self" --phase make_data "$mech_large"
run_phase mech_small_gpu "$out/bench.log" bash "$self" --phase mech_demo "$mech_small" "$gpu_engine"
run_phase mech_small_cpu "$out/bench.log" bash "$self" --phase mech_demo "$mech_small" cpu
run_phase mech_large_gpu "$out/bench.log" bash "$self" --phase mech_large "$mech_large" "$gpu_engine"
run_phase mech_large_cpu "$out/bench.log" bash "$self" --phase mech_large "$mech_large" cpu
rm -f "$tmp/x.npy"
(cd "$tmp" && tar czf "$out/mechanisms.tar.gz" mech)

# ---------- verdict --------------------------------------------------------------------------------------------
failed=()
for p in "${phases[@]}"; do
  case "${rcs[$p]:-not-run}" in
    0|not-run|skipped) ;;
    3) { [ "$p" = vendor ] || [ "$p" = probe ]; } && [ "$gpu_present" != yes ] || failed+=("$p") ;;   # no GPU: expected
    *) failed+=("$p") ;;
  esac
done
elapsed=$(( $(date +%s) - start ))
if [ "$gpu_present" = fake ]; then
  verdict="FAKE DEVICE (plumbing check, nothing ran on a GPU)"; code=0
  [ ${#failed[@]} -gt 0 ] && { verdict="$verdict; failed: ${failed[*]}"; code=1; }
elif [ "$gpu_present" = yes ] && [ "$engine_open" = no ]; then
  verdict="FAIL: a GPU is present but the GPU engine did not open (probe.txt: nvidia-smi, ldconfig -p, link error)"; code=3
elif [ "$gpu_present" = no ]; then
  verdict="NO GPU on this machine: nothing was measured"; code=4
elif [ ${#failed[@]} -gt 0 ]; then
  verdict="FAIL: ${failed[*]}"; code=1
else
  verdict="PASS: every phase ran on the GPU without a CPU fall-back"; code=0
fi
files=$(ls -A "$out" | wc -l)
{
  echo "verdict: $verdict (exit $code)"
  echo "elapsed: ${elapsed}s of the ${budget}s budget; phase limits (s): $(for p in "${phases[@]}"; do printf '%s=%s ' "$p" "${limit[$p]}"; done)(sum with ${grace}s grace each: ${total}s)"
  echo "files in $out: $files (at most 8 come back): $(ls -A "$out" | tr '\n' ' ')"
} | tee -a "$summary"
if [ "$files" -gt 8 ]; then
  echo "run-gpu-suite: $files files in $out, more than the 8 the device tool returns" | tee -a "$summary" >&2
  code=1
fi
exit $code
