#!/usr/bin/env bash
# Compiles every .cu under SRC into one fatbin per source (sm_90 SASS + compute_90 PTX) in OUT.
# Without nvcc the build goes on and the GPU backend reports itself unavailable at run time. A fatbin is rebuilt
# when its source or a header is newer, or when the targets (DPGAUSS_CUDA_ARCHS) or the nvcc release differ from
# those recorded in OUT/.fatbin-targets by the last build (so no stale sm_90-only fatbin survives a change of targets).
set -euo pipefail
src=$1; out=$2; cuda_home=${3:-/usr/local/cuda}; skip=${4:-false}
reports=${5:-$out}   # nvcc's -Xptxas -v report per source, repeated in the log when the fatbin is up to date
if [ "$skip" = "true" ]; then echo "[dpgauss-kernels] nvcc.skip=true: no fatbin built"; exit 0; fi
nvcc=$(command -v nvcc || true)
[ -z "$nvcc" ] && [ -x "$cuda_home/bin/nvcc" ] && nvcc="$cuda_home/bin/nvcc"
if [ -z "$nvcc" ]; then
  echo "[dpgauss-kernels] WARNING: nvcc not found (PATH or $cuda_home/bin): no fatbin built; the GPU engine will report itself unavailable"
  exit 0
fi
mkdir -p "$out"
archs=${DPGAUSS_CUDA_ARCHS:-"-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90"}
# the targets the fatbins in $out were built for: a fatbin is up to date only for the same targets (and nvcc)
stamp="$out/.fatbin-targets"
targets="$("$nvcc" --version | tail -n 1) $archs"
if [ "$(cat "$stamp" 2>/dev/null)" != "$targets" ]; then
  [ -f "$stamp" ] && echo "[dpgauss-kernels] targets changed (was: $(cat "$stamp")): rebuilding every fatbin"
  rm -f "$out"/*.fatbin "$stamp"
fi
shopt -s nullglob
for cu in "$src"/*.cu; do
  name=$(basename "$cu" .cu)
  report="$reports/$name.ptxas.txt"
  if [ "$out/$name.fatbin" -nt "$cu" ] && [ -z "$(find "$src" -name '*.cuh' -newer "$out/$name.fatbin")" ]; then
    echo "[dpgauss-kernels] $name.fatbin is up to date; its nvcc report:"
    if [ -f "$report" ]; then grep -E "entry function|registers|spill" "$report" | sed 's/^/    /' || true; fi
    continue
  fi
  echo "[dpgauss-kernels] $nvcc -fatbin $name.cu ($archs)"
  mkdir -p "$reports"
  # -Xptxas -v keeps the register / spill report in the build log (and in $report)
  "$nvcc" -fatbin -O3 -std=c++17 $archs -Xptxas -v -I "$src" -o "$out/$name.fatbin" "$cu" 2>&1 | tee "$report"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "[dpgauss-kernels] nvcc failed on $name.cu" >&2; exit 1; }
done
echo "$targets" > "$stamp"
