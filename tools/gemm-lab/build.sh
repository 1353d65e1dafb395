#!/bin/sh
# Builds tools/gemm-lab/gemm-lab (the fast rungs' developer harness) with
# nvcc directly, no meson.  Usage: tools/gemm-lab/build.sh [OUTDIR]
# Rung 11 is compiled for sm_90a as well (wgmma, setmaxnreg); the rest for sm_90.
set -e
cd "$(dirname "$0")/../.."
. tools/env.sh
out=${1:-build-lab}
mkdir -p "$out"
flags="-std=c++17 -O3 -lineinfo -Igpu -Igpu/gemm -DTL_GEMM_LAB -Xptxas -v"
g90="-gencode=arch=compute_90,code=sm_90"
g90a="-gencode=arch=compute_90a,code=sm_90a"
nvcc $flags $g90 -c gpu/gemm/gemm-09-warptile.cu -o "$out/gemm-09.o" 2> "$out/ptxas-09.txt"
nvcc $flags $g90 -c gpu/gemm/gemm-10-wmma.cu -o "$out/gemm-10.o" 2> "$out/ptxas-10.txt"
nvcc $flags $g90 $g90a -c gpu/gemm/gemm-11-wgmma.cu -o "$out/gemm-11.o" 2> "$out/ptxas-11.txt"
nvcc $flags $g90 -c tools/gemm-lab/gemm-lab.cu -o "$out/gemm-lab.o" 2> "$out/ptxas-lab.txt"
nvcc $g90 $g90a "$out"/gemm-09.o "$out"/gemm-10.o "$out"/gemm-11.o "$out"/gemm-lab.o \
  -o "$out/gemm-lab" -lcublas
grep -h -E "spill|C75|warning|error" "$out"/ptxas-*.txt | sort | uniq -c
echo "built $out/gemm-lab"

# Extra binaries with other rung-10 settings, for tuning:
#   GEMM_LAB_VARIANT="-DGEMM10_H_BK=64 -DGEMM10_H_STAGES=3" tools/gemm-lab/build.sh
if [ -n "$GEMM_LAB_VARIANT" ]; then
  nvcc $flags $g90 $GEMM_LAB_VARIANT -c gpu/gemm/gemm-10-wmma.cu -o "$out/gemm-10v.o" 2> "$out/ptxas-10v.txt"
  nvcc $g90 $g90a "$out"/gemm-09.o "$out"/gemm-10v.o "$out"/gemm-11.o "$out"/gemm-lab.o \
    -o "$out/gemm-lab-variant" -lcublas
  grep -h -E "spill|registers" "$out"/ptxas-10v.txt | sort | uniq -c
fi
