#!/bin/sh
# Builds tools/lu-lab/lu05-lab (rung 5's cluster-panel harness) with nvcc
# directly, no meson.  Usage: tools/lu-lab/build.sh [OUTDIR]
# Prints ptxas's register, spill and shared-memory report per kernel instance.
set -e
cd "$(dirname "$0")/../.."
. tools/env.sh
out=${1:-build-lab}
mkdir -p "$out"
nvcc -std=c++17 -O3 -lineinfo -Igpu -gencode=arch=compute_90,code=sm_90 -Xptxas -v \
  tools/lu-lab/lu05-lab.cu -o "$out/lu05-lab" 2> "$out/ptxas-lu05.txt"
grep -E "Compiling entry|registers|spill" "$out/ptxas-lu05.txt" | sed 's/ptxas info    : //' | paste - - - |
  sed -E 's/Compiling entry function .(_Z[0-9]+)?([a-z0-9_]+)[^ ]* for .sm_90./\2/' | cut -c1-200
echo "built $out/lu05-lab"
