# bench/lib.sh: shared by the bench/run-*.sh scripts. Sourcing it moves to the repository root (the scripts work
# from there wherever they are started) and sets JAR and JAVA (below).

# the sourcing script's absolute path, for --help after the cd (a relative path would no longer resolve)
BENCH_SCRIPT="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)/$(basename "${BASH_SOURCE[1]}")"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

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

# Sourcing this file also sets the jar the run-*.sh scripts run and the java they run it with.
JAR=bench/target/benchmarks.jar
JAVA="${JAVA:-java}"

# print_header_help
#   Prints the sourcing script's header comment (line 2 up to 'set -euo pipefail'), without the '# ', as its --help.
print_header_help() {
    sed -n '2,/^set -euo pipefail$/p' "$BENCH_SCRIPT" | sed -e '$d' -e 's/^# \{0,1\}//'
}

# take_outdir NAME ARG
#   Sets the caller's outdir to ARG; exits 2 (NAME prefixing the message) when an output folder was already given.
take_outdir() {
    if [[ -n "$outdir" ]]; then
        echo "$1: more than one output folder given ('$outdir', '$2')" >&2
        exit 2
    fi
    outdir="$2"
}

# common_option NAME ARG
#   The arguments every run-*.sh takes, for the last branches of its option loop: --rebuild (sets rebuild=1),
#   -h/--help (prints the calling script's header, exits 0), any other option (exits 2, NAME prefixing the
#   message), otherwise the output folder (take_outdir).
common_option() {
    case "$2" in
        --rebuild) rebuild=1 ;;
        -h | --help) print_header_help; exit 0 ;;
        -*) echo "$1: unknown option '$2'" >&2; exit 2 ;;
        *) take_outdir "$1" "$2" ;;
    esac
}

# describe_command PREFIX CMD...
#   Prints 'PREFIX  ->  CMD' with CMD shell-quoted: the command line recorded in the logs and result files.
describe_command() {
    local s
    s="$1  ->  $(printf '%q ' "${@:2}")"
    printf '%s' "${s% }"
}

# run_logged LOG PROPERTY COMMAND_LINE CMD...
#   Writes the '# command' / '# date' header to LOG, then runs CMD with -DPROPERTY=COMMAND_LINE inserted after
#   the java executable ($JAVA: its first word, or a later one after a wrapper such as 'nice -n 10') and tees
#   its output onto LOG; fails when CMD fails (pipefail).
run_logged() {
    local log="$1" prop="$2" command_line="$3" at=1
    shift 3
    while ((at < $#)) && [[ "${!at}" != "$JAVA" ]]; do
        at=$((at + 1))
    done
    [[ "${!at}" == "$JAVA" ]] || at=1
    {
        echo "# command: $command_line"
        echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ); host: $(hostname 2>/dev/null || uname -n); nproc: $(nproc);" \
            "git: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    } >"$log"
    echo ">> $command_line" >&2
    "${@:1:at}" "-D$prop=$command_line" "${@:at+1}" 2>&1 | tee -a "$log"
}
