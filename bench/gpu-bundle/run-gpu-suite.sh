#!/usr/bin/env bash
# run-gpu-suite.sh RESULTS_DIR   (issues 17 and 28: one command, one call, every figure, within one 15-minute lease)
#
# Runs with the bundle's own Java 25 runtime (runtime.tar.xz, unpacked into a private temporary directory), each
# phase under its own `timeout`, the whole suite within DPGAUSS_SUITE_BUDGET seconds (default 450 = 7.5 minutes:
# with a machine start of 2-3 minutes and the transfers, one call takes about 11 minutes of the 15-minute lease;
# the phase limits plus a kill grace each must fit, or the script refuses to start, and a phase never gets more
# than the time left). Phases, smallest work first, the largest shapes last:
#   unpack    the Java runtime (tar -xJ, or python3's tarfile where xz is missing); run bits set
#   probe     nvidia-smi, ldconfig -p, the venv's CUDA 13 libraries, the engine `auto` picks and why, where
#             libcuda / cuBLAS / cuSOLVER load from (FFM search: DPGAUSS_CUDA_LIBDIR, venv nvidia/cu13/lib,
#             /usr/local/cuda/lib64, system path; the file each was mapped from) or why not
#   tests     GPU contract tests (cuBLAS paths, kernels only, streamed), GPU/CPU parity, CPU contract: strict
#             engines (a device failure throws), zero CPU fall-backs asserted, GPU required when one is present
#   bench     GpuBench: per primitive and path the GPU end-to-end, GPU resident and device (kernel-only) times at
#             (n, d) = (1e5, 100), (1e6, 100), (1e5, 1000), smallest first; then the CPU references, once per
#             primitive and shape, within DPGAUSS_BENCH_CPU_BUDGET seconds (default 50)
#   vendor    CuPy's cuBLAS / cuSOLVER on the same shapes (syrk, matmul, solve_triangular, cholesky, eigh, H2D),
#             CUDA events after warm-up
#   data      a 1e6 x 100 standard normal .npy (numpy) for the large mechanism runs
#   mech_*    the mechanisms end to end, each with --engine gpu and --engine cpu: `dpgauss demo` demo-sized
#             (20000 x 10, every mechanism) and, on the 1e6 x 100 file, `dpgauss project` (rank 50) and
#             `dpgauss sample` (the unbounded Gaussian sampler, uncertified n1 = n/5, n2 = 2n/5), wall seconds each
# and writes exactly these 8 files into RESULTS_DIR (the device tool returns at most 8), each created at the start
# so that all 8 come back whatever stops the suite:
#   summary.txt  verdict (with where each CUDA library came from), per-phase exit status, seconds and limit
#   probe.txt    the unpack and probe phases' output
#   tests.log    the JUnit console output          junit-reports.tar.gz  the JUnit XML reports
#   gpu-bench.json   GpuBench's figures             vendor-reference.json  CuPy's figures
#   mechanisms.tar.gz  each mechanism run's JSON and log  bench.log  GpuBench, vendor, data and mechanism output
# A JVM that crashes natively writes its hs_err_pid*.log into the temporary directory (-XX:ErrorFile); the suite
# appends it to the phase's log and names it in summary.txt.
#
# Exit status: 0 everything ran on the GPU and passed; 1 a test failed, a phase failed or timed out, or a GPU
# call fell back to the CPU; 2 usage or a budget that does not fit; 3 a GPU is present (nvidia-smi or
# /dev/nvidia0) but the engine did not open (probe.txt then holds nvidia-smi, ldconfig -p and the real link
# error); 4 no GPU on this machine.
#
# Environment: DPGAUSS_SUITE_FAKE_DEVICE=1  run every phase as if a GPU were present, against the CPU (tests skip
#   the GPU classes; GpuBench --candidate cpu at the small scale, --candidate none (the CPU references alone) at
#   the full scale; mechanisms with --engine cpu on both sides): a check of the plumbing (file count, limits,
#   timeouts) and of the CPU side's cost on a machine without a GPU; the verdict says FAKE.
#   DPGAUSS_SUITE_SCALE=small|full (the fake run's default: small). DPGAUSS_LIMIT_<PHASE>=SECONDS overrides one
#   phase's limit, decimals allowed (DPGAUSS_LIMIT_BENCH=0.5 forces a timeout). DPGAUSS_SUITE_BUDGET,
#   DPGAUSS_BENCH_CPU_BUDGET, DPGAUSS_HEAP (default 48g), DPGAUSS_REQUIRE_VENDOR (default true: the GPU tests fail
#   unless cuBLAS and cuSOLVER load through FFM), DPGAUSS_CUDA_LIBDIR (first place searched for the CUDA 13
#   libraries).
set -u
here=$(cd "$(dirname "$0")" && pwd)
self="$here/$(basename "$0")"
heap=${DPGAUSS_HEAP:-48g}
files=(summary.txt probe.txt tests.log junit-reports.tar.gz gpu-bench.json vendor-reference.json mechanisms.tar.gz
       bench.log)

# phase bodies that are shell functions run as `timeout ... run-gpu-suite.sh --phase NAME ARGS` (timeout runs
# programs, not functions); the state they need comes through the environment (DPGAUSS_SUITE_*)
unpack_body() { # the runtime into $tmp/runtime; run bits set (a transfer may drop them)
  local rt=$tmp/runtime
  if [ -x "$here/runtime/bin/java" ] || [ -f "$here/runtime/bin/java" ]; then
    cp -a "$here/runtime" "$rt" || return 1
  elif command -v xz >/dev/null 2>&1; then
    tar -xJf "$here/runtime.tar.xz" -C "$tmp" || return 1
  else
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$here/runtime.tar.xz" "$tmp" \
      || return 1
  fi
  chmod u+x "$rt"/bin/* "$rt"/lib/jspawnhelper "$rt"/lib/jexec 2>/dev/null
  "$rt/bin/java" -version 2>&1 | head -n 1
  echo "runtime: $(du -sh "$rt" | cut -f1) unpacked into $rt"
}
probe_body() {
  echo "date: $(date -u +%FT%TZ)   host: $(uname -n) $(uname -r)   bundle commit: $(cat "$here/COMMIT" 2>/dev/null)"
  echo "gpu present: $gpu_present   scale: $scale   budget: ${budget}s"
  "$java" -version 2>&1 | head -n 1
  echo "--- nvidia-smi"; nvidia-smi 2>&1 || echo "(nvidia-smi not available)"
  echo "--- libcuda.so.1: ${DPGAUSS_SUITE_LIBCUDA}"
  echo "--- LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  echo "--- ldconfig -p (CUDA)"; ldconfig -p 2>/dev/null | grep -Ei 'libcuda|cublas|cusolver|cusparse|nvjitlink' || echo "(none in the ldconfig cache)"
  echo "--- DPGAUSS_CUDA_LIBDIR=${DPGAUSS_CUDA_LIBDIR:-} DPGAUSS_PYTHON_SITE=${DPGAUSS_PYTHON_SITE:-}"
  for s in ${DPGAUSS_PYTHON_SITE//:/ }; do ls "$s/nvidia/cu13/lib" 2>&1 | grep -E 'cublas|cusolver|cusparse|nvJitLink' | sed "s|^|$s/nvidia/cu13/lib/|"; done
  ls /usr/local/cuda/lib64 2>/dev/null | grep -E 'cublas|cusolver' | sed 's|^|/usr/local/cuda/lib64/|'
  echo "--- engine probe (GpuProbe: engine auto picks, why; vendor libraries; the file each library was mapped from)"
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
java_options() { # the JVM options of every phase: heap, private tmpdir, FFM access, crash reports into $tmp
  jopts=(-Xmx"$heap" -Djava.io.tmpdir="$tmp/jtmp" --enable-native-access=ALL-UNNAMED
         -XX:ErrorFile="$tmp/hs_err_pid%p.log" -XX:-CreateCoredumpOnCrash)
}
if [ "${1:-}" = "--phase" ]; then
  tmp=$DPGAUSS_SUITE_TMP; gpu_present=$DPGAUSS_SUITE_GPU; scale=$DPGAUSS_SUITE_SCALE_USED; budget=$DPGAUSS_SUITE_BUDGET_USED
  java="$tmp/runtime/bin/java"; cp_main="$here/lib/dpgauss-bench.jar"
  java_options
  shift; fn=$1; shift
  "$fn" "$@"
  exit $?
fi

[ $# -ge 1 ] || { echo "usage: $0 RESULTS_DIR" >&2; exit 2; }
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
start=$(date +%s)
budget=${DPGAUSS_SUITE_BUDGET:-450}
grace=3
fake=${DPGAUSS_SUITE_FAKE_DEVICE:-0}
scale=${DPGAUSS_SUITE_SCALE:-$([ "$fake" = 1 ] && echo small || echo full)}
cpu_budget=${DPGAUSS_BENCH_CPU_BUDGET:-$([ "$scale" = small ] && echo 20 || echo 50)}
chmod u+x "$here"/*.sh "$here"/*.py 2>/dev/null   # run bits a transfer may have dropped

phases=(unpack probe tests bench vendor data mech_small_gpu mech_small_cpu mech_large_gpu mech_large_cpu)
# planned on the H200 (bench/results/gpu-dry-run/, a dry run without a GPU) well inside each limit
declare -A limit=([unpack]=15 [probe]=25 [tests]=80 [bench]=120 [vendor]=35 [data]=15
                  [mech_small_gpu]=15 [mech_small_cpu]=15 [mech_large_gpu]=35 [mech_large_cpu]=45)
for p in "${phases[@]}"; do
  var="DPGAUSS_LIMIT_$(echo "$p" | tr '[:lower:]' '[:upper:]')"
  if [ -n "${!var:-}" ]; then
    awk -v v="${!var}" 'BEGIN { exit !(v ~ /^[0-9]+(\.[0-9]+)?$/ && v > 0) }' \
      || { echo "run-gpu-suite: $var=${!var} is not a positive number of seconds" >&2; exit 2; }
    limit[$p]=${!var}
  fi
done
# the limits, rounded up to whole seconds, plus the kill grace of each phase
total=$(for p in "${phases[@]}"; do echo "${limit[$p]}"; done \
        | awk -v g="$grace" '{ s += ($1 == int($1) ? $1 : int($1) + 1) + g } END { print s }')
if [ "$total" -gt "$budget" ]; then
  echo "run-gpu-suite: phase limits plus ${grace}s kill grace each sum to ${total}s, over the ${budget}s budget" >&2
  exit 2
fi

# all 8 files exist from now on: whatever stops the suite (its own limits, the device tool's), 8 files come back
summary="$out/summary.txt"
not_run() { # file phase: a JSON placeholder that says the phase did not write the file
  printf '{"status":"not-run","reason":"the %s phase did not write this file (it did not run, or was stopped first): see summary.txt and bench.log"}\n' "$2" > "$out/$1"
}
for f in probe.txt tests.log bench.log; do : > "$out/$f"; done
echo "verdict: INCOMPLETE: the suite was stopped before its verdict (started $(date -u +%FT%TZ); see the phase lines below)" > "$summary"
not_run gpu-bench.json bench
not_run vendor-reference.json vendor
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dpg-suite.XXXXXX") || { echo "run-gpu-suite: no temporary directory" | tee -a "$summary" >&2; exit 2; }
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/junit" "$tmp/mech" "$tmp/jtmp"
(cd "$tmp" && tar czf "$out/junit-reports.tar.gz" junit && tar czf "$out/mechanisms.tar.gz" mech)
java="$tmp/runtime/bin/java"
cp_main="$here/lib/dpgauss-bench.jar"
java_options
echo "phase limits (s): $(for p in "${phases[@]}"; do printf '%s=%s ' "$p" "${limit[$p]}"; done)(sum with ${grace}s grace each: ${total}s of the ${budget}s budget)" >> "$summary"

# the venv's site-packages, where the CUDA 13 pip wheels keep nvidia/cu13/lib (the FFM search's second place)
if [ -z "${DPGAUSS_PYTHON_SITE:-}" ] && command -v python3 >/dev/null 2>&1; then
  DPGAUSS_PYTHON_SITE=$(python3 -c 'import site; print(":".join(site.getsitepackages()))' 2>/dev/null || true)
  export DPGAUSS_PYTHON_SITE
fi
# the driver's libcuda.so.1 (JCuda's driver binding links it): the ldconfig cache, else LD_LIBRARY_PATH, else the
# driver's folder on the GPU hosts we are lent, /usr/local/nvidia/lib64 (added to LD_LIBRARY_PATH)
libcuda=""
cached=$(ldconfig -p 2>/dev/null | awk '$1 == "libcuda.so.1" { print $NF; exit }')
for dir in ${LD_LIBRARY_PATH:+${LD_LIBRARY_PATH//:/ }}; do
  [ -e "$dir/libcuda.so.1" ] && { libcuda="$dir/libcuda.so.1 (LD_LIBRARY_PATH, searched before the ldconfig cache)"; break; }
done
if [ -z "$libcuda" ] && [ -n "$cached" ]; then libcuda="$cached (ldconfig cache)"; fi
if [ -z "$libcuda" ]; then
  for dir in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
    if [ -e "$dir/libcuda.so.1" ]; then
      export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      libcuda="$dir/libcuda.so.1 (not in the ldconfig cache: $dir added to LD_LIBRARY_PATH)"
      break
    fi
  done
fi
[ -z "$libcuda" ] && libcuda="not found (not in the ldconfig cache, LD_LIBRARY_PATH or /usr/local/nvidia/lib64)"

declare -A rcs secs lims
crashes=()
run_phase() { # name logfile command...: one phase under its own timeout, never past the budget
  local name=$1 log=$2; shift 2
  local now left lim t0 rc
  now=$(date +%s)
  left=$((budget - (now - start) - grace - 2))
  lim=${limit[$name]}
  awk -v a="$lim" -v b="$left" 'BEGIN { exit !(a > b) }' && lim=$left
  if [ "$left" -lt 1 ]; then
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
  [ $rc -eq 124 ] && note=" TIMED OUT"
  [ $rc -eq 137 ] && note=" KILLED (SIGKILL: its time limit's kill after the grace, or a signal from outside)"
  echo "phase $name: exit $rc, ${secs[$name]}s of ${lim}s$note" | tee -a "$summary" >&2
  # a native crash's report comes back inside this phase's log (the device tool returns only the 8 files)
  local f
  for f in "$tmp"/hs_err_pid*.log; do
    [ -f "$f" ] || continue
    { echo "=== $(basename "$f"): the JVM crashed natively in phase $name (hs_err report follows)"; head -c 4000000 "$f"; \
      echo "=== end of $(basename "$f")"; } >> "$log"
    echo "phase $name: NATIVE CRASH: $(basename "$f") appended to $(basename "$log")" | tee -a "$summary" >&2
    crashes+=("$name:$(basename "$f")")
    rm -f "$f"
  done
  return 0
}

# ---------- unpack + probe ------------------------------------------------------------------------------
gpu_present=no
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then gpu_present=yes; fi
[ -e /dev/nvidia0 ] && gpu_present=yes
[ "$fake" = 1 ] && gpu_present="fake"
export DPGAUSS_SUITE_TMP=$tmp DPGAUSS_SUITE_GPU=$gpu_present DPGAUSS_SUITE_SCALE_USED=$scale \
       DPGAUSS_SUITE_BUDGET_USED=$budget DPGAUSS_SUITE_LIBCUDA="$libcuda"
run_phase unpack "$out/probe.txt" bash "$self" --phase unpack_body
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

# ---------- GPU bench (smallest shape first) ----------------------------------------------------------------
if [ "$scale" = small ]; then
  shapes="5000x100,20000x20"; pairs="2000,4000"; mech_large="50000x20"
else
  shapes="100000x100,1000000x100,100000x1000"; pairs="20000,40000,15000"; mech_large="1000000x100"
fi
mech_small="20000x10"
if [ "$engine_open" = yes ] || [ "$gpu_present" = fake ]; then
  candidate=()
  if [ "$gpu_present" = fake ]; then
    # the CPU against itself at the small scale (the rows' code path); the CPU references alone at the full scale
    if [ "$scale" = small ]; then candidate=(--candidate cpu); else candidate=(--candidate none); fi
  fi
  run_phase bench "$out/bench.log" "$java" "${jopts[@]}" -cp "$cp_main" org.dpgauss.bench.gpu.GpuBench \
      --out "$out" --shapes "$shapes" --pairs-rows "$pairs" --cpu-budget "$cpu_budget" "${candidate[@]}"
  if ! grep -q '"op"' "$out/gpu-bench.json" 2>/dev/null; then
    # GpuBench died before its first row (or never started): say so in the file the tool returns
    printf '{"status":"no-rows","exit":"%s","reason":"GpuBench stopped before its first row (exit %s; 124: its time limit; 137: killed): see bench.log"}\n' \
        "${rcs[bench]}" "${rcs[bench]}" > "$out/gpu-bench.json"
  fi
else
  echo "phase bench: not run (no GPU engine)" | tee -a "$summary"; rcs[bench]=not-run
  echo '{"status":"not-run","reason":"no GPU engine: see probe.txt"}' > "$out/gpu-bench.json"
fi

# ---------- vendor reference (CuPy) ----------------------------------------------------------------------
run_phase vendor "$out/bench.log" env PYTHONUNBUFFERED=1 python3 "$here/vendor_reference.py" \
    "$out/vendor-reference.json" --shapes "$shapes"
grep -q '"status"' "$out/vendor-reference.json" 2>/dev/null \
  || echo '{"status":"not-run","reason":"python3 missing or the script failed: see bench.log"}' > "$out/vendor-reference.json"

# ---------- mechanisms end to end (the large file last) -------------------------------------------------------
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
[ ${#crashes[@]} -gt 0 ] && verdict="$verdict; NATIVE CRASH: ${crashes[*]} (hs_err appended to the phase's log)"
# where each CUDA library came from: the suite's search for libcuda.so.1, and the files the probe's JVM mapped
libs=$(grep '^library: ' "$out/probe.txt" 2>/dev/null | sed 's/^library: //' | paste -sd ';' | sed 's/;/; /g')
for f in "${files[@]}"; do   # a file a phase removed is back as a placeholder: always the same 8 files
  [ -e "$out/$f" ] || case "$f" in *.json) not_run "$f" suite ;; *.tar.gz) (cd "$tmp" && tar czf "$out/$f" mech) ;; *) : > "$out/$f" ;; esac
done
nfiles=$(ls -A "$out" | wc -l)
{
  echo "verdict: $verdict (exit $code)"
  echo "libraries: libcuda.so.1 for JCuda: $libcuda; mapped by the probe's JVM: ${libs:-(no probe output)}"
  echo "elapsed: ${elapsed}s of the ${budget}s budget"
  echo "files in $out: $nfiles (at most 8 come back): $(ls -A "$out" | tr '\n' ' ')"
} > "$tmp/summary.new"
# the verdict first, then the phase lines written as they ran (the INCOMPLETE line dropped)
grep -v '^verdict: INCOMPLETE' "$summary" >> "$tmp/summary.new"; cat "$tmp/summary.new" > "$summary"
cat "$summary"
if [ "$nfiles" -gt 8 ]; then
  echo "run-gpu-suite: $nfiles files in $out, more than the 8 the device tool returns" | tee -a "$summary" >&2
  code=1
fi
exit $code
