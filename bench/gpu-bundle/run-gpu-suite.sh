#!/bin/sh
# run-gpu-suite.sh RESULTS_DIR [--quick]
# Runs, with the bundled Java runtime, (1) the GPU test suite (GPU contract test, resident and streamed,
# and GPU/CPU parity) through the JUnit console launcher and (2) the GPU benchmarks (GPU/CPU ratios per
# primitive at (n,d) = (1e6,100) and (1e5,1000)), writing JSON and logs to RESULTS_DIR:
#   probe.txt, tests.log, junit/ (XML reports), gpu-bench.json, bench.log, summary.txt
# --quick: benchmarks at (1e5,100) and (1e4,1000) only (a smoke run).
# Without a usable GPU the tests are reported as skipped (with the reason), the benchmarks are not run,
# and summary.txt says "no GPU"; the exit status is then 0 (the suite did what it could) unless a test failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 RESULTS_DIR [--quick]" >&2; exit 2; }
out=$1
quick=${2:-}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
# a private tmpdir (outside RESULTS_DIR, so the extracted natives are not collected as results)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dpgauss-gpu-suite.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
java="$here/runtime/bin/java"
cp_main="$here/lib/dpgauss-bench.jar"
heap=${DPGAUSS_HEAP:-24g}
# a private tmpdir: JCuda extracts its natives there and would reuse a stale copy from elsewhere
jopts="-Xmx$heap -Djava.io.tmpdir=$tmp"
"$java" -version 2>&1 | head -1 > "$out/java.txt"
# a Java 22+ runtime (bundle built with JAVA_HOME on a JDK 22+: FFM cuSOLVER binding) wants native access granted
feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
case "$feature" in 1.*|9|1[0-9]|2[01]) ;; *) jopts="$jopts --enable-native-access=ALL-UNNAMED" ;; esac

"$java" $jopts -cp "$cp_main" org.dpgauss.cli.Main --version > "$out/probe.txt" 2>&1 || true
"$java" $jopts -cp "$cp_main" org.dpgauss.bench.gpu.GpuProbe >> "$out/probe.txt" 2>&1
probe=$?
cat "$out/probe.txt"

echo ">> GPU test suite -> $out/tests.log"
"$java" $jopts -jar "$here/lib/junit-platform-console-standalone.jar" execute \
    --class-path "$cp_main:$here/lib/dpgauss-engine-tests.jar" \
    --select-class org.dpgauss.engine.GpuEngineContractTest \
    --select-class org.dpgauss.engine.GpuStreamedEngineContractTest \
    --select-class org.dpgauss.engine.GpuParityTest \
    --select-class org.dpgauss.engine.CpuEngineContractTest \
    --reports-dir "$out/junit" --details=tree --disable-banner --disable-ansi-colors > "$out/tests.log" 2>&1
tests=$?
tail -n 25 "$out/tests.log"

if [ $probe -ne 0 ]; then
  echo "no GPU: $(tail -n 1 "$out/probe.txt"); GPU tests reported as skipped, benchmarks not run" | tee "$out/summary.txt"
  [ $tests -eq 0 ] && exit 0 || exit 1
fi

echo ">> GPU benchmarks -> $out/bench.log, $out/gpu-bench.json"
if [ "$quick" = "--quick" ]; then
  shapes="--shapes 100000x100,10000x1000 --pairs-rows 20000,10000"
else
  shapes="--shapes 1000000x100,100000x1000 --pairs-rows 100000,30000"
fi
"$java" $jopts -cp "$cp_main" org.dpgauss.bench.gpu.GpuBench --out "$out" $shapes > "$out/bench.log" 2>&1
bench=$?
cat "$out/bench.log"
echo "tests exit $tests, bench exit $bench" > "$out/summary.txt"
[ $tests -eq 0 ] && [ $bench -eq 0 ]
