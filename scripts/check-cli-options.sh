#!/usr/bin/env bash
# Checks that docs/cli.md, the command reference, documents every command-line option of dpgauss.
#
# Walks `./dpgauss --help`, then `./dpgauss <cmd> --help` and recursively every subcommand
# (e.g. `ndis delta`), and extracts the option names from the option list of each help text.
#   - Global options (--engine, --json, --insecure-seed, --progress, -h/--help, -V/--version), which every
#     command inherits, must appear somewhere in docs/cli.md.
#   - Every other option must appear in the docs/cli.md section of its top-level command: the text from
#     the heading "### `dpgauss <cmd>..." up to the next heading of level 1-3.
#   - bench/README.md must name every bench/run-*.sh, bench/gpu-bundle/*.sh and bench/crosscheck/*.py.
# Prints one line per missing item and exits 1 if any is missing (0 otherwise, 2 on a usage error).
#
# Usage: scripts/check-cli-options.sh [FILE]      (default: docs/cli.md in the repository)
# Environment: DPGAUSS (launcher, default ./dpgauss; it builds the project on first use).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readme="${1:-$root/docs/cli.md}"
dpgauss="${DPGAUSS:-$root/dpgauss}"
[ -f "$readme" ] || { echo "check-cli-options: $readme not found" >&2; exit 2; }

globals=" -h --help -V --version --json --engine --insecure-seed --progress "
missing=0
checked=0

# help text -> option names, one per line (long name when there is one, else the short name)
options_of() {
  sed -n '1,/^Commands:/p' | grep -E '^ {2,6}-' \
    | sed -E 's/^ +(-[A-Za-z0-9])(, (--[A-Za-z0-9][A-Za-z0-9-]*))?.*/\1 \3/; s/^ +(--[A-Za-z0-9][A-Za-z0-9-]*).*/\1/' \
    | awk '{ print ($2 != "" ? $2 : $1) }'
}

# help text -> subcommand names (picocli lists them after "Commands:" at an indent of two spaces)
subcommands_of() {
  sed -n '/^Commands:/,/^$/p' | grep -E '^  [a-z][a-z0-9-]*( |$)' | awk '{ print $1 }' | grep -vx help || true
}

# README section of a top-level command
section_of() {
  awk -v cmd="$1" '
    /^##?#? / { insec = (index($0, "### `dpgauss " cmd " ") == 1 || index($0, "### `dpgauss " cmd "`") == 1 \
                          || index($0, "### `dpgauss " cmd "|") == 1) }
    insec { print }' "$readme"
}

walk() {
  local help opt sub top section
  help="$("$dpgauss" "$@" --help)"
  top="${1:-}"
  if [ -n "$top" ]; then
    section="$(section_of "$top")"
    if [ -z "$section" ]; then
      echo "MISSING SECTION: no '### \`dpgauss $top' heading in $(basename "$readme")"
      missing=$((missing + 1))
    fi
  fi
  while IFS= read -r opt; do
    [ -z "$opt" ] && continue
    checked=$((checked + 1))
    if [[ "$globals" == *" $opt "* ]]; then
      # grep -F -e: the pattern starts with '-'; \b-free so that `--json` inside `--json]` matches
      grep -qF -e "$opt" "$readme" || { echo "MISSING: global option $opt (dpgauss $*)"; missing=$((missing + 1)); }
    elif [ -n "$top" ]; then
      if ! grep -qE -e "(^|[^A-Za-z0-9-])${opt}([^A-Za-z0-9-]|$)" <<<"$section"; then
        echo "MISSING: $opt of 'dpgauss $*' is not in the docs/cli.md section of 'dpgauss $top'"
        missing=$((missing + 1))
      fi
    fi
  done < <(options_of <<<"$help")
  while IFS= read -r sub; do
    [ -z "$sub" ] && continue
    walk "$@" "$sub"
  done < <(subcommands_of <<<"$help")
}

walk

# bench/README.md must name every benchmark script (run-*.sh, the GPU bundle's scripts, the cross-checks)
bench_readme="$root/bench/README.md"
if [ -f "$bench_readme" ]; then
  for f in "$root"/bench/run-*.sh "$root"/bench/gpu-bundle/*.sh "$root"/bench/crosscheck/*.py; do
    [ -e "$f" ] || continue
    checked=$((checked + 1))
    grep -qF -e "$(basename "$f")" "$bench_readme" \
      || { echo "MISSING: ${f#"$root"/} is not described in bench/README.md"; missing=$((missing + 1)); }
  done
fi

if [ "$missing" -gt 0 ]; then
  echo "check-cli-options: $missing item(s) missing ($checked checked)"
  exit 1
fi
echo "check-cli-options: all $checked options and scripts are documented"
