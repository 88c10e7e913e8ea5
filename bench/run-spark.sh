#!/usr/bin/env bash
# Local-mode scaling of the Spark row passes -> bench/results/spark/local*/ (one JSON file per run).
#   bench/run-spark.sh [MASTER] [N_LIST] [D_LIST] [MAX_N_TIMES_D] [SOURCE] [REPS] [coinpress|no-coinpress]
#     SOURCE cached (default; rows opened as a session opens a table, -> local/) or generated (blocks generated
#     inside the tasks, no sort, no cache -> local-generated/); REPS timed runs per pass (default 3)
#   bench/run-spark.sh passes MASTER stable|anisotropic N_LIST D [LIMIT_S]
#     the covariance-aware mean's and the anisotropic mean's passes on generated rows -> local-passes/
# defaults: local[2], n = 1e5,1e6,1e7, d = 50,200,500, n*d <= 2e8. Heap: SPARK_BENCH_HEAP (default 4g).
# MVN_FLAGS is passed to Maven (e.g. -o). Needs Maven; builds the spark module and its test class path.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
if [ "${1:-}" = passes ]; then
  shift
  class=org.dpgauss.spark.bench.SparkPassScaling
  out="$here/bench/results/spark/local-passes"
  args=("$out" "${1:-local[2]}" "${2:-stable}" "${3:-1e5,1e6}" "${4:-50}" "${5:-300}")
else
  class=org.dpgauss.spark.bench.SparkScaling
  source="${5:-cached}"
  out="$here/bench/results/spark/local"
  [ "$source" = generated ] && out="$here/bench/results/spark/local-generated"
  args=("$out" "${1:-local[2]}" "${2:-1e5,1e6,1e7}" "${3:-50,200,500}" "${4:-2e8}" "$source" "${6:-3}"
    "${7:-coinpress}")
fi
# shellcheck disable=SC2086
mvn -B -q ${MVN_FLAGS:-} -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl spark -am install
# shellcheck disable=SC2086
mvn -B -q ${MVN_FLAGS:-} -pl spark test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath \
  -DincludeScope=test
flags=$(sed -n 's:.*<spark.module.flags>\(.*\)</spark.module.flags>.*:\1:p' spark/pom.xml)
# shellcheck disable=SC2086
java -Xmx"${SPARK_BENCH_HEAP:-4g}" $flags -Dlog4j2.configurationFile=dpgauss-spark-log4j2.properties \
  -cp "spark/target/test-classes:spark/target/classes:$(cat spark/target/bench.classpath)" \
  "$class" "${args[@]}"
