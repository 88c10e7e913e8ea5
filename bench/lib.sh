# bench/lib.sh: shared by the bench/run-*.sh scripts, which source it from the repository root.

# ensure_benchmarks_jar NAME REBUILD
#   Builds bench/target/benchmarks.jar (mvn -B -q -DskipTests package -pl bench -am) when it is missing, older
#   than any pom.xml or main source of the modules, or REBUILD is 1. NAME prefixes error messages.
ensure_benchmarks_jar() {
    local name="$1" rebuild="$2" jar="bench/target/benchmarks.jar"
    local paths=(pom.xml) m stale=0
    for m in cpu-fallback kernels engine bench; do
        [[ -f "$m/pom.xml" ]] && paths+=("$m/pom.xml")
        [[ -d "$m/src/main" ]] && paths+=("$m/src/main")
    done
    if [[ $rebuild -eq 1 || ! -f "$jar" ]]; then
        stale=1
    elif [[ -n "$(find "${paths[@]}" -type f -newer "$jar" -print -quit 2>/dev/null)" ]]; then
        stale=1
    fi
    if [[ $stale -eq 1 ]]; then
        echo ">> building $jar (mvn -B -q -DskipTests package -pl bench -am)" >&2
        mvn -B -q -DskipTests package -pl bench -am
        [[ -f "$jar" ]] || { echo "$name: build finished but $jar is missing" >&2; exit 1; }
    else
        echo ">> using existing $jar" >&2
    fi
}
