#!/usr/bin/env bash
# Builds the self-contained GPU bundle for a machine with an NVIDIA GPU and no JDK or network (issues 17, 28):
#   OUT/runtime.tar.xz           jlink runtime of a JDK 22+ (Java 25 on our build machines: the jar's FFM section,
#                                cuBLAS / cuSOLVER for CUDA 13, needs it), modules java.base, java.logging,
#                                java.xml (JUnit's XML reports, Jackson), jdk.unsupported; native libraries stripped;
#                                packed with xz (13 MiB instead of 42 MiB unpacked: the suite unpacks it first)
#   OUT/lib/dpgauss-bench.jar    shaded multi-release jar: engine, gpu (GpuEngine and its ServiceLoader entry),
#                                kernels (fatbins, META-INF/versions/22 FFM bindings), cpu-fallback, JCuda driver
#                                natives, cli, benchmarks; removed: JCuda's NVRTC, PTX-compiler and JCusolver natives
#                                (never used; JCusolver links CUDA 12), the OpenBLAS natives, JFreeChart and JMH
#                                (the suite draws no figure and runs no JMH benchmark)
#   OUT/lib/dpgauss-engine-tests.jar                 the engine's test classes (the contract and parity suites)
#   OUT/lib/dpgauss-gpu-tests.jar                    the gpu module's test classes (their GPU subclasses)
#   OUT/lib/junit-platform-console-standalone.jar    JUnit launcher (Maven dependency:copy)
#   OUT/run-gpu-suite.sh RESULTS_DIR, OUT/vendor_reference.py, OUT/COMMIT
# Usage: JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 bench/gpu-bundle/build-bundle.sh [OUT] [--no-build]
#   (default OUT: bench/gpu-bundle/target/dpgauss-gpu-bundle; --no-build reuses the jars already built;
#   MAVEN_ARGS, e.g. -Dmaven.repo.local=DIR, is passed to every mvn call)
# The device tool copies the working tree and the carried bundle, at most 64 MiB together: this script measures
# both (tracked and untracked-not-ignored files of the repository, plus the bundle) and fails when they leave less
# than DPGAUSS_BUNDLE_MIN_MARGIN_MIB (default 4) MiB of the 64 MiB.
# Needs a JDK 22+ (JAVA_HOME or javac on PATH), Maven, nvcc (the kernels; without it the bundle reports the GPU
# unavailable), zip, strip, tar and xz.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$here/target/dpgauss-gpu-bundle
build=1
for a in "$@"; do
  case "$a" in --no-build) build=0 ;; *) out=$a ;; esac
done
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
junit_platform_version=1.10.3   # the platform release of junit-jupiter ${junit.version} (5.10.3)
limit=$((64 * 1024 * 1024))
min_margin_mib=${DPGAUSS_BUNDLE_MIN_MARGIN_MIB:-4}

jdk=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
[ -x "$jdk/bin/jlink" ] || { echo "build-bundle: no jlink under $jdk (set JAVA_HOME to a JDK 22+, e.g. Temurin 25)" >&2; exit 1; }
feature=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
if [ "${feature%%.*}" -lt 22 ] 2>/dev/null || [ "${feature#1.}" != "$feature" ]; then
  echo "build-bundle: $jdk is Java $feature; the bundle needs a JDK 22+ (the FFM bindings to cuBLAS / cuSOLVER of CUDA 13 are Java 22+ code). Set JAVA_HOME, e.g. /usr/lib/jvm/temurin-25-jdk-amd64" >&2
  exit 1
fi
export JAVA_HOME=$jdk

cd "$root"
if [ $build = 1 ]; then
  echo ">> mvn package with Java $feature (tests compiled, not run)" >&2
  mvn -B -q ${MAVEN_ARGS:-} -DskipTests package -pl bench -am
fi
jar=bench/target/benchmarks.jar
[ -f "$jar" ] || { echo "build-bundle: $jar missing" >&2; exit 1; }
listing=$(unzip -l "$jar")
grep -q 'org/dpgauss/kernels/weighted_gram.fatbin' <<<"$listing" \
  || echo "build-bundle: WARNING: no compiled kernels in the jar (nvcc absent at build time): the bundle will report the GPU unavailable" >&2
grep -q 'META-INF/services/org.dpgauss.engine.ComputeEngineProvider' <<<"$listing" \
  && unzip -p "$jar" META-INF/services/org.dpgauss.engine.ComputeEngineProvider | grep -q '^org.dpgauss.gpu.GpuEngineProvider' \
  || { echo "build-bundle: $jar does not register the GPU backend (META-INF/services/org.dpgauss.engine.ComputeEngineProvider)" >&2; exit 1; }
grep -q 'META-INF/versions/22/org/dpgauss/kernels/FfmBlas.class' <<<"$listing" \
  || { echo "build-bundle: $jar has no META-INF/versions/22 FFM classes: build with a JDK 22+ (the ffm-solver profile)" >&2; exit 1; }
unzip -p "$jar" META-INF/MANIFEST.MF | grep -q '^Multi-Release: true' \
  || { echo "build-bundle: $jar is not a multi-release jar (Multi-Release: true missing)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/lib"
cp "$jar" "$out/lib/dpgauss-bench.jar"
# never loaded: kernels are prebuilt fatbins (NVRTC, PTX compiler); JCusolver links CUDA 12's libcusolver.so.11,
# which the CUDA 13 hosts do not have (cuSOLVER is reached through the FFM binding there)
zip -q -d "$out/lib/dpgauss-bench.jar" 'lib/libJNvPTXCompiler-*' 'lib/libJNvrtc-*' 'lib/libJCusolver-*' >/dev/null || true
# The OpenBLAS natives (~60 MB unpacked, ~20 MB packed) would break the 64 MiB transfer limit: the bundle's CPU
# engine is EJML (--engine cpu reports the fallback and why); the GPU engine does not use them.
zip -q -d "$out/lib/dpgauss-bench.jar" 'org/bytedeco/openblas/linux-x86_64/*' 'org/bytedeco/javacpp/linux-x86_64/*' \
    'org/bytedeco/openblas/linux-x86_64/' >/dev/null || true
# JFreeChart (the figures of run-*.sh and the command line's --plot, which the jlink runtime below, without
# java.desktop, could not draw anyway: --plot refuses there with exit 1, every other command runs) and JMH
# (run-jmh.sh) are never loaded by the suite: 2 MiB less to carry
zip -q -d "$out/lib/dpgauss-bench.jar" 'org/jfree/*' 'org/openjdk/jmh/*' 'META-INF/BenchmarkList' \
    'META-INF/CompilerHints' >/dev/null || true
"$jdk/bin/jar" cf "$out/lib/dpgauss-engine-tests.jar" -C engine/target/test-classes .
"$jdk/bin/jar" cf "$out/lib/dpgauss-gpu-tests.jar" -C gpu/target/test-classes .
# every class the suite selects must be in one of the test jars (a renamed or moved test would otherwise be
# reported by the JUnit launcher only on the GPU machine)
for c in $(sed -n 's/.*--select-class \([A-Za-z0-9_.]*\).*/\1/p' "$here/run-gpu-suite.sh"); do
  f="${c//.//}.class"
  unzip -l "$out/lib/dpgauss-engine-tests.jar" "$f" >/dev/null 2>&1 || unzip -l "$out/lib/dpgauss-gpu-tests.jar" "$f" >/dev/null 2>&1 \
    || { echo "build-bundle: run-gpu-suite.sh selects $c, which is in neither test jar" >&2; exit 1; }
done
echo ">> junit-platform-console-standalone:$junit_platform_version" >&2
mvn -B -q ${MAVEN_ARGS:-} dependency:copy -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_platform_version" \
    -DoutputDirectory="$out/lib" -Dmdep.stripVersion=true \
  || { echo "build-bundle: could not get junit-platform-console-standalone (offline? run once with network: mvn dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:$junit_platform_version)" >&2; exit 1; }
echo ">> jlink (Java $feature)" >&2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# java.management is not needed (no JMX in the suite's code paths; jdeps: only the JMH and javacpp tools use it);
# java.xml: JUnit's XML reports and Jackson; java.logging: JUnit, JCuda, Jackson; jdk.unsupported: JCuda, javacpp
"$jdk/bin/jlink" --add-modules java.base,java.logging,jdk.unsupported,java.xml \
    --strip-debug --no-man-pages --no-header-files --compress=zip-0 --output "$stage/runtime"
# strip the runtime's native libraries (libjvm.so alone is ~20 MB of symbols); the JVM runs the same
find "$stage/runtime" -name '*.so' -exec strip --strip-unneeded {} + 2>/dev/null || echo "build-bundle: strip not available: runtime left unstripped" >&2
"$stage/runtime/bin/java" --enable-native-access=ALL-UNNAMED -cp "$out/lib/dpgauss-bench.jar" org.dpgauss.cli.Main --version >/dev/null \
  || { echo "build-bundle: the bundled runtime does not run the CLI" >&2; exit 1; }
# uncompressed modules packed with xz: 13 MiB, against 42 MiB for a zip-9 image (the suite unpacks it, ~2 s)
tar -C "$stage" -cf - runtime | xz -9 -T0 > "$out/runtime.tar.xz"
cp "$here/run-gpu-suite.sh" "$here/vendor_reference.py" "$out/"
chmod +x "$out/run-gpu-suite.sh"
git -C "$root" rev-parse HEAD > "$out/COMMIT" 2>/dev/null || echo unknown > "$out/COMMIT"

# what the device tool sends: the repository's tracked and untracked-not-ignored files, plus the carried bundle
bundle=$(du -sb "$out" | cut -f1)
repo=$(git -C "$root" ls-files -z --cached --others --exclude-standard | (cd "$root" && xargs -0 stat -c %s 2>/dev/null) \
       | awk '{ s += $1 } END { print s + 0 }')
sum=$((bundle + repo))
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
echo ">> bundle $out: $(mib "$bundle") ($bundle bytes); repository (working tree that travels): $(mib "$repo") ($repo bytes); together $(mib "$sum") of the 64 MiB limit" >&2
du -sb "$out/runtime.tar.xz" "$out"/lib/* | awk '{ printf "     %6.1f MiB  %s\n", $1 / 1048576, $2 }' >&2
margin=$((limit - sum))
echo ">> margin: $(mib "$margin") under the 64 MiB (at least ${min_margin_mib} MiB required)" >&2
if [ "$margin" -lt $((min_margin_mib * 1024 * 1024)) ]; then
  echo "build-bundle: bundle + repository = $sum bytes leave $(mib "$margin") of the 64 MiB the device tool carries, under the ${min_margin_mib} MiB margin (DPGAUSS_BUNDLE_MIN_MARGIN_MIB)" >&2
  exit 1
fi
rel=${out#"$root"/}
echo ">> ready: run on the GPU machine (carry [\"$rel\"]): bash $rel/run-gpu-suite.sh \$OUT" >&2
