#!/usr/bin/env bash
# Builds a self-contained GPU bundle (< 64 MiB) for a machine with an NVIDIA GPU and no JDK or network:
#   OUT/runtime/                 jlink runtime (java.base, java.logging, java.management, jdk.unsupported,
#                                java.xml for the JUnit XML reports)
#   OUT/lib/dpgauss-bench.jar    shaded jar: engine, kernels (fatbins), cpu-fallback, JCuda driver natives,
#                                benchmarks (JCuda's NVRTC and PTX-compiler natives removed: never used)
#   OUT/lib/dpgauss-engine-tests.jar                 the engine's test classes (GPU contract and parity)
#   OUT/lib/junit-platform-console-standalone.jar    JUnit launcher, fetched by Maven (dependency:copy)
#   OUT/run-gpu-suite.sh RESULTS_DIR                 runs the GPU tests and benchmarks, JSON + logs there
# Usage: bench/gpu-bundle/build-bundle.sh [OUT]   (default bench/gpu-bundle/target/dpgauss-gpu-bundle)
# Needs a JDK 17+ (jlink) and Maven; builds the kernels only where nvcc is present (a bundle built without
# nvcc runs everything on the CPU and reports the GPU tests as skipped).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$here/target/dpgauss-gpu-bundle}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
junit_platform_version=1.10.3   # the platform release of junit-jupiter ${junit.version} (5.10.3)
limit=$((64 * 1024 * 1024))

jdk=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
[ -x "$jdk/bin/jlink" ] || { echo "build-bundle: no jlink under $jdk (set JAVA_HOME to a JDK 17+)" >&2; exit 1; }

cd "$root"
echo ">> mvn package (tests compiled, not run)" >&2
mvn -B -q -DskipTests package -pl bench -am
[ -f bench/target/benchmarks.jar ] || { echo "build-bundle: bench/target/benchmarks.jar missing" >&2; exit 1; }
if ! unzip -l bench/target/benchmarks.jar | grep -c 'org/dpgauss/kernels/weighted_gram.fatbin' >/dev/null; then
  echo "build-bundle: WARNING: no compiled kernels in the jar (nvcc absent at build time): the bundle will report the GPU unavailable" >&2
fi

rm -rf "$out"
mkdir -p "$out/lib"
cp bench/target/benchmarks.jar "$out/lib/dpgauss-bench.jar"
# JCuda's NVRTC and PTX-compiler natives (~24 MB) are never loaded: kernels are prebuilt fatbins
zip -q -d "$out/lib/dpgauss-bench.jar" 'lib/libJNvPTXCompiler-*' 'lib/libJNvrtc-*' >/dev/null
# The OpenBLAS natives (~60 MB unpacked, ~20 MB packed) would break the 64 MiB transfer limit: the bundle's CPU
# engine is EJML (--engine cpu reports the fallback and why); the GPU engine does not use them.
zip -q -d "$out/lib/dpgauss-bench.jar" 'org/bytedeco/openblas/linux-x86_64/*' 'org/bytedeco/javacpp/linux-x86_64/*' \
    'org/bytedeco/openblas/linux-x86_64/' >/dev/null || true
"$jdk/bin/jar" cf "$out/lib/dpgauss-engine-tests.jar" -C engine/target/test-classes .
echo ">> mvn dependency:copy junit-platform-console-standalone:$junit_platform_version" >&2
mvn -B -q dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_platform_version" \
    -DoutputDirectory="$out/lib" -Dmdep.stripVersion=true
echo ">> jlink" >&2
# JDK 21+ names the compression zip-0..9 (and deprecates "2"); JDK 17 knows only 0..2
compress=2
plugins=$("$jdk/bin/jlink" --list-plugins 2>/dev/null || true)
case "$plugins" in *'zip-[0-9]'*) compress=zip-9 ;; esac
"$jdk/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.unsupported,java.xml \
    --strip-debug --no-man-pages --no-header-files --compress=$compress --output "$out/runtime"
cp "$here/run-gpu-suite.sh" "$out/run-gpu-suite.sh"
chmod +x "$out/run-gpu-suite.sh"
git -C "$root" rev-parse HEAD > "$out/COMMIT" 2>/dev/null || echo unknown > "$out/COMMIT"

size=$(du -sb "$out" | cut -f1)
echo ">> bundle $out: $((size / 1024 / 1024)) MiB ($size bytes)" >&2
if [ "$size" -ge "$limit" ]; then
  echo "build-bundle: the bundle is $size bytes, over the 64 MiB limit" >&2
  exit 1
fi
