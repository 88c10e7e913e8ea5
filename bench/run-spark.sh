#!/usr/bin/env bash
# Local-mode scaling of the Spark row passes -> bench/results/spark/local/*.json (one file per n, d).
#   bench/run-spark.sh [MASTER] [N_LIST] [D_LIST] [MAX_N_TIMES_D]
# defaults: local[2], n = 1e5,1e6,1e7, d = 50,200,500, n*d <= 2e8 (1.6 GB of cached doubles; -Xmx10g)
# Needs Maven; builds the spark module and its test class path (downloads Spark once).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
master="${1:-local[2]}"
ns="${2:-1e5,1e6,1e7}"
ds="${3:-50,200,500}"
max="${4:-2e8}"
out="$here/bench/results/spark/local"
cd "$here"
mvn -B -q -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -pl spark -am install
mvn -B -q -pl spark test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -DincludeScope=test
flags=$(sed -n 's:.*<spark.module.flags>\(.*\)</spark.module.flags>.*:\1:p' spark/pom.xml)
# shellcheck disable=SC2086
java -Xmx10g $flags -Dlog4j2.configurationFile=dpgauss-spark-log4j2.properties \
  -cp "spark/target/test-classes:spark/target/classes:$(cat spark/target/bench.classpath)" \
  org.dpgauss.spark.bench.SparkScaling "$out" "$master" "$ns" "$ds" "$max"
