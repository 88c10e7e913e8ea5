#!/usr/bin/env bash
# Runs the CUDA kernels on the host (cuda_emu.hpp) against naive references, and compares the CUDA
# generator code with the Java generators. Needs g++ (C++20) and a built cpu-fallback module
# (mvn -B -o -q -pl cpu-fallback compile). Not part of mvn verify.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -std=c++20 -O1 -ffp-contract=off -Wno-unknown-pragmas -pthread -o "$work/kernels_emu_test" "$here/kernels_emu_test.cpp"
(cd "$work" && ./kernels_emu_test)
[ -d "$root/cpu-fallback/target/classes" ] || (cd "$root" && mvn -B -o -q -pl cpu-fallback compile)
java -cp "$root/cpu-fallback/target/classes" "$here/CompareNormals.java" "$work/emu-normals.txt"
