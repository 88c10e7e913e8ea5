#!/usr/bin/env bash
# Draws the module graph and the package graph of dpgauss from the imports of the built jars (jdeps, from the JDK)
# into docs/design/package-graph.md, as Mermaid text: the command line and the benchmarks on top, the GPU backend,
# the library in the middle, the kernels and the CPU primitives at the bottom. The rules that keep the graph a
# layered DAG are tests (PackageGraphTest in engine and cli); this script only draws it.
# Usage: scripts/package-graph.sh [OUT]      (default OUT: docs/design/package-graph.md)
#   Build the jars first: mvn -B -q install -DskipTests -Dmaven.javadoc.skip=true
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/design/package-graph.md}
version=0.1.0-SNAPSHOT
modules=(cli spark bench gpu engine kernels cpu-fallback)       # top to bottom
command -v jdeps >/dev/null 2>&1 || { echo "package-graph: jdeps (JDK) not on PATH" >&2; exit 1; }
jars=()
for m in "${modules[@]}"; do
  j="$root/$m/target/dpgauss-$m-$version.jar"
  [ -f "$j" ] || { echo "package-graph: $j missing: build first (mvn -B -q install -DskipTests)" >&2; exit 1; }
  jars+=("$j")
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# package -> package edges between org.dpgauss packages (Java 17 view of the multi-release kernels jar); the
# benchmarks' subpackages are drawn as one node, org.dpgauss.bench
jdeps --multi-release 17 -verbose:package -filter:none -e 'org\.dpgauss\..*' "${jars[@]}" 2>/dev/null \
  | awk '/^ / && $2 == "->" { a = $1; b = $3; sub(/^org\.dpgauss\.bench\..*/, "org.dpgauss.bench", a);
                      sub(/^org\.dpgauss\.bench\..*/, "org.dpgauss.bench", b); if (a != b) print a, b }' \
  | sort -u > "$tmp/edges"
# package -> module, from each jar's class list
for m in "${modules[@]}"; do
  unzip -Z1 "$root/$m/target/dpgauss-$m-$version.jar" 'org/dpgauss/*.class' 2>/dev/null \
    | sed 's|/[^/]*$||; s|/|.|g; s|^org\.dpgauss\.bench\..*|org.dpgauss.bench|' | sort -u | sed "s|\$| $m|"
done > "$tmp/owner"
# module -> module edges, from the package edges
awk 'NR == FNR { own[$1] = $2; next } own[$1] != own[$2] { print own[$1], own[$2] }' "$tmp/owner" "$tmp/edges" \
  | sort -u > "$tmp/modedges"

# the layers, top to bottom, as PackageGraphTest checks them (PackageGraph.LAYERS): "Name pattern..." per line, a
# pattern "p.." covering p and its subpackages; the benchmarks and the Spark module form layers of their own on top
layers_src=$root/engine/src/test/java/org/dpgauss/architecture/PackageGraph.java
{ echo "Bench org.dpgauss.bench.."
  echo "Spark org.dpgauss.spark.."
  sed -n '/LAYERS = {/,/^    };/p' "$layers_src" | tr -d '\n' | sed 's/.*LAYERS = {//; s/};[[:space:]]*$//' \
    | tr '}' '\n' | sed 's/[{,]/ /g; s/"//g; s/^ *//; s/  */ /g' | grep -v '^ *$'; } > "$tmp/layers"
[ "$(wc -l < "$tmp/layers")" -gt 5 ] || { echo "package-graph: could not read the layers from $layers_src" >&2; exit 1; }
# package -> layer
awk 'NR == FNR { for (i = 2; i <= NF; i++) { pat[++n] = $i; lay[n] = $1 } next }
     { for (i = 1; i <= n; i++) { p = pat[i]; sub_ = p ~ /\.\.$/; b = p; if (sub_) b = substr(p, 1, length(p) - 2)
         if ($1 == b || (sub_ && index($1, b ".") == 1)) { print $1, lay[i]; next } }
       print $1, "none" }' "$tmp/layers" "$tmp/owner" > "$tmp/layerof"
awk 'NR == FNR { l[$1] = $2; next } l[$1] != l[$2] { print l[$1], l[$2] }' "$tmp/layerof" "$tmp/edges" | sort -u > "$tmp/layeredges"

node() { echo "$1" | sed 's/^org\.dpgauss\.//; s/\./_/g'; }
label() { echo "$1" | sed 's/^org\.dpgauss\.//'; }
{
  echo "# Module and package graph"
  echo
  echo "Drawn by \`scripts/package-graph.sh\` from the imports of the built jars (\`jdeps --multi-release 17\`); do not"
  echo "edit by hand. An arrow \`a --> b\` means that code in a uses b. The command line and the benchmarks are on top,"
  echo "the GPU backend (found by the library at run time, never imported by it) below them, the library in the"
  echo "middle, the kernels and the CPU primitives at the bottom. The graph is a DAG; \`PackageGraphTest\` (engine: the"
  echo "library and the CPU primitives; cli: every module but the benchmarks) fails on a package cycle, on a package"
  echo "that uses a layer above its own, on a package placed in no layer, and on a public signature that names an"
  echo "internal package ([api-surface.md](api-surface.md)). The layers, top to bottom (each may use those below it"
  echo "and its own; \`Kernels\` only from \`Gpu\`), read from \`PackageGraph.LAYERS\`:"
  echo
  echo "| layer | packages (org.dpgauss.*) | module |"
  echo "|---|---|---|"
  while read -r name pats; do
    pk=$(awk -v l="$name" '$2 == l { sub(/^org\.dpgauss\./, "", $1); printf "%s%s", sep, $1; sep = ", " }' "$tmp/layerof")
    mods=$(awk 'NR == FNR { m[$1] = $2; next } $2 == l { print "dpgauss-" m[$1] }' l="$name" "$tmp/owner" "$tmp/layerof" | sort -u | paste -sd, - | sed 's/,/, /g')
    echo "| $name | $pk | $mods |"
  done < "$tmp/layers"
  echo
  echo "The benchmarks (dpgauss-bench, org.dpgauss.bench.*) and the Spark module (dpgauss-spark, org.dpgauss.spark, a"
  echo "thin layer over the library's row passes) sit on top and are not checked by a test."
  echo
  echo "## Layers"
  echo
  echo "The package graph below, with each package replaced by its layer:"
  echo
  echo '```mermaid'
  echo "flowchart TB"
  while read -r name pats; do echo "  L_$name[$name]"; done < "$tmp/layers"
  while read -r a b; do echo "  L_$a --> L_$b"; done < "$tmp/layeredges"
  echo '```'
  echo
  echo "## Modules"
  echo
  echo '```mermaid'
  echo "flowchart TB"
  for m in "${modules[@]}"; do echo "  ${m//-/_}[dpgauss-$m]"; done
  while read -r a b; do echo "  ${a//-/_} --> ${b//-/_}"; done < "$tmp/modedges"
  # not an import: the command line's jar carries the GPU backend, which the library finds at run time
  echo "  cli -. runtime dependency, found by ServiceLoader .-> gpu"
  echo '```'
  echo
  echo "## Packages"
  echo
  echo '```mermaid'
  echo "flowchart TB"
  for m in "${modules[@]}"; do
    echo "  subgraph ${m//-/_}_m[dpgauss-$m]"
    awk -v m="$m" '$2 == m { print $1 }' "$tmp/owner" | while read -r p; do echo "    $(node "$p")[$(label "$p")]"; done
    echo "  end"
  done
  while read -r a b; do echo "  $(node "$a") --> $(node "$b")"; done < "$tmp/edges"
  echo '```'
  echo
  echo "$(wc -l < "$tmp/owner") packages, $(wc -l < "$tmp/edges") package edges, $(wc -l < "$tmp/modedges") module edges (imports)."
  if grep -q ' none$' "$tmp/layerof"; then
    echo
    echo "Packages in no layer (PackageGraphTest fails on them): $(awk '$2 == "none" { print $1 }' "$tmp/layerof" | paste -sd' ' -)"
  fi
} > "$out"
echo "package-graph: wrote $out ($(wc -l < "$tmp/edges") package edges)" >&2
